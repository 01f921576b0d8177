"""``RoundBuilder``: one round of a scenario, built event by event (draws, discards, riichi, dora...)."""

from __future__ import annotations

from pipeline.scenario import hands as hands_mod
from pipeline.scenario.calls import CallActions
from pipeline.scenario.results import ResultActions
from pipeline.scenario.tiles import ScenarioError, TileLike, find_held


class RoundBuilder(CallActions, ResultActions):
    """One round (kyoku) of a game: the deal, then actions in the order they happen.

    Every action checks that it is legal where the log would otherwise be wrong (tile ids, hand sizes,
    held tiles). With ``GameBuilder(strict=True)`` (the default) it also enforces Tenhou's rules: turn
    order, furiten, kuikae, riichi (tsumogiri, closed tenpai, 1000 points), kan limits, abort conditions.
    """

    def draw(self, seat: int, tile: TileLike | None = None) -> int:
        """Seat draws ``tile`` (default: the next wall tile, else a free tile); returns its 136-id."""
        self._expect(seat, "draw")
        if self.draws_left <= 0:
            raise ScenarioError("the wall is empty: no more draws")
        self._flush()
        t = self._next_tile(tile)
        self.hands[seat].append(t)
        self.drawn = t
        self.draws_left -= 1
        self.draw_was_rinshan, self._rinshan_pending = self._rinshan_pending, False
        self._emit("TUVW"[seat] + str(t))
        self.phase, self.last_action = "discard", "draw"
        return t

    def discard(self, seat: int, tile: TileLike | None = None) -> int:
        """Seat discards ``tile`` (default: the tile just drawn, tsumogiri); returns its 136-id."""
        self._expect(seat, "discard")
        t = self._held_or_drawn(seat, tile)
        if self.strict and seat in self.riichi_kind and t != self.drawn:
            raise ScenarioError(f"seat {seat} is in riichi and must discard the drawn tile")
        if self.strict and t // 4 in self.kuikae.get(seat, set()):
            raise ScenarioError(f"seat {seat} cannot discard tile {t} right after its call (kuikae)")
        self.hands[seat].remove(t)
        self.discards[seat].append(t)
        self._emit("DEFG"[seat] + str(t))
        self.ippatsu.discard(seat)
        self.furiten_temp.discard(seat)
        self.kuikae.pop(seat, None)
        self.drawn = None
        self.last_discard, self._pending_pass = (seat, t), (seat, t)
        self.last_discard_houtei = self.draws_left == 0
        self.phase, self.turn, self.last_action = "respond", (seat + 1) % self.n, "discard"
        return t

    def riichi(self, seat: int, tile: TileLike | None = None) -> int:
        """Seat declares riichi with this discard: REACH step 1, the discard, then step 2 once it passes."""
        self._expect(seat, "discard")
        t = self._held_or_drawn(seat, tile)
        if self.strict:
            rest = [x for x in self.hands[seat] if x != t]
            problems = [
                (seat in self.riichi_kind, "already in riichi"),
                (self.is_open(seat), "has an open hand"),
                (self.scores[seat] < 1000, "has less than 1000 points"),
                (self.draws_left < 4, "has fewer than 4 tiles left in the wall"),
                (hands_mod.shanten(rest, open_hand=self.is_open(seat)) != 0, "is not tenpai after it"),
            ]
            for bad, why in problems:
                if bad:
                    raise ScenarioError(f"seat {seat} cannot riichi: it {why}")
        double = self.uninterrupted and not self.discards[seat]
        self._emit("REACH", who=seat, step=1)
        self.discard(seat, t)
        self._pending_reach = (seat, double)
        return t

    def dora(self, tile: TileLike | None = None) -> int:
        """Reveal a new dora indicator (after a kan); returns its 136-id."""
        if self.over:
            raise ScenarioError("the round is over")
        if self.strict and len(self.dora_indicators) > self.n_kans():
            raise ScenarioError("a new dora indicator needs a kan")
        t = self.pool.take(tile) if tile is not None else self.pool.take_any()
        self.dora_indicators.append(t)
        self._emit("DORA", hai=t)
        return t

    def bye(self, seat: int) -> None:
        """The seat disconnected (``<BYE who/>``); it changes nothing else."""
        self._emit("BYE", who=seat)

    def step(self, seat: int, draw: TileLike | None = None, discard: TileLike | None = None) -> int:
        """Draw then discard in one call (tsumogiri unless ``discard`` names a tile); returns the discard."""
        self.draw(seat, draw)
        return self.discard(seat, discard)

    def run_out(self) -> list[int]:
        """Everyone draws and discards the drawn tile until the wall is empty; then the exhaustive draw.

        Returns the tenpai seats. Useful to end a scenario quickly; draws come from the wall or free tiles.
        """
        if self.phase == "discard":
            self.discard(self.turn)
        while self.draws_left > 0:
            self.step(self.turn)
        return self.exhaustive_draw()

    # ---- helpers -------------------------------------------------------------------------------
    def _next_tile(self, tile: TileLike | None) -> int:
        if self._wall:
            nxt = self._wall.popleft()
            if tile is not None and tile != nxt and not (isinstance(tile, str) and self._same(tile, nxt)):
                raise ScenarioError(f"the wall's next tile is {nxt}, not {tile!r}")
            return nxt
        return self.pool.take(tile) if tile is not None else self.pool.take_any()

    def _same(self, spec: str, tile: int) -> bool:
        try:
            return find_held([tile], spec, self.pool) == tile
        except ScenarioError:
            return False

    def _held_or_drawn(self, seat: int, tile: TileLike | None) -> int:
        if len(self.hands[seat]) % 3 != 2:
            raise ScenarioError(f"seat {seat} holds {len(self.hands[seat])} tiles: nothing to discard")
        if tile is None:
            if self.drawn is None:
                raise ScenarioError(f"seat {seat} did not draw: name the tile to discard")
            return self.drawn
        return find_held(self.hands[seat], tile, self.pool, prefer=self.drawn)
