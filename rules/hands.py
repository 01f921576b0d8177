"""Hand states: every seat's closed tiles after every event that changes them, built in bulk.

Each hand-changing event moves tiles in or out of a closed hand (+1 drawn, -1 discarded, the tiles a call
takes out of the hand, ...); the states are the running counts of those moves within each (round, seat),
computed by one numba kernel (rules.kernels_hands). Each suit's base-5 index and the number of closed tiles
are linear in the counts: they are summed along in the same pass.

Inputs are plain arrays (see ``EventArrays``); nothing here reads files.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from rules.kernels_hands import hand_states_kernel

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
    def indexes(self) -> dict:
        """The RoundIndex of all the states by number of events, kept here by rules.furiten.state_index (built once
        per chunk, asked by several derivations)."""
        return {}


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


_CODES = np.arange(len(ACTIONS))
_SINGLE_DELTA = np.zeros(len(ACTIONS), dtype=np.int64)
_SINGLE_DELTA[CODE["draw"]] = 1
_SINGLE_DELTA[[CODE[name] for name in ("discard", "kakan", "kita")]] = -1
"""By action code, what the event's own tile does to its seat's hand: +1 drawn, -1 discarded, added to a kan or set
aside as kita, 0 (the tiles of a call, if any, are its meld's)."""

_IS_CALL = is_action(_CODES, CALLS)
"""By action code: a call that adds a meld (its meld's tiles other than the called one leave the hand)."""


def _int64(values: np.ndarray) -> np.ndarray:
    """``values`` as a contiguous int64 array (no copy when it already is one)."""
    return np.ascontiguousarray(values, dtype=np.int64)


def hand_states(events: EventArrays) -> HandStates:
    """Return every seat's closed hand after the deal and after each event that changed it, ordered by round,
    seat, then event row (the deal first); compiled (rules.kernels_hands). A 136-id outside -136..135 raises
    IndexError."""
    rid, seat, row, event_idx, counts, red, n_calls, after, suit_index, n_closed = hand_states_kernel(
        _int64(events.round_id), _int64(events.seat), _int64(events.action), _int64(events.event_idx),
        _int64(events.tile), _int64(events.meld_offsets), _int64(events.meld_values), _int64(events.hands_start),
        np.ascontiguousarray(events.has_red_fives, dtype=np.bool_), _SINGLE_DELTA, _IS_CALL, CODE["ankan"],
    )  # fmt: skip
    return HandStates(rid, seat, row, event_idx, counts, red, n_calls, after, suit_index, n_closed.astype(np.int16))
