"""What is visible on the table after every event, and what all hands hold, per round.

``public`` counts, per 34-kind, the tiles everybody can see: discards (a called discard stays
visible in the meld), the tiles a call shows from the caller's hand (chi/pon/daiminkan: the two or
three own tiles; kakan: the added tile; ankan: all four), kita tiles and dora indicators; running per
round, one row per event, plus the state at the round's start (before its first event); counted by a numba
kernel (rules.kernels_visibility).
``closed_all_at`` counts the tiles in all closed hands together at the moments asked for, from the
hand states (every seat's latest hand at that moment), by a kernel that the hand states' own analysis fuses
into its live counts (rules.analysis).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.hands import CALLS, CODE, EventArrays, HandStates, is_action
from rules.kernels_visibility import closed_all_kernel, visibility_kernel
from rules.tiles import N_KINDS


@dataclass
class Visibility:
    """Running public counts per event row (n_events, 34) int8, and at each round's start (n_rounds, 34)."""

    public: np.ndarray
    public_start: np.ndarray


_CODES = np.arange(len(CODE))
_SHOWN_ALONE = is_action(_CODES, ("discard", "kakan", "kita", "dora"))
"""By action code: the event shows its own tile to the table."""

_IS_CALL = is_action(_CODES, CALLS)
"""By action code: a call, showing its meld's tiles other than the called one (already visible as a discard)."""


def visibility(events: EventArrays, dora_indicator: np.ndarray) -> Visibility:
    """Running public counts for every event; ``dora_indicator`` (n_rounds,) 136-ids of each round's first
    indicator. Compiled (rules.kernels_visibility)."""
    n_rounds = len(events.hands_start)
    public_start = np.zeros((n_rounds, N_KINDS), dtype=np.int8)
    public_start[np.arange(n_rounds), dora_indicator // 4] = 1  # a missing indicator (-1) reads kind 33
    public = visibility_kernel(
        *(np.ascontiguousarray(values, dtype=np.int64) for values in (
            events.round_id, events.action, events.tile, events.meld_offsets, events.meld_values)),
        public_start, _SHOWN_ALONE, _IS_CALL, CODE["ankan"],
    )  # fmt: skip
    return Visibility(public, public_start)


def closed_all_at(states: HandStates, round_id: np.ndarray, event_row: np.ndarray) -> np.ndarray:
    """(Q, 34) int8: the tiles in all closed hands of round ``round_id`` right after its event row
    ``event_row`` (-1: as dealt), for Q such moments; from each seat's latest hand state at that moment.
    Compiled (rules.kernels_visibility).

    ``states`` must be in rules.hands.hand_states order: by round, seat, then event row (the deal first).
    """
    return closed_all_kernel(
        np.ascontiguousarray(states.counts, dtype=np.int8),
        *(np.ascontiguousarray(values, dtype=np.int64) for values in (
            states.round_id, states.seat, states.event_row, round_id, event_row)),
    )  # fmt: skip
