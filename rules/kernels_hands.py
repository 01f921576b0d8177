"""The numba kernel of rules.hands.hand_states: every seat's closed hand after the deal and after every event that
changes it, in a few passes over the events.

The events' tile deltas (+1 drawn; -1 discarded, added to a kan or set aside as kita; -1 for each tile a call
takes from the hand) are listed first; the states (every dealt hand, then every event with a delta) are ordered by
(round, seat) with a stable counting sort; each state's counts are its group's previous state's plus its own
deltas: when every tile is of a known kind, one pass carries each group's running hand along and writes it out
(_running_states); else the deltas are added in place first and run down after. Malformed inputs keep the
meaning they always had: a tile of unknown kind (136-id -1 to -4) counts in the cell ``state x 37 + kind`` of the
flat (states, 37) matrix reaches (the previous state's last column: red 5s), counts wrap as int8, and a 136-id
outside -136..135 raises IndexError.

Kernels only: rules.hands calls them with plain arrays (this module imports no rule module).
"""

from __future__ import annotations

import numpy as np

from rules.compiled import njit
from rules.tiles import N_KINDS

N_COLUMNS = N_KINDS + 3
"""Columns of a state: 34 kinds, then red 5m, 5p, 5s."""

SUIT_WEIGHT = 5 ** (np.arange(N_KINDS, dtype=np.int64) % 9)
"""Weight of each 34-kind in its suit's base-5 index (rules.shanten.suit_indices)."""

RED_COLUMN = np.full(136, -1, dtype=np.int64)
RED_COLUMN[[16, 52, 88]] = [34, 35, 36]
"""Column of each 136-id's red-five count (34-36), -1 for the other tiles."""


@njit
def _tile_deltas(
    action: np.ndarray, tile: np.ndarray, meld_offsets: np.ndarray, meld_values: np.ndarray,
    single_delta: np.ndarray, is_call: np.ndarray, ankan: int,
) -> tuple:  # fmt: skip
    """(event row, 136-id, delta) of every tile entering or leaving a closed hand: an event's own tile
    (``single_delta`` by action code: +1, -1 or 0), then the tiles a call takes from the hand."""
    n_codes = single_delta.shape[0]
    n = action.shape[0] + meld_values.shape[0]  # at most one per event and one per meld tile
    row, tiles, delta = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
    i = 0
    for e in range(action.shape[0]):
        code = action[e]
        if not 0 <= code < n_codes:  # an action the rules do not know changes nothing
            continue
        if single_delta[code] != 0:
            row[i], tiles[i], delta[i] = e, tile[e], single_delta[code]
            i += 1
        if is_call[code]:
            for m in range(meld_offsets[e], meld_offsets[e + 1]):
                # the called tile came from another seat's discard: it never was in this hand (an ankan's all were)
                if code == ankan or meld_values[m] != tile[e]:
                    row[i], tiles[i], delta[i] = e, meld_values[m], -1
                    i += 1
    # copies of the filled part: contiguous arrays (a slice's layout would slow every kernel taking them)
    return row[:i].copy(), tiles[:i].copy(), delta[:i].copy()


@njit
def _state_order(
    ev_round: np.ndarray, ev_seat: np.ndarray, has_hand: np.ndarray, changed: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(round_id, seat, event_row) of the states: every dealt hand (event row -1), then every changed row, ordered
    stably by round x 5 + seat + 1 (deals first, rows ascending within a (round, seat))."""
    n_rounds, n_seats = has_hand.shape
    n = changed.shape[0]
    for r in range(n_rounds):
        for s in range(n_seats):
            n += has_hand[r, s]
    keys = np.empty(n, dtype=np.int64)
    rid, seat, row = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
    i = 0
    for r in range(n_rounds):  # the deals in (round, seat) order
        for s in range(n_seats):
            if has_hand[r, s]:
                rid[i], seat[i], row[i] = r, s, -1
                i += 1
    for e in changed:  # then the changed rows, ascending
        rid[i], seat[i], row[i] = ev_round[e], ev_seat[e], e
        i += 1
    if n == 0:
        return rid, seat, row
    low, high = 1 << 62, -(1 << 62)
    for i in range(n):
        keys[i] = rid[i] * 5 + seat[i] + 1  # seat -1 (no seat) sorts before seat 0
        low, high = min(low, keys[i]), max(high, keys[i])
    # a counting sort on the key: stable, linear
    starts = np.zeros(high - low + 2, dtype=np.int64)
    for i in range(n):
        starts[keys[i] - low + 1] += 1
    for k in range(1, starts.shape[0]):
        starts[k] += starts[k - 1]
    out_rid, out_seat, out_row = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
    for i in range(n):
        at = starts[keys[i] - low]
        starts[keys[i] - low] += 1
        out_rid[at], out_seat[at], out_row[at] = rid[i], seat[i], row[i]
    return out_rid, out_seat, out_row


@njit
def _check_tiles(tiles: np.ndarray, n_ids: int) -> None:
    """Raise IndexError for a 136-id outside -136..135 (its red-five column would be read out of bounds)."""
    for tile in tiles:
        if tile < -n_ids or tile >= n_ids:
            raise IndexError("a 136-id outside -136..135")


@njit
def _add_tiles(
    states: np.ndarray, tiles: np.ndarray, deltas: np.ndarray, rid: np.ndarray, has_red: np.ndarray,
    counts: np.ndarray, red: np.ndarray, suit_index: np.ndarray, n_closed: np.ndarray, suit_weight: np.ndarray,
    red_column: np.ndarray,
) -> None:  # fmt: skip
    """Add deltas[i] copies of the 136-id tiles[i] (checked by _check_tiles) to state states[i]'s own deltas (one
    call for many tiles: a kernel's call passes and counts references to every array)."""
    n_ids = red_column.shape[0]
    for i in range(states.shape[0]):
        state, tile, delta = states[i], tiles[i], deltas[i]
        kind = tile >> 2
        # a negative 136-id reads its red-five column from the end, as an index from the end would
        red_col = red_column[tile + n_ids if tile < 0 else tile]
        if red_col >= 0 and has_red[rid[state]]:
            red[state, red_col - N_KINDS] += delta
        if kind >= 0:
            counts[state, kind] += delta
            suit_index[state, kind // 9] += delta * suit_weight[kind]
            n_closed[state] += delta
            continue
        # an unknown kind: the cell state x 37 + kind of the flat (n, 37) matrix, wrapped round from the start
        flat = (state * N_COLUMNS + kind) % (counts.shape[0] * N_COLUMNS)
        row, column = flat // N_COLUMNS, flat % N_COLUMNS
        if column < N_KINDS:
            counts[row, column] += delta
        else:
            red[row, column - N_KINDS] += delta


@njit(_nrt=False)
def _all_known(tiles: np.ndarray) -> bool:
    """Whether every 136-id is of a known kind (0-135): the running pass (_running_states) then applies."""
    for tile in tiles:  # noqa: SIM110 - a loop numba compiles (not all() of a generator)
        if not 0 <= tile < 4 * N_KINDS:
            return False
    return True


@njit
def _running_states(
    rid: np.ndarray, seat: np.ndarray, row: np.ndarray, first: np.ndarray, ev_action: np.ndarray,
    ev_event_idx: np.ndarray, hands_start: np.ndarray, has_red: np.ndarray, delta_row: np.ndarray,
    delta_tile: np.ndarray, delta: np.ndarray, is_call: np.ndarray, suit_weight: np.ndarray, red_column: np.ndarray,
) -> tuple:  # fmt: skip
    """hand_states_kernel's result when every tile is of a known kind: one pass over the ordered states carries each
    (round, seat)'s running hand along (reset at a group's first state), adds the state's own tiles (the dealt
    ones, or its event's deltas: ``delta_row`` ascending) and writes it out; the same sums as adding every
    state's deltas first and running them down after, without reading the rows back."""
    n = rid.shape[0]
    n_events = ev_action.shape[0]
    delta_start = np.zeros(n_events + 1, dtype=np.int64)  # event e's deltas: delta_start[e]:delta_start[e + 1]
    for i in range(delta_row.shape[0]):
        delta_start[delta_row[i] + 1] += 1
    for e in range(n_events):
        delta_start[e + 1] += delta_start[e]
    counts = np.empty((n, N_KINDS), dtype=np.int8)
    red = np.empty((n, N_COLUMNS - N_KINDS), dtype=np.int8)
    suit_index = np.empty((n, 4), dtype=np.int64)
    n_closed = np.empty(n, dtype=np.int64)
    n_calls = np.empty(n, dtype=np.int8)
    event_idx = np.full(n, -1, dtype=np.int64)
    after = np.full(n, -1, dtype=np.int64)
    hand = np.zeros(N_KINDS, dtype=np.int8)
    hand_red = np.zeros(N_COLUMNS - N_KINDS, dtype=np.int8)
    hand_suits = np.zeros(4, dtype=np.int64)
    closed, calls = np.int64(0), np.int8(0)
    for i in range(n):
        if first[i]:  # element by element: a slice is a view, whose reference counting costs more than the copy
            for k in range(N_KINDS):
                hand[k] = 0
            for k in range(N_COLUMNS - N_KINDS):
                hand_red[k] = 0
            for k in range(4):
                hand_suits[k] = 0
            closed, calls = 0, 0
        r = rid[i]
        if row[i] < 0:  # a deal: the seat's dealt tiles
            for slot in range(hands_start.shape[2]):
                tile = hands_start[r, seat[i], slot]
                if tile >= 0:
                    closed += _move(tile, 1, hand, hand_red, hand_suits, has_red[r], suit_weight, red_column)
        else:
            e = row[i]
            code = ev_action[e]
            event_idx[i], after[i] = ev_event_idx[e], code
            calls += 0 <= code < is_call.shape[0] and is_call[code]  # a call adds a meld (int8 wraps)
            for d in range(delta_start[e], delta_start[e + 1]):
                closed += _move(delta_tile[d], delta[d], hand, hand_red, hand_suits, has_red[r], suit_weight,
                                red_column)  # fmt: skip
        for k in range(N_KINDS):
            counts[i, k] = hand[k]
        for k in range(N_COLUMNS - N_KINDS):
            red[i, k] = hand_red[k]
        for k in range(4):
            suit_index[i, k] = hand_suits[k]
        n_closed[i], n_calls[i] = closed, calls
    return rid, seat, row, event_idx, counts, red, n_calls, after, suit_index, n_closed


@njit(_nrt=False)
def _move(tile: int, delta: int, hand: np.ndarray, hand_red: np.ndarray, hand_suits: np.ndarray, has_red: bool,
          suit_weight: np.ndarray, red_column: np.ndarray) -> int:  # fmt: skip
    """Add ``delta`` copies of the 136-id ``tile`` (0-135) to a running hand; return ``delta`` (its closed tiles)."""
    kind = tile >> 2
    hand[kind] += delta  # int8 wraps
    hand_suits[kind // 9] += delta * suit_weight[kind]
    if has_red and red_column[tile] >= 0:
        hand_red[red_column[tile] - N_KINDS] += delta
    return delta


@njit
def hand_states_kernel(
    ev_round: np.ndarray, ev_seat: np.ndarray, ev_action: np.ndarray, ev_event_idx: np.ndarray, ev_tile: np.ndarray,
    meld_offsets: np.ndarray, meld_values: np.ndarray, hands_start: np.ndarray, has_red: np.ndarray,
    single_delta: np.ndarray, is_call: np.ndarray, ankan: int,
) -> tuple:  # fmt: skip
    """The fields of rules.hands.HandStates in order, n_closed as int64 (narrowed by the caller). Arrays as in
    rules.hands.EventArrays (int64, has_red bool); ``single_delta``, ``is_call`` by action code (see _tile_deltas),
    ``ankan`` its code."""
    delta_row, delta_tile, delta = _tile_deltas(ev_action, ev_tile, meld_offsets, meld_values, single_delta,
                                                is_call, ankan)  # fmt: skip
    n_events = ev_round.shape[0]
    changed_flag = np.zeros(n_events, dtype=np.bool_)
    for i in range(delta_row.shape[0]):
        changed_flag[delta_row[i]] = True
    changed = np.flatnonzero(changed_flag)
    n_rounds, n_seats, n_slots = hands_start.shape
    has_hand = np.zeros((n_rounds, n_seats), dtype=np.bool_)
    n_dealt = 0
    for r in range(n_rounds):
        for s in range(n_seats):
            for slot in range(n_slots):
                has_hand[r, s] |= hands_start[r, s, slot] >= 0
                n_dealt += hands_start[r, s, slot] >= 0
    rid, seat, row = _state_order(ev_round, ev_seat, has_hand, changed)
    n = rid.shape[0]
    first = np.empty(n, dtype=np.bool_)  # a (round, seat) group's first state: its deal, when dealt
    state_of_row = np.full(n_events, -1, dtype=np.int64)
    deal_state = np.full((n_rounds, n_seats), -1, dtype=np.int64)
    for i in range(n):
        first[i] = i == 0 or rid[i] != rid[i - 1] or seat[i] != seat[i - 1]
        if row[i] >= 0:
            state_of_row[row[i]] = i
        elif first[i]:
            deal_state[rid[i], seat[i]] = i
    # each state's own deltas: the dealt tiles on the deal, each event's tiles on the event's state
    dealt_state, dealt_tile = np.empty(n_dealt, dtype=np.int64), np.empty(n_dealt, dtype=np.int64)
    i = 0
    for r in range(n_rounds):
        for s in range(n_seats):
            for slot in range(n_slots):
                if hands_start[r, s, slot] >= 0:
                    dealt_state[i], dealt_tile[i] = deal_state[r, s], hands_start[r, s, slot]
                    i += 1
    _check_tiles(dealt_tile, RED_COLUMN.shape[0])
    _check_tiles(delta_tile, RED_COLUMN.shape[0])
    if _all_known(dealt_tile) and _all_known(delta_tile):
        return _running_states(rid, seat, row, first, ev_action, ev_event_idx, hands_start, has_red, delta_row,
                               delta_tile, delta, is_call, SUIT_WEIGHT, RED_COLUMN)  # fmt: skip
    counts = np.zeros((n, N_KINDS), dtype=np.int8)
    red = np.zeros((n, N_COLUMNS - N_KINDS), dtype=np.int8)
    suit_index = np.zeros((n, 4), dtype=np.int64)
    n_closed = np.zeros(n, dtype=np.int64)
    tables = (SUIT_WEIGHT, RED_COLUMN)
    _add_tiles(dealt_state, dealt_tile, np.ones(n_dealt, dtype=np.int64), rid, has_red, counts, red, suit_index,
               n_closed, *tables)  # fmt: skip
    _add_tiles(state_of_row[delta_row], delta_tile, delta, rid, has_red, counts, red, suit_index, n_closed, *tables)
    # running sums within each (round, seat): a state adds its group's previous state
    n_calls = np.zeros(n, dtype=np.int8)
    event_idx = np.full(n, -1, dtype=np.int64)
    after = np.full(n, -1, dtype=np.int64)
    for i in range(n):
        if row[i] >= 0:
            code = ev_action[row[i]]
            event_idx[i], after[i] = ev_event_idx[row[i]], code
            n_calls[i] = 0 <= code < is_call.shape[0] and is_call[code]  # a call adds a meld
        if first[i]:
            continue
        for k in range(N_KINDS):
            counts[i, k] += counts[i - 1, k]  # int8 wraps
        for k in range(N_COLUMNS - N_KINDS):
            red[i, k] += red[i - 1, k]
        for k in range(4):
            suit_index[i, k] += suit_index[i - 1, k]
        n_closed[i] += n_closed[i - 1]
        n_calls[i] += n_calls[i - 1]
    return rid, seat, row, event_idx, counts, red, n_calls, after, suit_index, n_closed
