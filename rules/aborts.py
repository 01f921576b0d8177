"""Abortive draws derived from the event stream: kyuushu kyuuhai, suufon renda, suucha riichi, suukaikan.

Everything is computed from the events of many rounds at once (``EventArrays``), never from the draw label the
log carries, so the result can be checked against that label. Tenhou's rules (DESIGN.md section 6):

* kyuushu kyuuhai: a seat may abort on its first draw when nothing interrupted the first go-around before that
  draw (no chi, pon, daiminkan, ankan, kakan, or kita in sanma) and its 14 tiles hold 9+ distinct terminal/honor
  kinds. Declared = the round's play stops right at that draw, with no win.
* suufon renda (4 players): the first discards of the four seats are the same wind, with no call before the
  fourth; the round aborts once that fourth discard passes.
* suucha riichi (4 players): the fourth accepted riichi (``riichi_accepted``) aborts; a riichi discard that is
  ronned is never accepted.
* suukaikan: four kans (daiminkan, ankan, kakan) by more than one seat; the round aborts once the discard after
  the fourth kan passes without a ron. Four kans by one seat do not abort (``four_kans_one_seat``).
* sanchahou needs furiten and is not derived here; ``derive_aborts`` takes how many seats ronned the last discard
  (``last_discard_rons``) so a triple ron can block the aborts that wait for a discard to pass.

A discard "passed" when play went on after it (any later draw, discard, call or riichi acceptance), or when it is
the round's last play and nobody won or ronned on it.

Settled from sources other than the real logs (which hold no such case): an ankan interrupts the first go-around
for kyuushu kyuuhai and suufon renda (standard rule text names it). A kita does on Tenhou's sanma, as the logs
show (rules.hands.INTERRUPTING_ACTIONS).
Which kind wins when one discard meets several conditions (four double riichi on four Easts) is not settled:
``ABORT_KINDS`` order, as the scenario builder checks them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.hands import CODE, INTERRUPTING_ACTIONS, EventArrays, is_action, row_before
from rules.tiles import TERMINALS_HONORS_34

ABORT_KINDS = ("kyuushu_kyuuhai", "suucha_riichi", "suufon_renda", "suukaikan")
"""Abort kinds derived here, in the order they take precedence when a round meets several conditions."""


KAN_ACTIONS = ("daiminkan", "ankan", "kakan")
"""Actions that form a kan (suukaikan counts them)."""

NOT_PLAY = ("dora", "disconnect", "reconnect")
"""Events that are no play: they neither show a discard passed nor end a first draw."""

KYUUSHU_MIN_KINDS = 9
"""Distinct terminal/honor kinds a seat needs for kyuushu kyuuhai."""

WINDS_34 = (27, 28, 29, 30)
"""34-kinds of East, South, West, North."""

_ORPHAN_BIT = np.zeros(34, dtype=np.int64)
_ORPHAN_BIT[TERMINALS_HONORS_34] = 1 << np.arange(len(TERMINALS_HONORS_34))
_ORPHAN_BIT_136 = np.append(np.repeat(_ORPHAN_BIT, 4), 0)
"""Orphan bit of each 136-id; index -1 (no tile) reads the 0 at the end."""
_POPCOUNT_13 = np.array([bin(m).count("1") for m in range(1 << 13)], dtype=np.int8)


@dataclass
class Aborts:
    """Abortive draws of every round (``round_id`` order) and the per-(round, seat) kyuushu columns."""

    kind: np.ndarray
    """(n_rounds,) object: '' or the derived abort kind (ABORT_KINDS, or 'sanchahou' from the hook)."""
    abort_event_idx: np.ndarray
    """(n_rounds,) int64: event_idx of the event the abort follows (-1: none, or sanchahou)."""
    first_draw_event_idx: np.ndarray
    """(n_rounds, 4) int64: event_idx of the seat's first draw (-1: it never drew)."""
    first_draw_uninterrupted: np.ndarray
    """(n_rounds, 4) bool: no interrupting action happened before the seat's first draw."""
    n_orphan_kinds: np.ndarray
    """(n_rounds, 4) int8: distinct terminal/honor kinds among the 13 dealt tiles and the first drawn tile."""
    kyuushu_eligible: np.ndarray
    """(n_rounds, 4) bool: the seat could declare kyuushu kyuuhai at its first draw."""
    kyuushu_declared: np.ndarray
    """(n_rounds, 4) bool: the round stopped on that eligible first draw, without a win."""
    n_riichi_accepted: np.ndarray
    """(n_rounds,) int8: accepted riichi in the round."""
    n_kans: np.ndarray
    """(n_rounds,) int8: kans formed in the round (daiminkan, ankan, kakan)."""
    n_kan_seats: np.ndarray
    """(n_rounds,) int8: distinct seats that formed them."""
    four_kans_one_seat: np.ndarray
    """(n_rounds,) bool: four kans, all by one seat (suukantsu chance): no abort."""


def derive_aborts(events: EventArrays, n_winners: np.ndarray, last_discard_rons: np.ndarray | None = None) -> Aborts:
    """Derive the abortive draw of every round from its events.

    ``n_winners`` (n_rounds,): wins recorded in the round; they tell a last discard that was ronned from one that
    passed, and a win on the first draw from a kyuushu declaration. ``last_discard_rons`` (n_rounds,), the
    sanchahou hook: seats that declared ron on the round's last discard although the log records no win (3 =
    sanchahou, which is then the kind); None counts none. A condition met in the middle of a round that plays on
    (logs not written by Tenhou's server) is still reported: the kind is what Tenhou's rules call for.
    """
    n_rounds = events.hands_start.shape[0]
    rons = np.zeros(n_rounds, dtype=np.int64) if last_discard_rons is None else np.asarray(last_discard_rons)
    no_win = (np.asarray(n_winners) == 0) & (rons == 0)
    four_players = (events.hands_start >= 0).any(axis=2).sum(axis=1) == 4
    ctx = _RoundContext.build(events, n_rounds, no_win)
    kyuushu = _kyuushu(events, ctx)
    riichi_row, n_riichi = _suucha_riichi(events, ctx, four_players)
    winds_row = _suufon_renda(events, ctx, four_players)
    kans_row, n_kans, n_kan_seats = _suukaikan(events, ctx)
    kind = np.full(n_rounds, "", dtype=object)
    row = np.full(n_rounds, -1, dtype=np.int64)
    kind[rons >= 3] = "sanchahou"
    candidates = zip(ABORT_KINDS, (kyuushu.declared_row, riichi_row, winds_row, kans_row), strict=True)
    for name, trigger in candidates:
        hit = (trigger >= 0) & (kind == "")
        kind[hit], row[hit] = name, trigger[hit]
    return Aborts(
        kind=kind,
        abort_event_idx=_event_idx(events, row),
        first_draw_event_idx=_event_idx(events, kyuushu.first_draw),
        first_draw_uninterrupted=kyuushu.uninterrupted,
        n_orphan_kinds=kyuushu.n_orphan_kinds,
        kyuushu_eligible=kyuushu.eligible,
        kyuushu_declared=kyuushu.declared,
        n_riichi_accepted=n_riichi.astype(np.int8),
        n_kans=n_kans.astype(np.int8),
        n_kan_seats=n_kan_seats.astype(np.int8),
        four_kans_one_seat=(n_kans >= 4) & (n_kan_seats == 1),
    )


@dataclass
class _RoundContext:
    """Per-round facts the conditions share (event rows are positions in the event arrays)."""

    n_rounds: int
    discards: _ByRound
    """The discards of every round."""
    first_interrupt: np.ndarray
    """(n_rounds,) row of the first interrupting action; len(events) when none."""
    last_play: np.ndarray
    """(n_rounds,) row of the last play event; -1 when none."""
    no_win: np.ndarray
    """(n_rounds,) nobody won or ronned in the round."""

    @classmethod
    def build(cls, events: EventArrays, n_rounds: int, no_win: np.ndarray) -> _RoundContext:
        """Find the first interruption and the last play of every round."""
        n_events = len(events.action)
        first_interrupt = _ByRound.of(events, is_action(events.action, INTERRUPTING_ACTIONS), n_rounds).nth(1)
        first_interrupt[first_interrupt < 0] = n_events
        discards = _ByRound.of(events, events.action == CODE["discard"], n_rounds)
        return cls(n_rounds, discards, first_interrupt, _last_play(events, n_rounds), no_win)

    def passed(self, events: EventArrays, rows: np.ndarray) -> np.ndarray:
        """Whether the discards at ``rows`` (-1: none) passed: play went on, or the round ended with no win."""
        round_id = np.maximum(_at(events.round_id, rows, 0), 0)
        went_on = rows < self.last_play[round_id]
        return (rows >= 0) & (went_on | self.no_win[round_id])


@dataclass
class _Kyuushu:
    """Kyuushu kyuuhai columns: (n_rounds, 4) arrays, and the declaring first draw's row per round (-1: none)."""

    first_draw: np.ndarray
    uninterrupted: np.ndarray
    n_orphan_kinds: np.ndarray
    eligible: np.ndarray
    declared: np.ndarray
    declared_row: np.ndarray


def _kyuushu(events: EventArrays, ctx: _RoundContext) -> _Kyuushu:
    """Kyuushu kyuuhai eligibility and declaration of every (round, seat)."""
    n_rounds = ctx.n_rounds
    draw_rows = np.flatnonzero(events.action == CODE["draw"])
    cell = events.round_id[draw_rows] * 4 + events.seat[draw_rows]
    first_draw = np.full(n_rounds * 4, _NO_ROW, dtype=np.int64)
    np.minimum.at(first_draw, cell, draw_rows)
    first_draw = np.where(first_draw == _NO_ROW, -1, first_draw).reshape(n_rounds, 4)
    has_draw = first_draw >= 0
    uninterrupted = has_draw & (first_draw < ctx.first_interrupt[:, None])
    n_orphan_kinds = _orphan_kinds_at_first_draw(events, first_draw)
    eligible = uninterrupted & (n_orphan_kinds >= KYUUSHU_MIN_KINDS)
    ends_there = has_draw & (first_draw == ctx.last_play[:, None])
    declared = eligible & ends_there & ctx.no_win[:, None]
    declared_row = np.where(declared, first_draw, -1).max(axis=1)
    return _Kyuushu(first_draw, uninterrupted, n_orphan_kinds, eligible, declared, declared_row)


def _orphan_kinds_at_first_draw(events: EventArrays, first_draw: np.ndarray) -> np.ndarray:
    """(n_rounds, 4) distinct terminal/honor kinds among the dealt tiles plus the first drawn tile."""
    dealt = events.hands_start
    mask = np.bitwise_or.reduce(_ORPHAN_BIT_136[np.maximum(dealt, -1)], axis=2)
    mask |= _ORPHAN_BIT_136[np.maximum(_at(events.tile, first_draw, -1), -1)]
    return _POPCOUNT_13[mask]


def _suucha_riichi(events: EventArrays, ctx: _RoundContext, four_players: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(row of the fourth accepted riichi where it aborts, else -1; accepted riichi per round)."""
    accepted = _ByRound.of(events, events.action == CODE["riichi_accepted"], ctx.n_rounds)
    return np.where(four_players, accepted.nth(4), -1), accepted.count()


def _suufon_renda(events: EventArrays, ctx: _RoundContext, four_players: np.ndarray) -> np.ndarray:
    """Row of the fourth discard where the four first discards are one wind (suufon renda), else -1."""
    rows = np.stack([ctx.discards.nth(n) for n in (1, 2, 3, 4)], axis=1)
    found = (rows >= 0).all(axis=1)
    kinds = _at(events.tile, rows, -1) // 4
    seats = np.bitwise_or.reduce(1 << np.maximum(_at(events.seat, rows, 0), 0), axis=1)
    one_wind = (kinds == kinds[:, :1]).all(axis=1) & np.isin(kinds[:, 0], WINDS_34)
    fourth = rows[:, 3]
    hit = four_players & found & one_wind & (seats == 0b1111) & (fourth < ctx.first_interrupt)
    return np.where(hit & ctx.passed(events, fourth), fourth, -1)


def _suukaikan(events: EventArrays, ctx: _RoundContext) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row of the passed discard after the fourth kan by 2+ seats, else -1; kans; kan seats) per round."""
    kans = _ByRound.of(events, is_action(events.action, KAN_ACTIONS), ctx.n_rounds)
    n_kans = kans.count()
    seat_mask = np.zeros(ctx.n_rounds, dtype=np.int64)
    np.bitwise_or.at(seat_mask, events.round_id[kans.rows], 1 << events.seat[kans.rows])
    n_kan_seats = _POPCOUNT_13[seat_mask]
    fourth = kans.nth(4)
    after = _next_rows(ctx.discards.rows, events.round_id, fourth)
    hit = (fourth >= 0) & (n_kan_seats > 1) & ctx.passed(events, after)
    return np.where(hit, after, -1), n_kans, n_kan_seats


_NO_ROW = np.iinfo(np.int64).max
"""A row past every event: none found."""


@dataclass
class _ByRound:
    """The event rows of one kind (ascending) and where each round's begin among them (``bounds``, n_rounds + 1:
    round r's are rows[bounds[r]:bounds[r + 1]])."""

    rows: np.ndarray
    bounds: np.ndarray

    @classmethod
    def of(cls, events: EventArrays, mask: np.ndarray, n_rounds: int) -> _ByRound:
        """The masked events' rows, by round."""
        rows = np.flatnonzero(mask)
        return cls(rows, np.searchsorted(events.round_id[rows], np.arange(n_rounds + 1)))

    def count(self) -> np.ndarray:
        """(n_rounds,) rows of the kind in each round."""
        return np.diff(self.bounds)

    def nth(self, n: int) -> np.ndarray:
        """(n_rounds,) row of the n-th (1-based) of each round, -1 where the round has fewer."""
        enough = np.flatnonzero(self.count() >= n)
        out = np.full(len(self.bounds) - 1, -1, dtype=np.int64)
        out[enough] = self.rows[self.bounds[enough] + n - 1]
        return out


def _last_play(events: EventArrays, n_rounds: int) -> np.ndarray:
    """(n_rounds,) row of the last play event (not NOT_PLAY) of each round, -1 where it has none."""
    starts = np.searchsorted(events.round_id, np.arange(n_rounds + 1))
    last = row_before(np.flatnonzero(is_action(events.action, NOT_PLAY)), starts[1:])
    return np.where(last >= starts[:-1], last, -1)


def _next_rows(rows: np.ndarray, round_id: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Row of the first of ``rows`` (ascending) after each row of ``after`` in the same round (-1: none, or after
    is -1)."""
    nxt = _at(rows, np.searchsorted(rows, after, side="right"), -1)  # past the end: -1
    same_round = _at(round_id, nxt, -1) == _at(round_id, after, -2)
    return np.where((after >= 0) & (nxt >= 0) & same_round, nxt, -1)


def _at(values: np.ndarray, rows: np.ndarray, fill: int) -> np.ndarray:
    """values[rows], with ``fill`` where a row is -1 or past the end."""
    inside = (rows >= 0) & (rows < len(values))
    if not len(values):
        return np.full(np.shape(rows), fill, dtype=values.dtype)
    return np.where(inside, values[np.where(inside, rows, 0)], fill)


def _event_idx(events: EventArrays, rows: np.ndarray) -> np.ndarray:
    """event_idx of event rows (-1 stays -1)."""
    return _at(events.event_idx, rows, -1)
