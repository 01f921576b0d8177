"""The state of one round under construction: hands, calls, discards, riichi, furiten, wall, events.

``RoundState`` holds the state and the bookkeeping shared by the actions (``round.py``, ``calls.py``,
``results.py``); tests read it through the query methods (``hand``, ``waits``, ``is_furiten``...).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from pipeline.scenario import hands as hands_mod
from pipeline.scenario.melds import Meld
from pipeline.scenario.tiles import ScenarioError, TileLike, TilePool, TilesLike, tiles_to_mpsz

if TYPE_CHECKING:
    from pipeline.scenario.builder import GameBuilder

Tag = tuple[str, dict[str, str]]
"""One XML element of the log: tag name and attributes (in Tenhou's order)."""

OPEN_KINDS = frozenset({"chi", "pon", "daiminkan", "kakan"})
"""Call kinds that open a hand."""


def hundreds(scores: Sequence[int]) -> str:
    """Scores as Tenhou writes them: hundreds, comma separated."""
    return ",".join(str(s // 100) for s in scores)


class RoundState:
    """State of one round; the actions live in the subclasses."""

    def __init__(
        self,
        game: GameBuilder,
        *,
        kyoku: int,
        honba: int,
        sticks: int,
        scores: Sequence[int],
        hands: Mapping[int, TilesLike],
        dora_indicator: TileLike | None,
        wall: TilesLike | None,
        dice: tuple[int, int] | None,
        ura_indicators: TilesLike | None,
        rng: random.Random,
    ) -> None:
        self.game = game
        self.n = game.players
        self.strict = game.strict
        self.kyoku, self.honba, self.sticks = kyoku, honba, sticks
        self.dealer = kyoku % 4
        self.scores = list(scores) + [0] * (4 - len(scores))
        self.pool = TilePool(game.red, game.sanma, rng)
        self.events: list[Tag] = []
        self.hands: dict[int, list[int]] = {}
        self.melds: dict[int, list[Meld]] = {s: [] for s in range(self.n)}
        self.discards: dict[int, list[int]] = {s: [] for s in range(self.n)}
        self.called_tiles: set[int] = set()
        self.riichi_kind: dict[int, str] = {}
        self.ippatsu: set[int] = set()
        self.furiten_temp: set[int] = set()
        self.furiten_riichi: set[int] = set()
        self.kuikae: dict[int, set[int]] = {}
        self._init_turn_state()
        self._deal(hands, dora_indicator, wall, ura_indicators, dice, rng)

    def _init_turn_state(self) -> None:
        self.winners: list[int] = []
        self.result_kind: str | None = None
        self.dealer_tenpai = False
        self.phase = "draw"
        self.turn = self.dealer
        self.drawn: int | None = None
        self.draws_left = 70 if self.n == 4 else 55
        self.uninterrupted = True
        self.last_discard: tuple[int, int] | None = None
        self.last_kakan: tuple[int, int] | None = None
        self.last_discard_houtei = False
        self.draw_was_rinshan = False
        self.last_action = "init"
        self._rinshan_pending = False
        self._pending_reach: tuple[int, bool] | None = None
        self._pending_pass: tuple[int, int] | None = None
        self._ron_on: tuple[int, int, bool] = (0, 0, False)
        self._wait_cache: dict[tuple[int, ...], set[int]] = {}

    # ---- setup -------------------------------------------------------------------------------
    def _deal(
        self,
        hands: Mapping[int, TilesLike],
        dora_indicator: TileLike | None,
        wall: TilesLike | None,
        ura: TilesLike | None,
        dice: tuple[int, int] | None,
        rng: random.Random,
    ) -> None:
        for seat, spec in sorted(hands.items()):
            if not 0 <= seat < self.n:
                raise ScenarioError(f"seat {seat} does not play in a {self.n}-player game")
            tiles = self.pool.take_many(spec)
            if len(tiles) != 13:
                raise ScenarioError(f"seat {seat}'s hand has {len(tiles)} tiles, not 13: {spec!r}")
            self.hands[seat] = tiles
        self.dora_indicators = [self.pool.take(dora_indicator) if dora_indicator is not None else -1]
        self._wall: deque[int] = deque(self.pool.take_many(wall) if wall is not None else [])
        self.ura: list[int] = self.pool.take_many(ura) if ura is not None else []
        for seat in range(self.n):
            if seat not in self.hands:
                self.hands[seat] = [self.pool.take_any() for _ in range(13)]
        if self.dora_indicators[0] < 0:
            self.dora_indicators[0] = self.pool.take_any()
        d0, d1 = dice if dice is not None else (rng.randrange(6), rng.randrange(6))
        attrs = {
            "seed": f"{self.kyoku},{self.honba},{self.sticks},{d0},{d1},{self.dora_indicators[0]}",
            "ten": hundreds(self.scores),
            "oya": str(self.dealer),
        }
        for seat in range(4):
            attrs[f"hai{seat}"] = ",".join(map(str, self.hands.get(seat, [])))
        self.events.append(("INIT", attrs))

    # ---- queries -----------------------------------------------------------------------------
    def hand(self, seat: int) -> list[int]:
        """The seat's closed tiles now (136-ids, sorted)."""
        return sorted(self.hands[seat])

    def hand_mpsz(self, seat: int) -> str:
        """The seat's closed tiles now, as an MPSZ string."""
        return tiles_to_mpsz(self.hands[seat], self.pool.red)

    def is_open(self, seat: int) -> bool:
        """Whether the seat has called chi, pon or an open kan."""
        return any(m.kind in OPEN_KINDS for m in self.melds[seat])

    def waits(self, seat: int, tiles: Sequence[int] | None = None) -> set[int]:
        """34-kinds the seat's closed tiles (3n+1 of them, or ``tiles``) are waiting on (formal waits)."""
        key = tuple(sorted(self.hands[seat] if tiles is None else tiles))
        if len(key) % 3 != 1:
            raise ScenarioError(f"waits need 3n+1 closed tiles, seat {seat} holds {len(key)}")
        if key not in self._wait_cache:
            self._wait_cache[key] = hands_mod.waits(key, self.game.sanma)
        return self._wait_cache[key]

    def is_furiten(self, seat: int) -> bool:
        """Own-discard, temporary or riichi furiten of the seat (waits against what it passed)."""
        if seat in self.furiten_temp or seat in self.furiten_riichi:
            return True
        own = {t // 4 for t in self.discards[seat]}
        return bool(own & self.waits(seat))

    def n_kans(self) -> int:
        """Kans made in this round so far (all seats)."""
        return sum(m.kind in ("daiminkan", "ankan", "kakan") for ms in self.melds.values() for m in ms)

    @property
    def rinshan_pending(self) -> bool:
        """Whether the next draw is a replacement draw (after a kan or a kita)."""
        return self._rinshan_pending

    @property
    def over(self) -> bool:
        """Whether the round has its result (a win, an exhaustive or an abortive draw)."""
        return self.result_kind is not None

    # ---- bookkeeping -------------------------------------------------------------------------
    def _emit(self, name: str, **attrs: object) -> None:
        self.events.append((name, {k: str(v) for k, v in attrs.items()}))

    def _expect(self, seat: int, action: str) -> None:
        """Check the round can take a ``draw``, ``discard`` or ``respond`` (call, ron) action by the seat."""
        if self.over and not (action == "respond" and self.phase == "won"):
            raise ScenarioError("the round is over")
        if not 0 <= seat < self.n:
            raise ScenarioError(f"seat {seat} does not play in a {self.n}-player game")
        allowed = {"draw": ("draw", "respond"), "discard": ("discard",), "respond": ("respond", "won")}[action]
        if self.phase not in allowed:
            wanted = {"draw": "a draw", "discard": "a discard or a declaration", "respond": "a call or a ron"}
            raise ScenarioError(f"seat {seat} cannot act now: the round expects {wanted[self.phase_action]}")
        if self.strict and action != "respond" and seat != self.turn:
            raise ScenarioError(f"it is seat {self.turn}'s turn, not seat {seat}'s")

    @property
    def phase_action(self) -> str:
        """The kind of action the round waits for: draw, discard or respond."""
        return {"won": "respond", "over": "respond"}.get(self.phase, self.phase)

    def _flush(self) -> None:
        """The last discard passed: accept a pending riichi (REACH step 2) and mark passed winning tiles."""
        if self._pending_reach is not None:
            seat, double = self._pending_reach
            self._pending_reach = None
            self.scores[seat] -= 1000
            self.sticks += 1
            self.riichi_kind[seat] = "double" if double else "riichi"
            self.ippatsu.add(seat)
            self._emit("REACH", who=seat, ten=hundreds(self.scores), step=2)
        if self._pending_pass is not None:
            src, tile = self._pending_pass
            self._pending_pass = None
            for s in range(self.n):
                if s != src and len(self.hands[s]) % 3 == 1 and tile // 4 in self.waits(s):
                    self.furiten_temp.add(s)
                    if s in self.riichi_kind:
                        self.furiten_riichi.add(s)

    def _cancel_first_turn(self) -> None:
        """A call: no more ippatsu for anyone, the first go-around is interrupted."""
        self.uninterrupted = False
        self.ippatsu.clear()
