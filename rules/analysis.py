"""Per hand state: shanten, tenpai, waits and how many winning tiles are left (karaten).

Waits are asked of the states between turns: dealt, or after a discard (13 - 3 x calls closed
tiles); the others (mid-turn, including right after a kan or kita before its replacement draw) get
shanten only. Live counts per wait kind:
``live_public`` = 4 - visible to all (rules.visibility) - the seat's own closed copies: what the
player can know is left; ``live_actual`` = 4 - visible - every closed hand's copies: what is
really left in the wall. ``is_karaten``: tenpai with no live winning tile from the player's view.
``is_pure_karaten``: every copy of every wait is in the player's own closed hand (Tenhou counts
such a hand noten at an exhaustive draw; copies in the player's own kan do not, they are visible).
The live counts are a numba kernel's (rules.kernels_visibility).
"""

from __future__ import annotations

import numpy as np

from rules.hands import CODE, HandStates
from rules.kernels_visibility import live_counts_kernel, live_waits_kernel
from rules.shanten import shanten
from rules.visibility import Visibility
from rules.waits import n_waits, waits_mask


def live_waits(
    masks: np.ndarray, own: np.ndarray, public: np.ndarray, closed_all: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Live winning tiles of tenpai hands from the player's view and the whole table's, and whether
    the hand is pure karaten; ``masks`` (N,) 34-bit waits, the others (N, 34) counts: the hands' own closed
    tiles, the public ones, all closed hands'. Compiled (rules.kernels_visibility)."""
    n = len(masks)
    live_public, live_actual, pure = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.bool_)
    live_waits_kernel(
        np.ascontiguousarray(masks, dtype=np.int64),
        *(np.ascontiguousarray(values, dtype=np.int8) for values in (own, public, closed_all)),
        live_public, live_actual, pure,
    )  # fmt: skip
    return live_public, live_actual, pure


def state_live_waits(
    states: HandStates, vis: Visibility, masks: np.ndarray, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """live_waits of the hand states ``rows`` (tenpai ones; ``masks``: every state's waits) at their own moments:
    the public counts after the state's event (the round's start for a deal) and every seat's closed hand then;
    in one compiled pass (rules.kernels_visibility)."""
    n = len(rows)
    live_public, live_actual, pure = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.bool_)
    live_counts_kernel(
        np.ascontiguousarray(states.counts, dtype=np.int8),
        *(np.ascontiguousarray(values, dtype=np.int64) for values in (
            states.round_id, states.seat, states.event_row, masks)),
        vis.public, vis.public_start, np.ascontiguousarray(rows, dtype=np.int64),
        live_public, live_actual, pure,
    )  # fmt: skip
    return live_public, live_actual, pure


def analyse_states(states: HandStates, vis: Visibility) -> dict[str, np.ndarray]:
    """Return per-state columns: shanten, waits_mask, n_waits, is_tenpai, live_waits_public,
    live_waits_actual, is_karaten, is_pure_karaten (-1 where a column does not apply)."""
    n = len(states.round_id)
    between_turns = (states.after_action == -1) | (states.after_action == CODE["discard"])
    waiting = between_turns & (states.n_closed == 13 - 3 * states.n_calls.astype(np.int16))
    # one batch serves both shanten (every state) and waits (states between turns)
    masks = waits_mask(states.hands, rows=np.flatnonzero(waiting))
    tenpai = np.flatnonzero(masks != 0)
    live_public = np.full(n, -1, dtype=np.int16)
    live_actual = np.full(n, -1, dtype=np.int16)
    pure = np.zeros(n, dtype=bool)
    if len(tenpai):
        live_public[tenpai], live_actual[tenpai], pure[tenpai] = state_live_waits(states, vis, masks, tenpai)
    is_tenpai = masks != 0
    return {
        "shanten": shanten(states.hands),
        "waits_mask": np.where(waiting, masks, -1),
        "n_waits": np.where(waiting, n_waits(masks), -1),
        "is_tenpai": np.where(waiting, is_tenpai, -1).astype(np.int8),
        "live_waits_public": live_public,
        "live_waits_actual": live_actual,
        "is_karaten": np.where(waiting, is_tenpai & (live_public == 0), -1).astype(np.int8),
        "is_pure_karaten": np.where(waiting, pure, -1).astype(np.int8),
    }
