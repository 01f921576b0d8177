"""The compiled path of a game: its rounds' lists encoded as arrays while they are read (GameLists), then
replay_kernel and ids_kernel over every round in one call (round_kernel.replay_game).

``replay_rounds`` returns, per round, the Replay and RoundIds the Python path (replay.Replayer, tiles.IdAssigner)
would give, or None where a kernel gives up (a call that waited for a later discard, a list that cannot be played,
a tile too many...): the caller then runs the Python path for that round, which backtracks or raises its
ParseError, so errors read as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pipeline.sources.tenhou_json.codes import Call
from pipeline.sources.tenhou_json.ids_kernel import ID_ACTION, ID_FROM, ID_MELD, ID_MELD_N, ID_SEAT, ID_TILE
from pipeline.sources.tenhou_json.replay import Ending, Replay
from pipeline.sources.tenhou_json.round_kernel import replay_game
from pipeline.sources.tenhou_json.rows import EventRows
from pipeline.sources.tenhou_json.tiles import RoundIds
from rules.hands import CODE

_AFTER = {"draw": 0, "discard": 1}


@dataclass
class GameLists:
    """A game's rounds as the kernel reads them, filled round by round (see round_kernel.replay_game): the take
    and give lists of every seat flattened (a call as ``-1 - its row`` in ``calls``) with five offsets a round,
    the dealt codes, dealer, ending and indicators."""

    takes: list[int] = field(default_factory=list)
    gives: list[int] = field(default_factory=list)
    calls: list[list[int]] = field(default_factory=list)
    take_start: list[list[int]] = field(default_factory=list)
    give_start: list[list[int]] = field(default_factory=list)
    dealt: list[list[list[int]]] = field(default_factory=list)
    hand_len: list[list[int]] = field(default_factory=list)
    dealer: list[int] = field(default_factory=list)
    endings: list[list[int]] = field(default_factory=list)
    dora: list[int] = field(default_factory=list)
    dora_start: list[int] = field(default_factory=lambda: [0])
    ura: list[int] = field(default_factory=list)
    ura_start: list[int] = field(default_factory=lambda: [0])

    def call(self, call: Call) -> int:
        """Append a call's row; return its code in a list (-1 - its row)."""
        tiles = list(call.tiles) + [0] * (4 - len(call.tiles))
        self.calls.append([CODE[call.kind], call.tile, len(call.tiles), *tiles, call.from_rel])
        return -len(self.calls)

    def add_round(
        self, hands: list[list[int]], takes: list[int], gives: list[int], dealer: int, ending: Ending, dora: list[int],
        ura: list[int],
    ) -> None:  # fmt: skip
        """Close a round whose lists were appended: ``takes`` and ``gives`` are the five offsets of its seats."""
        self.take_start.append(takes)
        self.give_start.append(gives)
        self.dealt.append([hand if hand else [0] * 13 for hand in hands])
        self.hand_len.append([len(hand) for hand in hands])
        self.dealer.append(dealer)
        self.endings.append([_AFTER[ending.after], ending.seat, ending.accepts_riichi, ending.is_ron])
        self.dora += dora
        self.dora_start.append(len(self.dora))
        self.ura += ura
        self.ura_start.append(len(self.ura))


def replay_rounds(game: GameLists, has_red_fives: bool) -> list[tuple[Replay, RoundIds] | None]:
    """Every round of ``game`` replayed and numbered by the kernels, None for a round where one of them gave up."""
    n_rounds = len(game.dealer)
    if not n_rounds:
        return []
    array = lambda values: np.array(values, dtype=np.int64)  # noqa: E731
    calls = array(game.calls).reshape(len(game.calls), 8)
    per_round, out, out_start, start, dora_ids, n_dora, ura_ids, held, melds, counts = replay_game(
        array(game.dealt), array(game.hand_len), array(game.takes), array(game.take_start), array(game.gives),
        array(game.give_start), calls, array(game.dealer), array(game.endings), array(game.dora),
        array(game.dora_start), array(game.ura), array(game.ura_start), has_red_fives,
    )  # fmt: skip
    columns = np.ascontiguousarray(out[:, : ID_MELD_N + 1].T)  # one copy a game: each round's rows are views
    meld = np.ascontiguousarray(out[:, ID_MELD : ID_MELD + 4])
    held_l, held_at = _compact(held, counts[:, 0])
    meld_rows, meld_at = _compact(melds, counts[:, 1])
    meld_l = [[t for t in m if t >= 0] for m in meld_rows]
    lists = [x.tolist() for x in (per_round, out_start, start, dora_ids, n_dora, ura_ids, counts[:, 2])]
    per_round_l, out_start_l, start_l, dora_l, n_dora_l, ura_l, n_kita_l = lists
    hand_len = game.hand_len
    results: list[tuple[Replay, RoundIds] | None] = []
    for r in range(n_rounds):
        status, last_actor, robbed, last_given, mismatch = per_round_l[r]
        if not status:
            results.append(None)
            continue
        d0, u0, u1, h, m = game.dora_start[r], game.ura_start[r], game.ura_start[r + 1], 4 * r, 4 * r
        ids = RoundIds(
            [start_l[r][s][: hand_len[r][s]] for s in range(4)], dora_l[d0 : d0 + n_dora_l[r]], ura_l[u0:u1], [],
            [held_l[held_at[h + s] : held_at[h + s + 1]] for s in range(4)],
            [meld_l[meld_at[m + s] : meld_at[m + s + 1]] for s in range(4)], n_kita_l[r], last_given, mismatch,
        )  # fmt: skip
        a, b = out_start_l[r], out_start_l[r + 1]
        ids.rows = EventRows(columns[ID_ACTION, a:b], columns[ID_SEAT, a:b], columns[ID_TILE, a:b],
                             columns[ID_FROM, a:b], meld[a:b], columns[ID_MELD_N, a:b])  # fmt: skip
        results.append((Replay([], last_actor, bool(robbed)), ids))
    return results


def _compact(values: np.ndarray, used: np.ndarray) -> tuple[list, list[int]]:
    """The first ``used[r, seat]`` entries of ``values[r, seat]`` (held ids, or melds), every (round, seat) after
    the other, as a list, and where each (round, seat)'s entries start in it (4 * r + seat; one more at the end)."""
    mask = np.arange(values.shape[2]) < used[:, :, None]
    return values[mask].tolist(), [0, *np.cumsum(used).tolist()]
