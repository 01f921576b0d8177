"""The riichi table: every riichi declaration with the hand it was declared on (after the riichi discard).

A riichi declaration is followed by its discard, the seat's next event (Tenhou's REACH step 1 then D; every
reader writes them in that order): the declared hand is the seat's state made by that discard.
"""

from __future__ import annotations

import numpy as np

from pipeline.derive.round_arrays import RoundArrays
from rules.hands import CODE, EventArrays, HandStates


def riichi_columns(
    rounds: RoundArrays, ev: EventArrays, states: HandStates, analysis: dict[str, np.ndarray], own: np.ndarray
) -> dict[str, np.ndarray]:
    """Columns of the riichi table: one row per riichi declaration of the part (``own``: each state's
    own-discard furiten, from rules.furiten.own_discard_furiten)."""
    n = len(ev.action)
    declared = np.flatnonzero(ev.action == CODE["riichi"])
    state_of_row = np.full(n, -1, dtype=np.int64)
    made = states.event_row >= 0
    state_of_row[states.event_row[made]] = np.flatnonzero(made)  # the acting seat's state after each event
    after = np.minimum(declared + 1, max(n - 1, 0))  # the next event (clamped: checked below)
    # the next event must be the declarer's discard in the same round, with its hand state
    found = (
        (declared + 1 < n)
        & (ev.action[after] == CODE["discard"])
        & (ev.round_id[after] == ev.round_id[declared])
        & (ev.seat[after] == ev.seat[declared])
        & (state_of_row[after] >= 0)
    )
    at = np.where(found, state_of_row[after], 0)

    def known(values: np.ndarray) -> np.ndarray:
        return np.where(found, values[at], -1)

    return {
        "game_id": rounds.game_id[ev.round_id[declared]],
        "round_idx": rounds.round_idx[ev.round_id[declared]],
        "seat": ev.seat[declared],
        "event_idx": ev.event_idx[declared],
        "discard_event_idx": np.where(found, ev.event_idx[after], -1),
        "waits_mask": known(analysis["waits_mask"]),
        "n_waits": known(analysis["n_waits"]),
        "is_tenpai": known(analysis["is_tenpai"]),
        "live_waits_public": known(analysis["live_waits_public"]),
        "is_karaten": known(analysis["is_karaten"]),
        "is_own_discard_furiten": known(own),
    }
