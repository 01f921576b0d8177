"""The compiled path of a game: its rounds' lists encoded as arrays while they are read (GameLists), then
replay_kernel and ids_kernel over every round in one call (round_kernel.replay_game).

``replay_rounds`` returns, per round, the Replay and RoundIds the Python path (replay.Replayer, tiles.IdAssigner)
would give, or None where a kernel gives up (a call that waited for a later discard, a list that cannot be played,
a tile too many...): the caller then runs the Python path for that round, which backtracks or raises its
ParseError, so errors read as before.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np

from pipeline.sources.tenhou_json.codes import Call
from pipeline.sources.tenhou_json.ids_kernel import ID_ACTION, ID_FROM, ID_MELD, ID_MELD_N, ID_SEAT, ID_TILE
from pipeline.sources.tenhou_json.replay import Ending, Replay
from pipeline.sources.tenhou_json.round_kernel import replay_game
from pipeline.sources.tenhou_json.rows import EventRows
from pipeline.sources.tenhou_json.tiles import RoundIds
from rules.hands import CODE

_AFTER = {"draw": 0, "discard": 1}
RIICHI, ACCEPTED = CODE["riichi"], CODE["riichi_accepted"]
_NONE: frozenset[int] = frozenset()


def _ints() -> array:
    return array("q")


@dataclass
class GameLists:
    """A game's rounds as the kernel reads them, filled round by round (see round_kernel.replay_game), in int64
    buffers (a list of Python ints converted by the buffer in C, handed to numpy without a copy): the take and give
    lists of every seat flattened (a call as ``-1 - its row`` in ``calls``, eight values a row) with five offsets a
    round, the dealt codes (4 x 13 a round, zeros for an empty seat), dealer, ending and indicators."""

    takes: array = field(default_factory=_ints)
    gives: array = field(default_factory=_ints)
    calls: array = field(default_factory=_ints)
    take_start: array = field(default_factory=_ints)
    give_start: array = field(default_factory=_ints)
    dealt: array = field(default_factory=_ints)
    hand_len: list[list[int]] = field(default_factory=list)
    dealer: array = field(default_factory=_ints)
    endings: array = field(default_factory=_ints)
    dora: array = field(default_factory=_ints)
    dora_start: list[int] = field(default_factory=lambda: [0])
    ura: array = field(default_factory=_ints)
    ura_start: list[int] = field(default_factory=lambda: [0])

    def call(self, call: Call) -> int:
        """Append a call's row; return its code in a list (-1 - its row)."""
        self.calls.extend([CODE[call.kind], call.tile, len(call.tiles), *call.tiles, *_PAD[len(call.tiles) :],
                           call.from_rel])  # fmt: skip
        return -(len(self.calls) // 8)

    def add_round(
        self, hands: list[list[int]], takes: list[int], gives: list[int], dealer: int, ending: Ending, dora: list[int],
        ura: list[int],
    ) -> None:  # fmt: skip
        """Close a round whose lists were appended: ``takes`` and ``gives`` are the five offsets of its seats."""
        self.take_start.extend(takes)
        self.give_start.extend(gives)
        for hand in hands:
            self.dealt.extend(hand if hand else _PAD13)
        self.hand_len.append([len(hand) for hand in hands])
        self.dealer.append(dealer)
        self.endings.extend([_AFTER[ending.after], ending.seat, ending.accepts_riichi, ending.is_ron])
        self.dora.extend(dora)
        self.dora_start.append(len(self.dora))
        self.ura.extend(ura)
        self.ura_start.append(len(self.ura))


_PAD, _PAD13 = (0, 0, 0, 0), (0,) * 13


def replay_rounds(game: GameLists, has_red_fives: bool) -> list[tuple[Replay, RoundIds] | None]:
    """Every round of ``game`` replayed and numbered by the kernels, None for a round where one of them gave up."""
    n_rounds = len(game.dealer)
    if not n_rounds:
        return []
    arr = lambda values: np.frombuffer(values, dtype=np.int64)  # noqa: E731
    per_round, out, out_start, start, dora_ids, n_dora, ura_ids, held, melds, counts = replay_game(
        arr(game.dealt).reshape(n_rounds, 4, 13), np.array(game.hand_len, dtype=np.int64), arr(game.takes),
        arr(game.take_start).reshape(n_rounds, 5), arr(game.gives), arr(game.give_start).reshape(n_rounds, 5),
        arr(game.calls).reshape(-1, 8), arr(game.dealer), arr(game.endings).reshape(n_rounds, 4), arr(game.dora),
        np.array(game.dora_start, dtype=np.int64), arr(game.ura), np.array(game.ura_start, dtype=np.int64),
        has_red_fives,
    )  # fmt: skip
    columns = np.ascontiguousarray(out[:, : ID_MELD_N + 1].T)  # one copy a game: each round's rows are views
    meld = np.ascontiguousarray(out[:, ID_MELD : ID_MELD + 4])
    held_l, held_at = _compact(held, counts[:, 0])
    meld_rows, meld_at = _compact(melds, counts[:, 1])
    meld_l = [[t for t in m if t >= 0] for m in meld_rows]
    lists = [x.tolist() for x in (per_round, out_start, start, dora_ids, n_dora, ura_ids, counts[:, 2])]
    per_round_l, out_start_l, start_l, dora_l, n_dora_l, ura_l, n_kita_l = lists
    # every (round, seat)'s lists cut at once (round r's seats at 4 * r ... 4 * r + 3)
    held_seats = [held_l[a:b] for a, b in pairwise(held_at)]
    meld_seats = [meld_l[a:b] for a, b in pairwise(meld_at)]
    dealt_seats = [hand[:n] for hands, lengths in zip(start_l, game.hand_len, strict=True)
                   for hand, n in zip(hands, lengths, strict=True)]  # fmt: skip
    riichi, accepted = _riichi_per_round(columns[ID_ACTION], columns[ID_SEAT], out_start)
    results: list[tuple[Replay, RoundIds] | None] = []
    for r in range(n_rounds):
        status, last_actor, robbed, last_given, mismatch = per_round_l[r]
        if not status:
            results.append(None)
            continue
        d0, u0, u1, s = game.dora_start[r], game.ura_start[r], game.ura_start[r + 1], 4 * r
        ids = RoundIds(
            dealt_seats[s : s + 4], dora_l[d0 : d0 + n_dora_l[r]], ura_l[u0:u1], [], held_seats[s : s + 4],
            meld_seats[s : s + 4], n_kita_l[r], last_given, mismatch,
        )  # fmt: skip
        a, b = out_start_l[r], out_start_l[r + 1]
        ids.rows = EventRows(columns[ID_ACTION, a:b], columns[ID_SEAT, a:b], columns[ID_TILE, a:b],
                             columns[ID_FROM, a:b], meld[a:b], columns[ID_MELD_N, a:b], riichi.get(r, _NONE),
                             accepted.get(r, ()))  # fmt: skip
        results.append((Replay([], last_actor, bool(robbed)), ids))
    return results


def _riichi_per_round(
    action: np.ndarray, seat: np.ndarray, out_start: np.ndarray
) -> tuple[dict[int, set[int]], dict[int, list[int]]]:
    """By round (its rows at out_start[r]:out_start[r + 1]; a round without any is left out), the seats that
    declared riichi and the seat of each riichi stick put on the table, in order (EventRows.riichi_seats and
    accepted_riichi, for every round at once)."""
    riichi: dict[int, set[int]] = {}
    accepted: dict[int, list[int]] = {}
    at = np.flatnonzero((action == RIICHI) | (action == ACCEPTED))
    if len(at):
        rounds = np.searchsorted(out_start, at, side="right") - 1  # an empty round's start is the next one's
        for r, kind, who in zip(rounds.tolist(), action[at].tolist(), seat[at].tolist(), strict=True):
            if kind == RIICHI:
                riichi.setdefault(r, set()).add(who)
            else:
                accepted.setdefault(r, []).append(who)
    return riichi, accepted


def _compact(values: np.ndarray, used: np.ndarray) -> tuple[list, list[int]]:
    """The first ``used[r, seat]`` entries of ``values[r, seat]`` (held ids, or melds), every (round, seat) after
    the other, as a list, and where each (round, seat)'s entries start in it (4 * r + seat; one more at the end)."""
    mask = np.arange(values.shape[2]) < used[:, :, None]
    return values[mask].tolist(), [0, *np.cumsum(used).tolist()]
