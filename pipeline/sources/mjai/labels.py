"""A hora's scoring labels as the wins table keeps them: fu, han, yaku (Tenhou ids), limit name.

mjai writers differ: gimite/mjai writes ``yakus`` ([[name, han], ...], a yakuman as 100 han), ``fu``
(rounded), ``fan`` and ``hora_points``; akochan writes ``fan`` and the raw, unrounded ``fu``; RiichiEnv
writes none of them; some converters write ``yaku`` and ``han`` with Japanese names. Normalised here:
a yakuman counts 13 han (Tenhou), fu is rounded up to 10 (25 for seven pairs stays), yaku names map
to Tenhou ids (``jikaze``/``bakaze`` by the winner's seat wind and the round wind; ``sangenpai`` with
n han split into the dragon sets the winner holds), and a riichi win lists ura dora even at 0 han, as
Tenhou does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipeline.errors import ParseError
from pipeline.sources.mjai.codes import DRAGON_YAKU, ROUND_WIND_YAKU, SEAT_WIND_YAKU, YAKU_IDS, yaku_key
from pipeline.sources.tenhou_json.codes import parse_yaku
from rules.scoring.points import LIMIT_NAMES
from rules.scoring.yaku import FIRST_YAKUMAN, LAST_YAKUMAN, URA_DORA, YAKU, YAKUMAN_HAN

MJAI_YAKUMAN_HAN = 100
"""Han gimite/mjai writes for each yakuman."""

_RIICHI = frozenset({YAKU["riichi"], YAKU["double_riichi"]})
_DRAGON_KINDS = (31, 32, 33)
_LIMIT_BASE = ((8000, 5), (6000, 4), (4000, 3), (3000, 2), (2000, 1))


@dataclass
class WinLabels:
    """What a hora records about its value (see the module docstring)."""

    fu: int | None
    han: int
    yaku: list[int]
    yaku_han: list[int]
    is_yakuman: bool
    quirks: set[str] = field(default_factory=set)


def _han(value: int) -> int:
    """Han normalised: mjai's 100 per yakuman becomes 13 per yakuman."""
    return YAKUMAN_HAN * (value // MJAI_YAKUMAN_HAN) if value >= MJAI_YAKUMAN_HAN else value


def _number(event: dict[str, Any], *keys: str) -> int | None:
    for key in keys:
        value = event.get(key)
        if value is not None:
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ParseError(f"hora {key} {value!r} is not a number")
            return value
    return None


def _yaku_ids(name: str, han: int, seat_wind: int, round_wind: int, kinds: list[int]) -> list[tuple[int, int]] | None:
    """(Tenhou id, han) entries of one mjai yaku; None when it cannot be resolved (sangenpai without tiles)."""
    key = yaku_key(name)
    if key in SEAT_WIND_YAKU:
        return [(YAKU["seat_wind_east"] + seat_wind, han)]
    if key in ROUND_WIND_YAKU:
        return [(YAKU["round_wind_east"] + round_wind, han)]
    if key in DRAGON_YAKU:
        sets = [k for k in _DRAGON_KINDS if kinds.count(k) >= 3]
        return [(YAKU["haku"] + k - 31, 1) for k in sets] if len(sets) == han else None
    if key in YAKU_IDS:
        return [(YAKU_IDS[key], han)]
    yaku_id, _, _ = parse_yaku(f"{name}({han}飜)")  # Japanese and English names (UnknownCodeError if unknown)
    return [(yaku_id, han)]


def _yaku_list(entries: Any, seat_wind: int, round_wind: int, kinds: list[int], quirks: set[str]) -> dict[int, int]:
    """Tenhou id -> han of a hora's yaku entries, in the order written (repeated ids add up)."""
    if not isinstance(entries, list):
        raise ParseError(f"hora yakus {entries!r:.80} is not a list")
    out: dict[int, int] = {}
    for entry in entries:
        if not (isinstance(entry, list | tuple) and len(entry) == 2 and isinstance(entry[0], str)
                and isinstance(entry[1], int)):  # fmt: skip
            raise ParseError(f"malformed yaku entry {entry!r}")
        resolved = _yaku_ids(entry[0], _han(entry[1]), seat_wind, round_wind, kinds)
        if resolved is None:
            quirks.add("yaku_unresolved")
            continue
        for yaku_id, han in resolved:
            out[yaku_id] = out.get(yaku_id, 0) + han
    return out


def read_labels(event: dict[str, Any], *, seat_wind: int, round_wind: int, kinds: list[int]) -> WinLabels:
    """Read a hora's labels. ``kinds`` are the 34-kinds of all the winner's tiles (closed hand with the
    winning tile, and melds): they tell which dragon sets a ``sangenpai`` counts."""
    quirks: set[str] = set()
    fu = _number(event, "fu")
    if fu is not None and fu != 25 and fu % 10:
        fu, _ = -(-fu // 10) * 10, quirks.add("fu_unrounded")
    total = _number(event, "fan", "han")
    entries = event.get("yakus", event.get("yaku"))
    if entries is None:
        quirks.add("win_without_yaku")
        if total is None:
            quirks.add("win_without_han")
        han = _han(total or 0)
        yakuman = han >= YAKUMAN_HAN and (total or 0) >= MJAI_YAKUMAN_HAN
        return WinLabels(fu, han, [], [], yakuman, quirks)
    listed = _yaku_list(entries, seat_wind, round_wind, kinds, quirks)
    is_yakuman = any(FIRST_YAKUMAN <= y <= LAST_YAKUMAN for y in listed)
    if listed.keys() & _RIICHI and URA_DORA not in listed and not is_yakuman:
        listed[URA_DORA] = 0
    han = _han(total) if "yaku_unresolved" in quirks and total is not None else sum(listed.values())
    if total is not None and _han(total) != han:
        quirks.add("han_mismatch")
    return WinLabels(fu, han, list(listed), list(listed.values()), is_yakuman, quirks)


def limit_name(points: int, *, is_yakuman: bool, han: int, is_dealer: bool, is_tsumo: bool, n_players: int) -> str:
    """The limit of a hand from its value: base points = value / (ron: 6 dealer, 4 other; tsumo: 2 x payers
    for the dealer, n_players for another seat), 2000 mangan ... 8000 yakuman; a yakuman or 13+ han is
    'yakuman'. '' below mangan or when the value is not known (0)."""
    if is_yakuman or han >= YAKUMAN_HAN:
        return "yakuman"
    ron_multiplier = 6 if is_dealer else 4
    multiplier = (2 * (n_players - 1) if is_dealer else n_players) if is_tsumo else ron_multiplier
    for base, code in _LIMIT_BASE:
        if points >= base * multiplier:
            return LIMIT_NAMES[code]
    return ""
