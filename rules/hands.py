"""Hand states: every seat's closed tiles after every event that changes them, built in bulk.

Each hand-changing event becomes a row of tile deltas (+1 drawn, -1 discarded, the tiles a call
takes out of the hand, ...); the states are the cumulative sum of those rows within each
(round, seat), eight counts to an int64 word (rules.running). Each suit's base-5 index and the number of
closed tiles are linear in the counts: they are summed along in the same pass.

Inputs are plain arrays (see ``EventArrays``); nothing here reads files.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from rules.hand_batch import HandBatch
from rules.running import n_words, packed_deltas, running_sums_in_groups, unpack_counts, wrapped_cells

ACTIONS = (
    "draw", "discard", "chi", "pon", "daiminkan", "kakan", "ankan", "kita",
    "riichi", "riichi_accepted", "dora", "disconnect", "reconnect",
)  # fmt: skip
"""Event actions by code, as in the events table."""

CODE = {name: code for code, name in enumerate(ACTIONS)}
"""Action name -> code."""

CALLS = ("chi", "pon", "daiminkan", "ankan")
"""Actions that add a meld (a kakan upgrades one; a kita is not a meld)."""

INTERRUPTING_ACTIONS = ("chi", "pon", "daiminkan", "ankan", "kakan", "kita")
"""Actions that interrupt the go-around (Tenhou): any call, own kans and a sanma kita alike end every
first-turn and one-go-around right: kyuushu kyuuhai, suufon renda, double riichi, ippatsu, chiihou.
A kita is one: Tenhou gave no ippatsu to 15 riichi wins of the 2009/2017 sanma logs with a kita between the
declaration and the win, and ippatsu to all 135 without one (e.g. 2017010102gm-00b9-0000-f634a67e round 1);
no double riichi after the declarer's own kita (2017010105gm-00b9-0000-f3973b44 round 3); no kyuushu kyuuhai
declared in the 27 sanma hands of 9+ terminal kinds whose first draw came after a kita, where 39 of the 57
without one were declared."""


def is_action(action: np.ndarray, names: tuple[str, ...] | list[str]) -> np.ndarray:
    """Bool array: whether each action code is one of ``names`` (a table lookup; codes outside ACTIONS,
    e.g. -1, are not)."""
    codes = sorted({CODE[name] for name in names})
    if codes and codes[-1] - codes[0] == len(codes) - 1:  # a run of codes: two comparisons
        return (action >= codes[0]) & (action <= codes[-1])
    table = np.zeros(len(ACTIONS) + 1, dtype=bool)
    table[codes] = True
    if action.size and action.min() >= 0 and action.max() < len(ACTIONS):  # two fast passes, no index arrays
        return table[action]
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
    suit_index: np.ndarray
    """(N, 4) int64 base-5 index of each suit's counts (as rules.shanten.suit_indices gives)."""
    n_closed: np.ndarray
    """Closed tiles held in each state (int16)."""

    @cached_property
    def hands(self) -> HandBatch:
        """The states' hands as one HandBatch (computed once: shanten, waits and later questions share it)."""
        return HandBatch.of(self.counts, self.n_calls, self.suit_index)


def last_row_per_round(events: EventArrays, rows_mask: np.ndarray) -> np.ndarray:
    """(n_rounds,) the last event row of each round among ``rows_mask`` (-1 where the round has none)."""
    rows = np.flatnonzero(rows_mask)
    last = np.full(len(events.hands_start), -1, dtype=np.int64)
    last[events.round_id[rows]] = rows
    return last


def events_of_rounds(events: EventArrays, rounds: np.ndarray) -> tuple[EventArrays, np.ndarray]:
    """The events of some rounds (``rounds``: ascending round ids, no repeats) as EventArrays of their own, the
    rounds numbered 0.. in that order; and (n,) the row in ``events`` of each of their rows."""
    rounds = np.asarray(rounds, dtype=np.int64)
    first = np.searchsorted(events.round_id, rounds, side="left")
    lengths = np.searchsorted(events.round_id, rounds, side="right") - first
    rows = _concat_ranges(first, lengths)
    meld_lengths = events.meld_offsets[rows + 1] - events.meld_offsets[rows]
    return EventArrays(
        round_id=np.repeat(np.arange(len(rounds)), lengths),
        event_idx=events.event_idx[rows],
        seat=events.seat[rows],
        action=events.action[rows],
        tile=events.tile[rows],
        from_seat=events.from_seat[rows],
        meld_offsets=np.concatenate([[0], np.cumsum(meld_lengths)]).astype(events.meld_offsets.dtype),
        meld_values=events.meld_values[_concat_ranges(events.meld_offsets[rows], meld_lengths)],
        hands_start=events.hands_start[rounds],
        has_red_fives=events.has_red_fives[rounds],
    ), rows


def _concat_ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The ranges [start, start + length) one after the other, as one int64 array."""
    ends = np.cumsum(lengths)
    return np.arange(ends[-1] if len(ends) else 0, dtype=np.int64) + np.repeat(starts - (ends - lengths), lengths)


def row_before(skipped: np.ndarray, at: np.ndarray) -> np.ndarray:
    """For each row ``at`` (>= 0): the last row before it that is not among the ascending rows ``skipped``; -1
    when there is none."""
    # the k-th kept row (from 0) is row k plus the skipped rows before it; skipped row i has i - (its rank) kept
    # rows before it, so those before the k-th kept row are the ones with at most k kept rows before them
    k = at - np.searchsorted(skipped, at, side="left") - 1  # kept rows before ``at``, less one
    kept_before = skipped - np.arange(len(skipped))
    return np.where(k >= 0, k + np.searchsorted(kept_before, k, side="right"), -1)


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
    # deals come first and changed rows ascend: a stable sort by (round, seat) alone keeps the rows in order
    order = np.argsort(round_id * 5 + (seat + 1), kind="stable")
    return round_id[order], seat[order], event_row[order]


def hand_states(events: EventArrays, deltas: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> HandStates:
    """Return every seat's closed hand after the deal and after each event that changed it (``deltas``: the
    events' tile_deltas when already known)."""
    delta_row, delta_tile, delta = tile_deltas(events) if deltas is None else deltas
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
    counts, red, suit_index, n_closed = _running_hands(rows, tiles, deltas, red_rules, len(round_id), group_start)
    n_calls = grouped_cumsum_1d(_calls_added(events, event_row), group_start)
    idx = np.where(event_row >= 0, events.event_idx[np.maximum(event_row, 0)], -1)
    after = np.where(event_row >= 0, events.action[np.maximum(event_row, 0)], -1)
    return HandStates(round_id, seat, event_row, idx, counts, red, n_calls, after, suit_index, n_closed)


_SUIT_WEIGHT = 5 ** (np.arange(34, dtype=np.int64) % 9)
"""Weight of each 34-kind in its suit's base-5 index (rules.shanten.suit_indices)."""


def _running_hands(
    rows: np.ndarray, tiles: np.ndarray, deltas: np.ndarray, red_rules: np.ndarray, n: int, group_start: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per state from the summed deltas of its group so far: (n, 34) int8 counts of the kinds, (n, 3) int8 red
    fives (where the rules have them; a view), (n, 4) int64 suit indices and (n,) int16 closed tiles.

    The suit indices and the tile count are linear in the counts: they run along with them, in one pass."""
    n_packed = n_words(N_COLUMNS)
    sums = np.zeros((n_packed + 5, n), dtype=np.int64)  # per state: the packed count words, 4 suit indices, tiles
    cells = sums.reshape(-1)
    kinds = tiles >> 2
    # each tile's count, where an unknown one (kind -1) lands as rules.hands.add_counts would put it
    count_rows, count_columns = wrapped_cells(rows, kinds, (n, N_COLUMNS))
    words, packed = packed_deltas(count_columns, deltas)
    np.add.at(cells, words * n + count_rows, packed)
    # a red five (where the rules have them) counts in its own column too
    red_col = _RED_COLUMN[tiles]
    red = np.flatnonzero((red_col >= 0) & red_rules)
    words, packed = packed_deltas(red_col[red], deltas[red])
    np.add.at(cells, words * n + rows[red], packed)
    # the suit index and the tile count of known tiles (an unknown one adds 0 to the first suit)
    known = kinds >= 0
    wide = np.where(known, deltas, 0).astype(np.int64)
    kinds = np.maximum(kinds, 0)
    np.add.at(cells, (n_packed + kinds // 9) * n + rows, wide * _SUIT_WEIGHT[kinds])
    np.add.at(cells, (n_packed + 4) * n + rows, wide)
    running_sums_in_groups(sums, group_start)
    suit_index = np.ascontiguousarray(sums[n_packed : n_packed + 4].T)
    lanes = unpack_counts(sums[:n_packed])
    # the counts are read by many derivations: contiguous; the red fives only by the hand_states table
    return np.ascontiguousarray(lanes[:, :34]), lanes[:, 34:N_COLUMNS], suit_index, sums[n_packed + 4].astype(np.int16)


def _calls_added(events: EventArrays, event_row: np.ndarray) -> np.ndarray:
    """1 for a state created by a call that adds a meld, else 0."""
    is_call = is_action(events.action, CALLS)
    return np.where(event_row >= 0, is_call[np.maximum(event_row, 0)], False).astype(np.int8)


def grouped_cumsum_1d(values: np.ndarray, group_start: np.ndarray, dtype: type = np.int8) -> np.ndarray:
    """Cumulative sum of small non-negative values restarting at each group start, as ``dtype`` (one
    int64 running sum minus, for each group, the sum just before the group began)."""
    sums = np.cumsum(values, dtype=np.int64)
    before = sums[group_start] - values[group_start]
    lengths = np.diff(np.append(group_start, len(values)))
    return (sums - np.repeat(before, lengths)).astype(dtype)
