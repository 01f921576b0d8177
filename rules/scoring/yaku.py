"""Han of every yaku of every reading, Tenhou's yaku list and values, as an (R, 55) matrix by Tenhou yaku id.

Shape yaku come from the reading (melds, pair, wait), tile-set yaku from the hand's tiles, situational
yaku (riichi, ippatsu, haitei...) and dora from the Context. Tenhou counts every yakuman 13 han with no
double yakuman (suuankou tanki, junsei chuuren, 13-sided kokushi are single), several yakuman add up,
and a yakuman hand keeps only its yakuman. Open hands lose a han on chanta, junchan, ittsu,
sanshoku, honitsu and chinitsu; pinfu, iipeikou, ryanpeikou and menzen tsumo need a closed hand;
open tanyao counts when the game has kuitan.
"""

from __future__ import annotations

import numpy as np

from rules.scoring.decompose import Readings
from rules.scoring.fu import DRAGONS, TERMINAL_OR_HONOR, is_menzen, is_pinfu, value_pair_fu
from rules.scoring.inputs import CHIITOITSU, KOKUSHI, REGULAR, TANKI, THIRTEEN_SIDED, Context, Hands, all_tile_counts

YAKU_NAMES: tuple[str, ...] = (
    "menzen_tsumo", "riichi", "ippatsu", "chankan", "rinshan_kaihou", "haitei_raoyue",
    "houtei_raoyui", "pinfu", "tanyao", "iipeikou", "seat_wind_east", "seat_wind_south",
    "seat_wind_west", "seat_wind_north", "round_wind_east", "round_wind_south", "round_wind_west",
    "round_wind_north", "haku", "hatsu", "chun", "double_riichi", "chiitoitsu", "chanta", "ittsu",
    "sanshoku_doujun", "sanshoku_doukou", "sankantsu", "toitoi", "sanankou", "shousangen",
    "honroutou", "ryanpeikou", "junchan", "honitsu", "chinitsu", "renhou", "tenhou", "chiihou",
    "daisangen", "suuankou", "suuankou_tanki", "tsuuiisou", "ryuuiisou", "chinroutou",
    "chuuren_poutou", "junsei_chuuren_poutou", "kokushi_musou", "kokushi_musou_13", "daisuushii",
    "shousuushii", "suukantsu", "dora", "ura_dora", "aka_dora",
)  # fmt: skip
"""Tenhou yaku id (0-54) -> name."""

YAKU = {name: i for i, name in enumerate(YAKU_NAMES)}
"""Yaku name -> Tenhou id."""

N_YAKU = len(YAKU_NAMES)
FIRST_YAKUMAN, LAST_YAKUMAN = YAKU["tenhou"], YAKU["suukantsu"]
"""Tenhou ids 37-51 are the yakuman."""

DORA, URA_DORA, AKA_DORA = YAKU["dora"], YAKU["ura_dora"], YAKU["aka_dora"]
"""Ids of the dora counts (not yaku: a hand needs another yaku to win)."""

YAKUMAN_HAN = 13
"""Han Tenhou records for each yakuman."""

DOUBLE_YAKUMAN = [YAKU_NAMES.index(name) for name in ("suuankou_tanki", "junsei_chuuren_poutou", "kokushi_musou_13",
                                                     "daisuushii")]  # fmt: skip
"""Yakuman that rule sets with double yakuman count twice (26 han)."""

_GREEN = np.zeros(34, dtype=bool)
_GREEN[[19, 20, 21, 23, 25, 32]] = True  # 2s 3s 4s 6s 8s and hatsu
_CHUUREN = np.array([3, 1, 1, 1, 1, 1, 1, 1, 3])
"""Counts of the nine-gates shape 1112345678999 (plus any one tile of the suit)."""

WIND_BITS = np.int64(0b1111 << 27)
"""34-bit mask of the four winds (34-kinds 27-30)."""

DRAGON_BITS = np.int64(0b111 << 31)
"""34-bit mask of the three dragons (34-kinds 31-33)."""

SUIT_BITS = np.int64((1 << 9) - 1)
"""34-bit mask of the nine man kinds (shifted by 9 and 18: pin, sou)."""


def bitcount(mask: np.ndarray) -> np.ndarray:
    """Set bits of each int64 mask, as int64."""
    return np.bitwise_count(mask.astype(np.uint64)).astype(np.int64)


def slot_masks(readings: Readings) -> tuple[np.ndarray, np.ndarray]:
    """(sequences, sets) as 34-bit masks per reading: bit k = a sequence starting at k / a triplet or kan of k."""
    kind = readings.kind.astype(np.int64)
    bit = np.where(kind >= 0, np.int64(1) << np.maximum(kind, 0), 0)
    sequences = np.bitwise_or.reduce(np.where(readings.is_sequence, bit, 0), axis=1)
    sets = np.bitwise_or.reduce(np.where(~readings.is_sequence, bit, 0), axis=1)
    return sequences, sets


_TILE_CLASSES = np.zeros((34, 7), dtype=np.int32)
_TILE_CLASSES[0:9, 0] = _TILE_CLASSES[9:18, 1] = _TILE_CLASSES[18:27, 2] = 1  # man, pin, sou
_TILE_CLASSES[27:, 3] = 1  # honors
_TILE_CLASSES[~TERMINAL_OR_HONOR[:34], 4] = 1  # simples
_TILE_CLASSES[TERMINAL_OR_HONOR[:34], 5] = 1  # terminals and honors
_TILE_CLASSES[~_GREEN, 6] = 1  # not green
"""Kinds held of each class, by one integer product: man, pin, sou, honor, simple, terminal or honor, not green."""


def _nine_gates(hands: Hands, suits: np.ndarray, honors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(chuuren, junsei chuuren) per win: a closed one-suit hand holding 1112345678999 (junsei: exactly that
    before the winning tile, a nine-sided wait). Only the few closed one-suit hands are looked at."""
    n = len(suits)
    rows = np.flatnonzero((np.asarray(hands.meld_type) == 0).all(axis=1) & (suits.sum(axis=1) == 1) & ~honors)
    suit = np.argmax(suits[rows], axis=1)
    in_suit = np.asarray(hands.closed, dtype=np.int64)[rows, :27].reshape(-1, 3, 9)[np.arange(len(rows)), suit]
    win_in_suit = np.asarray(hands.win_tile, dtype=np.int64)[rows] - 9 * suit
    before_win = in_suit - (np.arange(9)[None, :] == win_in_suit[:, None])
    chuuren, junsei = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    chuuren[rows] = (in_suit >= _CHUUREN).all(axis=1)
    junsei[rows] = chuuren[rows] & (before_win == _CHUUREN).all(axis=1)
    return chuuren, junsei


def tile_set(hands: Hands) -> dict[str, np.ndarray]:
    """Per win (N,): which tiles the hand holds, as the tile-set yaku need them."""
    held = (all_tile_counts(hands) > 0).astype(np.int32) @ _TILE_CLASSES > 0
    suits, honors, simples = held[:, :3], held[:, 3], held[:, 4]
    chuuren, junsei = _nine_gates(hands, suits, honors)
    return {
        "simples_only": ~held[:, 5],
        "n_suits": suits.sum(axis=1),
        "has_honor": honors,
        "all_terminal_honor": ~simples,
        "all_honor": ~suits.any(axis=1),
        "all_terminal": ~simples & ~honors,
        "all_green": ~held[:, 6],
        "chuuren": chuuren,
        "junsei_chuuren": junsei,
    }


def _situational(han: np.ndarray, ctx: Context, menzen: np.ndarray, is_tsumo: np.ndarray) -> None:
    """Menzen tsumo, riichi / double riichi, ippatsu, chankan, rinshan, haitei, houtei, tenhou, chiihou."""
    han[:, YAKU["menzen_tsumo"]] = menzen & is_tsumo
    han[:, YAKU["riichi"]] = ctx.is_riichi & ~ctx.is_double_riichi
    han[:, YAKU["double_riichi"]] = 2 * ctx.is_double_riichi
    for name, flag in (
        ("ippatsu", ctx.is_ippatsu), ("chankan", ctx.is_chankan), ("rinshan_kaihou", ctx.is_rinshan),
        ("haitei_raoyue", ctx.is_haitei), ("houtei_raoyui", ctx.is_houtei),
    ):  # fmt: skip
        han[:, YAKU[name]] = flag
    han[:, YAKU["tenhou"]] = YAKUMAN_HAN * ctx.is_tenhou
    han[:, YAKU["chiihou"]] = YAKUMAN_HAN * ctx.is_chiihou


def _value_sets(han: np.ndarray, sets: np.ndarray, ctx: Context) -> None:
    """Yakuhai: a triplet or kan of the seat wind (ids 10-13), the round wind (14-17), each dragon (18-20)."""
    rows = np.arange(len(han))
    seat = np.asarray(ctx.seat_wind, dtype=np.int64)
    prevailing = np.asarray(ctx.round_wind, dtype=np.int64)
    han[rows, YAKU["seat_wind_east"] + seat] = (sets >> (27 + seat)) & 1
    han[rows, YAKU["round_wind_east"] + prevailing] = (sets >> (27 + prevailing)) & 1
    for offset, dragon in enumerate(DRAGONS):
        han[:, YAKU["haku"] + offset] = (sets >> dragon) & 1


def _peikou(readings: Readings) -> np.ndarray:
    """Pairs of identical sequences (R,): 1 iipeikou, 2 ryanpeikou (four identical sequences count two)."""
    same = np.zeros(len(readings), dtype=np.int64)
    for i in range(4):
        for j in range(i + 1, 4):
            both = readings.is_sequence[:, i] & readings.is_sequence[:, j]
            same += both & (readings.kind[:, i] == readings.kind[:, j])
    return np.array([0, 1, 2, 1, 0, 0, 2])[same]  # 2 alike: 1 pair, 3: 3 pairs, 4: 6 pairs, 2+2: 2 pairs


def _sequence_yaku(
    han: np.ndarray, readings: Readings, sequences: np.ndarray, menzen: np.ndarray, ctx: Context
) -> None:
    """Pinfu, iipeikou, ryanpeikou, ittsu, sanshoku doujun."""
    closed_bonus = menzen.astype(np.int8)
    pair_fu = value_pair_fu(readings.pair, ctx.seat_wind, ctx.round_wind)
    han[:, YAKU["pinfu"]] = is_pinfu(readings, pair_fu)
    peikou = np.where(menzen, _peikou(readings), 0)
    han[:, YAKU["iipeikou"]] = peikou == 1
    han[:, YAKU["ryanpeikou"]] = 3 * (peikou == 2)
    ittsu = (sequences & (sequences >> 3) & (sequences >> 6) & 0b1_000000001_000000001) != 0
    han[:, YAKU["ittsu"]] = ittsu * (1 + closed_bonus)
    sanshoku = (sequences & (sequences >> 9) & (sequences >> 18) & 0b1111111) != 0
    han[:, YAKU["sanshoku_doujun"]] = sanshoku * (1 + closed_bonus)


def _set_yaku(han: np.ndarray, readings: Readings, sets: np.ndarray) -> None:
    """Sanshoku doukou, sankantsu, toitoi, sanankou, shousangen."""
    regular = readings.form == REGULAR
    han[:, YAKU["sanshoku_doukou"]] = 2 * ((sets & (sets >> 9) & (sets >> 18) & SUIT_BITS) != 0)
    han[:, YAKU["sankantsu"]] = 2 * (readings.is_kan.sum(axis=1) == 3)
    han[:, YAKU["toitoi"]] = 2 * (regular & ~readings.is_sequence.any(axis=1))
    han[:, YAKU["sanankou"]] = 2 * (readings.is_concealed.sum(axis=1) == 3)
    dragon_pair = np.isin(readings.pair, DRAGONS)
    han[:, YAKU["shousangen"]] = 2 * ((bitcount(sets & DRAGON_BITS) == 2) & dragon_pair)


def _outside_yaku(han: np.ndarray, readings: Readings, tiles: dict[str, np.ndarray], menzen: np.ndarray) -> None:
    """Chanta and junchan (every meld and the pair hold a terminal or honor, a sequence among them),
    honroutou, tanyao (with kuitan when open), honitsu, chinitsu."""
    kind = readings.kind.astype(np.int64)
    outside_sequence = readings.is_sequence & ((kind % 9 == 0) | (kind % 9 == 6))
    outside_set = ~readings.is_sequence & TERMINAL_OR_HONOR[kind]
    every_group = (outside_sequence | outside_set).all(axis=1) & TERMINAL_OR_HONOR[readings.pair.astype(np.int64)]
    outside = (readings.form == REGULAR) & every_group & readings.is_sequence.any(axis=1)
    bonus = menzen.astype(np.int8)
    han[:, YAKU["chanta"]] = (outside & tiles["has_honor"]) * (1 + bonus)
    han[:, YAKU["junchan"]] = (outside & ~tiles["has_honor"]) * (2 + bonus)
    han[:, YAKU["honroutou"]] = 2 * (tiles["all_terminal_honor"] & (readings.form != KOKUSHI))
    one_suit = tiles["n_suits"] == 1
    han[:, YAKU["honitsu"]] = (one_suit & tiles["has_honor"]) * (2 + bonus)
    han[:, YAKU["chinitsu"]] = (one_suit & ~tiles["has_honor"]) * (5 + bonus)
    han[:, YAKU["chiitoitsu"]] = 2 * (readings.form == CHIITOITSU)


def _yakuman(han: np.ndarray, readings: Readings, sets: np.ndarray, tiles: dict[str, np.ndarray]) -> None:
    """Every yakuman but tenhou and chiihou (situational), 13 han each."""
    concealed = readings.is_concealed.sum(axis=1)
    winds = bitcount(sets & WIND_BITS)
    wind_pair = (readings.pair >= 27) & (readings.pair <= 30)
    kokushi = readings.form == KOKUSHI
    found = {
        "daisangen": bitcount(sets & DRAGON_BITS) == 3,
        "suuankou": (concealed == 4) & (readings.wait != TANKI),
        "suuankou_tanki": (concealed == 4) & (readings.wait == TANKI),
        "tsuuiisou": tiles["all_honor"],
        "ryuuiisou": tiles["all_green"],
        "chinroutou": tiles["all_terminal"],
        "chuuren_poutou": tiles["chuuren"] & ~tiles["junsei_chuuren"],
        "junsei_chuuren_poutou": tiles["junsei_chuuren"],
        "kokushi_musou": kokushi & (readings.wait != THIRTEEN_SIDED),
        "kokushi_musou_13": kokushi & (readings.wait == THIRTEEN_SIDED),
        "daisuushii": winds == 4,
        "shousuushii": (winds == 3) & wind_pair,
        "suukantsu": readings.is_kan.sum(axis=1) == 4,
    }
    for name, flag in found.items():
        han[:, YAKU[name]] = YAKUMAN_HAN * flag


def yaku_han(readings: Readings, hands: Hands, ctx: Context) -> np.ndarray:
    """(R, 55) int8 han of every Tenhou yaku id for every reading; ``ctx`` is per reading (Context.take).

    Dora (52), ura dora (53, with riichi only) and red fives (54) are filled in too; a reading with a
    yakuman keeps only its yakuman columns.
    """
    han = np.zeros((len(readings), N_YAKU), dtype=np.int8)
    tiles = {name: values[readings.win] for name, values in tile_set(hands).items()}
    menzen = is_menzen(readings)
    is_tsumo = np.asarray(hands.is_tsumo, dtype=bool)[readings.win]
    sequences, sets = slot_masks(readings)
    _situational(han, ctx, menzen, is_tsumo)
    _value_sets(han, sets, ctx)
    _sequence_yaku(han, readings, sequences, menzen, ctx)
    _set_yaku(han, readings, sets)
    _outside_yaku(han, readings, tiles, menzen)
    han[:, YAKU["tanyao"]] = tiles["simples_only"] & (menzen | ctx.has_kuitan)
    _yakuman(han, readings, sets, tiles)
    han[:, DORA] = ctx.n_dora
    han[:, URA_DORA] = np.where(ctx.is_riichi, ctx.n_ura, 0)
    han[:, AKA_DORA] = ctx.n_aka
    yakuman = (han[:, FIRST_YAKUMAN : LAST_YAKUMAN + 1] > 0).any(axis=1)
    han[yakuman, :FIRST_YAKUMAN] = 0
    han[yakuman, LAST_YAKUMAN + 1 :] = 0
    # rule sets with double yakuman (Mahjong Soul) count these twice
    doubled = np.asarray(ctx.has_double_yakuman, dtype=bool)[:, None] & (han[:, DOUBLE_YAKUMAN] > 0)
    han[:, DOUBLE_YAKUMAN] = np.where(doubled, 2 * YAKUMAN_HAN, han[:, DOUBLE_YAKUMAN])
    return han
