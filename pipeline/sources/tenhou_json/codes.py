"""The tenhou.net/6 vocabulary: tile codes, call strings, result names, rule labels and dan names.

Tile codes (the JSON's own encoding): 11-19 man, 21-29 pin, 31-39 sou, 41-47 East South West North
haku hatsu chun, 51-53 red 5m 5p 5s; in a discard list 60 = the tile just drawn (tsumogiri) and 0 =
the place-holder after an open kan (the caller draws a replacement tile before discarding).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import NamedTuple

from pipeline.errors import ParseError, UnknownCodeError
from pipeline.sources.tenhou_xml.codes import YAKU_NAMES, decode_rule

TSUMOGIRI = 60
"""Discard code: the tile just drawn."""

KAN_PLACEHOLDER = 0
"""Discard code after a daiminkan: no discard at that point (the replacement draw comes first)."""

RED_CODES = {51: 4, 52: 13, 53: 22}
"""Red five code -> its 34-kind (5m, 5p, 5s)."""

NORTH = 44
"""Tile code of the North wind: the only tile a (sanma) kita sets aside."""


def kind_of(code: int) -> int:
    """Return the 34-kind of a tile code (11-47, 51-53); raises ParseError for anything else."""
    if code in RED_CODES:
        return RED_CODES[code]
    suit, number = divmod(code, 10)
    if 1 <= suit <= 3 and 1 <= number <= 9:
        return (suit - 1) * 9 + number - 1
    if suit == 4 and 1 <= number <= 7:
        return 27 + number - 1
    raise ParseError(f"tile code {code!r} out of range")


PLAIN_INT = frozenset({int})
"""The type set of a list of plain ints (``PLAIN_INT.issuperset(map(type, values))``: checked at C speed)."""
PLAIN_STR = frozenset({str})
"""The type set of a list of strings, checked as PLAIN_INT is."""


def check_code(value: object) -> int:
    """Return a JSON tile value as a tile code; raises ParseError when it is not one."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ParseError(f"tile {value!r} is not a tile code")
    kind_of(value)
    return value


class Call(NamedTuple):
    """A parsed call string: kind (chi, pon, daiminkan, kakan, ankan, riichi, kita), the tile named
    after the letter (called / added / discarded), every tile code written, and the seat the tile came
    from relative to the caller (1 next, 2 opposite, 3 previous; 0 for own actions)."""

    kind: str
    tile: int
    tiles: tuple[int, ...]
    from_rel: int


_LETTERS = {"c": "chi", "p": "pon", "m": "daiminkan", "k": "kakan", "a": "ankan", "r": "riichi", "f": "kita",
            "n": "kita"}  # fmt: skip
_REL_OF_POSITION = {
    "chi": {0: 3},
    "pon": {0: 3, 2: 2, 4: 1},
    "kakan": {0: 3, 2: 2, 4: 1},
    "daiminkan": {0: 3, 2: 2, 6: 1},
}
_N_TILES = {"chi": 3, "pon": 3, "daiminkan": 4, "kakan": 4, "ankan": 4, "riichi": 1, "kita": 1}
_CALL = re.compile(r"^((?:\d\d)*)([a-z])(\d\d)((?:\d\d)*)$")


@functools.lru_cache(maxsize=4096)  # the same strings come back in every game; errors are not kept
def parse_call(text: str) -> Call:
    """Parse a call string such as 'c141516', '47p4747', '151551m15', 'k51151515', '151515a51', 'r60'.

    The letter's position (in characters) names the seat the tile came from: 0 the previous seat,
    2 the opposite seat, 4 (6 for a daiminkan) the next seat. Raises ParseError for a malformed string
    and UnknownCodeError for an unknown letter.
    """
    match = _CALL.match(text)
    if match is None:
        raise ParseError(f"malformed call string {text!r}")
    before, letter, named, after = match.groups()
    kind = _LETTERS.get(letter)
    if kind is None:
        raise UnknownCodeError(f"unknown call letter {letter!r} in {text!r}")
    tile = int(named)
    tiles = tuple(int(before[i : i + 2]) for i in range(0, len(before), 2)) + (tile,)
    tiles += tuple(int(after[i : i + 2]) for i in range(0, len(after), 2))
    if len(tiles) != _N_TILES[kind]:
        raise ParseError(f"call string {text!r} has {len(tiles)} tiles, a {kind} has {_N_TILES[kind]}")
    if kind == "kita" and tile != NORTH:
        raise ParseError(f"call string {text!r}: a kita sets aside a North (44)")
    for code in tiles:
        if not (kind == "riichi" and code == TSUMOGIRI):
            kind_of(code)
    from_rel = 0
    if kind in _REL_OF_POSITION:
        from_rel = _REL_OF_POSITION[kind].get(len(before), -1)
        if from_rel < 0:
            raise ParseError(f"call string {text!r}: letter at an impossible position")
    return Call(kind, tile, tiles, from_rel)


YAKU_JA: tuple[str, ...] = (
    "門前清自摸和", "立直", "一発", "槍槓", "嶺上開花", "海底摸月", "河底撈魚", "平和", "断幺九", "一盃口",
    "自風東", "自風南", "自風西", "自風北", "場風東", "場風南", "場風西", "場風北", "役牌白", "役牌發",
    "役牌中", "両立直", "七対子", "混全帯幺九", "一気通貫", "三色同順", "三色同刻", "三槓子", "対々和",
    "三暗刻", "小三元", "混老頭", "二盃口", "純全帯幺九", "混一色", "清一色", "人和", "天和", "地和",
    "大三元", "四暗刻", "四暗刻単騎", "字一色", "緑一色", "清老頭", "九蓮宝燈", "純正九蓮宝燈", "国士無双",
    "国士無双13面", "大四喜", "小四喜", "四槓子", "ドラ", "裏ドラ", "赤ドラ",
)  # fmt: skip
"""Tenhou's Japanese yaku names (spaces removed, NFKC digits) by Tenhou yaku id 0-54."""

_YAKU_SYNONYMS: dict[str, int] = {
    "役牌発": 19, "ダブル立直": 21, "ダブルリーチ": 21, "対対和": 28, "国士無双十三面": 48, "国士無双十三面待ち": 48,
    "国士無双13面待ち": 48, "四暗刻単騎待ち": 41, "搶槓": 3, "海底自摸": 5, "断么九": 8, "混全帯么九": 23,
    "純全帯么九": 33, "抜きドラ": 52, "北ドラ": 52, "北抜き": 52,
    "tsumo": 0, "menzentsumo": 0, "fullyconcealedhand": 0, "selfdraw": 0, "robbingakan": 3,
    "afterakan": 4, "rinshan": 4, "underthesea": 5, "haitei": 5, "undertheriver": 6, "houtei": 6,
    "allsimples": 8, "puredoublesequence": 9, "doubleriichi": 21, "sevenpairs": 22, "halfoutsidehand": 23,
    "purestraight": 24, "mixedtriplesequence": 25, "tripletriplets": 26, "threequads": 27,
    "alltriplets": 28, "threeconcealedtriplets": 29, "littlethreedragons": 30, "allterminalsandhonors": 31,
    "twicepuredoublesequence": 32, "fullyoutsidehand": 33, "halfflush": 34, "fullflush": 35,
    "blessingofman": 36, "blessingofheaven": 37, "blessingofearth": 38, "bigthreedragons": 39,
    "fourconcealedtriplets": 40, "singlewaitfourconcealedtriplets": 41, "allhonors": 42, "allgreen": 43,
    "allterminals": 44, "ninegates": 45, "trueninegates": 46, "thirteenorphans": 47,
    "thirteenwaitthirteenorphans": 48, "fourbigwinds": 49, "fourlittlewinds": 50, "fourquads": 51,
    "whitedragon": 18, "greendragon": 19, "reddragon": 20, "reddora": 54, "redfive": 54, "redfives": 54,
    "akadora": 54, "uradora": 53, "dora": 52, "kita": 52, "kitadora": 52, "nukidora": 52, "northdora": 52,
}  # fmt: skip
"""Other spellings of Tenhou's yaku: Mahjong Soul's Japanese and English fan names (as tensoul-style
converters write them, 幺 or 么, double yakuman included), paipu's names, common English names. Kita
(nuki dora) is listed under dora, as Tenhou's XML counts it."""

SEAT_WIND_YAKU, ROUND_WIND_YAKU = 10, 14
"""Tenhou yaku ids of the East seat wind and the East round wind; + the wind (0 E .. 3 N) for the others."""

_WIND_YAKU: dict[str, int] = {
    "役牌:自風牌": SEAT_WIND_YAKU, "役牌:門風牌": SEAT_WIND_YAKU, "自風牌": SEAT_WIND_YAKU, "門風牌": SEAT_WIND_YAKU,
    "seatwind": SEAT_WIND_YAKU, "役牌:場風牌": ROUND_WIND_YAKU, "場風牌": ROUND_WIND_YAKU,
    "prevalentwind": ROUND_WIND_YAKU, "roundwind": ROUND_WIND_YAKU,
}  # fmt: skip
"""Wind yaku named without their wind (Mahjong Soul's 役牌:自風牌 / 役牌:場風牌): the winner's seat wind or
the round wind says which Tenhou id it is."""


def _normalise(name: str) -> str:
    """Fold a name for lookup: NFKC, no spaces/underscores/colons/dots, lower case."""
    return re.sub(r"[\s_:・.\-]", "", unicodedata.normalize("NFKC", name)).lower()


def _yaku_index() -> dict[str, int]:
    """Folded yaku name (Tenhou's Japanese, paipu's English, common synonyms) -> Tenhou yaku id."""
    index = {_normalise(name): i for i, name in enumerate(YAKU_JA)}
    index.update({_normalise(name): i for i, name in enumerate(YAKU_NAMES)})
    index.update({_normalise(name): i for name, i in _YAKU_SYNONYMS.items()})
    return index


_YAKU_INDEX = _yaku_index()
_WIND_INDEX = {_normalise(name): base for name, base in _WIND_YAKU.items()}
_YAKU_ENTRY = re.compile(
    r"^(.+?)\s*\((?:(\d+)\s*(?:飜|han)|(役満|yakuman)|(ダブル役満|2倍役満|double yakuman))\)$", re.IGNORECASE
)


def yaku_id(name: str, seat_wind: int | None = None, round_wind: int | None = None) -> int:
    """Return the Tenhou yaku id of a yaku name ('立直', '役牌 白', 'Riichi'...). A wind yaku named without
    its wind ('役牌:自風牌', '役牌:場風牌') takes the winner's ``seat_wind`` or the ``round_wind`` (0 East ..
    3 North). Raises UnknownCodeError naming an unknown name, ParseError for a wind yaku without its wind."""
    folded = _normalise(name)
    found = _YAKU_INDEX.get(folded)
    if found is not None:
        return found
    base = _WIND_INDEX.get(folded)
    if base is None:
        raise UnknownCodeError(f"unknown yaku name {name!r}")
    wind = seat_wind if base == SEAT_WIND_YAKU else round_wind
    if wind is None or not 0 <= wind <= 3:
        raise ParseError(f"yaku {name!r} names no wind and the wind is not known")
    return base + wind


def parse_yaku(entry: str, seat_wind: int | None = None, round_wind: int | None = None) -> tuple[int, int, bool]:
    """Parse one yaku entry, e.g. '立直(1飜)' or '大三元(役満)', into (Tenhou yaku id, han, is_yakuman);
    ``seat_wind`` and ``round_wind`` name the winds of a wind yaku written without one (see yaku_id).

    A yakuman counts 13 han (26 for one written as a double yakuman). Raises UnknownCodeError for an
    unknown name and ParseError for an entry that is not of that shape.
    """
    if not isinstance(entry, str):
        raise ParseError(f"malformed yaku entry {entry!r}")
    return _parse_yaku(entry, seat_wind, round_wind)


@functools.lru_cache(maxsize=4096)  # the same entries come back in every game; errors are not kept
def _parse_yaku(entry: str, seat_wind: int | None, round_wind: int | None) -> tuple[int, int, bool]:
    """parse_yaku of a string."""
    match = _YAKU_ENTRY.match(entry.strip())
    if match is None:
        raise ParseError(f"malformed yaku entry {entry!r}")
    name, han, yakuman, double = match.groups()
    found = yaku_id(name, seat_wind, round_wind)
    if han is not None:
        return found, int(han), False
    return found, 26 if double else 13, True


LIMITS_JA: dict[str, str] = {
    "満貫": "mangan", "跳満": "haneman", "倍満": "baiman", "三倍満": "sanbaiman", "役満": "yakuman",
    "数え役満": "yakuman", "切り上げ満貫": "mangan",
    "Mangan": "mangan", "Haneman": "haneman", "Baiman": "baiman", "Sanbaiman": "sanbaiman", "Yakuman": "yakuman",
    "KazoeYakuman": "yakuman", "CountedYakuman": "yakuman", "KiriageMangan": "mangan", "RoundedMangan": "mangan",
}  # fmt: skip
"""Limit names of the score string (Tenhou's, and tensoul's Japanese, romaji and English ones, spaces
removed) -> paipu limit name."""


class Score(NamedTuple):
    """A parsed score string: fu (0 when not written), han (0 when not written), limit name, hand value."""

    fu: int
    han: int
    limit_name: str
    points: int


_LIMIT_ALTERNATIVES = "|".join(sorted(map(re.escape, LIMITS_JA), key=len, reverse=True))
_SCORE = re.compile(rf"^(?:(\d+)(?:符|Fu)(\d+)(?:飜|Han))?({_LIMIT_ALTERNATIVES})?(\d+)(?:-(\d+))?(?:点|Points)(∀)?$")


def parse_score(text: str, is_tsumo: bool, n_players: int) -> Score:
    """Parse a score string such as '30符3飜3900点', '満貫2000-4000点' or '30符2飜1000点∀' into a Score.

    The hand value is the total paid, honba and sticks aside: ron 'X点' -> X; tsumo 'A-B点'
    (non-dealers A each, the dealer B) -> A * (n_players - 2) + B; dealer tsumo 'X点∀' -> X * (n_players - 1).
    Raises UnknownCodeError for a string of another shape.
    """
    if not isinstance(text, str):
        raise UnknownCodeError(f"unknown score string {text!r}")
    return _parse_score(text, is_tsumo, n_players)


@functools.lru_cache(maxsize=4096)  # as _parse_yaku
def _parse_score(text: str, is_tsumo: bool, n_players: int) -> Score:
    """parse_score of a string."""
    match = _SCORE.match(text.replace(" ", ""))
    if match is None:
        raise UnknownCodeError(f"unknown score string {text!r}")
    fu, han, limit, first, second, each = match.groups()
    value = int(first)
    if second is not None:
        value = value * (n_players - 2) + int(second)
    elif each or is_tsumo:
        value *= n_players - 1
    return Score(int(fu or 0), int(han or 0), LIMITS_JA.get(limit or "", ""), value)


DRAW_RESULTS: dict[str, str] = {
    "流局": "exhaustive", "全員聴牌": "exhaustive", "全員不聴": "exhaustive", "流し満貫": "nagashi_mangan",
    "九種九牌": "kyuushu_kyuuhai", "四風連打": "suufon_renda", "四家立直": "suucha_riichi",
    "四槓散了": "suukaikan", "三家和了": "sanchahou", "四開槓": "suukaikan", "三家和": "sanchahou",
    "Ryuukyoku": "exhaustive", "Exhaustive Draw": "exhaustive", "Nagashi Mangan": "nagashi_mangan",
    "Mangan at Draw": "nagashi_mangan", "Kyuushu Kyuuhai": "kyuushu_kyuuhai",
    "Nine Terminal Abortion": "kyuushu_kyuuhai", "Suufon Renda": "suufon_renda",
    "Four Wind Abortion": "suufon_renda", "Suucha Riichi": "suucha_riichi", "Four Riichi Abortion": "suucha_riichi",
    "Suukaikan": "suukaikan", "Four Kan Abortion": "suukaikan", "Sanchahou": "sanchahou",
    "Three Ron Abortion": "sanchahou",
}  # fmt: skip
"""Result names of a round without a win -> draw kind: Tenhou's, and the Japanese, romaji and English ones
tensoul-style converters write (四開槓, 三家和, 'Exhaustive Draw'...)."""

WIN_RESULT = "和了"
"""Result name of a round with one or more wins."""

DAN_NAMES: tuple[str, ...] = (
    "新人", "９級", "８級", "７級", "６級", "５級", "４級", "３級", "２級", "１級",
    "初段", "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳位",
)  # fmt: skip
"""Tenhou dan names by rank index (the index the XML UN dan attribute carries)."""

_DAN_INDEX = {name: i for i, name in enumerate(DAN_NAMES)}
_DAN_INDEX.update({_normalise(name): i for i, name in enumerate(DAN_NAMES)})


def dan_index(name: object) -> int | None:
    """Return Tenhou's rank index of a dan name ('七段' -> 16), None for other ranks (Mahjong Soul...)."""
    if not isinstance(name, str):
        return None
    found = _DAN_INDEX.get(name)  # Tenhou's own spelling; only another one is folded (NFKC, a regex)
    return found if found is not None else _DAN_INDEX.get(_normalise(name))


_ROOM_BITS = {"般": 0x00, "上": 0x80, "特": 0x20, "鳳": 0xA0}


def rule_code_from_disp(disp: str, has_red_fives: bool) -> int:
    """Build a Tenhou GO type from a rule label such as '鳳南喰赤' or '三般東喰赤速'.

    Bits: 0x01 vs humans (assumed), 0x02 no red fives, 0x04 no kuitan (a Japanese label, with 東 or 南,
    without 喰), 0x08 South (南), 0x10 sanma (三), 0x40 fast (速), room from 般/上/特/鳳 (other labels,
    e.g. Mahjong Soul rooms: 0).
    """
    japanese = "東" in disp or "南" in disp
    code = 0x01
    code |= 0 if has_red_fives else 0x02
    code |= 0x04 if japanese and "喰" not in disp else 0
    code |= 0x08 if "南" in disp or "South" in disp else 0
    code |= 0x10 if disp.startswith("三") or "3-Player" in disp else 0
    code |= 0x40 if "速" in disp else 0
    for char in disp[:2]:
        code |= _ROOM_BITS.get(char, 0)
    decode_rule(code)  # every code built here decodes
    return code
