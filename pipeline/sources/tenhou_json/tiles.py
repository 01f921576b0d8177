"""Give every tile of a replayed round a 136-id, as the XML format has them.

tenhou.net/6 writes tile kinds (and red fives), not which of the four copies moved. The copies are
numbered in the order tiles enter the round (hands seat by seat, the first dora indicator, draws and
later indicators in event order, ura indicators last): a red five is copy 0 of its kind (16, 52, 88)
when red fives are in play, the plain copies take the other numbers. A discard or call takes the id
the seat holds; a discard written as tsumogiri (60) is the id just drawn, any other discard of the
same kind takes another copy when the seat holds one, so ``is_tsumogiri`` reads as the JSON wrote it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pipeline.errors import ParseError
from pipeline.sources.tenhou_json.codes import RED_CODES, kind_of
from pipeline.sources.tenhou_json.replay import Event
from pipeline.sources.tile_copies import CopyAllocator, take_copy


@dataclass
class IdEvent:
    """An event with 136-ids: tile (-1 when none) and the meld's ids, sorted (None when not a call)."""

    action: str
    seat: int
    tile: int
    from_seat: int
    meld: list[int] | None


@dataclass
class RoundIds:
    """The 136-ids of one round: hands at the deal, indicators, events, and what each seat holds at
    the end (closed tiles, melds in call order, kita count)."""

    hands_start: list[list[int]]
    dora: list[int]
    ura: list[int]
    events: list[IdEvent]
    held: Sequence[list[int]]
    melds: Sequence[list[list[int]]]
    n_kita: list[int]
    last_given: int = -1
    """The id of the last tile discarded, added to a kan, kanned closed or set aside as kita (a ron or
    chankan takes it)."""
    dora_mismatch: int = 0
    """Kan reveals without an indicator in the JSON, plus indicators no kan reveal was matched to."""
    rows: Any = None
    """The events as rows.EventRows (what the parser and results read; ``events`` stays empty on the compiled
    path)."""
    last_draw: list[int] | None = None
    """Per seat, the id it drew last (-1: none), when known already (the compiled path reads it for every round
    at once; else EventRows.draws_of)."""


class _Allocator(CopyAllocator):
    """Hands out 136-ids per tenhou.net/6 tile code."""

    def new(self, code: int) -> int:
        """Return an unused id of the tile code; raises ParseError when all its copies are out."""
        return self.allocate(kind_of(code), code in RED_CODES, code)


class IdAssigner:
    """Walks a replayed round's events and assigns ids (see the module docstring)."""

    def __init__(self, has_red_fives: bool) -> None:
        self.red = has_red_fives
        self.alloc = _Allocator(has_red_fives)

    def assign(
        self,
        hands: list[list[int]],
        dora: list[int],
        ura: list[int],
        events: list[Event],
        robbed_kan_dora: bool = False,
    ) -> RoundIds:
        """Return the round's ids from the dealt hands, the indicators (tile codes) and the replayed events;
        ``robbed_kan_dora``: the round ends on a ron of a closed kan, whose indicator is turned (last) only
        when the JSON lists one. Raises ParseError when a seat gives a tile it does not hold."""
        start = [[self.alloc.new(c) for c in hand] for hand in hands]
        ids = RoundIds(start, [self.alloc.new(dora[0])] if dora else [], [], [], [list(h) for h in start],
                       [[] for _ in range(4)], [0] * 4)  # fmt: skip
        pending_dora = list(dora[1:])
        last_draw = [-1] * 4
        for event in events:
            if event.action == "dora":
                if not pending_dora:
                    ids.dora_mismatch += 1
                    continue
                self._reveal(ids, pending_dora.pop(0))
            else:
                self._event(ids, event, last_draw)
        if robbed_kan_dora and pending_dora:
            self._reveal(ids, pending_dora.pop(0))
        ids.dora_mismatch += len(pending_dora)
        ids.ura = [self.alloc.new(c) for c in ura]
        from pipeline.sources.tenhou_json.rows import EventRows  # rows imports this module

        ids.rows = EventRows.from_events(ids.events)
        return ids

    def _reveal(self, ids: RoundIds, code: int) -> None:
        """Turn a new dora indicator of tile ``code``: number it and add its event."""
        tile = self.alloc.new(code)
        ids.dora.append(tile)
        ids.events.append(IdEvent("dora", -1, tile, -1, None))

    def _event(self, ids: RoundIds, event: Event, last_draw: list[int]) -> None:
        """Number one event's tiles and move them between the seat's hand and its melds."""
        seat, held = event.seat, ids.held[event.seat]
        tile, meld = -1, None
        if event.action == "draw":
            tile = self.alloc.new(event.code)
            held.append(tile)
            last_draw[seat] = tile
        elif event.action == "discard":
            tile = self._take(held, event.code, last_draw[seat], event.tsumogiri)
            ids.last_given = tile
        elif event.action in ("chi", "pon", "daiminkan"):
            tile = ids.last_given
            rest = list(event.meld)
            rest.remove(event.code)
            meld = sorted([tile] + [self._take(held, c, -1, False) for c in rest])
            ids.melds[seat].append(meld)
        elif event.action == "kakan":
            tile = self._take(held, event.code, -1, False)
            meld = self._upgrade(ids.melds[seat], tile)
            ids.last_given = tile
        elif event.action == "ankan":
            taken = [self._take(held, c, -1, False) for c in event.meld]
            tile = taken[event.meld.index(event.code)]
            meld = sorted(taken)
            ids.melds[seat].append(meld)
            ids.last_given = tile
        elif event.action == "kita":
            tile = self._take(held, event.code, -1, False)
            meld = [tile]
            ids.n_kita[seat] += 1
            ids.last_given = tile  # a kita can be ronned
        if event.action not in ("draw", "riichi", "riichi_accepted"):
            last_draw[seat] = -1
        ids.events.append(IdEvent(event.action, seat, tile, event.from_seat, meld))

    def _take(self, held: list[int], code: int, drawn: int, tsumogiri: bool) -> int:
        """Remove and return the id of a tile of ``code`` from a seat's tiles (see the module docstring)."""
        prefer = drawn if tsumogiri else -1
        return take_copy(held, kind_of(code), code in RED_CODES, self.red, prefer, drawn, str(code))

    @staticmethod
    def _upgrade(melds: list[list[int]], added: int) -> list[int]:
        """Turn the pon of the added tile's kind into a kan (in place); return the kan's ids."""
        for i, meld in enumerate(melds):
            if len(meld) == 3 and meld[0] // 4 == meld[1] // 4 == added // 4:
                melds[i] = sorted([*meld, added])
                return melds[i]
        raise ParseError(f"added kan of tile id {added} without a pon of it")
