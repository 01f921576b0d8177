"""The mjai vocabulary: event types, winds, ryukyoku reasons, yaku names, game length.

Every lookup raises UnknownCodeError for a code paipu does not know, so a new code fails loudly with
its name instead of producing a wrong row.
"""

from __future__ import annotations

import re

from pipeline.errors import UnknownCodeError

WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}
"""mjai ``bakaze`` letter -> round wind (0 East ... 3 North)."""

ROUND_EVENTS = frozenset({"tsumo", "dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "nukidora", "kita",
                          "reach", "reach_accepted", "dora", "hora", "ryukyoku", "end_kyoku"})  # fmt: skip
"""Event types that belong to a kyoku (after its start_kyoku)."""

IGNORED_EVENTS = frozenset({"none"})
"""Protocol no-ops some logs keep (a player's 'no action' answer): skipped."""

_DRAW_REASONS: dict[str, str] = {
    **dict.fromkeys(("fanpai", "howanpai", "ryukyoku", "exhaustive", "normal", "heikyoku", "kouhaipai",
                     "ryuukyoku"), "exhaustive"),
    **dict.fromkeys(("nagashimangan", "nagashi"), "nagashi_mangan"),
    **dict.fromkeys(("kyushukyuhai", "kyuushukyuuhai", "kyushu", "kyuushu", "yao9", "kyusyukyuhai"),
                    "kyuushu_kyuuhai"),
    **dict.fromkeys(("sufonrenta", "suufonrenda", "sufonrenda", "suufuurenda", "sufurenda", "kaze4",
                     "suufonrenta"), "suufon_renda"),
    **dict.fromkeys(("suchareach", "suuchariichi", "sucharichi", "suucharichi", "reach4", "suuchareach"),
                    "suucha_riichi"),
    **dict.fromkeys(("sukaikan", "suukaikan", "sukantsu", "suukansanra", "sukansanra", "kan4"), "suukaikan"),
    **dict.fromkeys(("sanchaho", "sanchahou", "sanchahoo", "ron3", "sanjiahu"), "sanchahou"),
}  # fmt: skip


def _fold(name: str) -> str:
    """Fold a name for lookup: lower case, no spaces, underscores or hyphens."""
    return re.sub(r"[\s_\-]", "", name).lower()


def draw_kind(reason: object) -> str:
    """Return the draw kind of a ryukyoku ``reason`` (e.g. 'fanpai' -> 'exhaustive', 'kyushukyuhai' ->
    'kyuushu_kyuuhai'); raises UnknownCodeError for a reason paipu does not know."""
    kind = _DRAW_REASONS.get(_fold(reason)) if isinstance(reason, str) else None
    if kind is None:
        raise UnknownCodeError(f"unknown ryukyoku reason {reason!r}")
    return kind


def is_hanchan(kyoku_first: object) -> bool:
    """Game length from ``start_game.kyoku_first`` (akochan's convention, kept by the converters that write
    it): 0 = East+South (hanchan), 4 = East only; raises UnknownCodeError for any other value."""
    if kyoku_first == 0:
        return True
    if kyoku_first == 4:
        return False
    raise UnknownCodeError(f"unknown kyoku_first {kyoku_first!r}")


YAKU_IDS: dict[str, int] = {
    "menzenchintsumoho": 0, "menzentsumo": 0, "tsumo": 0, "reach": 1, "riichi": 1, "ippatsu": 2,
    "chankan": 3, "rinshankaiho": 4, "rinshan": 4, "haiteiraoyue": 5, "haitei": 5, "hoteiraoyui": 6,
    "houteiraoyui": 6, "hotei": 6, "pinfu": 7, "tanyaochu": 8, "tanyao": 8, "ipeko": 9, "iipeikou": 9,
    "doublereach": 21, "doubleriichi": 21, "chitoitsu": 22, "chiitoitsu": 22, "honchantaiyao": 23, "chanta": 23,
    "ikkitsukan": 24, "ittsu": 24, "sanshokudojun": 25, "sanshokudoujun": 25, "sanshokudoko": 26,
    "sanshokudoukou": 26, "sankantsu": 27, "toitoiho": 28, "toitoi": 28, "sananko": 29, "sanankou": 29,
    "shosangen": 30, "shousangen": 30, "honroto": 31, "honroutou": 31, "ryanpeko": 32, "ryanpeikou": 32,
    "junchantaiyao": 33, "junchan": 33, "honiso": 34, "honitsu": 34, "chiniso": 35, "chinitsu": 35,
    "renho": 36, "renhou": 36, "tenho": 37, "tenhou": 37, "chiho": 38, "chiihou": 38, "daisangen": 39,
    "suanko": 40, "suuankou": 40, "suankotanki": 41, "suuankoutanki": 41, "tsuiso": 42, "tsuuiisou": 42,
    "ryuiso": 43, "ryuuiisou": 43, "chinroto": 44, "chinroutou": 44, "churenpoton": 45, "chuurenpoutou": 45,
    "junseichurenpoton": 46, "junseichuurenpoutou": 46, "kokushimuso": 47, "kokushimusou": 47,
    "kokushimuso13": 48, "kokushimusou13": 48, "kokushimusojusanmen": 48, "daisushi": 49, "daisuushii": 49,
    "shosushi": 50, "shousuushii": 50, "sukantsu": 51, "suukantsu": 51, "dora": 52, "nukidora": 52,
    "kita": 52, "uradora": 53, "akadora": 54, "akahai": 54,
}  # fmt: skip
"""Folded mjai yaku name (gimite/mjai's names and common romanisations) -> Tenhou yaku id."""

SEAT_WIND_YAKU = ("jikaze", "seatwind", "jifu")
"""Names of the seat-wind yaku: Tenhou id 10 + the winner's seat wind."""

ROUND_WIND_YAKU = ("bakaze", "roundwind", "prevalentwind", "changfeng")
"""Names of the round-wind yaku: Tenhou id 14 + the round wind."""

DRAGON_YAKU = ("sangenpai",)
"""Names mjai uses for the dragon sets together (han = number of sets): split into haku/hatsu/chun."""


def yaku_key(name: str) -> str:
    """The folded form of a yaku name used by the lookups above."""
    return _fold(name)
