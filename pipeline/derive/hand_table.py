"""The hand_states table: every seat's closed hand after every change, with its analysis (rules.analysis) and
its own-discard furiten between turns (rules.furiten.own_discard_furiten)."""

from __future__ import annotations

import numpy as np

from pipeline.derive.round_arrays import RoundArrays
from rules.hands import HandStates


def hand_state_columns(
    rounds: RoundArrays, states: HandStates, analysis: dict[str, np.ndarray], own: np.ndarray
) -> dict:
    """Columns of the hand_states table; ``own`` from rules.furiten.own_discard_furiten."""
    return {
        "game_id": rounds.game_codes(states.round_id),
        "round_idx": rounds.round_idx[states.round_id],
        "seat": states.seat,
        "event_idx": states.event_idx,
        # stored as 37 digits (34 kind counts, 3 red-five flags): a flat string column writes far faster than
        # lists per row
        "counts": np.concatenate([states.counts, states.red], axis=1).astype(np.uint8) + np.uint8(ord("0")),
        "n_closed": states.n_closed,
        "n_calls": states.n_calls,
        **analysis,
        "is_own_discard_furiten": own,
    }
