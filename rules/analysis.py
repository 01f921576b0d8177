"""Per hand state: shanten, tenpai, waits and how many winning tiles are left (karaten).

Waits are asked of the states between turns: dealt, or after a discard (13 - 3 x calls closed
tiles); the others (mid-turn, including right after a kan or kita before its replacement draw) get
shanten only. Live counts per wait kind:
``live_public`` = 4 - visible to all (rules.visibility) - the seat's own closed copies: what the
player can know is left; ``live_actual`` = 4 - visible - every closed hand's copies: what is
really left in the wall. ``is_karaten``: tenpai with no live winning tile from the player's view.
``is_pure_karaten``: every copy of every wait is in the player's own closed hand (Tenhou counts
such a hand noten at an exhaustive draw; copies in the player's own kan do not, they are visible).
Shanten and waits of every state are one compiled pass (_state_kernel: the regular form's distance and the
seven-pairs and thirteen-orphans shanten found on the way, the waits by rules.waits' own helpers); the live counts
of the tenpai ones another (rules.kernels_visibility).
"""

from __future__ import annotations

import numpy as np

from rules.compiled import njit
from rules.hands import CODE, HandStates
from rules.kernels_visibility import live_counts_kernel, live_waits_kernel
from rules.shanten import MAX_MELDS, as_calls, check_indices, distance_of_classes, kernel_tables, special_of
from rules.tiles import N_KINDS
from rules.visibility import Visibility
from rules.waits import regular_mask_of, special_mask_of


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


@njit
def _state_kernel(
    counts: np.ndarray, calls: np.ndarray, indices: np.ndarray, after_action: np.ndarray, n_closed: np.ndarray,
    discard: int, tables: tuple, shanten: np.ndarray, masks: np.ndarray, n_waits: np.ndarray, is_tenpai: np.ndarray,
) -> None:  # fmt: skip
    """Per hand state, in one pass: its shanten (rules.shanten.shanten, from the regular-form distance and the
    seven-pairs and thirteen-orphans shanten of a hand without calls); for a state between turns (dealt or after
    a discard, ``discard`` its code) holding 13 - 3 x calls tiles its waits (rules.waits.waits_mask), their number
    and whether there are any, -1 for the others."""
    number_class, honor_class = tables[0], tables[1]
    suits = np.empty(4, dtype=np.int64)
    for row in range(counts.shape[0]):
        for suit in range(4):
            suits[suit] = indices[row, suit]
        check_indices(suits[0], suits[1], suits[2], suits[3], tables)
        regular = distance_of_classes(
            np.int64(number_class[suits[0]]), np.int64(number_class[suits[1]]), np.int64(number_class[suits[2]]),
            np.int64(honor_class[suits[3]]), MAX_MELDS - calls[row], 1, tables,
        )  # fmt: skip
        seven, thirteen = 99, 99
        best = regular - 1
        if calls[row] == 0:  # seven pairs and thirteen orphans need a closed hand
            seven, thirteen = special_of(counts, row)
            best = min(best, seven, thirteen)
        shanten[row] = best
        between_turns = after_action[row] == -1 or after_action[row] == discard
        if not (between_turns and n_closed[row] == 13 - 3 * calls[row]):
            masks[row], n_waits[row], is_tenpai[row] = -1, -1, -1
            continue
        # the regular form only near tenpai (as rules.waits._waits_kernel): at distance 1, or 2 with a kind held
        # four times (no other hand completes with one tile)
        near = regular <= 1
        if regular == 2:
            for kind in range(N_KINDS):
                near |= counts[row, kind] == 4
        mask = regular_mask_of(counts, row, suits, MAX_MELDS - calls[row], tables) if near else 0
        if calls[row] == 0:
            mask |= special_mask_of(counts, row, seven, thirteen)
        bits, left = 0, mask
        while left:
            left &= left - 1
            bits += 1
        masks[row], n_waits[row], is_tenpai[row] = mask, bits, mask != 0


def analyse_states(states: HandStates, vis: Visibility) -> dict[str, np.ndarray]:
    """Return per-state columns: shanten (int8), waits_mask (int64), n_waits, is_tenpai (int8),
    live_waits_public, live_waits_actual (int16), is_karaten, is_pure_karaten (int8); -1 where a column does not
    apply. Shanten and waits in one compiled pass over the states, the live counts of the tenpai ones in another."""
    n = len(states.round_id)
    shanten, masks = np.empty(n, dtype=np.int8), np.empty(n, dtype=np.int64)
    n_waits, is_tenpai = np.empty(n, dtype=np.int8), np.empty(n, dtype=np.int8)
    _state_kernel(
        np.ascontiguousarray(states.counts, dtype=np.int8), as_calls(states.n_calls, n),
        np.ascontiguousarray(states.suit_index, dtype=np.int64), np.ascontiguousarray(states.after_action, np.int64),
        np.ascontiguousarray(states.n_closed, dtype=np.int64), CODE["discard"], kernel_tables(),
        shanten, masks, n_waits, is_tenpai,
    )  # fmt: skip
    tenpai = np.flatnonzero(is_tenpai == 1)
    live_public = np.full(n, -1, dtype=np.int16)
    live_actual = np.full(n, -1, dtype=np.int16)
    pure = np.zeros(n, dtype=bool)
    if len(tenpai):
        live_public[tenpai], live_actual[tenpai], pure[tenpai] = state_live_waits(states, vis, masks, tenpai)
    return {
        "shanten": shanten,
        "waits_mask": masks,
        "n_waits": n_waits,
        "is_tenpai": is_tenpai,
        "live_waits_public": live_public,
        "live_waits_actual": live_actual,
        # tenpai with no live winning tile from the player's view; 0 when not tenpai, -1 mid-turn
        "is_karaten": np.where(is_tenpai == 1, live_public == 0, is_tenpai).astype(np.int8),
        "is_pure_karaten": np.where(is_tenpai >= 0, pure, -1).astype(np.int8),
    }
