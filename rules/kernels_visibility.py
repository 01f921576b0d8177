"""The numba kernels of rules.visibility and rules.analysis: the running public counts of every event, and the live
winning tiles of tenpai hands.

* ``visibility_kernel``: one pass over the events carries each round's running counts along from the round's start
  and writes them out row by row (the rare tiles of no kind 0-33 added after, run down the same way).
* ``closed_all_kernel``: the tiles in all closed hands at given moments (``states_at``: a binary search per seat
  among the hand states finds each seat's hand).
* ``live_waits_kernel``: per hand, the live winning tiles from the player's view and the table's, and whether it
  is pure karaten (``_live_hand``, the rule itself).
* ``live_counts_kernel``: the same for hand states, finding each state's public counts and all closed hands at
  its moment on the way (each round's seats walked forward, ``_states_at_walk``), without (N, 34) temporaries.

Malformed inputs keep the meaning they always had: a tile of unknown kind (136-id -1 to -4) counts in the cell
``row x 34 + kind`` of the flat (n_events, 34) matrix reaches, counts wrap as int8.

Kernels only: rules.visibility and rules.analysis call them with plain arrays (this module imports no rule module).
"""

from __future__ import annotations

import numpy as np

from rules.compiled import njit
from rules.tiles import N_KINDS

PACKED_LANES = 40
"""Kinds a 136-id past the 34 kinds may have without being refused (what the counts were once packed into: eight
to a word, five words); such a tile counts nowhere."""

ALL_KINDS = (1 << N_KINDS) - 1
"""The 34-bit mask of every kind."""


@njit
def _add_odd_public(public: np.ndarray, row: int, tile: int) -> None:
    """One shown tile of no kind 0-33 at event ``row``: where the flat index of an unknown kind reaches."""
    n = public.shape[0]
    kind = tile // 4
    if kind < 0:  # wrapped: the previous row's last columns (before the first row, the last row's)
        flat = (row * N_KINDS + kind) % (n * N_KINDS)
        public[flat // N_KINDS, flat % N_KINDS] += 1
    elif kind < N_KINDS:
        public[row, kind] += 1
    elif kind >= PACKED_LANES:
        raise IndexError("a 136-id past the packed counts")


@njit
def visibility_kernel(
    round_id: np.ndarray, action: np.ndarray, tile: np.ndarray, meld_offsets: np.ndarray, meld_values: np.ndarray,
    public_start: np.ndarray, shown_alone: np.ndarray, is_call: np.ndarray, ankan: int,
) -> np.ndarray:  # fmt: skip
    """(n_events, 34) int8 running public counts per round, from the round's start counts ``public_start``
    (n_rounds, 34); ``shown_alone`` (an event showing its own tile) and ``is_call`` by action code, ``ankan`` its
    code."""
    n = round_id.shape[0]
    n_codes = shown_alone.shape[0]
    public = np.empty((n, N_KINDS), dtype=np.int8)
    shown = np.zeros(N_KINDS, dtype=np.int8)  # the round's running counts, through the current event
    odd = False  # a tile of no kind 0-33 was shown: its cells are counted in place (_add_odd_public), afterwards
    for e in range(n):
        if e == 0 or round_id[e] != round_id[e - 1]:  # a round's first row: its start counts
            for k in range(N_KINDS):  # element by element: a slice's view costs more than the copy
                shown[k] = public_start[round_id[e], k]
        code = action[e]
        known = 0 <= code < n_codes  # an action the rules do not know shows nothing
        if known and shown_alone[code]:
            if 0 <= tile[e] < 4 * N_KINDS:
                shown[tile[e] >> 2] += 1
            else:
                odd = True
        if known and is_call[code]:
            for m in range(meld_offsets[e], meld_offsets[e + 1]):
                # the called tile is already visible as a discard (an ankan's are all from the hand)
                if code == ankan or meld_values[m] != tile[e]:
                    if 0 <= meld_values[m] < 4 * N_KINDS:
                        shown[meld_values[m] >> 2] += 1  # int8 wraps
                    else:
                        odd = True
        for k in range(N_KINDS):
            public[e, k] = shown[k]
    if odd:  # rare (malformed logs): the cells an odd tile reaches, run down their rounds as the others are
        _add_odd_tiles(round_id, action, tile, meld_offsets, meld_values, shown_alone, is_call, ankan, public)
    return public


@njit
def _add_odd_tiles(
    round_id: np.ndarray, action: np.ndarray, tile: np.ndarray, meld_offsets: np.ndarray, meld_values: np.ndarray,
    shown_alone: np.ndarray, is_call: np.ndarray, ankan: int, public: np.ndarray,
) -> None:  # fmt: skip
    """Add to the running counts ``public`` the tiles of no kind 0-33 that events show (_add_odd_public's cells),
    each run down its cell's round from the row it lands on (as visibility_kernel runs every row's own tiles)."""
    n = round_id.shape[0]
    n_codes = shown_alone.shape[0]
    extra = np.zeros((n, N_KINDS), dtype=np.int8)
    for e in range(n):
        code = action[e]
        known = 0 <= code < n_codes
        if known and shown_alone[code] and not 0 <= tile[e] < 4 * N_KINDS:
            _add_odd_public(extra, e, tile[e])
        if known and is_call[code]:
            for m in range(meld_offsets[e], meld_offsets[e + 1]):
                if (code == ankan or meld_values[m] != tile[e]) and not 0 <= meld_values[m] < 4 * N_KINDS:
                    _add_odd_public(extra, e, meld_values[m])
    for e in range(n):
        if e > 0 and round_id[e] == round_id[e - 1]:
            for k in range(N_KINDS):
                extra[e, k] += extra[e - 1, k]  # int8 wraps
        for k in range(N_KINDS):
            public[e, k] += extra[e, k]


@njit
def states_at(state_round: np.ndarray, state_seat: np.ndarray, state_row: np.ndarray, round_id: np.ndarray,
              event_row: np.ndarray) -> np.ndarray:  # fmt: skip
    """(Q, 4): for each seat of round round_id[q] right after its event row event_row[q] (-1: as dealt), the seat's
    last state at or before that row, -1 when none. States in rules.hands.hand_states order (by round x 4 + seat,
    then event row)."""
    n = state_round.shape[0]
    group = state_round * 4 + state_seat
    out = np.full((round_id.shape[0], 4), -1, dtype=np.int64)
    if n == 0:
        return out
    # each round's states: the search looks there first (a round holds few states), then checks its bounds
    n_rounds = max(state_round[-1] + 1, 0)
    round_start = np.searchsorted(state_round, np.arange(n_rounds + 1))
    for q in range(round_id.shape[0]):
        for seat in range(4):
            wanted, row = round_id[q] * 4 + seat, event_row[q]
            low, high = 0, n
            if 0 <= round_id[q] < n_rounds:
                low, high = round_start[round_id[q]], round_start[round_id[q] + 1]
                # the answer lies in the round's states unless a neighbour says otherwise (malformed inputs):
                # the state before them must be at most (wanted, row), the one after them past it
                before, after = max(low - 1, 0), min(high, n - 1)
                before_ok = low == 0 or group[before] < wanted or (group[before] == wanted and state_row[before] <= row)
                after_ok = high == n or group[after] > wanted or (group[after] == wanted and state_row[after] > row)
                if not (before_ok and after_ok):
                    low, high = 0, n
            while low < high:  # the first state past (wanted, row)
                middle = (low + high) >> 1
                if group[middle] < wanted or (group[middle] == wanted and state_row[middle] <= row):
                    low = middle + 1
                else:
                    high = middle
            # the state just before it, if it is that round's and seat's
            if low >= 1 and group[low - 1] == wanted:
                out[q, seat] = low - 1
    return out


@njit
def _states_at_walk(state_round: np.ndarray, state_seat: np.ndarray, state_row: np.ndarray,
                    rows: np.ndarray) -> np.ndarray:  # fmt: skip
    """states_at for the moments of hand states ``rows`` (ascending), by walking each round's seats forward instead
    of searching: a query's seat answers with the last of its states at or before the query's event row. None
    (an empty array) unless every state has a round >= 0 and a seat 0-3, and the states come strictly in
    (round, seat, event row) order: states_at then answers (it keeps the meaning of malformed states)."""
    n = state_round.shape[0]
    if n == 0:
        return np.empty((0, 4), dtype=np.int64)
    group_start = np.zeros((state_round[n - 1] + 1) * 4 + 1, dtype=np.int64)
    previous = -1
    for i in range(n):
        group = state_round[i] * 4 + state_seat[i]
        in_order = group > previous or (group == previous and state_row[i] > state_row[i - 1])
        if not (0 <= state_seat[i] < 4 and 0 <= group < group_start.shape[0] - 1 and in_order):
            return np.empty((0, 4), dtype=np.int64)
        group_start[group + 1] += 1
        previous = group
    for g in range(group_start.shape[0] - 1):
        group_start[g + 1] += group_start[g]
    out = np.full((rows.shape[0], 4), -1, dtype=np.int64)
    taken = np.zeros(4, dtype=np.int64)  # per seat: its states at or before the current query's row
    current, last_row = -1, -1
    for q in range(rows.shape[0]):
        state = rows[q]
        r, row = state_round[state], state_row[state]
        group = r * 4 + state_seat[state]
        if group != current or row < last_row:  # another seat's queries (or rows going back): walk from the start
            current = group
            taken[:] = 0
        last_row = row
        for seat in range(4):
            low, high = group_start[r * 4 + seat], group_start[r * 4 + seat + 1]
            while low + taken[seat] < high and state_row[low + taken[seat]] <= row:
                taken[seat] += 1
            if taken[seat]:
                out[q, seat] = low + taken[seat] - 1
    return out


@njit
def _sum_hands(found: np.ndarray, counts: np.ndarray, out: np.ndarray, kinds: int) -> None:
    """out (34,) int8 = the sum of the hands ``counts[found[seat]]`` of the seats found (-1: none), at the kinds of
    the 34-bit mask ``kinds`` (0 elsewhere)."""
    out[:] = 0
    for k in range(N_KINDS):
        if (kinds >> k) & 1:  # few kinds asked (a hand's waits): each is summed over the seats found
            for seat in range(found.shape[0]):
                if found[seat] >= 0:
                    out[k] += counts[found[seat], k]  # int8 wraps


@njit
def closed_all_kernel(
    counts: np.ndarray, state_round: np.ndarray, state_seat: np.ndarray, state_row: np.ndarray,
    round_id: np.ndarray, event_row: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """(Q, 34) int8: the tiles in all closed hands of round round_id[q] right after its event row event_row[q] (-1:
    as dealt), from the hand states' ``counts``, rounds, seats and event rows (see states_at)."""
    found = states_at(state_round, state_seat, state_row, round_id, event_row)
    out = np.empty((round_id.shape[0], N_KINDS), dtype=np.int8)
    for q in range(round_id.shape[0]):
        _sum_hands(found[q], counts, out[q], ALL_KINDS)
    return out


@njit
def _live_hand(mask: int, own: np.ndarray, shown: np.ndarray, closed_all: np.ndarray) -> tuple:
    """(live from the player's view, live in the wall, pure karaten) of one tenpai hand: its 34-bit waits
    ``mask``, its closed counts ``own``, the public counts ``shown`` and every closed hand's ``closed_all`` (34,)."""
    live_public, live_actual, pure = 0, 0, True
    for k in range(N_KINDS):
        if (mask >> k) & 1:
            shown_k = np.int64(shown[k])  # widened before the subtraction: int8 counts do not wrap here
            live_public += max(4 - shown_k - np.int64(own[k]), 0)
            live_actual += max(4 - shown_k - np.int64(closed_all[k]), 0)
            pure &= own[k] == 4  # every copy of every wait in the player's own closed hand
    return live_public, live_actual, pure


@njit
def live_waits_kernel(
    masks: np.ndarray, own: np.ndarray, public: np.ndarray, closed_all: np.ndarray,
    live_public: np.ndarray, live_actual: np.ndarray, pure: np.ndarray,
) -> None:  # fmt: skip
    """Fill live_public, live_actual, pure (N,) for N hands: waits ``masks`` (N,), closed counts ``own``, public
    counts ``public`` and all closed hands ``closed_all`` (N, 34) int8."""
    for i in range(masks.shape[0]):
        live_public[i], live_actual[i], pure[i] = _live_hand(masks[i], own[i], public[i], closed_all[i])


@njit
def live_counts_kernel(
    counts: np.ndarray, state_round: np.ndarray, state_seat: np.ndarray, state_row: np.ndarray, masks: np.ndarray,
    public: np.ndarray, public_start: np.ndarray, rows: np.ndarray,
    live_public: np.ndarray, live_actual: np.ndarray, pure: np.ndarray,
) -> None:  # fmt: skip
    """Fill live_public, live_actual, pure (Q,) for the hand states ``rows`` (counts, round, seat, event row and
    waits ``masks`` of every state; the running ``public`` counts per event and ``public_start`` per round, as
    visibility_kernel makes them): all closed hands at each state's moment, its public counts (after its event,
    or the round's start for a deal) and its live waits."""
    found = _states_at_walk(state_round, state_seat, state_row, rows)
    if found.shape[0] != rows.shape[0]:  # states not in plain order (malformed): searched
        found = states_at(state_round, state_seat, state_row, state_round[rows], state_row[rows])
    closed_all = np.zeros(1, dtype=np.int8)  # one kind's copies in all closed hands (summed as int8: wraps)
    for i in range(rows.shape[0]):
        # _sum_hands and _live_hand over the waits' kinds, inlined: no row views (their reference counting)
        state = rows[i]
        mask = masks[state]
        row, r = state_row[state], state_round[state]
        live_p, live_a, all_own = 0, 0, True
        for k in range(N_KINDS):
            if not (mask >> k) & 1:
                continue
            closed_all[0] = 0
            for seat in range(4):
                if found[i, seat] >= 0:
                    closed_all[0] += counts[found[i, seat], k]
            shown_k = np.int64(public[row, k] if row >= 0 else public_start[r, k])  # widened: no wrap below
            own_k = np.int64(counts[state, k])
            live_p += max(4 - shown_k - own_k, 0)
            live_a += max(4 - shown_k - np.int64(closed_all[0]), 0)
            all_own &= own_k == 4  # every copy of every wait in the player's own closed hand
        live_public[i], live_actual[i], pure[i] = live_p, live_a, all_own
