"""What the rules allow now in a round: wins available (for bots and tests), abort conditions, nagashi."""

from __future__ import annotations

from pipeline.scenario import hands as hands_mod
from pipeline.scenario.hands import WinConditions, WinValue
from pipeline.scenario.state import RoundState
from pipeline.scenario.tiles import ScenarioError

TERMINAL_HONOR_KINDS = frozenset({0, 8, 9, 17, 18, 26, *range(27, 34)})
"""34-kinds of terminals and honors (nagashi mangan, kyuushu kyuuhai)."""


class RoundChecks(RoundState):
    """Rule checks and look-aheads shared by the result actions and the simulator's bots."""

    # ---- what a player may do now (for bots and tests) ----------------------------------------
    def can_tsumo(self, seat: int) -> WinValue | None:
        """Value of a tsumo by the seat on the tile it just drew; None if incomplete or without yaku."""
        if self.over or self.phase != "discard" or seat != self.turn or self.drawn is None:
            return None
        closed = list(self.hands[seat])
        if not hands_mod.is_complete(closed):
            return None
        return self._peek_value(seat, closed, self.drawn, self._conditions(seat, tsumo=True))

    def can_ron(self, seat: int) -> WinValue | None:
        """Value of a ron by the seat on the current discard or added kan; None if not allowed or no yaku."""
        if self.winners:
            src, tile, chankan = self._ron_on
        elif self.last_action == "kakan" and self.last_kakan is not None:
            src, tile, chankan = *self.last_kakan, True
        elif self.last_action == "discard" and self.last_discard is not None:
            src, tile, chankan = *self.last_discard, False
        else:
            return None
        if seat == src or seat in self.winners or tile // 4 not in self.waits(seat) or self.is_furiten(seat):
            return None
        cond = self._conditions(seat, tsumo=False, chankan=chankan)
        return self._peek_value(seat, [*self.hands[seat], tile], tile, cond)

    def can_kyuushu(self, seat: int) -> bool:
        """Whether the seat to move may declare kyuushu kyuuhai (first uninterrupted draw, 9+ kinds)."""
        return not self.over and self.phase == "discard" and seat == self.turn and self._yao9_ok(seat)

    def abort_due(self) -> str | None:
        """The abortive draw Tenhou declares now that the last discard passed: kaze4, reach4 or kan4."""
        if self.over or self.last_action != "discard":
            return None
        n_riichi = len(self.riichi_kind) + (self._pending_reach is not None)
        if self.n == 4 and n_riichi == 4:
            return "reach4"
        return next((k for k in ("kaze4", "kan4") if self._abort_ok(k)), None)

    def _peek_value(self, seat: int, closed: list[int], win: int, cond: WinConditions) -> WinValue | None:
        return hands_mod.evaluate_win(
            closed,
            win,
            self.melds[seat],
            cond,
            rule_type=self.game.rule_type,
            dora=self.dora_indicators,
            ura=[],
        )

    # ---- checks -------------------------------------------------------------------------------
    def _check(self, ok: bool, message: str) -> None:
        if self.strict and not ok:
            raise ScenarioError(message)

    def _yao9_ok(self, seat: int) -> bool:
        kinds = {t // 4 for t in self.hands[seat]} & TERMINAL_HONOR_KINDS
        return self.uninterrupted and not self.discards[seat] and len(kinds) >= 9

    def _abort_ok(self, kind: str) -> bool:
        if kind == "kaze4":
            firsts = [d[0] // 4 for d in self.discards.values() if d]
            n_discards = sum(map(len, self.discards.values()))
            return (
                self.n == 4
                and self.uninterrupted
                and n_discards == 4
                and len(firsts) == 4
                and len(set(firsts)) == 1
                and firsts[0] in range(27, 31)
            )
        if kind == "reach4":
            return self.n == 4 and len(self.riichi_kind) == 4
        kan_seats = {m.who for ms in self.melds.values() for m in ms if "kan" in m.kind}
        return self.n_kans() == 4 and len(kan_seats) > 1 and self.last_action == "discard"

    def _is_nagashi(self, seat: int) -> bool:
        ds = self.discards[seat]
        return bool(ds) and all(t // 4 in TERMINAL_HONOR_KINDS and t not in self.called_tiles for t in ds)

    def _conditions(self, seat: int, tsumo: bool, chankan: bool = False) -> WinConditions:
        kind = self.riichi_kind.get(seat)
        rinshan = tsumo and self.draw_was_rinshan
        first = tsumo and self.uninterrupted and not self.discards[seat] and not rinshan
        return WinConditions(
            is_tsumo=tsumo,
            is_riichi=kind is not None,
            is_daburu_riichi=kind == "double",
            is_ippatsu=seat in self.ippatsu,
            is_rinshan=rinshan,
            is_chankan=chankan,
            is_haitei=tsumo and self.draws_left == 0 and not rinshan,
            is_houtei=not tsumo and not chankan and self.last_discard_houtei,
            is_tenhou=first and seat == self.dealer,
            is_chiihou=first and seat != self.dealer,
            seat_wind=27 + (seat - self.dealer) % self.n,
            round_wind=27 + self.kyoku // 4,
            n_kita=sum(m.kind == "kita" for m in self.melds[seat]),
        )
