"""Hand states: every seat's closed tiles after every event that changes them, built in bulk.

Each hand-changing event becomes a row of tile deltas (+1 drawn, -1 discarded, the tiles a call
takes out of the hand, ...); the states are the cumulative sum of those rows within each
(round, seat). The sum is one ``np.cumsum`` per chunk of whole groups, restarted at each
group by subtracting what came before it.

Inputs are plain arrays (see ``EventArrays``); nothing here reads files.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

ACTIONS = (
    "draw", "discard", "chi", "pon", "daiminkan", "kakan", "ankan", "kita",
    "riichi", "riichi_accepted", "dora", "disconnect", "reconnect",
)  # fmt: skip
"""Event actions by code, as in the events table."""

CODE = {name: code for code, name in enumerate(ACTIONS)}
"""Action name -> code."""

CALLS = ("chi", "pon", "daiminkan", "ankan")
"""Actions that add a meld (a kakan upgrades one; a kita is not a meld)."""


def is_action(action: np.ndarray, names: tuple[str, ...] | list[str]) -> np.ndarray:
    """Bool array: whether each action code is one of ``names`` (a table lookup; codes outside ACTIONS,
    e.g. -1, are not)."""
    table = np.zeros(len(ACTIONS) + 1, dtype=bool)
    table[[CODE[name] for name in names]] = True
    return table[np.where((action >= 0) & (action < len(ACTIONS)), action, len(ACTIONS))]


def add_counts(rows: np.ndarray, columns: np.ndarray, deltas: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """An int8 matrix of ``shape`` holding the sum of ``deltas`` at each (row, column) (``np.add.at`` on the
    flat matrix: two to three times faster than with a (rows, columns) index)."""
    n, width = shape
    flat = np.zeros(n * width, dtype=np.int8)
    np.add.at(flat, rows * width + columns, deltas.astype(np.int8))
    return flat.reshape(n, width)


N_COLUMNS = 37
"""Columns of a state: 34 kinds, then red 5m, 5p, 5s."""

_RED_COLUMN = np.full(136, -1, dtype=np.int64)
_RED_COLUMN[[16, 52, 88]] = [34, 35, 36]


@dataclass
class EventArrays:
    """Events of many rounds in order (rounds contiguous, events by event_idx within a round).

    ``round_id`` numbers rounds 0.. in order; ``meld_offsets``/``meld_values`` hold each event's
    meld tiles as a flattened list (Arrow's layout: event i owns values[offsets[i]:offsets[i+1]]).
    ``hands_start`` is (n_rounds, 4, 13) 136-ids, -1 where a seat has no hand (sanma).
    """

    round_id: np.ndarray
    event_idx: np.ndarray
    seat: np.ndarray
    action: np.ndarray
    tile: np.ndarray
    from_seat: np.ndarray
    meld_offsets: np.ndarray
    meld_values: np.ndarray
    hands_start: np.ndarray
    has_red_fives: np.ndarray
    """(n_rounds,) bool: red fives are in play in that round's game."""


@dataclass
class HandStates:
    """One row per (round, seat, hand-changing event); ``event_row`` -1 is the deal."""

    round_id: np.ndarray
    seat: np.ndarray
    event_row: np.ndarray
    event_idx: np.ndarray
    counts: np.ndarray
    red: np.ndarray
    n_calls: np.ndarray
    after_action: np.ndarray
    """Action code of the event that made the state (-1: the deal)."""

    @cached_property
    def n_closed(self) -> np.ndarray:
        """Closed tiles held in each state."""
        return self.counts.sum(axis=1, dtype=np.int16)


def last_row_per_round(events: EventArrays, rows_mask: np.ndarray) -> np.ndarray:
    """(n_rounds,) the last event row of each round among ``rows_mask`` (-1 where the round has none)."""
    rows = np.flatnonzero(rows_mask)
    last = np.full(len(events.hands_start), -1, dtype=np.int64)
    last[events.round_id[rows]] = rows
    return last


def tile_deltas(events: EventArrays) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(event row, 136-id, delta) for every tile entering or leaving a closed hand."""
    action = events.action
    rows = np.arange(len(action))
    single = is_action(action, ("draw", "discard", "kakan", "kita"))
    single_rows = rows[single]
    single_delta = np.where(action[single_rows] == CODE["draw"], 1, -1)
    lengths = np.diff(events.meld_offsets)
    owner = np.repeat(rows, lengths)
    meld_tile = events.meld_values
    takes = is_action(action[owner], CALLS)
    # the called tile came from another seat's discard: it never was in this hand
    takes &= (action[owner] == CODE["ankan"]) | (meld_tile != events.tile[owner])
    row = np.concatenate([single_rows, owner[takes]])
    tile = np.concatenate([events.tile[single_rows], meld_tile[takes]])
    delta = np.concatenate([single_delta, np.full(int(takes.sum()), -1)])
    return row, tile, delta


def _state_keys(events: EventArrays, changed_rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sorted states: the deal of every (round, seat) plus each changing event; returns
    (round_id, seat, event_row) with event_row -1 for the deal."""
    n_rounds, n_seats = events.hands_start.shape[:2]
    has_hand = (events.hands_start >= 0).any(axis=2)
    deal_round, deal_seat = np.nonzero(has_hand)
    round_id = np.concatenate([deal_round, events.round_id[changed_rows]])
    seat = np.concatenate([deal_seat, events.seat[changed_rows]])
    event_row = np.concatenate([np.full(len(deal_round), -1), changed_rows])
    order = np.lexsort((event_row, seat, round_id))
    return round_id[order], seat[order], event_row[order]


def hand_states(events: EventArrays) -> HandStates:
    """Return every seat's closed hand after the deal and after each event that changed it."""
    delta_row, delta_tile, delta = tile_deltas(events)
    changed = np.flatnonzero(np.bincount(delta_row, minlength=len(events.action)))
    round_id, seat, event_row = _state_keys(events, changed)
    group_start = np.flatnonzero(np.r_[True, (round_id[1:] != round_id[:-1]) | (seat[1:] != seat[:-1])])
    # each delta goes to its state: an event's state by row, a dealt tile to its group's first state
    state_of_row = np.full(len(events.action), -1, dtype=np.int64)
    on_event = np.flatnonzero(event_row >= 0)
    state_of_row[event_row[on_event]] = on_event
    dealt_round, dealt_seat, slot = np.nonzero(events.hands_start >= 0)
    group_keys = round_id[group_start] * 4 + seat[group_start]
    deal_state = group_start[np.searchsorted(group_keys, dealt_round * 4 + dealt_seat)]
    rows = np.concatenate([deal_state, state_of_row[delta_row]])
    tiles = np.concatenate([events.hands_start[dealt_round, dealt_seat, slot], delta_tile])
    deltas = np.concatenate([np.ones(len(deal_state), dtype=np.int8), delta.astype(np.int8)])
    red_rules = events.has_red_fives[round_id[rows]]
    matrix = _delta_matrix(rows, tiles, deltas, red_rules, len(round_id))
    counts = grouped_cumsum(matrix, group_start)
    n_calls = grouped_cumsum_1d(_calls_added(events, event_row), group_start)
    idx = np.where(event_row >= 0, events.event_idx[np.maximum(event_row, 0)], -1)
    after = np.where(event_row >= 0, events.action[np.maximum(event_row, 0)], -1)
    return HandStates(round_id, seat, event_row, idx, counts[:, :34], counts[:, 34:], n_calls, after)


def _delta_matrix(rows: np.ndarray, tiles: np.ndarray, deltas: np.ndarray, red_rules: np.ndarray, n: int) -> np.ndarray:
    """(n, 37) int8 of summed deltas per state: kinds, then red fives where the rules have them."""
    red_col = _RED_COLUMN[tiles]
    is_red = (red_col >= 0) & red_rules
    return add_counts(
        np.concatenate([rows, rows[is_red]]),
        np.concatenate([tiles // 4, red_col[is_red]]),
        np.concatenate([deltas, deltas[is_red]]),
        (n, N_COLUMNS),
    )


def _calls_added(events: EventArrays, event_row: np.ndarray) -> np.ndarray:
    """1 for a state created by a call that adds a meld, else 0."""
    is_call = is_action(events.action, CALLS)
    return np.where(event_row >= 0, is_call[np.maximum(event_row, 0)], False).astype(np.int8)


def grouped_cumsum_1d(values: np.ndarray, group_start: np.ndarray) -> np.ndarray:
    """Cumulative sum of small non-negative int8 values restarting at each group start, as int8 (one
    int64 running sum minus, for each group, the sum just before the group began)."""
    sums = np.cumsum(values, dtype=np.int64)
    before = sums[group_start] - values[group_start]
    lengths = np.diff(np.append(group_start, len(values)))
    return (sums - np.repeat(before, lengths)).astype(np.int8)


CHUNK_ROWS = 4096
"""Rows summed per pass (chunks start at group starts). Each group's total is a real state (at most
4 of a kind), so a chunk's running int16 sum stays below 4096 x 4 + 4, well inside int16."""


def grouped_cumsum(matrix: np.ndarray, group_start: np.ndarray) -> np.ndarray:
    """Cumulative sum of int8 rows restarting at each group start, as int8.

    Works in chunks of whole groups: a chunk's int16 cumulative sum minus, for each group, the
    sum just before the group began.
    """
    n = len(matrix)
    out = np.empty(matrix.shape, dtype=np.int8)
    # chunks begin at the last group start at or before every CHUNK_ROWS-th row
    chunk_groups = np.searchsorted(group_start, np.arange(0, n, CHUNK_ROWS), side="right") - 1
    bounds = np.unique(np.append(group_start[chunk_groups], n))
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        sums = np.cumsum(matrix[a:b], axis=0, dtype=np.int16)
        starts = group_start[(group_start >= a) & (group_start < b)] - a
        before = np.zeros((len(starts), matrix.shape[1]), dtype=np.int16)
        before[1:] = sums[starts[1:] - 1]
        sums -= np.repeat(before, np.diff(np.append(starts, b - a)), axis=0)
        out[a:b] = sums
    return out
