"""Decoding of Tenhou's 16-bit call code (the ``m`` attribute of ``N`` and of ``AGARI``).

Layout (bits from the low end): 0-1 the discarder's seat relative to the caller (0 = self);
bit 2 chi, bit 3 pon, bit 4 added kan (kakan), bit 5 kita (sanma north); none of them set means
a daiminkan (relative seat 1-3) or an ankan (relative seat 0).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from pipeline.errors import ParseError


class Meld(NamedTuple):
    """A decoded call: action, the called/added tile (136-id), every tile of the meld, the relative
    seat the tile came from (0 for self)."""

    action: str
    tile: int
    tiles: tuple[int, ...]
    from_rel: int


def _decode_chi(m: int) -> Meld:
    t = m >> 10
    called_pos = t % 3
    t //= 3
    base34 = (t // 7) * 9 + t % 7
    offsets = ((m >> 3) & 3, (m >> 5) & 3, (m >> 7) & 3)
    tiles = tuple((base34 + i) * 4 + offsets[i] for i in range(3))
    return Meld("chi", tiles[called_pos], tiles, m & 3)


def _decode_pon_or_kakan(m: int) -> Meld:
    unused = (m >> 5) & 3
    t = m >> 9
    called_pos = t % 3
    kind = t // 3
    three = tuple(kind * 4 + i for i in range(4) if i != unused)
    if m & 0x8:
        return Meld("pon", three[called_pos], three, m & 3)
    added = kind * 4 + unused
    return Meld("kakan", added, tuple(sorted((*three, added))), m & 3)


def _decode_kan(m: int) -> Meld:
    tile = m >> 8
    kind = tile // 4
    tiles = tuple(kind * 4 + i for i in range(4))
    from_rel = m & 3
    return Meld("ankan" if from_rel == 0 else "daiminkan", tile, tiles, from_rel)


@cache
def decode_meld(m: int) -> Meld:
    """Decode a Tenhou call code into a Meld; raises ParseError for a code out of range.

    Cached: a code always decodes the same, and there are at most 65,536 of them."""
    if not 0 <= m < 1 << 16:
        raise ParseError(f"call code {m} out of range", tag="N")
    if m & 0x4:
        meld = _decode_chi(m)
    elif m & 0x18:
        meld = _decode_pon_or_kakan(m)
    elif m & 0x20:
        meld = Meld("kita", m >> 8, (m >> 8,), 0)
    else:
        meld = _decode_kan(m)
    if max(meld.tiles) > 135:
        raise ParseError(f"call code {m} decodes to a tile id above 135", tag="N")
    return meld
