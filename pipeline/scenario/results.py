"""Results of a round: ron, tsumo, exhaustive draw (with nagashi mangan) and abortive draws."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.scenario import hands as hands_mod
from pipeline.scenario.checks import RoundChecks
from pipeline.scenario.hands import WinConditions, WinValue
from pipeline.scenario.scoring import (
    basic_points,
    limit_code,
    nagashi_deltas,
    noten_deltas,
    ron_deltas,
    tsumo_deltas,
)
from pipeline.scenario.tiles import ScenarioError, TilesLike

ABORT_KINDS = ("yao9", "kaze4", "reach4", "kan4", "ron3", "nm")
"""RYUUKYOKU ``type`` values Tenhou writes."""


class ResultActions(RoundChecks):
    """The result actions; each writes AGARI or RYUUKYOKU with the score changes (``sc``)."""

    def tsumo(
        self,
        seat: int,
        *,
        fu: int | None = None,
        han: int | None = None,
        yaku: Sequence[tuple[int, int]] | None = None,
        yakuman: Sequence[int] | None = None,
        ura: TilesLike | None = None,
        pao: int | None = None,
    ) -> WinValue:
        """Seat wins on the tile it just drew; fu/han/yaku computed unless given (``yaku``: Tenhou ids)."""
        self._expect(seat, "discard")
        if self.drawn is None:
            raise ScenarioError(f"seat {seat} has not just drawn: no tsumo")
        cond = self._conditions(seat, tsumo=True)
        closed = list(self.hands[seat])
        value = self._value(seat, closed, self.drawn, cond, fu, han, yaku, yakuman, ura)
        self._settle_win(seat, seat, closed, self.drawn, value, pao)
        return value

    def ron(
        self,
        seat: int,
        from_seat: int | None = None,
        *,
        fu: int | None = None,
        han: int | None = None,
        yaku: Sequence[tuple[int, int]] | None = None,
        yakuman: Sequence[int] | None = None,
        ura: TilesLike | None = None,
        pao: int | None = None,
    ) -> WinValue:
        """Seat wins on the last discard (or robs the last added kan); call again for a double ron."""
        src, tile, chankan = self._ron_target(seat, from_seat)
        if self.strict and self.is_furiten(seat):
            raise ScenarioError(f"seat {seat} is furiten and cannot ron")
        cond = self._conditions(seat, tsumo=False, chankan=chankan)
        closed = [*self.hands[seat], tile]
        value = self._value(seat, closed, tile, cond, fu, han, yaku, yakuman, ura)
        if self._pending_reach is not None and self._pending_reach[0] == src:
            self._pending_reach = None  # the riichi discard was ronned: no stick
        self._settle_win(seat, src, closed, tile, value, pao)
        return value

    def exhaustive_draw(self) -> list[int]:
        """The wall ran out after the last discard passed; returns the tenpai seats (hands shown)."""
        if self.over or self.draws_left != 0 or self.last_action != "discard":
            raise ScenarioError("an exhaustive draw needs an empty wall right after the last discard")
        self._flush()
        tenpai = [hands_mod.is_tenpai_at_draw(self.hands[s], self.melds[s], self.game.sanma) for s in range(self.n)]
        nagashi = [s for s in range(self.n) if self._is_nagashi(s)]
        deltas = nagashi_deltas(nagashi, self.n, self.dealer) if nagashi else noten_deltas(tenpai, self.n)
        shown = {s: self.hands[s] for s in range(self.n) if tenpai[s]}
        self._draw_result("nm" if nagashi else None, deltas, shown, "exhaustive")
        self.dealer_tenpai = tenpai[self.dealer]
        return [s for s in range(self.n) if tenpai[s]]

    def abort(self, kind: str, seats: Sequence[int] | None = None) -> None:
        """Abortive draw: yao9 (seat to move), kaze4, reach4, kan4, ron3 (``seats`` = the 3 winners); nm."""
        if kind == "nm":
            if self.strict and not any(self._is_nagashi(s) for s in range(self.n)):
                raise ScenarioError("no nagashi mangan in this round")
            self.exhaustive_draw()
            return
        if kind not in ABORT_KINDS or self.over:
            raise ScenarioError(f"cannot abort with {kind!r} now")
        shown: dict[int, list[int]] = {}
        if kind == "yao9":
            self._expect(self.turn, "discard")
            self._check(self._yao9_ok(self.turn), "kyuushu kyuuhai needs 9+ terminal/honor kinds at the first draw")
            shown = {self.turn: self.hands[self.turn]}
        elif kind == "ron3":
            if seats is None or len(seats) != 3 or self.last_discard is None:
                raise ScenarioError("ron3 needs the three seats that ron the last discard")
            tile = self.last_discard[1]
            for s in seats:
                self._check(hands_mod.is_complete([*self.hands[s], tile]), f"seat {s} cannot ron tile {tile}")
            shown = {s: self.hands[s] for s in sorted(seats)}
        else:
            self._flush()
            self._check(self._abort_ok(kind), f"the round does not meet {kind}")
            if kind == "reach4":
                shown = {s: self.hands[s] for s in range(self.n)}
        self._draw_result(kind, [0, 0, 0, 0], shown, "abort")

    # ---- wins ---------------------------------------------------------------------------------
    def _ron_target(self, seat: int, from_seat: int | None) -> tuple[int, int, bool]:
        if not 0 <= seat < self.n:
            raise ScenarioError(f"seat {seat} does not play in a {self.n}-player game")
        if self.winners:
            if self.last_action != "ron":
                raise ScenarioError("the round is over")
            src, tile, chankan = self._ron_on
            before = (self.winners[-1] - src) % self.n
            self._check((seat - src) % self.n > before, "list the winners of a multiple ron in turn order")
            self._check(len(self.winners) < 2, "a triple ron aborts on Tenhou: use abort('ron3', seats)")
        elif self.last_action == "kakan" and self.last_kakan is not None:
            src, tile, chankan = *self.last_kakan, True
        else:
            self._expect(seat, "respond")
            if self.last_discard is None or self.last_action != "discard":
                raise ScenarioError("ron needs a discard (or an added kan) to win on")
            src, tile, chankan = *self.last_discard, False
        if seat == src or seat in self.winners or (from_seat is not None and from_seat != src):
            raise ScenarioError(f"seat {seat} cannot ron seat {src}'s tile (from_seat={from_seat})")
        self._ron_on = (src, tile, chankan)
        return src, tile, chankan

    def _value(
        self,
        seat: int,
        closed: list[int],
        win: int,
        cond: WinConditions,
        fu: int | None,
        han: int | None,
        yaku: Sequence[tuple[int, int]] | None,
        yakuman: Sequence[int] | None,
        ura: TilesLike | None,
    ) -> WinValue:
        if ura is not None and not self.ura:
            self.ura = self.pool.take_many(ura)
        if cond.is_riichi:
            while len(self.ura) < len(self.dora_indicators):
                self.ura.append(self.pool.take_any())
        if yakuman:
            return WinValue(fu=fu or 0, han=13 * len(yakuman), yakuman=list(yakuman))
        if yaku is not None or han is not None:
            pairs = list(yaku) if yaku is not None else []
            return WinValue(fu=fu or 30, han=han if han is not None else sum(h for _, h in pairs), yaku=pairs)
        if not hands_mod.is_complete(closed):
            raise ScenarioError(f"seat {seat}'s hand is not complete with tile {win}")
        value = hands_mod.evaluate_win(
            closed,
            win,
            self.melds[seat],
            cond,
            rule_type=self.game.rule_type,
            dora=self.dora_indicators,
            ura=self.ura[: len(self.dora_indicators)],
        )
        if value is None:
            raise ScenarioError(f"seat {seat}'s win has no yaku (give fu/han/yaku to force it)")
        return value

    def _settle_win(self, seat: int, src: int, closed: list[int], win: int, value: WinValue, pao: int | None) -> None:
        first = not self.winners
        honba, sticks = (self.honba, self.sticks) if first else (0, 0)
        basic = basic_points(value.han, value.fu, len(value.yakuman))
        if seat == src:
            deltas, points = tsumo_deltas(self.n, seat, self.dealer, basic, honba, sticks, pao)
        else:
            deltas, points = ron_deltas(self.n, seat, src, self.dealer, basic, honba, sticks, pao)
        attrs = {"ba": f"{self.honba},{sticks}", "hai": ",".join(map(str, sorted(closed)))}
        if self.melds[seat]:
            attrs["m"] = ",".join(str(m.code) for m in self.melds[seat])
        attrs["machi"] = str(win)
        attrs["ten"] = f"{value.fu},{points},{limit_code(value.han, value.fu, len(value.yakuman))}"
        if value.yakuman:
            attrs["yakuman"] = ",".join(map(str, value.yakuman))
        else:
            attrs["yaku"] = ",".join(f"{i},{h}" for i, h in value.yaku)
        attrs["doraHai"] = ",".join(map(str, self.dora_indicators))
        if seat in self.riichi_kind:
            attrs["doraHaiUra"] = ",".join(map(str, self.ura[: len(self.dora_indicators)]))
        attrs.update(who=str(seat), fromWho=str(src))
        if pao is not None:
            attrs["paoWho"] = str(pao)
        attrs["sc"] = self._sc(deltas)
        self.events.append(("AGARI", attrs))
        self.winners.append(seat)
        self.sticks = 0
        self.result_kind, self.phase, self.last_action = "agari", "won", "ron" if seat != src else "tsumo"

    def _sc(self, deltas: list[int]) -> str:
        pairs = [f"{self.scores[s] // 100},{deltas[s] // 100}" for s in range(4)]
        self.scores = [a + b for a, b in zip(self.scores, deltas, strict=True)]
        return ",".join(pairs)

    def _draw_result(self, kind: str | None, deltas: list[int], shown: dict[int, list[int]], result: str) -> None:
        attrs = {"type": kind} if kind else {}
        attrs["ba"] = f"{self.honba},{self.sticks}"
        attrs["sc"] = self._sc(deltas)
        for s, tiles in sorted(shown.items()):
            attrs[f"hai{s}"] = ",".join(map(str, sorted(tiles)))
        self.events.append(("RYUUKYOKU", attrs))
        self.result_kind, self.phase, self.last_action = result, "over", "result"
