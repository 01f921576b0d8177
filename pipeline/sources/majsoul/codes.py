"""Mahjong Soul's vocabulary: tile strings, record names, call and draw types, fan ids, rooms, ranks.

Every lookup raises UnknownCodeError for a code paipu does not know, so a record of a special mode (or a
local yaku) fails loudly with its name instead of producing a wrong row.
"""

from __future__ import annotations

import re

from pipeline.errors import ParseError, UnknownCodeError

_TILE = re.compile(r"^(?:([0-9])([mps])|([1-7])z)$")
_SUIT_BASE = {"m": 0, "p": 9, "s": 18}

RED_KINDS = (4, 13, 22)
"""34-kinds of 5m, 5p, 5s: the kinds that have a red copy ("0m", "0p", "0s")."""

NORTH = 30
"""34-kind of the North wind, the tile set aside as kita (RecordBaBei)."""


_PARSED: dict[str, tuple[int, bool]] = {}
"""parse_tile's answer for each tile string read so far (a game reads a few dozen strings some 30,000 times)."""


def parse_tile(text: object) -> tuple[int, bool]:
    """Return (34-kind, is_red) of a tile string: '1m'..'9m', '0m' (red 5m), same for p and s, '1z'..'7z'
    (East South West North haku hatsu chun). Raises ParseError for anything else."""
    parsed = _PARSED.get(text) if type(text) is str else None  # noqa: E721 - a str subclass is read anew
    if parsed is not None:
        return parsed
    match = _TILE.match(text) if isinstance(text, str) else None
    if match is None:
        raise ParseError(f"tile {text!r} is not a Mahjong Soul tile string")
    number, suit, honor = match.groups()
    if honor is not None:
        parsed = 27 + int(honor) - 1, False
    else:
        value = int(number)
        parsed = _SUIT_BASE[suit] + (4 if value == 0 else value - 1), value == 0
    if type(text) is str:  # noqa: E721
        _PARSED[text] = parsed  # only the strings _TILE matches: a few dozen
    return parsed


RECORD_KINDS = ("NewRound", "DealTile", "DiscardTile", "ChiPengGang", "AnGangAddGang", "BaBei", "Hule", "NoTile",
                "LiuJu")  # fmt: skip
"""The record messages paipu reads, by short name (RecordNewRound -> 'NewRound')."""

RESULT_KINDS = frozenset({"Hule", "NoTile", "LiuJu"})
"""Records that end a round."""


def short_name(name: object) -> str:
    """Short kind of a record name: '.lq.RecordDealTile', 'RecordDealTile' and 'DealTile' -> 'DealTile'.
    Raises ParseError for a name that is not a string."""
    if not isinstance(name, str):
        raise ParseError(f"record name {name!r} is not a string")
    return name.removeprefix(".lq.").removeprefix("Record")


def check_kind(kind: str, round_idx: int | None = None) -> str:
    """Return the kind when paipu reads it; raises UnknownCodeError for the records of special modes
    (RecordChangeTile, RecordHuleXueZhanMid, RecordNewCard...)."""
    if kind not in RECORD_KINDS:
        raise UnknownCodeError(f"unsupported record 'Record{kind}' (a special game mode?)", round_idx=round_idx,
                               tag="Record" + kind)  # fmt: skip
    return kind


CALL_TYPES = {0: "chi", 1: "pon", 2: "daiminkan"}
"""RecordChiPengGang.type -> action."""

KAN_TYPES = {2: "kakan", 3: "ankan"}
"""RecordAnGangAddGang.type -> action (2 added kan, 3 closed kan)."""

LIUJU_KINDS = {1: "kyuushu_kyuuhai", 2: "suufon_renda", 3: "suukaikan", 4: "suucha_riichi", 5: "sanchahou"}
"""RecordLiuJu.type -> draw kind (5 only where the rule aborts on a triple ron)."""


def lookup(table: dict[int, str], code: object, what: str, tag: str) -> str:
    """Return table[code]; raises UnknownCodeError naming the code when it is not in the table."""
    if not isinstance(code, int) or code not in table:
        raise UnknownCodeError(f"unknown {what} {code!r}", tag=tag)
    return table[code]


FAN_NAMES: dict[int, str] = {
    1: "menzen_tsumo", 2: "riichi", 3: "chankan", 4: "rinshan", 5: "haitei", 6: "houtei", 7: "haku", 8: "hatsu",
    9: "chun", 10: "seat_wind", 11: "round_wind", 12: "tanyao", 13: "iipeikou", 14: "pinfu", 15: "chanta",
    16: "ittsu", 17: "sanshoku", 18: "double_riichi", 19: "sanshoku_doukou", 20: "sankantsu", 21: "toitoi",
    22: "sanankou", 23: "shousangen", 24: "honroutou", 25: "chiitoitsu", 26: "junchan", 27: "honitsu",
    28: "ryanpeikou", 29: "chinitsu", 30: "ippatsu", 31: "dora", 32: "aka_dora", 33: "ura_dora", 34: "kita_dora",
    35: "tenhou", 36: "chiihou", 37: "daisangen", 38: "suuankou", 39: "tsuuiisou", 40: "ryuuiisou",
    41: "chinroutou", 42: "kokushi", 43: "shousuushii", 44: "suukantsu", 45: "chuuren", 46: "paarenchan",
    47: "junsei_chuuren", 48: "suuankou_tanki", 49: "kokushi_13_sided", 50: "daisuushii", 51: "tsubame_gaeshi",
    52: "kanburi", 53: "shiiaruraotai", 54: "uumensai", 55: "sanrenkou", 56: "isshoku_sanjun", 57: "iipin_moyue",
    58: "chuupin_raoyui", 59: "renhou", 60: "daisharin", 61: "daichikurin", 62: "daisuurin", 63: "ishino_uenimo",
    64: "daichisei",
}  # fmt: skip
"""Mahjong Soul's fan table for riichi games (the client's cfg.fan.fan, ids 1-64): the ids a RecordHule's
``fans`` hold. 1-50 and 59 are the standard yaku and dora; 46 paarenchan and 51-58, 60-64 are local yaku of
the 古役 mode (guyi_mode). Ids from 1000 on are the Sichuan mode's (xuezhan), whose records paipu does not
read."""

FAN_TO_YAKU: dict[int, int] = {
    1: 0, 2: 1, 3: 3, 4: 4, 5: 5, 6: 6, 7: 18, 8: 19, 9: 20, 12: 8, 13: 9, 14: 7, 15: 23, 16: 24, 17: 25,
    18: 21, 19: 26, 20: 27, 21: 28, 22: 29, 23: 30, 24: 31, 25: 22, 26: 33, 27: 34, 28: 32, 29: 35, 30: 2,
    31: 52, 32: 54, 33: 53, 34: 52, 35: 37, 36: 38, 37: 39, 38: 40, 39: 42, 40: 43, 41: 44, 42: 47, 43: 50,
    44: 51, 45: 45, 47: 46, 48: 41, 49: 48, 50: 49, 59: 36,
}  # fmt: skip
"""Mahjong Soul fan id -> Tenhou yaku id (the ids the rules layer scores with), for every fan of FAN_NAMES
that has one. 34 (kita, 拔北宝牌) is counted as dora (52), as Tenhou counts nuki dora. Seat and round wind
(10, 11) depend on the seat: see ``yaku_of_fan``. The local yaku (46, 51-58, 60-64) have no Tenhou id:
UnknownCodeError naming the yaku."""

SEAT_WIND_FAN, ROUND_WIND_FAN = 10, 11
"""Fan ids of the seat wind and the prevailing wind (Tenhou splits them by wind: 10-13, 14-17)."""


def yaku_of_fan(fan_id: object, seat_wind: int, round_wind: int) -> int:
    """Tenhou yaku id of a Mahjong Soul fan id (seat and round wind: 0 East .. 3 North); raises
    UnknownCodeError naming the id, and the yaku when it is a local one without a Tenhou id."""
    if fan_id == SEAT_WIND_FAN:
        return 10 + seat_wind
    if fan_id == ROUND_WIND_FAN:
        return 14 + round_wind
    if isinstance(fan_id, int) and fan_id in FAN_TO_YAKU:
        return FAN_TO_YAKU[fan_id]
    if isinstance(fan_id, int) and fan_id in FAN_NAMES:
        raise UnknownCodeError(f"fan id {fan_id} ({FAN_NAMES[fan_id]}, a local yaku) has no Tenhou yaku id",
                               tag="RecordHule")  # fmt: skip
    raise UnknownCodeError(f"unknown fan id {fan_id!r}", tag="RecordHule")


RANKED_ROOMS: dict[int, str] = {
    2: "bronze", 3: "bronze", 5: "silver", 6: "silver", 8: "gold", 9: "gold", 11: "jade", 12: "jade",
    15: "throne", 16: "throne", 17: "bronze", 18: "bronze", 19: "silver", 20: "silver", 21: "gold", 22: "gold",
    23: "jade", 24: "jade", 25: "throne", 26: "throne",
}  # fmt: skip
"""GameMetaData.mode_id of a ranked match -> room (4 players 2-16, 3 players 17-26; east and south)."""

CATEGORY_ROOMS = {1: "friendly", 4: "tournament"}
"""GameConfig.category -> room when the game is not a ranked match (2)."""


def room_of(category: int, mode_id: int) -> str:
    """Room name of a game: bronze, silver, gold, jade, throne (ranked), friendly, tournament or unknown."""
    if mode_id in RANKED_ROOMS:
        return RANKED_ROOMS[mode_id]
    return CATEGORY_ROOMS.get(category, "unknown")


def dan_of_level(level_id: object) -> int | None:
    """Rank index of an AccountLevel id (1MMNN: major MM 1 novice .. 5 saint, 6/7 celestial; level NN):
    novice 1 -> 0 ... saint 3 -> 14, celestial levels from 15 on; None when not such an id."""
    if not isinstance(level_id, int) or level_id <= 0:
        return None
    major, minor = (level_id // 100) % 100, level_id % 100
    if not (1 <= major <= 7 and minor >= 1):
        return None
    return 15 + minor - 1 if major >= 6 else (major - 1) * 3 + minor - 1
