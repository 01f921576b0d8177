"""Rebuild the order of one round's draws, calls and discards from tenhou.net/6's per-seat lists.

The format keeps, per seat, the tiles taken (draws, or a call string for chi/pon/daiminkan) and the
tiles given (discards, tsumogiri 60, riichi 'r..', kakan/ankan/kita strings, 0 after a daiminkan),
but not how the seats' lists interleave. The round is replayed: the seat to act draws its next tile
or, after a discard, a seat whose next take is a call on that very tile (from that seat) may call it.
A call may also wait for a later discard of the same tile, so each such choice is a branch of a
depth-first search; a branch dies when a seat must draw but its next take is a call, when a tile is
discarded or called that the seat does not hold, or when the lists do not all end together at a
point that fits the round's result. States are memoised by list positions (which fix the hands), so
the search stays linear in practice.

Output: abstract events (tile *codes*, not 136-ids) in Tenhou XML's order: riichi, discard,
riichi_accepted; ankan, dora, replacement draw; daiminkan/kakan, replacement draw, dora, discard.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pipeline.errors import ParseError
from pipeline.sources.tenhou_json.codes import KAN_PLACEHOLDER, TSUMOGIRI, Call

Item = int | Call
"""One entry of a take or discard list: a tile code (or 60 / 0) or a parsed call string."""


@dataclass(frozen=True)
class Event:
    """One abstract event: action, seat (-1 for a dora reveal), tile code (0 when none), the seat the
    tile came from (-1), the meld's tile codes, and whether a discard was written as tsumogiri (60)."""

    action: str
    seat: int
    code: int = 0
    from_seat: int = -1
    meld: tuple[int, ...] = ()
    tsumogiri: bool = False


@dataclass(frozen=True)
class RoundLists:
    """The per-seat lists of one round (seats without a player have empty lists)."""

    n_players: int
    dealer: int
    hands: list[list[int]]
    takes: list[list[Item]]
    gives: list[list[Item]]


@dataclass(frozen=True)
class Ending:
    """What the round's result requires of its last action: ``after`` is 'draw' (tsumo, kyuushu
    kyuuhai) or 'discard' (ron, draws); ``seat`` the seat that must have acted last (-1: any)."""

    after: str
    seat: int = -1
    accepts_riichi: bool = True
    is_ron: bool = False
    """The round ends on a ron (or a chankan) of the last tile given."""


@dataclass
class Replay:
    """A replayed round: events in order and the seat that acted last."""

    events: list[Event]
    last_actor: int
    robbed_kan_dora: bool = False
    """The round ends on a ron of a closed kan (kokushi): its indicator is turned only if the JSON lists one."""


@dataclass
class _State:
    """Search state: list positions, hands (tile codes), pons, and the events so far."""

    take_at: list[int]
    give_at: list[int]
    hands: list[Counter]
    pons: list[dict[int, int]]
    """Per seat: the pon's plain tile code (red folded) -> the seat it was called from, for a kakan."""
    last_draw: list[int]
    """Per seat: the code just drawn (0 once the seat gave a tile or called)."""
    events: list[Event] = field(default_factory=list)
    pending_riichi: int = -1
    pending_dora: int = 0
    """Open kans whose indicator is not turned yet (it is, when their caller discards)."""
    older_dora: int = 0
    """Of those, the ones declared before the kan just made: turned at its replacement draw."""
    last_actor: int = -1
    phase: str = "draw"
    """'draw' (seat ``actor`` takes its next tile), 'act' (it gives), 'react' (others may call ``tile``)."""
    actor: int = 0
    tile: int = 0
    after_call: bool = False

    def copy(self) -> _State:
        """Return an independent copy (for a search branch)."""
        return _State(
            list(self.take_at), list(self.give_at), [Counter(h) for h in self.hands], [dict(p) for p in self.pons],
            list(self.last_draw), list(self.events), self.pending_riichi, self.pending_dora, self.older_dora,
            self.last_actor, self.phase, self.actor, self.tile, self.after_call,
        )  # fmt: skip

    def key(self) -> tuple:
        """The memo key: positions fix the hands, so equal keys mean equal futures."""
        return (tuple(self.take_at), tuple(self.give_at), self.phase, self.actor, self.tile, self.after_call)


_PLAIN_FIVES = {51: 15, 52: 25, 53: 35}
_HAND_ACTIONS = frozenset({"draw", "discard", "chi", "pon", "daiminkan", "kakan", "ankan", "kita"})
_LAST_HAND_ACTIONS = {"draw": {"draw"}, "discard": {"discard", "kakan", "ankan", "kita"}}
"""What the last action of the round's last actor may be, when the result needs it after a draw
(tsumo, kyuushu kyuuhai) or after a tile given (ron, chankan, the draws)."""


def _plain(code: int) -> int:
    """The code of a tile with red fives folded into plain fives (51 -> 15)."""
    return _PLAIN_FIVES.get(code, code)


class _Dead(Exception):
    """This branch of the search cannot be completed."""


class Replayer:
    """Replays one round; ``run`` returns the Replay or raises ParseError when no order fits."""

    def __init__(self, lists: RoundLists, ending: Ending) -> None:
        self.lists = lists
        self.ending = ending
        self.seen: set[tuple] = set()
        self.n = lists.n_players
        self.seats = [s for s in range(4) if lists.hands[s]]

    def run(self) -> Replay:
        """Search for the order of events; raise ParseError when the lists cannot be interleaved."""
        start = _State([0] * 4, [0] * 4, [Counter(h) for h in self.lists.hands], [{} for _ in range(4)], [0] * 4)
        start.actor = self.lists.dealer
        stack: list[tuple[_State, int]] = [(start, -1)]
        while stack:
            state, caller = stack.pop()
            try:
                if caller >= 0:
                    self._call(state, caller)
                if self._advance(state, stack):
                    return Replay(state.events, state.last_actor, self._drop_robbed_kan_dora(state))
            except _Dead:
                continue
        raise ParseError("the take and discard lists cannot be put in any playable order")

    # --- the walk ----------------------------------------------------------------------------
    def _advance(self, st: _State, stack: list[tuple[_State, int]]) -> bool:
        """Play ``st`` forward until the round ends (True) or a branch point: then the options are
        pushed (calls first: pon/kan before chi, passing last) and False is returned."""
        while True:
            if st.phase == "react":
                key = st.key()
                if key in self.seen:
                    raise _Dead
                self.seen.add(key)
                callers = self._callers(st)
                st.phase, st.actor, st.after_call = "draw", self._next_seat(st.actor), False
                if callers:
                    stack.append((st, -1))
                    stack.extend((st.copy(), seat) for seat in reversed(callers))
                    return False
            elif st.phase == "draw":
                if not self._draw(st):
                    return self._ends(st, "discard")
            elif not self._act(st):
                return self._ends(st, "draw")

    def _next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in turn order (a three-player table skips the empty seat)."""
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def _from_seat(self, seat: int, rel: int) -> int:
        """Absolute seat of a relative position (1 next, 2 opposite, 3 previous), counted round the four
        positions of the table as Tenhou (and tensoul) write it at three players too: seat 0 calls seat 2
        as its 'opposite' and seat 1 as its 'next'; a position naming the empty seat gives -1."""
        target = (seat + rel) % 4
        return target if self.lists.hands[target] else -1

    # --- phases --------------------------------------------------------------------------------
    def _draw(self, st: _State) -> bool:
        """The actor draws its next take; False when its take list is used up (the round may end)."""
        seat = st.actor
        takes = self.lists.takes[seat]
        if st.take_at[seat] >= len(takes):
            return False
        item = takes[st.take_at[seat]]
        if isinstance(item, Call):
            raise _Dead  # the seat must draw, but its next take is a call
        self._accept_riichi(st)
        self._reveal_dora(st, st.older_dora)
        st.take_at[seat] += 1
        st.hands[seat][item] += 1
        st.last_draw[seat] = item
        st.events.append(Event("draw", seat, item))
        st.last_actor, st.phase, st.after_call = seat, "act", False
        return True

    def _act(self, st: _State) -> bool:
        """The actor gives its next item: a discard, riichi, kan or kita; False when none is left."""
        seat = st.actor
        gives = self.lists.gives[seat]
        if st.give_at[seat] >= len(gives):
            return False
        item = gives[st.give_at[seat]]
        st.give_at[seat] += 1
        if isinstance(item, Call) and item.kind in ("ankan", "kakan", "kita"):
            self._own_call(st, seat, item)
            return True
        riichi = isinstance(item, Call) and item.kind == "riichi"
        code = item.tile if isinstance(item, Call) and riichi else item
        if isinstance(code, Call) or code == KAN_PLACEHOLDER:
            raise _Dead
        written_tsumogiri = code == TSUMOGIRI
        if written_tsumogiri:
            if st.after_call or not st.last_draw[seat]:
                raise _Dead
            code = st.last_draw[seat]
        self._take_from_hand(st, seat, [code])
        if riichi:
            st.events.append(Event("riichi", seat))
        self._reveal_dora(st, st.pending_dora)
        st.events.append(Event("discard", seat, code, tsumogiri=written_tsumogiri))
        st.pending_riichi = seat if riichi else -1
        st.last_draw[seat] = 0
        st.last_actor, st.phase, st.tile = seat, "react", code
        return True

    def _own_call(self, st: _State, seat: int, call: Call) -> None:
        """Ankan, kakan or kita from the hand; the seat then draws a replacement tile."""
        if st.after_call:
            raise _Dead
        if call.kind == "kakan":
            from_seat = st.pons[seat].pop(_plain(call.tile), None)
            if from_seat is None:
                raise _Dead
            self._take_from_hand(st, seat, [call.tile])
            st.events.append(Event("kakan", seat, call.tile, from_seat, call.tiles))
            st.older_dora = st.pending_dora
            st.pending_dora += 1
        elif call.kind == "ankan":
            self._take_from_hand(st, seat, list(call.tiles))
            st.events.append(Event("ankan", seat, call.tile, -1, call.tiles))
            self._reveal_dora(st, st.pending_dora + 1)  # a closed kan's indicator is turned at once
        else:
            self._take_from_hand(st, seat, [call.tile])
            st.events.append(Event("kita", seat, call.tile, -1, call.tiles))
        st.last_draw[seat] = 0
        st.last_actor, st.phase = seat, "draw"

    def _callers(self, st: _State) -> list[int]:
        """Seats whose next take is a call on the tile just discarded by the actor (pon/kan first)."""
        found = []
        for seat in self.seats:
            takes = self.lists.takes[seat]
            if seat == st.actor or st.take_at[seat] >= len(takes):
                continue
            item = takes[st.take_at[seat]]
            if not isinstance(item, Call) or item.tile != st.tile:
                continue
            if item.kind not in ("chi", "pon", "daiminkan") or self._from_seat(seat, item.from_rel) != st.actor:
                continue
            rest = list(item.tiles)
            rest.remove(item.tile)
            if all(st.hands[seat][c] >= n for c, n in Counter(rest).items()):
                found.append(seat)
        return sorted(found, key=lambda s: self.lists.takes[s][st.take_at[s]].kind == "chi")

    def _call(self, st: _State, seat: int) -> None:
        """``seat`` calls the tile just discarded by ``st.last_actor`` (chi, pon or daiminkan)."""
        call = self.lists.takes[seat][st.take_at[seat]]
        assert isinstance(call, Call)
        discarder = st.last_actor
        self._accept_riichi(st)
        st.take_at[seat] += 1
        rest = list(call.tiles)
        rest.remove(call.tile)
        self._take_from_hand(st, seat, rest)
        st.events.append(Event(call.kind, seat, call.tile, discarder, call.tiles))
        st.last_actor, st.actor, st.last_draw[seat] = seat, seat, 0
        if call.kind == "pon":
            st.pons[seat][_plain(call.tile)] = discarder
        if call.kind != "daiminkan":
            st.phase, st.after_call = "act", True
            return
        gives = self.lists.gives[seat]
        if st.give_at[seat] >= len(gives) or gives[st.give_at[seat]] != KAN_PLACEHOLDER:
            raise _Dead
        st.give_at[seat] += 1
        st.older_dora = st.pending_dora
        st.pending_dora += 1
        st.phase, st.after_call = "draw", False

    # --- helpers ---------------------------------------------------------------------------------
    @staticmethod
    def _take_from_hand(st: _State, seat: int, codes: list[int]) -> None:
        """Remove tiles from a seat's hand; the branch dies when the seat does not hold them."""
        hand = st.hands[seat]
        for code, n in Counter(codes).items():
            if hand[code] < n:
                raise _Dead
        for code in codes:
            hand[code] -= 1
            if not hand[code]:
                del hand[code]

    @staticmethod
    def _accept_riichi(st: _State) -> None:
        """A riichi discard nobody won on: its stick goes on the table before the next event."""
        if st.pending_riichi >= 0:
            st.events.append(Event("riichi_accepted", st.pending_riichi))
            st.pending_riichi = -1

    @staticmethod
    def _reveal_dora(st: _State, count: int) -> None:
        """Turn ``count`` kan indicators (Tenhou: a closed kan's at once; an open kan's when its caller
        discards, or at the replacement draw of a next kan that was not robbed)."""
        for _ in range(count):
            st.events.append(Event("dora", -1))
        st.pending_dora = max(st.pending_dora - count, 0)
        st.older_dora = 0

    def _drop_robbed_kan_dora(self, st: _State) -> bool:
        """A closed kan robbed by the round's ron (kokushi): take its indicator reveal, put in at once as for
        every closed kan, out of the events; return whether there was one."""
        events = st.events
        if not self.ending.is_ron or len(events) < 2 or events[-1].action != "dora" or events[-2].action != "ankan":
            return False
        events.pop()
        return True

    def _ends(self, st: _State, after: str) -> bool:
        """The acting seat has nothing left: the round ends here if every list is used up and the
        result fits; else this branch is dead."""
        for seat in self.seats:
            if st.take_at[seat] < len(self.lists.takes[seat]) or st.give_at[seat] < len(self.lists.gives[seat]):
                raise _Dead
        ending = self.ending
        if ending.after != after or (ending.seat >= 0 and ending.seat != st.last_actor):
            raise _Dead
        actions = [e.action for e in st.events if e.seat == st.last_actor and e.action in _HAND_ACTIONS]
        if not actions or actions[-1] not in _LAST_HAND_ACTIONS[after]:
            raise _Dead
        if ending.accepts_riichi:
            self._accept_riichi(st)
        st.pending_riichi = -1
        return True
