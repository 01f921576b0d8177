"""Fu of every reading, as components that add up to the fu (the round-up included).

Tenhou's fu: 20 base; a triplet 2 fu, doubled for terminals and honors, doubled when concealed,
times four for a kan (2/4/8/16/32 scale); 2 fu for a dragon, seat-wind or round-wind pair (a double
wind pair 4); 2 fu for a kanchan, penchan or tanki wait; 2 fu for a tsumo except pinfu; 10 fu for
a closed ron; an open hand that would have 20 fu gets 30; rounded up to 10. Seven pairs is 25 fu,
thirteen orphans 0 (as Tenhou records it). A triplet completed by a ron counts as open.
"""

from __future__ import annotations

import numpy as np

from rules.scoring.decompose import Readings
from rules.scoring.inputs import CHIITOITSU, KANCHAN, PENCHAN, REGULAR, RYANMEN, TANKI

COMPONENTS: tuple[str, ...] = (
    "base", "chiitoitsu",
    "open_triplet_simple", "open_triplet_terminal", "closed_triplet_simple", "closed_triplet_terminal",
    "open_kan_simple", "open_kan_terminal", "closed_kan_simple", "closed_kan_terminal",
    "value_pair", "wait", "tsumo", "closed_ron", "open_pinfu", "rounding",
)  # fmt: skip
"""Fu components in column order; the meld columns are ``MELD_COLUMN + 4 x kan + 2 x concealed + terminal``."""

COLUMN = {name: i for i, name in enumerate(COMPONENTS)}
"""Component name -> column."""

MELD_COLUMN = COLUMN["open_triplet_simple"]
"""Column of the first meld component."""

BASE_FU, CHIITOITSU_FU, OPEN_PINFU_FU, CLOSED_RON_FU = 20, 25, 10, 10
"""Fixed amounts: base, seven pairs (no other fu), the open pinfu shape's raise to 30, a closed ron."""

TERMINAL_OR_HONOR = np.zeros(35, dtype=bool)
TERMINAL_OR_HONOR[[0, 8, 9, 17, 18, 26, *range(27, 34)]] = True
"""By 34-kind (index 34 stands for -1, no tile): a terminal or an honor."""

DRAGONS = (31, 32, 33)
"""34-kinds of haku, hatsu, chun."""


def value_pair_fu(pair: np.ndarray, seat_wind: np.ndarray, round_wind: np.ndarray) -> np.ndarray:
    """Fu of each reading's pair: 2 for a dragon, 2 for the seat wind, 2 for the round wind (sum)."""
    pair = np.asarray(pair, dtype=np.int64)
    dragon = np.isin(pair, DRAGONS)
    return 2 * (dragon.astype(np.int64) + (pair == 27 + seat_wind) + (pair == 27 + round_wind))


def is_menzen(readings: Readings) -> np.ndarray:
    """(R,) the hand has no open meld (a closed kan keeps it closed)."""
    return ~readings.is_open.any(axis=1)


def is_pinfu(readings: Readings, pair_fu: np.ndarray) -> np.ndarray:
    """(R,) pinfu: closed, four sequences, a pair worth no fu, a ryanmen wait."""
    all_sequences = readings.is_sequence.all(axis=1)
    return (
        (readings.form == REGULAR) & is_menzen(readings) & all_sequences & (pair_fu == 0) & (readings.wait == RYANMEN)
    )


def meld_fu(readings: Readings) -> np.ndarray:
    """(R, 8) fu of the melds by component (open/closed x triplet/kan x simple/terminal), summed over slots."""
    out = np.zeros((len(readings), 8), dtype=np.int16)
    kind = readings.kind.astype(np.int64)
    is_set = (kind >= 0) & ~readings.is_sequence
    terminal = TERMINAL_OR_HONOR[kind].astype(np.int64)  # kind -1 reads the padding entry: False
    kan, concealed = readings.is_kan.astype(np.int64), readings.is_concealed.astype(np.int64)
    column = 4 * kan + 2 * concealed + terminal
    value = 2 << (terminal + concealed + 2 * kan)  # 2, 4, 8, 16, 32
    rows = np.arange(len(readings))
    for slot in range(4):
        has = is_set[:, slot]
        np.add.at(out, (rows[has], column[has, slot]), value[has, slot].astype(np.int16))
    return out


def fu_components(
    readings: Readings, is_tsumo: np.ndarray, seat_wind: np.ndarray, round_wind: np.ndarray
) -> np.ndarray:
    """(R, len(COMPONENTS)) int16 fu components of every reading; their row sum is the fu.

    ``is_tsumo``, ``seat_wind`` and ``round_wind`` are per reading (R,).
    """
    out = np.zeros((len(readings), len(COMPONENTS)), dtype=np.int16)
    regular = readings.form == REGULAR
    menzen = is_menzen(readings)
    pair_fu = np.where(regular, value_pair_fu(readings.pair, seat_wind, round_wind), 0)
    pinfu = is_pinfu(readings, pair_fu)
    out[:, COLUMN["base"]] = np.where(regular, BASE_FU, 0)
    out[:, COLUMN["chiitoitsu"]] = np.where(readings.form == CHIITOITSU, CHIITOITSU_FU, 0)
    out[:, MELD_COLUMN : MELD_COLUMN + 8] = meld_fu(readings)
    out[:, COLUMN["value_pair"]] = pair_fu
    out[:, COLUMN["wait"]] = np.where(regular & np.isin(readings.wait, (KANCHAN, PENCHAN, TANKI)), 2, 0)
    out[:, COLUMN["tsumo"]] = np.where(regular & is_tsumo & ~pinfu, 2, 0)
    out[:, COLUMN["closed_ron"]] = np.where(regular & ~is_tsumo & menzen, CLOSED_RON_FU, 0)
    raw = out.sum(axis=1)
    out[:, COLUMN["open_pinfu"]] = np.where(regular & ~menzen & (raw == BASE_FU), OPEN_PINFU_FU, 0)
    raw = out.sum(axis=1)
    out[:, COLUMN["rounding"]] = np.where(regular, -raw % 10, 0)
    return out
