"""Furiten and furiten passes, for every seat through every round, with 34-bit masks.

A seat's waits at an event are those of its last state between turns before the event (dealt, or
after its discard; rules.analysis). Yaku are not taken into account.

* A **pass**: another seat discards a tile of one of the seat's waits, or adds one to a kan
  (chankan chance), and the seat does not ron it; or the seat discards the winning tile it just
  drew (a declined tsumo).
* **own_discard** furiten: a wait is among the seat's own discards of the round (called ones
  included); it holds while the waits and discards say so.
* **temporary** furiten: after a pass by another's tile, until the seat's own next discard (a call
  does not end it).
* **riichi** furiten: a pass after the seat declared riichi: for the rest of the round.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.hands import CODE, EventArrays, HandStates, is_action, last_row_per_round
from rules.kernels_furiten import current_waits_kernel, first_discards_kernel, own_discard_kernel, rows_by_seat_kernel
from rules.round_index import RoundIndex
from rules.waits import KIND_BITS

RELEASES = ("discard", "kakan")
"""Actions that release a tile others may ron: a discard, an added kan (chankan)."""


@dataclass
class Passes:
    """One row per pass: event row, seat that let the tile go, the seat that released it, tile,
    whether the seat was already furiten and in riichi, and the furiten kind it results in."""

    event_row: np.ndarray
    seat: np.ndarray
    from_seat: np.ndarray
    tile: np.ndarray
    was_furiten: np.ndarray
    in_riichi: np.ndarray
    kind: np.ndarray


def state_before(
    states: HandStates, events: EventArrays, rows: np.ndarray, seats: np.ndarray, usable: np.ndarray | None = None
) -> np.ndarray:
    """For queries (event row, seat): the seat's last state strictly before the event in the same round,
    among the ``usable`` states (default all); -1 when there is none (and for a row < 0)."""
    rows, seats = np.asarray(rows, dtype=np.int64), np.asarray(seats, dtype=np.int64)
    index = state_index(states, len(events.action), usable)
    found = index.previous(events.round_id[np.maximum(rows, 0)], seats, rows)
    return np.where(rows >= 0, found, -1)


def state_index(states: HandStates, n_events: int, usable: np.ndarray | None = None) -> RoundIndex:
    """The RoundIndex of the hand states (among ``usable``, default all) by round, seat and event row (the
    deal at -1); its items are the states' numbers. The index of all the states is kept on ``states``."""
    if usable is None and n_events in states.indexes:
        return states.indexes[n_events]
    mine = np.arange(len(states.round_id)) if usable is None else np.flatnonzero(usable)
    index = RoundIndex.build(states.round_id[mine], states.seat[mine], states.event_row[mine], n_events, mine)
    if usable is None:
        states.indexes[n_events] = index
    return index


def _int64(values: np.ndarray) -> np.ndarray:
    """``values`` as a contiguous int64 array (no copy when it already is one)."""
    return np.ascontiguousarray(values, dtype=np.int64)


def current_waits(states: HandStates, waits_mask: np.ndarray, events: EventArrays) -> np.ndarray:
    """(n_events, 4) waits of each seat as of its last between-turn state before each event (0: none).

    A usable state (between turns, ``waits_mask`` >= 0, of a seat 0-3) holds from the row after its event (a
    deal: from its round's first row) to the next usable state of its (round, seat), else to the round's end.
    Compiled (rules.kernels_furiten)."""
    return current_waits_kernel(
        _int64(events.round_id), len(events.hands_start),
        *(_int64(values) for values in (states.round_id, states.seat, states.event_row, waits_mask)),
    )  # fmt: skip


@dataclass
class SeatHistory:
    """Each seat's events that the furiten rules look back at, found once per part, as RoundIndex of event rows
    by (round, seat): its riichi declarations, its discards and its other hand changes; and every seat's first
    discard of each kind in a round (items: positions in ``discarded``) with ``discarded``, the kinds the seat
    had discarded in the round up to and including that discard (a 34-bit mask)."""

    riichi: RoundIndex
    discards: RoundIndex
    changes: RoundIndex
    first_discards: RoundIndex
    discarded: np.ndarray


HAND_CHANGES = ("draw", "chi", "pon", "daiminkan", "kakan", "ankan", "kita")
"""Actions that change a closed hand, other than a discard."""


def seat_history(events: EventArrays) -> SeatHistory:
    """The SeatHistory of a part's events. Compiled (rules.kernels_furiten)."""
    round_id, seat, action = _int64(events.round_id), _int64(events.seat), _int64(events.action)
    n_rounds, stride = len(events.hands_start), len(round_id) + 2
    keys, discarded = first_discards_kernel(round_id, seat, action, _int64(events.tile), n_rounds, CODE["discard"],
                                            KIND_BITS)  # fmt: skip

    def by_seat(wanted: np.ndarray) -> RoundIndex:
        """The RoundIndex of the wanted rows of seats 0-3 (items: the rows)."""
        return RoundIndex(*rows_by_seat_kernel(round_id, seat, wanted, n_rounds), stride)

    return SeatHistory(
        riichi=by_seat(action == CODE["riichi"]),
        discards=by_seat(action == CODE["discard"]),
        changes=by_seat(is_action(action, HAND_CHANGES)),
        first_discards=RoundIndex(keys, np.arange(len(keys), dtype=np.int64), stride),
        discarded=discarded,
    )


def own_discard_furiten(
    states: HandStates, waits_mask: np.ndarray, history: SeatHistory, events: EventArrays
) -> np.ndarray:
    """Per state between turns (``waits_mask`` >= 0): a wait is among the seat's own discards of the round up to
    and including the state's event (1/0; a deal 0); -1 mid-turn. Compiled (rules.kernels_furiten)."""
    index = history.first_discards
    return own_discard_kernel(
        _int64(events.round_id), _int64(states.seat), _int64(states.event_row), _int64(waits_mask),
        _int64(index.keys), _int64(index.items), index.stride, _int64(history.discarded),
    )  # fmt: skip


def discarded_mask(
    history: SeatHistory, events: EventArrays, rows: np.ndarray, seats: np.ndarray, inclusive: bool
) -> np.ndarray:
    """Kinds each seat discarded in the round before (or up to and including) each event row, as masks."""
    found = history.first_discards.previous(events.round_id[rows], seats, rows, inclusive)
    if not len(history.discarded):
        return np.zeros(len(found), dtype=np.int64)
    return np.where(found >= 0, history.discarded[np.maximum(found, 0)], 0)


def find_passes(
    events: EventArrays, waits: np.ndarray, ron_seats: np.ndarray, history: SeatHistory
) -> tuple[np.ndarray, np.ndarray]:
    """Candidate passes as (event rows, seats): a wait's tile discarded or added to a kan by another
    seat and not ronned by this seat, or discarded by the seat itself. ``ron_seats`` (n_rounds, 4)
    marks the seats that won by ron on their round's last discard or added kan."""
    released = is_action(events.action, RELEASES)
    rows = np.flatnonzero(released)  # only a released tile can be passed
    tile = events.tile[rows]
    bit = np.where(tile >= 0, KIND_BITS[np.maximum(tile, 0) // 4], 0)
    # (released tile, seat) pairs where the tile is a wait, in row then seat order; the rules below drop some.
    # Most released tiles are nobody's wait: the rows where any seat waits on the tile first, then their seats
    hit = np.flatnonzero((waits[:, 0] | waits[:, 1] | waits[:, 2] | waits[:, 3])[rows] & bit)
    pair_row, seats = np.nonzero(waits[rows[hit]] & bit[hit][:, None])
    hit_rows = rows[hit[pair_row]]
    # its own tile counts only when it let its winning tile go: a tsumogiri of a tile that completed the hand
    keep = events.seat[hit_rows] != seats
    by_self = np.flatnonzero(~keep)
    keep[by_self] = _declined_tsumo_at(events, history, hit_rows[by_self])
    # the seats that ronned the round's last released tile did not pass it
    last_of_round = last_row_per_round(events, released)
    is_last = last_of_round[events.round_id[hit_rows]] == hit_rows
    keep &= ~(is_last & ron_seats[events.round_id[hit_rows], seats])
    return hit_rows[keep], seats[keep]


def _declined_tsumo_at(events: EventArrays, history: SeatHistory, rows: np.ndarray) -> np.ndarray:
    """For event rows: a discard of the tile its seat's last hand-changing event drew (a tsumogiri)."""
    action, tile = events.action, events.tile
    at = np.flatnonzero(action[rows] == CODE["discard"])
    last_change = history.changes.previous(events.round_id[rows[at]], events.seat[rows[at]], rows[at])
    drew = (last_change >= 0) & (action[np.maximum(last_change, 0)] == CODE["draw"])
    out = np.zeros(len(rows), dtype=bool)
    out[at] = drew & (tile[np.maximum(last_change, 0)] == tile[rows[at]])
    return out


def furiten_before(
    events: EventArrays,
    passes: tuple[np.ndarray, np.ndarray],
    waits: np.ndarray,
    history: SeatHistory,
    rows: np.ndarray,
    seats: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Furiten of seats just before events: (own_discard, temporary, riichi, in_riichi) bool arrays.

    ``passes`` are all (rows, seats) passes; only those by another seat's tile make temporary or
    riichi furiten. ``waits`` come from current_waits, ``history`` from seat_history.
    """
    pass_rows, pass_seats = passes
    by_other = events.seat[pass_rows] != pass_seats
    query_round = events.round_id[rows]
    riichi_row = history.riichi.previous(query_round, seats, rows)
    last_discard = history.discards.previous(query_round, seats, rows)
    # the seat's last pass by another's tile before the event
    others = RoundIndex.of_rows(events.round_id, pass_rows[by_other], pass_seats[by_other])
    prev = others.previous(query_round, seats, rows)
    own = (waits[rows, seats] & discarded_mask(history, events, rows, seats, inclusive=False)) != 0
    in_riichi = riichi_row >= 0
    temporary = (prev >= 0) & (prev > last_discard)
    riichi = in_riichi & (prev >= 0) & (prev > riichi_row)
    return own, temporary, riichi, in_riichi


def classify_passes(
    events: EventArrays, passes: tuple[np.ndarray, np.ndarray], waits: np.ndarray, history: SeatHistory
) -> Passes:
    """Whether each pass found the seat furiten already, in riichi, and what furiten it leaves."""
    rows, seats = passes
    own, temporary, riichi, in_riichi = furiten_before(events, passes, waits, history, rows, seats)
    by_self = events.seat[rows] == seats
    kind = np.where(by_self, "own_discard", np.where(in_riichi, "riichi", "temporary"))
    return Passes(rows, seats, events.seat[rows], events.tile[rows], own | temporary | riichi, in_riichi, kind)


@dataclass
class Intervals:
    """Furiten intervals: (round_id, seat, kind, start event row, end event row or -1 for the round's end).
    ``kind`` indexes FURITEN_KINDS. The interval covers events from start up to, not including, end."""

    round_id: np.ndarray
    seat: np.ndarray
    kind: np.ndarray
    start_row: np.ndarray
    end_row: np.ndarray


FURITEN_KINDS = ("own_discard", "temporary", "riichi")
"""Furiten kinds by code."""


def _own_discard_runs(states: HandStates, own: np.ndarray) -> tuple[np.ndarray, ...]:
    """Runs of between-turn states (own >= 0) with own-discard furiten, per (round, seat)."""
    between = np.flatnonzero(own >= 0)
    flag = own[between] == 1
    rid, seat, row = states.round_id[between], states.seat[between], states.event_row[between]
    new_group = np.r_[True, (rid[1:] != rid[:-1]) | (seat[1:] != seat[:-1])]
    starts = flag & (new_group | ~np.r_[False, flag[:-1]])
    ends = flag & np.r_[new_group[1:] | ~flag[1:], True]
    # a run ends at the next between-turn state of the seat (if there is one in the round)
    end_next = np.r_[between[1:], -1][ends]
    end_ok = np.r_[~new_group[1:], False][ends]
    end_row = np.where(end_ok, states.event_row[np.maximum(end_next, 0)], -1)
    return rid[starts], seat[starts], np.maximum(row[starts], 0), end_row


def furiten_intervals(
    events: EventArrays, states: HandStates, own: np.ndarray, passes: Passes, history: SeatHistory
) -> Intervals:
    """Intervals of each furiten kind from the states' own-discard flags (1/0, -1 mid-turn) and the passes."""
    o_round, o_seat, o_start, o_end = _own_discard_runs(states, own)
    by_other = passes.from_seat != passes.seat
    temp = by_other & (passes.kind == "temporary")
    rows, seats = passes.event_row[temp], passes.seat[temp]
    next_discard = history.discards.next(events.round_id[rows], seats, rows)
    # passes before the same next discard make one temporary interval, from the first of them
    t_key = np.stack([events.round_id[rows], seats, next_discard], axis=1)
    t_key, t_first = np.unique(t_key, axis=0, return_index=True) if len(rows) else (np.zeros((0, 3), int), [])
    riichi = by_other & (passes.kind == "riichi")
    r_key, r_first = (
        np.unique(
            np.stack([events.round_id[passes.event_row[riichi]], passes.seat[riichi]], axis=1),
            axis=0,
            return_index=True,
        )
        if riichi.any()
        else (np.zeros((0, 2), int), [])
    )
    r_start = passes.event_row[riichi][r_first] if riichi.any() else np.zeros(0, dtype=np.int64)
    return Intervals(
        round_id=np.concatenate([o_round, t_key[:, 0], r_key[:, 0]]).astype(np.int64),
        seat=np.concatenate([o_seat, t_key[:, 1], r_key[:, 1]]).astype(np.int64),
        kind=np.concatenate([np.zeros(len(o_round)), np.ones(len(t_key)), np.full(len(r_key), 2)]).astype(np.int8),
        start_row=np.concatenate([o_start, rows[t_first] if len(rows) else [], r_start]).astype(np.int64),
        end_row=np.concatenate([o_end, t_key[:, 2], np.full(len(r_key), -1)]).astype(np.int64),
    )
