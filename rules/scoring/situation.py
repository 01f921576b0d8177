"""Situational yaku, pao and the sticks on the table, read from the event stream for many wins at once.

A round's last event is the winning event: the winner's draw (tsumo), or the discard or added kan
that was ronned. Counts of events between two rows are differences of binary searches in the sorted
rows of those events (a seat's own: of running counts packed by seat), so every flag is a few
vectorised lookups per win:

* riichi: the winner declared riichi; double riichi: declared before its first discard with no
  call (chi, pon, any kan, a sanma kita: rules.hands.INTERRUPTING_ACTIONS) before it in the round.
* ippatsu: riichi, no call (or kita) by anyone after the declaration, and the winner discarded only the
  riichi tile since (so the win is within one go-around). An added kan robbed for the win does not count.
* chankan: a ron on an added kan (or on a closed kan: Tenhou's kokushi exception).
* rinshan: a tsumo on the draw right after the winner's own kan or kita.
* haitei / houtei: a tsumo on the round's last live draw (not a rinshan) / a ron on the discard after it.
  Tenhou's live wall: 70 draws in 4-player, 55 in sanma, replacement draws included.
* tenhou / chiihou: the dealer's tsumo on the round's first draw / a non-dealer's tsumo on its first
  draw with no call before it.

A kita (sanma nuki dora) interrupts like a call: it breaks ippatsu, double riichi and chiihou (Tenhou's logs,
rules.hands.INTERRUPTING_ACTIONS); its replacement draw is a rinshan draw.
Pao (sekinin barai, daisangen and daisuushii only): the seat whose discard a pon or open kan took
for the winner's third dragon set or fourth wind set.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.hands import CODE, INTERRUPTING_ACTIONS, EventArrays, is_action, row_before
from rules.scoring.inputs import CHI, CLOSED_KAN, NO_MELD, OPEN_KAN, PON

LIVE_DRAWS = {4: 70, 3: 55}
"""Draws from the wall in a round that reaches its end (replacement draws included), by players."""

KANS_AND_KITA = ("daiminkan", "ankan", "kakan", "kita")
"""Actions followed by a replacement (rinshan) draw."""

NOT_PLAY = ("dora", "disconnect", "reconnect")
"""Events that are no move of the game (skipped when looking for the move before a draw)."""

SET_CALLS = ("pon", "daiminkan", "ankan")
"""Calls that make a triplet or kan (an added kan only upgrades a pon)."""


SEAT_BITS = 16
"""Bits of each seat's count in a packed per-seat running count (_seat_counts)."""


@dataclass
class _Rows:
    """The events the situational flags count, as ascending event rows (``n`` events in all): the calls, the
    draws, the discards and the rows that are no move; with running counts of the draws and of the discards by
    seat (_seat_counts), to count a seat's own between two rows of a round (_own_between)."""

    n: int
    calls: np.ndarray
    draws: np.ndarray
    discards: np.ndarray
    no_move: np.ndarray
    seat_draws: np.ndarray
    seat_discards: np.ndarray


def _rows(events: EventArrays) -> _Rows:
    """The rows and running counts that the situational flags read (one pass over the events each)."""
    action = events.action
    draws, discards = np.flatnonzero(action == CODE["draw"]), np.flatnonzero(action == CODE["discard"])
    return _Rows(
        n=len(action),
        calls=np.flatnonzero(is_action(action, INTERRUPTING_ACTIONS)),
        draws=draws,
        discards=discards,
        no_move=np.flatnonzero(is_action(action, NOT_PLAY)),
        seat_draws=_seat_counts(events, draws),
        seat_discards=_seat_counts(events, discards),
    )


_SEAT_ONE = np.array([0, *(1 << (SEAT_BITS * seat) for seat in range(4)), 0], dtype=np.int64)
"""A row's count in _seat_counts by its seat + 1 (clipped to 0-5): 1 in its seat's bits for seats 0-3, else 0."""


def _seat_counts(events: EventArrays, rows: np.ndarray) -> np.ndarray:
    """(len(rows) + 1,) int64: entry k counts ``rows[:k]`` by seat, seat s in bits SEAT_BITS x s and up (int64
    arithmetic wraps). The difference of two entries holds each seat's rows between them exactly while they are
    fewer than 2**SEAT_BITS (the rows of one round are); rows of no seat 0-3 count for none."""
    out = np.zeros(len(rows) + 1, dtype=np.int64)
    # each row's one by its seat + 1, clipped: a seat below 0 reads the first entry (0), above 3 the last (0)
    np.cumsum(_SEAT_ONE[np.clip(events.seat[rows] + 1, 0, 5)], out=out[1:])
    return out


def _before(rows: np.ndarray, at: np.ndarray, n_events: int) -> np.ndarray:
    """How many of the ascending ``rows`` lie before each row ``at`` (a negative ``at`` counts from the end, as a
    prefix sum of length n_events + 1 read at ``at`` would)."""
    at = np.asarray(at, dtype=np.int64)
    return np.searchsorted(rows, np.where(at < 0, at + n_events + 1, at), side="left")


def _own_between(rows: _Rows, kind: str, seat: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Per query: how many of its ``seat``'s rows of ``kind`` ('draws' or 'discards') lie in [start, end), both
    in the query's round (end >= start; a negative seat counts as seat % 4)."""
    of_kind, counts = getattr(rows, kind), getattr(rows, f"seat_{kind}")
    between = counts[_before(of_kind, end, rows.n)] - counts[_before(of_kind, start, rows.n)]
    return (between >> (SEAT_BITS * (np.asarray(seat, dtype=np.int64) % 4))) & ((1 << SEAT_BITS) - 1)


def round_starts(events: EventArrays) -> np.ndarray:
    """(n_rounds + 1,) first event row of each round (rounds are contiguous), then the number of events."""
    n_rounds = len(events.hands_start)
    return np.searchsorted(events.round_id, np.arange(n_rounds + 1)).astype(np.int64)


def _first_row(events: EventArrays, mask: np.ndarray, n_rounds: int) -> np.ndarray:
    """(n_rounds, 4) first row of an event per (round, seat) among ``mask``; a huge value when none."""
    out = np.full((n_rounds, 4), np.iinfo(np.int64).max, dtype=np.int64)
    rows = np.flatnonzero(mask)
    rows = rows[events.seat[rows] >= 0]
    np.minimum.at(out, (events.round_id[rows], events.seat[rows]), rows)
    return out


def _previous_move(rows: _Rows, at: np.ndarray) -> np.ndarray:
    """Row of the last game move (not a dora reveal or connection event) before each row ``at``; -1 none."""
    return row_before(rows.no_move, np.where(at < 0, at + rows.n, at))  # a negative ``at`` counts from the end


def _riichi_flags(
    events: EventArrays, rows: _Rows, win_round: np.ndarray, seat: np.ndarray, r0: np.ndarray, w: np.ndarray
) -> dict[str, np.ndarray]:
    """is_riichi, is_double_riichi and is_ippatsu of each win (see the module docstring)."""
    n_rounds = len(events.hands_start)
    riichi = _first_row(events, events.action == CODE["riichi"], n_rounds)[win_round, seat]
    is_riichi = riichi < w
    declared = np.minimum(riichi, w)
    # the winner's discards since the declaration: the riichi tile, and one more once a go-around has passed
    discards_since = _own_between(rows, "discards", seat, declared, w)
    # a riichi before the seat's first discard: no discard of the seat in the round before it
    before_first_discard = _own_between(rows, "discards", seat, r0, declared) == 0
    calls_at_declaration = _before(rows.calls, declared, rows.n)
    no_call_before = calls_at_declaration == _before(rows.calls, r0, rows.n)
    no_call_since = _before(rows.calls, w, rows.n) == calls_at_declaration
    return {
        "is_riichi": is_riichi,
        "is_double_riichi": is_riichi & before_first_discard & no_call_before,
        "is_ippatsu": is_riichi & no_call_since & (discards_since <= 1),
    }


def situations(
    events: EventArrays,
    win_round: np.ndarray,
    seat: np.ndarray,
    is_tsumo: np.ndarray,
    dealer: np.ndarray,
    n_players: np.ndarray,
    win_row: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """Situational flags of each win (W,) bool: is_riichi, is_double_riichi, is_ippatsu, is_chankan,
    is_rinshan, is_haitei, is_houtei, is_tenhou, is_chiihou.

    ``win_round`` (W,) round of each win (EventArrays.round_id numbering), ``seat`` winner, ``is_tsumo``;
    ``dealer`` and ``n_players`` per win; ``win_row`` the event row of the winning draw, discard or added kan
    (default: the round's last event, as for a logged win; give it for a ron a seat let go).
    """
    action, rows = events.action, _rows(events)
    start = round_starts(events)
    r0 = start[win_round]
    w = start[win_round + 1] - 1 if win_row is None else np.asarray(win_row, dtype=np.int64)
    seat = np.asarray(seat, dtype=np.int64)
    is_tsumo = np.asarray(is_tsumo, dtype=bool)
    previous = _previous_move(rows, w)
    after_own_kan = (previous >= r0) & is_action(action[np.maximum(previous, 0)], KANS_AND_KITA)
    is_rinshan = is_tsumo & after_own_kan & (events.seat[np.maximum(previous, 0)] == seat)
    n_draws = _before(rows.draws, w + 1, rows.n) - _before(rows.draws, r0, rows.n)  # the winning draw included
    last_draw = n_draws == np.where(np.asarray(n_players) == 3, LIVE_DRAWS[3], LIVE_DRAWS[4])
    first_own_draw = _own_between(rows, "draws", seat, r0, w + 1) == 1
    no_call_yet = _before(rows.calls, w, rows.n) == _before(rows.calls, r0, rows.n)
    return {
        **_riichi_flags(events, rows, win_round, seat, r0, w),
        "is_chankan": ~is_tsumo & is_action(action[w], ("kakan", "ankan")),
        "is_rinshan": is_rinshan,
        "is_haitei": is_tsumo & ~is_rinshan & last_draw,
        "is_houtei": ~is_tsumo & (action[w] == CODE["discard"]) & last_draw,
        "is_tenhou": is_tsumo & (seat == dealer) & (n_draws == 1),
        "is_chiihou": is_tsumo & (seat != dealer) & first_own_draw & no_call_yet,
    }


def sticks_at_result(events: EventArrays, sticks_at_start: np.ndarray) -> np.ndarray:
    """(n_rounds,) riichi sticks on the table when the round's result came: those at its start plus the
    riichi accepted in it (a riichi whose discard is ronned is never accepted and pays no stick)."""
    accepted = events.round_id[events.action == CODE["riichi_accepted"]]
    return np.asarray(sticks_at_start, dtype=np.int64) + np.bincount(accepted, minlength=len(events.hands_start))


def pao_seats(events: EventArrays) -> tuple[np.ndarray, np.ndarray]:
    """(dragons, winds), each (n_rounds, 4): the seat liable for a daisangen / daisuushii of each seat,
    -1 when none: whose discard a pon or open kan took for the third dragon set / fourth wind set."""
    n_rounds = len(events.hands_start)
    set_calls = np.flatnonzero(is_action(events.action, SET_CALLS))
    values = events.meld_values if len(events.meld_values) else np.zeros(1, dtype=np.int64)  # no call at all
    first_tile = values[np.minimum(events.meld_offsets[set_calls], len(values) - 1)]
    has_tiles = events.meld_offsets[set_calls + 1] > events.meld_offsets[set_calls]
    kind = np.where(has_tiles, first_tile // 4, -1)
    out = []
    for kinds, nth in (((31, 32, 33), 3), ((27, 28, 29, 30), 4)):
        rows = set_calls[np.isin(kind, kinds)]
        group = events.round_id[rows] * 4 + events.seat[rows]
        order = np.lexsort((rows, group))
        rows, group = rows[order], group[order]
        # rank of each set call within its (round, seat), in event order
        starts = np.r_[True, group[1:] != group[:-1]] if len(rows) else np.zeros(0, dtype=bool)
        rank = np.arange(len(rows)) - np.maximum.accumulate(np.where(starts, np.arange(len(rows)), 0))
        liable = np.full((n_rounds, 4), -1, dtype=np.int64)
        hit = rows[(rank == nth - 1) & (events.action[rows] != CODE["ankan"])]
        liable[events.round_id[hit], events.seat[hit]] = events.from_seat[hit]
        out.append(liable)
    return out[0], out[1]


MELD_TYPE_OF_ACTION = np.zeros(len(CODE), dtype=np.int64)
MELD_TYPE_OF_ACTION[[CODE["chi"], CODE["pon"], CODE["daiminkan"], CODE["ankan"]]] = [CHI, PON, OPEN_KAN, CLOSED_KAN]
"""Event action code -> the meld type it creates (NO_MELD: none; an added kan upgrades a pon to OPEN_KAN)."""


def _meld_table(events: EventArrays) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per (round, seat, call slot 0-3): the call's row (huge: none), lowest kind, type, and the row of the
    added kan that upgraded it (huge: none)."""
    shape, none = (len(events.hands_start), 4, 4), np.iinfo(np.int64).max
    row, upgraded = np.full(shape, none, dtype=np.int64), np.full(shape, none, dtype=np.int64)
    kind, kind_type = np.full(shape, -1, dtype=np.int64), np.zeros(shape, dtype=np.int64)
    calls = np.flatnonzero(MELD_TYPE_OF_ACTION[events.action] != NO_MELD)
    # grouped by (round, seat), each group in event order: the slot of a call is its rank in its group
    calls = calls[np.argsort(events.round_id[calls] * 4 + events.seat[calls], kind="stable")]
    group = events.round_id[calls] * 4 + events.seat[calls]
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]]) if len(calls) else calls
    slot = np.arange(len(calls)) - np.repeat(starts, np.diff(np.r_[starts, len(calls)]))
    first = events.meld_offsets[calls]
    lowest = np.min([events.meld_values[first + i] for i in range(3)], axis=0) // 4 if len(calls) else calls
    at = (events.round_id[calls], events.seat[calls], slot)
    row[at], kind[at], kind_type[at] = calls, lowest, MELD_TYPE_OF_ACTION[events.action[calls]]
    kakans = np.flatnonzero(events.action == CODE["kakan"])
    r, s = events.round_id[kakans], events.seat[kakans]
    # the pon of the added tile's kind, among the seat's calls before the kakan
    hit, which = np.nonzero((kind[r, s] == (events.tile[kakans] // 4)[:, None]) & (kind_type[r, s] == PON))
    upgraded[r[hit], s[hit], which] = kakans[hit]
    return row, kind, kind_type, upgraded


def melds_before(events: EventArrays, rows: np.ndarray, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The melds each seat had called before each event row of its round: (kind, type) (Q, 4) as in
    rules.scoring.Hands (lowest 34-kind, -1 none; NO_MELD, CHI, PON, OPEN_KAN, CLOSED_KAN). With the hand's
    closed tiles they give the Hands of a win, or of a ron a seat passed up (has_yaku)."""
    rows = np.asarray(rows, dtype=np.int64)
    seats = np.asarray(seats, dtype=np.int64)
    row, kind, kind_type, upgraded = _meld_table(events)
    at = (events.round_id[rows], seats)
    called = row[at] < rows[:, None]
    kinds = np.where(called, kind[at], -1)
    types = np.where(upgraded[at] < rows[:, None], OPEN_KAN, kind_type[at])
    return kinds, np.where(called, types, NO_MELD)
