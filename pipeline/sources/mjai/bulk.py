"""A game's kyoku read in one pass when the kernel played every one of them up to its result (fast.GamePlay).

The usual mjai game: each kyoku dealt and played by the kernel, then its result (one ryukyoku or one or more
hora, each with its ``deltas``) and end_kyoku, the game closed by end_game or not at all. Such a game's rounds,
wins and draws rows are made here straight from the kernel's state, without the per-kyoku objects of the general
path (KyokuReplay.feed, Result, OutcomeBuilder): the same values, as the general path's rules give them
(replay.py for the winning tile and the hand, results.py for the score changes, labels and draw kinds), stated
once more for that case only.

Anything else is left to the general path, which reads it event by event and raises its errors naming the round:
a kyoku the kernel did not play to its result, an event outside the pattern, a result without ``deltas``, a hora
with yaku entries or shown tiles, a ryukyoku showing hands or without a reason before the wall ran out, and any
value the general path would refuse (``read_game`` gives None at the first doubt; nothing it reads is changed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pipeline.errors import ParseError
from pipeline.sources.base import RoundOutcome
from pipeline.sources.mjai import kernel as k
from pipeline.sources.mjai.codes import WINDS, draw_kind
from pipeline.sources.mjai.fast import GamePlay
from pipeline.sources.mjai.game_end import end_scores
from pipeline.sources.mjai.labels import limit_name, read_labels
from pipeline.sources.mjai.replay import Replayed, int_field, ura_markers
from pipeline.sources.mjai.results import hora_points, liable_seat, per_seat, shown_seats, wall_out_kind
from pipeline.sources.mjai.stream import Events
from pipeline.sources.mjai.tiles import RED_IDS, UNKNOWN, IdAllocator, matches
from rules.scoring.points import STICK
from rules.scoring.situation import LIVE_DRAWS

_HORA_KEYS = frozenset({"type", "actor", "target", "pai", "deltas", "ura_markers", "uradora_markers",
                        "uradora_marker", "fu", "han", "fan", "hora_points"})  # fmt: skip
"""What a hora read here may hold (yaku entries and shown tiles go the general path)."""
_RYUKYOKU_KEYS = frozenset({"type", "deltas", "reason", "tenpais", "actor"})
"""What a ryukyoku read here may hold (shown hands go the general path)."""
_INT = {int}

class _Declined(Exception):
    """The game is not one this module reads: the general path reads it."""


@dataclass
class BulkGame:
    """A game read here: its rows (one tuple a row, base.row_columns' values), each kyoku's kernel rows, the
    quirks met, the last kyoku and its outcome (what the game's end reads of them) and end_game (or None)."""

    rounds: list[tuple]
    wins: list[tuple]
    draws: list[tuple]
    compiled: list[Any]
    quirks: set[str]
    last: Replayed
    last_outcome: RoundOutcome
    end_game: dict[str, Any] | None


@dataclass
class _Kyoku:
    """One kyoku's start values and the state the kernel left (the general path's KyokuReplay after its play)."""

    j: int
    index: int
    round_wind: int
    kyoku: int
    dealer: int
    honba: int
    sticks: int
    scores: list[int]
    plan: GamePlay
    """The game's kernel play: its state after kyoku ``j`` (``st``, ``last_draw``, ``n_kita``..., GamePlay.hand)."""
    dora: list[int]
    accepted: list[int]


def read_game(events: Events, plan: GamePlay) -> BulkGame | None:
    """The game's rows when every kyoku follows the pattern of the module docstring, else None."""
    try:
        return _read(events, plan)
    except (_Declined, ParseError, ValueError, IndexError, KeyError, TypeError):
        return None  # the general path reads it (and raises what it raises, naming the round)


def _results(events: Events, lo: int, hi: int) -> tuple[list[tuple[int, dict[str, Any]]], int]:
    """The result events of a kyoku whose play ends at ``lo`` (its next kyoku, end_game or the stream's end at
    ``hi``): one ryukyoku or one or more hora, then end_kyoku or nothing; and the position after them."""
    out = []
    pos = lo
    while pos < hi and events.type_of(pos) in ("hora", "ryukyoku"):
        out.append(events[pos])
        pos += 1
    if not out or (len(out) > 1 and any(e["type"] != "hora" for _, e in out)):
        raise _Declined
    if pos < hi and events.type_of(pos) == "end_kyoku":
        pos += 1
    return out, pos


def _read(events: Events, plan: GamePlay) -> BulkGame:
    """read_game's work; raises _Declined (or the error of a value it cannot take) for a game it does not read."""
    starts = plan.starts
    if not starts or len(plan.kyoku) != len(starts) or min(plan.done) < 0:
        raise _Declined
    n = plan.n_players
    if starts[0][0] != (1 if events.type_of(0) == "start_game" else 0):
        raise _Declined
    n_events = len(events)
    end_game = None
    if events.type_of(n_events - 1) == "end_game":
        end_game = events[n_events - 1][1]
        n_events -= 1
    kyoku = [_kyoku(plan, j, events.index(pos), start, n) for j, (pos, start) in enumerate(starts)]
    wins: list[tuple] = []
    draws: list[tuple] = []
    rounds: list[tuple] = []
    quirks: set[str] = set()
    outcome = RoundOutcome()
    for j, ky in enumerate(kyoku):
        hi = starts[j + 1][0] if j + 1 < len(starts) else n_events
        results, after_pos = _results(events, starts[j][0] + 1 + plan.done[j], hi)
        if after_pos != hi:
            raise _Declined
        after = kyoku[j + 1].scores if j + 1 < len(kyoku) else end_scores(end_game, n)
        outcome = _outcome(ky, results, n, plan.red, after, wins, draws)
        if plan.st[j][k.ST_MISMATCH]:
            quirks.add("tsumogiri_mismatch")
        quirks |= outcome.quirks
        o, o_end = plan.offsets[j][0], plan.offsets[j + 1][0]
        rounds.append((j, ky.round_wind, ky.kyoku, ky.dealer, ky.honba, ky.sticks, [], plan.first_dora[j],
                       ky.scores, [plan.dealt[j][s] if s < n else [] for s in range(4)], o_end - o,
                       "win" if outcome.wins else "draw", len(outcome.wins), outcome.scores_post, False,
                       ky.index))  # fmt: skip
    last = kyoku[-1]
    replayed = Replayed(last.index, last.round_wind, last.kyoku, last.dealer, last.honba, last.sticks, last.scores,
                        [], [False] * 4)  # fmt: skip
    replayed.riichi_accepted = last.accepted
    compiled = [plan.out[plan.offsets[j][0] : plan.offsets[j + 1][0]] for j in range(len(kyoku))]
    return BulkGame(rounds, wins, draws, compiled, quirks, replayed, outcome, end_game)


def _kyoku(plan: GamePlay, j: int, index: int, start: dict[str, Any], n: int) -> _Kyoku:
    """Kyoku ``j``'s start values (as KyokuReplay._start reads them, plain values only; ``index``: its file index) and
    the kernel's state."""
    scores = start["scores"]
    if type(scores) is not list or len(scores) < n or set(map(type, scores[:n])) != _INT:
        raise _Declined
    honba, sticks = int_field(start, "honba"), int_field(start, "kyotaku")
    (d, a), (d_end, a_end) = plan.offsets[j][1:], plan.offsets[j + 1][1:]
    return _Kyoku(j, index, WINDS[start["bakaze"]], int_field(start, "kyoku", 1, 4) - 1,
                  int_field(start, "oya", 0, n - 1), honba, sticks, (scores[:n] + [0, 0, 0, 0])[:4], plan,
                  [plan.first_dora[j], *plan.dora[d:d_end]], plan.accepted[a:a_end])  # fmt: skip


def _outcome(ky: _Kyoku, results: list[tuple[int, dict[str, Any]]], n: int, red: bool, after: list[int] | None,
             wins: list[tuple], draws: list[tuple]) -> RoundOutcome:  # fmt: skip
    """Append the kyoku's wins rows or its draws row; return its outcome (the little of it the game's end reads)."""
    scores = list(ky.scores)
    for seat in ky.accepted:
        scores[seat] -= STICK  # the scores before the result: the sticks put down are off, as Tenhou's sc shows them
    out, quirks = RoundOutcome(), set()
    if results[0][1]["type"] == "ryukyoku":
        index, event = results[0]
        if not event.keys() <= _RYUKYOKU_KEYS:
            raise _Declined
        deltas = per_seat(event["deltas"], "deltas", n)
        row = _draw_row(ky, index, event, deltas, scores, n, quirks)
        draws.append(row)
        out.draws.append({"kind": row[1], "is_shown": row[5], "riichi_sticks": row[4]})
        scores = [s + d for s, d in zip(scores, deltas, strict=True)]
    else:
        seats = [_seats(event, n) for _, event in results]
        ura: list[int] = []
        for _, event in results:
            ura = ura or _ura(ky, event, red)  # the first hora that writes them, listed by every riichi winner
        for win_idx, ((index, event), (seat, target)) in enumerate(zip(results, seats, strict=True)):
            deltas = per_seat(event["deltas"], "deltas", n)
            bonus = (seat - target) % n == min((a - target) % n for a, _ in seats)  # the nearest to the discarder
            wins.append(_win_row(ky, index, event, win_idx, (seat, target), deltas, bonus, scores,
                                 list(ura) if seat in ky.accepted else [], n, red, quirks))  # fmt: skip
            out.wins.append({"seat": seat})
            scores = [s + d for s, d in zip(scores, deltas, strict=True)]
    out.scores_post = scores
    if after is not None and after != scores:
        quirks.add("score_mismatch")
    out.quirks = quirks
    return out


def _seats(event: dict[str, Any], n: int) -> tuple[int, int]:
    """A hora's winner and the seat it wins from (itself for a tsumo)."""
    if not event.keys() <= _HORA_KEYS:
        raise _Declined
    return int_field(event, "actor", 0, n - 1), int_field(event, "target", 0, n - 1)


def _ura(ky: _Kyoku, event: dict[str, Any], red: bool) -> list[int]:
    """The ids of a hora's ura dora indicators, handed out after the kernel's tiles (from a copy of its state)."""
    markers = ura_markers(event)
    if not markers:
        return []
    alloc = IdAllocator(red)
    alloc.used = list(ky.plan.used[ky.j])
    return [alloc.new(name) for name in markers]


def _winning_tile(ky: _Kyoku, seat: int, target: int, pai: Any, red: bool) -> int:
    """The tile won on (replay.KyokuReplay._winning_tile, every hand followed)."""
    plan, j = ky.plan, ky.j
    st = plan.st[j]
    if seat != target:
        tile = st[k.ST_GIVEN]
        if target != st[k.ST_GIVER] or tile < 0:
            raise _Declined
    else:
        tile = plan.last_draw[j][seat]
        if st[k.ST_ACTOR] != seat or plan.draw_pos[j][seat] < 0 or tile < 0:
            raise _Declined
    if isinstance(pai, str) and pai != UNKNOWN and not matches(tile, pai, red):
        raise _Declined
    return tile


def _win_row(ky: _Kyoku, index: int, event: dict[str, Any], win_idx: int, seats: tuple[int, int], deltas: list[int],
             bonus: bool, scores: list[int], ura: list[int], n: int, red: bool, quirks: set[str]) -> tuple:  # fmt: skip
    """A wins row (results.OutcomeBuilder._win, without yaku entries): row_columns('wins') values (``seats``: the winner
    and the seat it wins from; ``ura``: the ura indicators it lists)."""
    seat, target = seats
    tile = _winning_tile(ky, seat, target, event.get("pai"), red)
    is_tsumo = seat == target
    hand = sorted(ky.plan.hand(ky.j, seat) + ([] if is_tsumo else [tile]))
    if len(hand) + 3 * ky.plan.n_melds[ky.j][seat] != 14:
        raise _Declined
    labels = read_labels(event, seat_wind=(seat - ky.dealer) % n, round_wind=ky.round_wind, kinds=[])
    quirks |= labels.quirks
    sticks = ky.sticks + len(ky.accepted) if bonus else 0
    points = hora_points(event, deltas[seat], ky.honba if bonus else 0, sticks, n)
    return (ky.j, win_idx, seat, target, is_tsumo, liable_seat(deltas, seat, target, is_tsumo, n), tile, tile // 4,
            red and tile in RED_IDS, hand, ky.plan.seat_melds(ky.j, seat)[::-1], ky.plan.n_kita[ky.j][seat], labels.fu,
            labels.han, points,
            limit_name(points, is_yakuman=labels.is_yakuman, han=labels.han, is_dealer=seat == ky.dealer,
                       is_tsumo=is_tsumo, n_players=n),
            [], [], [], labels.is_yakuman, list(ky.dora), ura, ky.honba, sticks, scores, deltas, index)  # fmt: skip


def _draw_row(ky: _Kyoku, index: int, event: dict[str, Any], deltas: list[int], scores: list[int], n: int,
              quirks: set[str]) -> tuple:  # fmt: skip
    """A draws row (results.OutcomeBuilder._draw, no hands written in the ryukyoku): row_columns('draws') values."""
    reason = event.get("reason")
    if reason is not None:
        kind = draw_kind(reason)
    elif ky.plan.st[ky.j][k.ST_DRAWS] >= LIVE_DRAWS[n]:
        kind = wall_out_kind(deltas, quirks)
    else:
        raise _Declined  # the abort the events show: the general path reads them
    shown = shown_seats(event, kind, deltas, n, max(ky.plan.st[ky.j][k.ST_ACTOR], -1), quirks)
    hands = [sorted(ky.plan.hand(ky.j, s)) if shown[s] else [] for s in range(4)]
    return (ky.j, kind, kind not in ("exhaustive", "nagashi_mangan"), ky.honba, ky.sticks + len(ky.accepted),
            shown, sum(shown), hands, scores, deltas, index)  # fmt: skip
