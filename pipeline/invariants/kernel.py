"""The invariant checks as one compiled pass: which games of a batch might fail a check of pipeline/sql/checks.

The SQL of pipeline/sql/checks defines the checks and words their findings; running it over every batch cost
more than parsing the batch. This pass reads the same tables as flat arrays (pipeline.invariants.arrays), round
by round in one numba loop, and gives every game a set of bits: one per check it fails here, and UNSURE where
it meets what the checks' SQL would judge by its null semantics (a null tile, seat, list or an action no parser
writes). It is a sound sieve, never the judge: every game the SQL finds failing has a bit here (a test proves it
on every real log and on mutants of each kind of violation), and only games with a bit are given to the SQL,
which decides and says why. A bit the SQL does not confirm costs time only.

The bits of one game are what counts, not which round set them: the SQL reports its own rounds.
"""

from __future__ import annotations

import numpy as np

from rules.compiled import njit
from rules.hands import CODE

CHECKS = (
    "hand_size", "keys_unique", "once_per_round", "round_has_play", "round_results", "score_conservation",
    "tile_held", "tile_once", "values_in_range",
)  # fmt: skip
"""The checks of pipeline/sql/checks, in file-name order; check k is bit 1 << k."""
HAND_SIZE, KEYS_UNIQUE, ONCE_PER_ROUND, ROUND_HAS_PLAY, ROUND_RESULTS, SCORE_CONSERVATION, TILE_HELD, TILE_ONCE = (
    1 << k for k in range(8)
)
VALUES_IN_RANGE = 1 << 8
"""Set by the sieve's table-level pass (sieve.py); the round pass treats a value out of range as UNSURE."""
UNSURE = 1 << len(CHECKS)
"""Something the pass does not judge (see the module docstring): the SQL must look at the game."""

# events.action codes: rules.hands.CODE, the codes events are stored with; any other value is UNSURE
DRAW, DISCARD, CHI, PON, DAIMINKAN, KAKAN, ANKAN, KITA, RIICHI, RIICHI_ACCEPTED, DORA = (
    CODE[name]
    for name in ("draw", "discard", "chi", "pon", "daiminkan", "kakan", "ankan", "kita", "riichi", "riichi_accepted",
                 "dora")
)  # fmt: skip
END_KINDS = ("draw", "win")
"""rounds.end_kind by code: code 1 is a win."""

N_TILES = 136
"""Physical tile ids are 0..135."""


@njit
def _tile_ok(tile: int) -> bool:
    """Whether ``tile`` is a physical tile id."""
    return 0 <= tile < N_TILES


@njit
def _departs(seat: int, tile: int, arrived: np.ndarray, departed: np.ndarray) -> int:
    """A tile leaving ``seat``'s hand (tile_held): the bits it sets; marks it departed."""
    if not _tile_ok(tile):
        return UNSURE
    bits = 0
    if departed[seat, tile] or arrived[seat, tile] != 1:
        bits = TILE_HELD
    departed[seat, tile] = True
    return bits


@njit
def _deal(r: int, hand_lists: np.ndarray, hand_offsets: np.ndarray, hand_tiles: np.ndarray,
          hand_unsure: np.ndarray, entered: np.ndarray, arrived: np.ndarray) -> int:  # fmt: skip
    """Count round ``r``'s dealt tiles as entries (tile_once) and, for seats 0-3, as arrivals (tile_held)."""
    bits = 0
    for seat in range(hand_lists[r + 1] - hand_lists[r]):
        inner = hand_lists[r] + seat
        if hand_unsure[inner]:
            bits |= UNSURE
        for k in range(hand_offsets[inner], hand_offsets[inner + 1]):
            tile = hand_tiles[k]
            if not _tile_ok(tile):
                bits |= UNSURE
                continue
            entered[tile] += 1
            if seat < 4:
                arrived[seat, tile] += 1
    return bits


@njit
def _events(start: int, end: int, idx: np.ndarray, seat: np.ndarray, action: np.ndarray, tile: np.ndarray,
            row: np.ndarray, meld_offsets: np.ndarray, meld_tiles: np.ndarray, meld_unsure: np.ndarray,
            entered: np.ndarray, arrived: np.ndarray) -> int:  # fmt: skip
    """Replay one round's events (sorted by event_idx) for hand_size, tile_held, tile_once, once_per_round's
    riichi and round_has_play; returns the bits they set."""
    bits = 0
    departed = np.zeros((4, N_TILES), dtype=np.bool_)
    closed = np.full(4, 13, dtype=np.int64)
    in_calls = np.zeros(4, dtype=np.int64)
    declared = np.zeros(4, dtype=np.int64)
    accepted = np.zeros(4, dtype=np.int64)
    declared_at = np.zeros(4, dtype=np.int64)
    accepted_at = np.zeros(4, dtype=np.int64)
    n_draws = 0
    for i in range(start, end):
        if i > start and idx[i] == idx[i - 1]:
            bits |= KEYS_UNIQUE
        a, s, t = action[i], seat[i], tile[i]
        if a < 0:
            bits |= UNSURE
            continue
        if a == DORA:
            if _tile_ok(t):
                entered[t] += 1
            else:
                bits |= UNSURE
        if s < 0 or s > 3:
            if a != DORA:
                bits |= UNSURE
            continue
        if a == DRAW:
            n_draws += 1
            closed[s] += 1
            if _tile_ok(t):
                entered[t] += 1
                arrived[s, t] += 1
            else:
                bits |= UNSURE
        elif a in (DISCARD, KAKAN, KITA):
            closed[s] -= 1
            bits |= _departs(s, t, arrived, departed)
        elif a in (CHI, PON, DAIMINKAN, ANKAN):
            closed[s] -= 4 if a == ANKAN else (3 if a == DAIMINKAN else 2)
            in_calls[s] += 3
            r = row[i]
            if meld_unsure[r] or (a != ANKAN and not _tile_ok(t)):
                bits |= UNSURE
                continue
            for k in range(meld_offsets[r], meld_offsets[r + 1]):
                if a == ANKAN or meld_tiles[k] != t:
                    bits |= _departs(s, meld_tiles[k], arrived, departed)
        elif a == RIICHI:
            if declared[s] == 0:
                declared_at[s] = idx[i]
            declared[s] += 1
        elif a == RIICHI_ACCEPTED:
            if accepted[s] == 0:
                accepted_at[s] = idx[i]
            accepted[s] += 1
        if a == DISCARD and closed[s] + in_calls[s] != 13:
            bits |= HAND_SIZE
    for s in range(4):
        if declared[s] > 1 or accepted[s] > declared[s] or (accepted[s] > 0 and accepted_at[s] < declared_at[s]):
            bits |= ONCE_PER_ROUND
    if n_draws == 0:
        bits |= ROUND_HAS_PLAY
    return bits


@njit
def _sum(values: np.ndarray, offsets: np.ndarray, r: int) -> int:
    """The sum of list row ``r``."""
    total = 0
    for k in range(offsets[r], offsets[r + 1]):
        total += values[k]
    return total


@njit
def _same_list(values_a: np.ndarray, offsets_a: np.ndarray, a: int, values_b: np.ndarray, offsets_b: np.ndarray,
               b: int) -> bool:  # fmt: skip
    """Whether list row ``a`` of one column equals list row ``b`` of another."""
    n = offsets_a[a + 1] - offsets_a[a]
    if n != offsets_b[b + 1] - offsets_b[b]:
        return False
    for k in range(n):  # noqa: SIM110 (numba compiles no generator)
        if values_a[offsets_a[a] + k] != values_b[offsets_b[b] + k]:
            return False
    return True


@njit
def _results(r: int, w_start: int, w_end: int, d_start: int, d_end: int, n_winners: np.ndarray,
             end_is_win: np.ndarray, w_idx: np.ndarray, w_seat: np.ndarray) -> int:  # fmt: skip
    """round_results, once_per_round's wins and keys_unique of wins and draws, for round ``r``."""
    bits = 0
    n_wins, n_draws = w_end - w_start, d_end - d_start
    if end_is_win[r] < 0:
        bits |= UNSURE
    elif n_wins != n_winners[r] or (n_wins > 0) == (n_draws > 0) or (end_is_win[r] == 1) != (n_winners[r] > 0):
        bits |= ROUND_RESULTS
    if n_draws > 1:
        bits |= KEYS_UNIQUE
    wins_of_seat = np.zeros(4, dtype=np.int64)
    for w in range(w_start, w_end):
        if w > w_start and w_idx[w] == w_idx[w - 1]:
            bits |= KEYS_UNIQUE
        if w_idx[w] < 0 or w_seat[w] < 0 or w_seat[w] > 3:
            bits |= UNSURE
            continue
        wins_of_seat[w_seat[w]] += 1
        if wins_of_seat[w_seat[w]] > 1:
            bits |= ONCE_PER_ROUND
    return bits


@njit
def _payments(w_start: int, w_end: int, d_start: int, d_end: int, w_row: np.ndarray, w_sticks: np.ndarray,
              w_deltas: np.ndarray, w_offsets: np.ndarray, w_unsure: np.ndarray, d_row: np.ndarray,
              d_deltas: np.ndarray, d_offsets: np.ndarray, d_unsure: np.ndarray) -> int:  # fmt: skip
    """score_conservation's (3): a draw moves no points in total, the wins hand out the sticks on the table."""
    bits = 0
    for d in range(d_start, d_end):
        row = d_row[d]
        if d_unsure[row] or d_offsets[row + 1] == d_offsets[row]:
            bits |= UNSURE
        elif _sum(d_deltas, d_offsets, row) != 0:
            bits |= SCORE_CONSERVATION
    if w_end > w_start:
        paid, sticks = 0, -1
        for w in range(w_start, w_end):
            row = w_row[w]
            if w_unsure[row] or w_offsets[row + 1] == w_offsets[row] or w_sticks[w] < 0:
                bits |= UNSURE
            paid += _sum(w_deltas, w_offsets, row)
            sticks = max(sticks, w_sticks[w])
        if paid != 1000 * sticks:
            bits |= SCORE_CONSERVATION
    return bits


@njit
def round_bits(
    r_game: np.ndarray, r_round: np.ndarray, r_row: np.ndarray, r_unsure: np.ndarray, r_dora: np.ndarray,
    r_sticks: np.ndarray, r_n_winners: np.ndarray, r_end_is_win: np.ndarray, r_events: np.ndarray,
    r_wins: np.ndarray, r_draws: np.ndarray,
    hand_lists: np.ndarray, hand_offsets: np.ndarray, hand_tiles: np.ndarray, hand_unsure: np.ndarray,
    pre: np.ndarray, pre_offsets: np.ndarray, post: np.ndarray, post_offsets: np.ndarray,
    e_idx: np.ndarray, e_seat: np.ndarray, e_action: np.ndarray, e_tile: np.ndarray, e_row: np.ndarray,
    meld_offsets: np.ndarray, meld_tiles: np.ndarray, meld_unsure: np.ndarray,
    w_idx: np.ndarray, w_seat: np.ndarray, w_sticks: np.ndarray, w_row: np.ndarray, w_deltas: np.ndarray,
    w_offsets: np.ndarray, w_unsure: np.ndarray, d_row: np.ndarray, d_deltas: np.ndarray, d_offsets: np.ndarray,
    d_unsure: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """The bits of every round (rows sorted by game, then round_idx; r_* row-aligned, ``r_events`` / ``r_wins``
    / ``r_draws`` the [start, end) of the round's rows in the events, wins and draws, each sorted by their key;
    ``r_row`` / ``e_row`` / ``w_row`` / ``d_row`` a sorted row's index in its table's list columns). Returns int64
    bits per sorted round."""
    n = len(r_game)
    bits = np.zeros(n, dtype=np.int64)
    first_total = 0
    for r in range(n):
        b = UNSURE if r_unsure[r] else 0
        new_game = r == 0 or r_game[r] != r_game[r - 1]
        if not new_game and r_round[r] == r_round[r - 1]:
            b |= KEYS_UNIQUE
        entered = np.zeros(N_TILES, dtype=np.int64)
        arrived = np.zeros((4, N_TILES), dtype=np.int64)
        b |= _deal(r_row[r], hand_lists, hand_offsets, hand_tiles, hand_unsure, entered, arrived)
        if _tile_ok(r_dora[r]):
            entered[r_dora[r]] += 1
        else:
            b |= UNSURE
        b |= _events(r_events[r, 0], r_events[r, 1], e_idx, e_seat, e_action, e_tile, e_row, meld_offsets,
                     meld_tiles, meld_unsure, entered, arrived)  # fmt: skip
        for tile in range(N_TILES):
            if entered[tile] > 1:
                b |= TILE_ONCE
        b |= _results(r, r_wins[r, 0], r_wins[r, 1], r_draws[r, 0], r_draws[r, 1], r_n_winners, r_end_is_win,
                      w_idx, w_seat)  # fmt: skip
        b |= _payments(r_wins[r, 0], r_wins[r, 1], r_draws[r, 0], r_draws[r, 1], w_row, w_sticks, w_deltas,
                       w_offsets, w_unsure, d_row, d_deltas, d_offsets, d_unsure)  # fmt: skip
        # score_conservation (1) and (2): the same total every round, each round ends where the next starts
        if pre_offsets[r_row[r] + 1] == pre_offsets[r_row[r]] or r_sticks[r] < 0:
            b |= UNSURE
        total = _sum(pre, pre_offsets, r_row[r]) + 1000 * r_sticks[r]
        if new_game:
            first_total = total
        else:
            if total != first_total:
                b |= SCORE_CONSERVATION
            if not _same_list(post, post_offsets, r_row[r - 1], pre, pre_offsets, r_row[r]):
                b |= SCORE_CONSERVATION
        bits[r] = b
    return bits
