"""Tenhou's 16-bit call codes (the ``m`` of ``<N who m>``), written from the tiles of a call.

Layout (low bits first): bits 0-1 the discarder relative to the caller, ``(from - who) % 4`` (0 = own);
then one flag: 0x4 chi, 0x8 pon, 0x10 added kan (kakan), 0x20 kita; none of them = daiminkan/ankan.

- chi: copies of the three tiles in bits 3-4, 5-6, 7-8; ``bits 10.. = base * 3 + called`` where base is
  the lowest tile as ``suit * 7 + number`` (0-20) and called the index (0-2) of the taken tile.
- pon / kakan: the copy left out of the pon in bits 5-6 (for kakan: the added copy); ``bits 9.. =
  kind34 * 3 + called`` with called the index of the taken tile among the three pon copies.
- daiminkan / ankan: ``(tile136 << 8) | from`` with the called tile (daiminkan) or the lowest copy (ankan).
- kita: ``(tile136 << 8) | 0x20``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.scenario.tiles import ScenarioError


@dataclass
class Meld:
    """One call of a round: kind, tiles (136-ids), the taken tile and the Tenhou code."""

    kind: str
    """chi, pon, kakan, daiminkan, ankan or kita."""
    tiles: tuple[int, ...]
    called: int | None
    who: int
    from_seat: int
    code: int


def _rel(who: int, from_seat: int) -> int:
    return (from_seat - who) % 4


def encode_chi(tiles: list[int], called: int, who: int, from_seat: int) -> int:
    """Code of a chi made of three 136-ids (one of them ``called``)."""
    ts = sorted(tiles, key=lambda t: t // 4)
    kinds = [t // 4 for t in ts]
    if kinds[0] >= 27 or kinds != [kinds[0], kinds[0] + 1, kinds[0] + 2] or kinds[0] % 9 > 6:
        raise ScenarioError(f"tiles {tiles} are not a chi sequence")
    base = kinds[0] // 9 * 7 + kinds[0] % 9
    idx = ts.index(called)
    code = (base * 3 + idx) << 10
    for i, t in enumerate(ts):
        code |= (t % 4) << (3 + 2 * i)
    return code | 0x4 | _rel(who, from_seat)


def encode_pon(tiles: list[int], called: int, who: int, from_seat: int) -> int:
    """Code of a pon made of three 136-ids of one kind (one of them ``called``)."""
    kind = tiles[0] // 4
    copies = sorted(t % 4 for t in tiles)
    if any(t // 4 != kind for t in tiles) or len(set(copies)) != 3:
        raise ScenarioError(f"tiles {tiles} are not a pon")
    unused = ({0, 1, 2, 3} - set(copies)).pop()
    idx = copies.index(called % 4)
    return ((kind * 3 + idx) << 9) | (unused << 5) | 0x8 | _rel(who, from_seat)


def encode_kakan(pon_code: int) -> int:
    """Code of the added kan that completes the pon ``pon_code`` with its left-out copy."""
    return (pon_code & ~0x8) | 0x10


def encode_kan(tile: int, who: int, from_seat: int) -> int:
    """Code of a daiminkan (``tile`` = the called tile) or an ankan (``from_seat == who``)."""
    return (tile << 8) | _rel(who, from_seat)


def encode_kita(tile: int) -> int:
    """Code of a kita (a North pulled out in three-player games)."""
    return (tile << 8) | 0x20
