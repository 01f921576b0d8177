"""The rounds, wins and draws rows of a tenhou.net/6 game whose every kyoku the kernels replayed, read in one pass.

The usual document: every kyoku checked (round.prepare_kyoku) and replayed and numbered by round_kernel.replay_game.
Its rows are made here from the kernels' arrays by the rules results.OutcomeBuilder applies (``win_seats``,
``win_labels``, ``shown_seats``, the score changes, the winning tile, the sticks), without the objects the
kyoku-by-kyoku path makes for each round (RoundIds, RowSpan's riichi sets, Replay, Kyoku, the OutcomeBuilder and its
row dicts); the disconnections are put among the events as that path puts them. Anything else is left to that path,
which raises its errors naming the round: a kyoku a kernel gave up on (a call that waits for a later discard...) and
any value it would refuse (``read_game`` gives None at the first doubt; nothing it reads is changed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pipeline.errors import ParseError
from pipeline.sources.tenhou_json.codes import DRAW_RESULTS, WIN_RESULT
from pipeline.sources.tenhou_json.fast import GameLists, HeldIds, MeldIds, dealt_ids, event_arrays
from pipeline.sources.tenhou_json.results import RED_IDS, result_deltas, shown_seats, win_labels, win_seats
from pipeline.sources.tenhou_json.round import Prepared
from pipeline.sources.tenhou_json.round_kernel import (
    COUNT_ACCEPTED,
    COUNT_KITA,
    COUNT_LAST_DRAW,
    COUNT_RIICHI,
)
from pipeline.sources.tenhou_json.rows import EventRows, RowSpan
from pipeline.sources.tenhou_xml.codes import yaku_name

_NONE: frozenset[int] = frozenset()
Connections = dict[int, list[tuple[int, int, str]]]
"""Per round, its disconnections and reconnections: (step, seat, 'disconnect' or 'reconnect')."""
class _Declined(Exception):
    """The game is not one this module reads: the kyoku-by-kyoku path reads it."""


@dataclass
class BulkRounds:
    """A game's rows read here (one tuple a row, base.row_columns' values), each round's event rows with the
    source index of the first, the quirks met and the next source index."""

    rounds: list[tuple]
    wins: list[tuple]
    draws: list[tuple]
    events: list[tuple[RowSpan | EventRows, int]]
    quirks: set[str]
    next_index: int


@dataclass
class _Round:
    """What the kernels left of one round: its index, the seats' counts (round_kernel's COUNT_* rows), and the ids
    each seat holds and its melds at the end (read when asked)."""

    r: int
    counts: list[list[int]]
    held: HeldIds
    melds: MeldIds


def read_game(game: GameLists, prepared: list[Prepared], arrays: tuple, n_players: int, red: bool,
              double_yakuman: bool, connections: Connections) -> BulkRounds | None:  # fmt: skip
    """The rows of a game whose every kyoku was prepared (``prepared``, their lists in ``game``) and replayed
    (``arrays``: fast.replay_arrays), with its disconnections and reconnections put in at their step
    (``connections``: per round, the parser's (step, seat, kind) items), or None when a kernel gave up on a kyoku
    or a value is one the kyoku-by-kyoku path would refuse."""
    try:
        return _read(game, prepared, arrays, n_players, red, double_yakuman, connections)
    except (_Declined, ParseError, ValueError, IndexError, KeyError, TypeError):
        return None  # the kyoku-by-kyoku path reads it (and raises what it raises, naming the round)


def _read(lists: GameLists, prepared: list[Prepared], arrays: tuple, n_players: int, red: bool,
          double_yakuman: bool, connections: Connections) -> BulkRounds:  # fmt: skip
    """read_game's work; raises _Declined (or the error of a value it cannot take) for a game it does not read."""
    per_round, out, out_start, start, dora_ids, n_dora, ura_ids, held, melds, counts = arrays
    per_round_l = per_round.tolist()
    if not all(row[0] for row in per_round_l):
        raise _Declined
    columns, meld = event_arrays(out)
    out_start_l, start_l, dora_l, n_dora_l, ura_l, counts_l = (
        x.tolist() for x in (out_start, start, dora_ids, n_dora, ura_ids, counts))  # fmt: skip
    game = BulkRounds([], [], [], [], set(), 0)
    for r, ready in enumerate(prepared):
        _status, last_actor, _robbed, last_given, mismatch = per_round_l[r]
        d0, u0, u1 = lists.dora_start[r], lists.ura_start[r], lists.ura_start[r + 1]
        dora, ura = dora_l[d0 : d0 + n_dora_l[r]], ura_l[u0:u1]
        if mismatch:
            game.quirks.add("dora_count_mismatch")
        start_index = game.next_index
        rows: RowSpan | EventRows = RowSpan(columns, meld, out_start_l[r], out_start_l[r + 1], _NONE, ())
        items = connections.get(r)
        if items:
            rows = rows.inserted(sorted(items, reverse=True))
        game.events.append((rows, start_index + 1))
        game.next_index += 1 + len(rows)
        hands_start = dealt_ids(start_l[r], lists.hand_len[r])
        state = _Round(r, counts_l[r], HeldIds(held, counts, r), MeldIds(melds, counts, r))
        outcome = _Outcome(ready, state, n_players, red, double_yakuman, game)
        scores_post = outcome.read(hands_start, dora, ura, last_actor, last_given)
        round_number, honba, sticks = ready.header[:3]
        game.rounds.append((r, round_number // 4, round_number % 4, ready.dealer, honba, sticks, [], dora[0],
                            ready.scores, hands_start, 0, "win" if outcome.n_wins else "draw", outcome.n_wins,
                            scores_post, False, start_index))  # fmt: skip
    return game


class _Outcome:
    """One round's result read into the game's wins or draws rows (results.OutcomeBuilder's values)."""

    def __init__(self, ready: Prepared, state: _Round, n_players: int, red: bool, double_yakuman: bool,
                 game: BulkRounds) -> None:  # fmt: skip
        self.ready, self.state, self.n, self.red, self.double_yakuman, self.game = (
            ready, state, n_players, red, double_yakuman, game)  # fmt: skip
        self.scores = list(ready.scores)
        self.sticks = ready.header[2]
        for seat, n_sticks in enumerate(state.counts[COUNT_ACCEPTED]):  # the riichi sticks put down
            self.scores[seat] -= 1000 * n_sticks
            self.sticks += n_sticks
        self.n_wins = 0

    def read(self, hands_start: list[list[int]], dora: list[int], ura: list[int], last_actor: int,
             last_given: int) -> list[int]:  # fmt: skip
        """Append the round's rows; return the scores after its result."""
        result = self.ready.raw[-1]
        if result[0] == WIN_RESULT:
            riichi = [s for s in range(4) if self.state.counts[COUNT_RIICHI][s]]
            for at in range(1, len(result) - 1, 2):
                self._win(result_deltas(result[at]), result[at + 1], dora, ura, riichi, last_actor, last_given)
        else:
            self._draw(result, [bool(hand) for hand in hands_start], last_actor)
        return list(self.scores)

    def _next_index(self) -> int:
        self.game.next_index += 1
        return self.game.next_index - 1

    def _apply(self, deltas: list[int]) -> list[int]:
        """Apply a result's score changes; return the scores before them."""
        before = self.scores
        self.scores = [s + d for s, d in zip(self.scores, deltas, strict=True)]
        return before

    def _win(self, deltas: list[int], detail: list[Any], dora: list[int], ura: list[int], riichi: list[int],
             last_actor: int, last_given: int) -> None:  # fmt: skip
        ready, state, n = self.ready, self.state, self.n
        seat, from_seat, pao = win_seats(detail, n)
        is_tsumo = seat == from_seat
        round_wind = ready.header[0] // 4
        fu, points, limit, yaku, yaku_han, is_yakuman = win_labels(
            detail, is_tsumo, n, (seat - ready.dealer) % n, round_wind, self.double_yakuman, self.game.quirks)
        tile = last_given
        if is_tsumo:
            tile = state.counts[COUNT_LAST_DRAW][seat]
            if tile < 0 or last_actor != seat:
                raise _Declined  # "tsumo by a seat who did not draw last": the other path's error
        hand = sorted(state.held[seat] + ([] if is_tsumo else [tile]))
        sticks = self.sticks if self.n_wins == 0 else 0
        self.game.wins.append((
            state.r, self.n_wins, seat, from_seat, is_tsumo, pao if pao != seat else None, tile, tile // 4,
            self.red and tile in RED_IDS, hand, state.melds[seat][::-1], state.counts[COUNT_KITA][seat], fu,
            sum(yaku_han), points, limit, yaku, [yaku_name(y) for y in yaku], yaku_han, is_yakuman, list(dora),
            list(ura) if seat in riichi else [], ready.header[1], sticks, self._apply(deltas), deltas,
            self._next_index(),
        ))  # fmt: skip
        self.n_wins += 1

    def _draw(self, result: list[Any], seated: list[bool], last_actor: int) -> None:
        name = result[0]
        kind = DRAW_RESULTS[name]
        deltas = result_deltas(result[1]) if len(result) > 1 else [0, 0, 0, 0]
        shown = shown_seats(name, kind, deltas, seated, last_actor, self.game.quirks)
        self.game.draws.append((
            self.state.r, kind, kind not in ("exhaustive", "nagashi_mangan"), self.ready.header[1], self.sticks,
            shown, sum(shown), [sorted(self.state.held[s]) if shown[s] else [] for s in range(4)],
            self._apply(deltas), deltas, self._next_index(),
        ))  # fmt: skip
