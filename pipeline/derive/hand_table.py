"""The hand_states table: every seat's closed hand after every change, with its analysis (rules.analysis) and
its own-discard furiten between turns (rules.furiten.own_discard_furiten), in its stored layout: the counts and
the flags packed into integers (pipeline/schema/derived.py; the hand_states view unpacks them)."""

from __future__ import annotations

import numpy as np

from pipeline.derive.round_arrays import RoundArrays
from rules.compiled import njit
from rules.hands import HandStates

LOW_KINDS = 21
"""34-kinds packed into counts_low (3 bits each); the other 13 go to counts_high, then the 3 red-five flags."""
RED_BIT = 3 * (34 - LOW_KINDS)
"""Where counts_high's red-five flags start: after its 13 kinds' 39 bits."""
FLAGS = ("is_tenpai", "is_karaten", "is_pure_karaten", "is_own_discard_furiten")
"""The flags packed into ``flags``, two bits each from bit 0 (0 null, 1 false, 2 true)."""


def hand_state_columns(
    rounds: RoundArrays, states: HandStates, analysis: dict[str, np.ndarray], own: np.ndarray
) -> dict:
    """Columns of the hand_states table, as stored; ``analysis`` from rules.analysis.analyse_states (-1 where a
    value does not apply), ``own`` from rules.furiten.own_discard_furiten."""
    flags = {**analysis, "is_own_discard_furiten": own}
    low, high = _packed_counts(states.counts, states.red)
    return {
        "game_id": rounds.game_codes(states.round_id),
        "round_idx": rounds.round_idx[states.round_id],
        "seat": states.seat,
        "event_idx": states.event_idx,
        "counts_low": low,
        "counts_high": high,
        "n_closed": states.n_closed,
        "n_calls": states.n_calls,
        "shanten": analysis["shanten"],
        "waits_mask": analysis["waits_mask"],
        "live_waits_public": analysis["live_waits_public"],
        "live_waits_actual": analysis["live_waits_actual"],
        "flags": _packed_flags([flags[name] for name in FLAGS]),
    }


@njit
def _packed_counts(counts: np.ndarray, red: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """counts_low and counts_high of each row of 34-kind counts (0-4) and red-five flags (0/1)."""
    n = counts.shape[0]
    low = np.zeros(n, dtype=np.int64)
    high = np.zeros(n, dtype=np.int64)
    for i in range(n):
        packed = np.int64(0)
        for k in range(LOW_KINDS):
            packed |= np.int64(counts[i, k]) << (3 * k)
        low[i] = packed
        packed = np.int64(0)
        for k in range(LOW_KINDS, 34):
            packed |= np.int64(counts[i, k]) << (3 * (k - LOW_KINDS))
        for r in range(3):
            packed |= np.int64(red[i, r]) << (RED_BIT + r)
        high[i] = packed
    return low, high


def _packed_flags(flags: list[np.ndarray]) -> np.ndarray:
    """Flags (1 true, 0 false, -1 null) as one uint8 per row, two bits each from bit 0: 0 null, 1 false, 2 true."""
    packed = np.zeros(len(flags[0]), dtype=np.uint8)
    for k, flag in enumerate(flags):
        # flag + 1 in uint8 (-1 wraps to 255, then to 0): the same bits as in int64, a byte a row
        packed |= (np.asarray(flag).astype(np.uint8) + np.uint8(1)) << np.uint8(2 * k)
    return packed
