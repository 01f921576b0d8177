"""The numba kernels of rules.furiten: each seat's first discards and its rows of riichi, discards and hand changes
(seat_history), every seat's current waits at every event (current_waits), and the own-discard furiten flag of
every hand state (own_discard_furiten).

* ``first_discards_kernel``: one pass finds every seat's first discard of each kind in each round, a counting
  sort orders them by (round, seat), a running sum gives the kinds discarded so far.
* ``rows_by_seat_kernel``: the rows of riichi, discards and hand changes filed by (round, seat) by a counting sort.
* ``current_waits_kernel``: each between-turn state's waits are written down the event rows it holds for.
* ``own_discard_kernel``: the kinds each state's seat discarded so far, found by a pointer walking the history's
  sorted keys along the states (a binary search where the states go back).

Malformed inputs keep the meaning they always had: a discard of an unknown tile or by no seat lands in the cell
``(round x 4 + seat) x 34 + kind`` reaches, read from the end when negative.

Kernels only: rules.furiten calls them with plain arrays (this module imports no rule module).
"""

from __future__ import annotations

import numpy as np

from rules.compiled import njit
from rules.tiles import N_KINDS

NEVER = np.iinfo(np.int64).max
"""First-discard row of a kind never discarded."""


@njit
def first_discards_kernel(
    round_id: np.ndarray, seat: np.ndarray, action: np.ndarray, tile: np.ndarray, n_rounds: int, discard: int,
    kind_bits: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """(keys, discarded) of every seat's first discard of each kind in each round, by (round, seat) then row: keys
    as RoundIndex files them (group x (n_events + 2) + row + 1), and the kinds discarded so far as a mask."""
    n = round_id.shape[0]
    size = n_rounds * 4 * N_KINDS
    first = np.full(size, NEVER, dtype=np.int64)  # (round, seat, kind) -> first discard row
    cell = np.full(n, -1, dtype=np.int64)  # each discard's cell
    for e in range(n):
        if action[e] != discard:
            continue
        key = (round_id[e] * 4 + seat[e]) * N_KINDS + (tile[e] >> 2)
        if key < -size or key >= size:
            raise IndexError("a discard's (round, seat, kind) cell outside the rounds")
        key = key + size if key < 0 else key  # a negative cell read from the end
        cell[e] = key
        first[key] = min(first[key], e)
    # the first discards by (round, seat) group, rows ascending within each: a stable counting sort on the group
    n_groups = n_rounds * 4
    starts = np.zeros(n_groups + 1, dtype=np.int64)
    for e in range(n):
        if cell[e] >= 0 and first[cell[e]] == e:
            starts[cell[e] // N_KINDS + 1] += 1
    for g in range(n_groups):
        starts[g + 1] += starts[g]
    keys = np.empty(starts[n_groups], dtype=np.int64)
    kinds = np.empty(starts[n_groups], dtype=np.int64)
    at = starts[:-1].copy()
    for e in range(n):
        if cell[e] >= 0 and first[cell[e]] == e:
            group = cell[e] // N_KINDS
            keys[at[group]] = group * (n + 2) + e + 1
            kinds[at[group]] = cell[e] % N_KINDS
            at[group] += 1
    # each kind's bit joins its group's running sum once (a running sum is then the running OR)
    discarded = np.empty(starts[n_groups], dtype=np.int64)
    for g in range(n_groups):
        total = 0
        for i in range(starts[g], starts[g + 1]):
            total += kind_bits[kinds[i]]
            discarded[i] = total
    return keys, discarded


@njit
def rows_by_seat_kernel(round_id: np.ndarray, seat: np.ndarray, wanted: np.ndarray, n_rounds: int) -> tuple:
    """(keys, rows) of the ``wanted`` event rows of seats 0-3, by (round, seat) then row, keys as RoundIndex files
    them (group x (n_events + 2) + row + 1): a stable counting sort on the group."""
    n = round_id.shape[0]
    starts = np.zeros(n_rounds * 4 + 1, dtype=np.int64)
    for e in range(n):
        if wanted[e] and 0 <= seat[e] < 4:
            starts[round_id[e] * 4 + seat[e] + 1] += 1
    for g in range(n_rounds * 4):
        starts[g + 1] += starts[g]
    keys, rows = np.empty(starts[-1], dtype=np.int64), np.empty(starts[-1], dtype=np.int64)
    for e in range(n):
        if wanted[e] and 0 <= seat[e] < 4:
            group = round_id[e] * 4 + seat[e]
            keys[starts[group]], rows[starts[group]] = group * (n + 2) + e + 1, e
            starts[group] += 1
    return keys, rows


@njit
def current_waits_kernel(
    ev_round: np.ndarray, n_rounds: int, state_round: np.ndarray, state_seat: np.ndarray, state_row: np.ndarray,
    waits_mask: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """(n_events, 4): each seat's waits as of its last usable state before each event (0: none), from the states'
    rounds, seats, event rows and waits (-1: mid-turn, not usable); ``ev_round`` the events' rounds."""
    n = ev_round.shape[0]
    out = np.zeros((n, 4), dtype=np.int64)
    bounds = np.searchsorted(ev_round, np.arange(n_rounds + 1))  # where each round's events begin and end
    # a usable state: between turns, seated, holding for at least one row of its round
    m = state_round.shape[0]
    start = np.empty(m, dtype=np.int64)
    usable = np.zeros(m, dtype=np.bool_)
    for i in range(m):
        r = state_round[i]
        start[i] = state_row[i] + 1 if state_row[i] >= 0 else bounds[r]  # a deal holds from its round's start
        usable[i] = waits_mask[i] >= 0 and start[i] < bounds[r + 1] and 0 <= state_seat[i] < 4
    # each usable state's waits hold from its start to the next usable state of its (round, seat), else the round's end
    i = 0
    while i < m:
        if not usable[i]:
            i += 1
            continue
        j = i + 1
        while j < m and not usable[j] and state_round[j] == state_round[i] and state_seat[j] == state_seat[i]:
            j += 1
        same = j < m and usable[j] and state_round[j] == state_round[i] and state_seat[j] == state_seat[i]
        end = start[j] if same else bounds[state_round[i] + 1]
        for e in range(start[i], end):
            out[e, state_seat[i]] = waits_mask[i]
        i = j
    return out


@njit
def own_discard_kernel(
    ev_round: np.ndarray, state_seat: np.ndarray, state_row: np.ndarray, waits_mask: np.ndarray,
    keys: np.ndarray, items: np.ndarray, stride: int, discarded: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """(n_states,) int8: per state between turns (waits_mask >= 0), whether a wait is among its seat's discards of
    the round up to and including its event, 1/0; -1 mid-turn. ``keys``, ``items``, ``stride``: the
    history's first_discards index, ``discarded`` its masks."""
    m = state_row.shape[0]
    n_keys = keys.shape[0]
    out = np.full(m, -1, dtype=np.int8)
    pos = 0  # keys at most the last target: a pointer that walks forward while the targets ascend
    last_target = -(1 << 62)
    for i in range(m):
        if waits_mask[i] < 0:
            continue
        row, seat = state_row[i], state_seat[i]
        if row < 0 or n_keys == 0 or discarded.shape[0] == 0:  # a deal has discarded nothing
            out[i] = 0
            continue
        group_start = (ev_round[row] * 4 + seat) * stride  # the (round, seat)'s first key
        target = group_start + row + 1
        if target < last_target:  # the states went back: search again
            low, high = 0, n_keys
            while low < high:
                middle = (low + high) >> 1
                if keys[middle] <= target:
                    low = middle + 1
                else:
                    high = middle
            pos = low
        while pos < n_keys and keys[pos] <= target:
            pos += 1
        last_target = target
        # RoundIndex.previous (inclusive): the last first discard of the seat's round at or before the row
        same_group = pos >= 1 and keys[pos - 1] >= group_start and 0 <= seat < 4
        so_far = discarded[items[pos - 1]] if same_group else 0
        out[i] = (waits_mask[i] & so_far) != 0
    return out
