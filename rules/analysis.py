"""Per hand state: shanten, tenpai, waits and how many winning tiles are left (karaten).

Waits are asked of the states between turns: dealt, or after a discard (13 - 3 x calls closed
tiles); the others (mid-turn, including right after a kan or kita before its replacement draw) get
shanten only. Live counts per wait kind:
``live_public`` = 4 - visible to all (rules.visibility) - the seat's own closed copies: what the
player can know is left; ``live_actual`` = 4 - visible - every closed hand's copies: what is
really left in the wall. ``is_karaten``: tenpai with no live winning tile from the player's view.
``is_pure_karaten``: every copy of every wait is in the player's own closed hand (Tenhou counts
such a hand noten at an exhaustive draw; copies in the player's own kan do not, they are visible).
"""

from __future__ import annotations

import numpy as np

from rules.hands import CODE, HandStates
from rules.shanten import shanten
from rules.visibility import Visibility, at_states, closed_all_at
from rules.waits import KIND_BITS, n_waits, waits_mask


def wait_kinds(masks: np.ndarray) -> np.ndarray:
    """Unpack 34-bit masks (N,) into (N, 34) bool."""
    return (masks[:, None] & KIND_BITS[None, :]) != 0


def live_waits(
    masks: np.ndarray, own: np.ndarray, public: np.ndarray, closed_all: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Live winning tiles of tenpai hands from the player's view and the whole table's, and whether
    the hand is pure karaten; every argument is (N,) or (N, 34) for the same N hands."""
    kinds = wait_kinds(masks)
    own, public, closed_all = own.astype(np.int16), public.astype(np.int16), closed_all.astype(np.int16)
    live_public = np.where(kinds, np.maximum(4 - public - own, 0), 0).sum(axis=1)
    live_actual = np.where(kinds, np.maximum(4 - public - closed_all, 0), 0).sum(axis=1)
    # pure karaten: every wait kind is held four times in the closed hand
    pure = np.all(~kinds | (own == 4), axis=1)
    return live_public, live_actual, pure


def analyse_states(states: HandStates, vis: Visibility) -> dict[str, np.ndarray]:
    """Return per-state columns: shanten, waits_mask, n_waits, is_tenpai, live_waits_public,
    live_waits_actual, is_karaten, is_pure_karaten (-1 where a column does not apply)."""
    n = len(states.round_id)
    between_turns = np.isin(states.after_action, [-1, CODE["discard"]])
    waiting = between_turns & (states.n_closed == 13 - 3 * states.n_calls.astype(np.int16))
    # one batch serves both shanten (every state) and waits (states between turns)
    masks = waits_mask(states.hands, rows=np.flatnonzero(waiting))
    tenpai = np.flatnonzero(masks != 0)
    live_public = np.full(n, -1, dtype=np.int16)
    live_actual = np.full(n, -1, dtype=np.int16)
    pure = np.zeros(n, dtype=bool)
    if len(tenpai):
        rid, row = states.round_id[tenpai], states.event_row[tenpai]
        public = at_states(vis.public, vis.public_start, rid, row)
        closed_all = closed_all_at(states, rid, row)
        live_public[tenpai], live_actual[tenpai], pure[tenpai] = live_waits(
            masks[tenpai], states.counts[tenpai], public, closed_all
        )
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
