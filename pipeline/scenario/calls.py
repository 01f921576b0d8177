"""Calls of a round: chi, pon, daiminkan (on a discard), ankan, kakan and kita (on the seat's own turn)."""

from __future__ import annotations

from pipeline.scenario.melds import Meld, encode_chi, encode_kakan, encode_kan, encode_kita, encode_pon
from pipeline.scenario.state import RoundState
from pipeline.scenario.tiles import NORTH_KIND, ScenarioError, TileLike, TilesLike, find_held, pick_held


class CallActions(RoundState):
    """The call actions; each writes ``<N who m/>`` with Tenhou's code."""

    def chi(self, seat: int, tiles: TilesLike) -> Meld:
        """Seat calls chi on the last discard with two of its tiles (e.g. ``"46m"``)."""
        src, called = self._peek_discard(seat)
        if self.strict and (self.n == 3 or seat != (src + 1) % self.n):
            raise ScenarioError(f"seat {seat} cannot chi from seat {src} (only the next seat, 4 players)")
        own = pick_held(self.hands[seat], tiles, called // 4, 2, self.pool)
        code = encode_chi(own + [called], called, seat, src)
        self._commit_call(called)
        meld = self._add_meld("chi", own, called, seat, src, code)
        kinds = sorted(t // 4 for t in meld.tiles)
        forbidden = {called // 4}
        if called // 4 == kinds[0] and kinds[2] % 9 < 8:
            forbidden.add(kinds[2] + 1)
        if called // 4 == kinds[2] and kinds[0] % 9 > 0:
            forbidden.add(kinds[0] - 1)
        self._after_open_call(seat, forbidden)
        return meld

    def pon(self, seat: int, from_seat: int | None = None, tiles: TilesLike | None = None) -> Meld:
        """Seat calls pon on the last discard (``tiles``: which two of its tiles, default non-red first)."""
        src, called = self._peek_discard(seat, from_seat)
        own = pick_held(self.hands[seat], tiles, called // 4, 2, self.pool)
        code = encode_pon(own + [called], called, seat, src)
        self._commit_call(called)
        meld = self._add_meld("pon", own, called, seat, src, code)
        self._after_open_call(seat, {called // 4})
        return meld

    def daiminkan(self, seat: int, from_seat: int | None = None) -> Meld:
        """Seat calls an open kan on the last discard with its three copies; it draws a replacement next."""
        src, called = self._peek_discard(seat, from_seat)
        self._check_kan_allowed(seat)
        own = pick_held(self.hands[seat], None, called // 4, 3, self.pool)
        self._commit_call(called)
        meld = self._add_meld("daiminkan", own, called, seat, src, encode_kan(called, seat, src))
        self._to_rinshan(seat)
        return meld

    def ankan(self, seat: int, tile: TileLike | None = None) -> Meld:
        """Seat declares a closed kan of four held copies (default: of the tile just drawn)."""
        self._expect_own_turn(seat)
        kind = self._kind_of(seat, tile)
        own = pick_held(self.hands[seat], None, kind, 4, self.pool)
        self._check_kan_allowed(seat)
        if self.strict and seat in self.riichi_kind:
            before = [t for t in self.hands[seat] if t != self.drawn]
            after = [t for t in self.hands[seat] if t not in own]
            if self.drawn not in own or self.waits(seat, before) != self.waits(seat, after):
                raise ScenarioError(f"seat {seat} is in riichi: this ankan is not allowed")
        meld = self._add_meld("ankan", own, None, seat, seat, encode_kan(min(own), seat, seat))
        self._cancel_first_turn()
        self._to_rinshan(seat)
        return meld

    def kakan(self, seat: int, tile: TileLike | None = None) -> Meld:
        """Seat adds the fourth copy to its pon (default: the drawn tile); others may rob it (chankan)."""
        self._expect_own_turn(seat)
        added = find_held(
            self.hands[seat],
            tile if tile is not None else self._drawn_or_fail(),
            self.pool,
            prefer=self.drawn,
        )
        pons = [m for m in self.melds[seat] if m.kind == "pon" and m.tiles[0] // 4 == added // 4]
        if not pons:
            raise ScenarioError(f"seat {seat} has no pon to add tile {added} to")
        self._check_kan_allowed(seat)
        pon = pons[0]
        self.hands[seat].remove(added)
        pon.kind, pon.tiles, pon.code = "kakan", (*pon.tiles, added), encode_kakan(pon.code)
        self._emit("N", who=seat, m=pon.code)
        self._cancel_first_turn()
        self._to_rinshan(seat)
        self.last_action = "kakan"
        self.last_kakan = (seat, added)
        self._pending_pass = (seat, added)
        return pon

    def kita(self, seat: int, tile: TileLike | None = None) -> Meld:
        """Seat pulls out a North (three-player games); it draws a replacement next."""
        self._expect_own_turn(seat)
        if not self.game.sanma:
            raise ScenarioError("kita exists only in three-player games")
        if self.strict and self.draws_left == 0:
            raise ScenarioError("no kita on the last tile")
        t = find_held(self.hands[seat], tile if tile is not None else "4z", self.pool, prefer=self.drawn)
        if t // 4 != NORTH_KIND:
            raise ScenarioError(f"kita needs a North, got tile {t}")
        meld = self._add_meld("kita", [t], None, seat, seat, encode_kita(t))
        self._to_rinshan(seat)
        return meld

    # ---- helpers -------------------------------------------------------------------------------
    def _peek_discard(self, seat: int, from_seat: int | None = None) -> tuple[int, int]:
        self._expect(seat, "respond")
        if self.phase == "won" or self.last_action != "discard" or self.last_discard is None:
            raise ScenarioError("a call needs a discard to call on")
        src, tile = self.last_discard
        if seat == src or (from_seat is not None and from_seat != src):
            raise ScenarioError(f"seat {seat} cannot call seat {src}'s discard (from_seat={from_seat})")
        if self.strict and (self.draws_left == 0 or seat in self.riichi_kind):
            raise ScenarioError(f"seat {seat} cannot call now (last discard, or in riichi)")
        return src, tile

    def _commit_call(self, tile: int) -> None:
        self._flush()
        self.called_tiles.add(tile)
        self._cancel_first_turn()

    def _add_meld(self, kind: str, own: list[int], called: int | None, seat: int, src: int, code: int) -> Meld:
        for t in own:
            self.hands[seat].remove(t)
        tiles = tuple(sorted(own + ([called] if called is not None else [])))
        meld = Meld(kind, tiles, called, seat, src, code)
        self.melds[seat].append(meld)
        self._emit("N", who=seat, m=code)
        return meld

    def _after_open_call(self, seat: int, forbidden: set[int]) -> None:
        self.phase, self.turn, self.drawn = "discard", seat, None
        self.kuikae[seat] = forbidden
        self.last_action = "call"

    def _to_rinshan(self, seat: int) -> None:
        self.phase, self.turn, self.drawn = "draw", seat, None
        self._rinshan_pending = True
        self.last_action = "kan"

    def _expect_own_turn(self, seat: int) -> None:
        self._expect(seat, "discard")
        if self.strict and self.drawn is None:
            raise ScenarioError(f"seat {seat} can declare a kan or kita only right after drawing")

    def _check_kan_allowed(self, seat: int) -> None:
        if self.strict and (self.draws_left == 0 or self.n_kans() >= 4):
            raise ScenarioError("no kan now: no tile left to replace it, or four kans already")

    def _drawn_or_fail(self) -> int:
        if self.drawn is None:
            raise ScenarioError("no tile was just drawn: name the tile")
        return self.drawn

    def _kind_of(self, seat: int, tile: TileLike | None) -> int:
        if tile is None:
            return self._drawn_or_fail() // 4
        return find_held(self.hands[seat], tile, self.pool) // 4
