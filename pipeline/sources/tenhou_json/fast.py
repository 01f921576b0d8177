"""The compiled path of a game: its rounds' lists encoded as arrays while they are read (GameLists), then
replay_kernel and ids_kernel over every round in one call (round_kernel.replay_game).

``replay_rounds`` returns, per round, the Replay and RoundIds the Python path (replay.Replayer, tiles.IdAssigner)
would give, or None where a kernel gives up (a call that waited for a later discard, a list that cannot be played,
a tile too many...): the caller then runs the Python path for that round, which backtracks or raises its
ParseError, so errors read as before.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence, Set
from dataclasses import dataclass, field

import numpy as np

from pipeline.sources.tenhou_json.codes import Call
from pipeline.sources.tenhou_json.ids_kernel import ID_MELD, ID_MELD_N
from pipeline.sources.tenhou_json.replay import Ending, Replay
from pipeline.sources.tenhou_json.round_kernel import COUNT_HELD, COUNT_KITA, COUNT_MELDS, replay_game
from pipeline.sources.tenhou_json.rows import RowSpan
from pipeline.sources.tenhou_json.tiles import RoundIds
from rules.hands import CODE

_AFTER = {"draw": 0, "discard": 1}
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

    def add_call(self, row: tuple[int, ...]) -> int:
        """Append a call's row (call_row); return its code in a list (-1 - its row)."""
        self.calls.extend(row)
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


def call_row(call: Call) -> tuple[int, ...]:
    """A call's row of GameLists.calls: kind code, tile, number of tiles, the tiles (four slots) and from_rel."""
    return (CODE[call.kind], call.tile, len(call.tiles), *call.tiles, *_PAD[len(call.tiles) :], call.from_rel)


def replay_arrays(game: GameLists, has_red_fives: bool) -> tuple:
    """round_kernel.replay_game over every round of ``game`` (at least one): its arrays, as it returns them."""
    n_rounds = len(game.dealer)
    arr = lambda values: np.frombuffer(values, dtype=np.int64)  # noqa: E731
    return replay_game(
        arr(game.dealt).reshape(n_rounds, 4, 13), np.array(game.hand_len, dtype=np.int64), arr(game.takes),
        arr(game.take_start).reshape(n_rounds, 5), arr(game.gives), arr(game.give_start).reshape(n_rounds, 5),
        arr(game.calls).reshape(-1, 8), arr(game.dealer), arr(game.endings).reshape(n_rounds, 4), arr(game.dora),
        np.array(game.dora_start, dtype=np.int64), arr(game.ura), np.array(game.ura_start, dtype=np.int64),
        has_red_fives,
    )  # fmt: skip


def event_arrays(out: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """replay_game's event rows as RowSpan reads them: the action, seat, tile, from_seat and meld_n rows (one copy
    a game: each round's rows are views), and the meld ids."""
    return np.ascontiguousarray(out[:, : ID_MELD_N + 1].T), np.ascontiguousarray(out[:, ID_MELD : ID_MELD + 4])


def replay_rounds(game: GameLists, has_red_fives: bool,
                  arrays: tuple | None = None) -> list[tuple[Replay, RoundIds] | None]:  # fmt: skip
    """Every round of ``game`` replayed and numbered by the kernels, None for a round where one of them gave up
    (``arrays``: replay_arrays of the game when made already)."""
    n_rounds = len(game.dealer)
    if not n_rounds:
        return []
    per_round, out, out_start, start, dora_ids, n_dora, ura_ids, held, melds, counts = (
        arrays if arrays is not None else replay_arrays(game, has_red_fives))  # fmt: skip
    columns, meld = event_arrays(out)
    per_round_l, out_start_l, start_l, dora_l, n_dora_l, ura_l, seat_counts = (
        x.tolist() for x in (per_round, out_start, start, dora_ids, n_dora, ura_ids, counts[:, COUNT_KITA:]))
    # seat_counts[r]: kita, riichi declared, sticks put down and last draw per seat (COUNT_KITA onwards)
    results: list[tuple[Replay, RoundIds] | None] = []
    for r in range(n_rounds):
        status, last_actor, robbed, last_given, mismatch = per_round_l[r]
        if not status:
            results.append(None)
            continue
        d0, u0, u1 = game.dora_start[r], game.ura_start[r], game.ura_start[r + 1]
        n_kita, riichi, accepted, last_draw = seat_counts[r]
        ids = RoundIds(
            dealt_ids(start_l[r], game.hand_len[r]), dora_l[d0 : d0 + n_dora_l[r]], ura_l[u0:u1], [],
            HeldIds(held, counts, r), MeldIds(melds, counts, r), n_kita, last_given, mismatch, last_draw=last_draw,
        )  # fmt: skip
        ids.rows = RowSpan(columns, meld, out_start_l[r], out_start_l[r + 1], *_riichi(riichi, accepted))
        results.append((Replay([], last_actor, bool(robbed)), ids))
    return results


def dealt_ids(hands: list[list[int]], lengths: list[int]) -> list[list[int]]:
    """A round's dealt ids per seat (replay_game's rows of 13, -1s for a seat without a player: an empty list)."""
    return hands if 0 not in lengths else [hand if n else [] for hand, n in zip(hands, lengths, strict=True)]


def _riichi(declared: list[int], sticks: list[int]) -> tuple[Set[int], list[int]]:
    """EventRows.riichi_seats and accepted_riichi from the riichi declared and sticks put down per seat (the
    sticks' order is not kept: their payments are summed)."""
    if not any(declared) and not any(sticks):
        return _NONE, []
    return ({seat for seat in range(4) if declared[seat]},
            [seat for seat in range(4) for _ in range(sticks[seat])])  # fmt: skip


class HeldIds(Sequence[list[int]]):
    """A round's held ids per seat, read from replay_game's arrays when asked (a win or a shown hand reads a seat or
    two of a round: cutting every seat's list of every round cost more)."""

    __slots__ = ("counts", "held", "r")

    def __init__(self, held: np.ndarray, counts: np.ndarray, r: int) -> None:
        self.held, self.counts, self.r = held, counts, r

    def __getitem__(self, seat: int) -> list[int]:
        """The ids ``seat`` holds at the end of the round."""
        return self.held[self.r, seat, : self.counts[self.r, COUNT_HELD, seat]].tolist()

    def __len__(self) -> int:
        return 4


class MeldIds(Sequence[list[list[int]]]):
    """A round's melds per seat (ids, in call order), read from replay_game's arrays when asked (as HeldIds)."""

    __slots__ = ("counts", "melds", "r")

    def __init__(self, melds: np.ndarray, counts: np.ndarray, r: int) -> None:
        self.melds, self.counts, self.r = melds, counts, r

    def __getitem__(self, seat: int) -> list[list[int]]:
        """The melds of ``seat`` (each its ids, -1 padding left out)."""
        rows = self.melds[self.r, seat, : self.counts[self.r, COUNT_MELDS, seat]].tolist()
        return [[t for t in meld if t >= 0] for meld in rows]

    def __len__(self) -> int:
        return 4
