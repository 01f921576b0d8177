"""Replay one kyoku of mjai events: give every tile a 136-id and follow each seat's tiles.

A seat whose dealt hand shows a '?' (a log written from one player's view) is *hidden*: its closed
tiles are not followed; its hidden draws get no id (null tile); a tile it shows (a discard, the tiles
of a call, a kita) gets a fresh id of its kind, and a tsumogiri discard also fills in the id of the
draw just before it (the log says they are the same tile). Nothing is invented for what stays hidden.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pipeline.errors import ParseError
from pipeline.sources.mjai.codes import IGNORED_EVENTS, ROUND_EVENTS, WINDS
from pipeline.sources.mjai.events import TILE, EventRow
from pipeline.sources.mjai.kernel import OUT_MELD, OUT_MELD_N
from pipeline.sources.mjai.tiles import UNKNOWN, IdAllocator, matches, take, tile_kind
from rules.hands import CODE

Event = dict[str, Any]

"""Actions that move a seat's own tiles (draw ... kita); riichi and dora do not."""



@dataclass
class Result:
    """A hora or ryukyoku event with what the replay knew when it came."""

    index: int
    event: Event
    tile: int = -1
    """Winning tile (hora): the last tile given (ron, chankan) or the winner's draw (tsumo)."""
    hand: list[int] = field(default_factory=list)
    """Winner's closed tiles, winning tile included (hora); empty for a hidden seat the log does not show."""
    shown: list[list[int] | None] = field(default_factory=list)
    """Ryukyoku: each seat's closed tiles (None for a hidden seat); hora: unused."""
    last_actor: int = -1


@dataclass(init=False)
class Replayed:
    """A kyoku replayed: its start values, 136-ids, events and results (made by __init__: the dataclass's own would
    call a factory per default, ten kyoku a game)."""

    index: int
    round_wind: int
    kyoku: int
    dealer: int
    honba: int
    riichi_sticks: int
    scores: list[int]
    hands_start: list[list[int]]
    hidden: list[bool]
    dora: list[int] = field(default_factory=list)
    ura: list[int] = field(default_factory=list)
    events: list[EventRow] = field(default_factory=list)
    melds: list[list[list[int]]] = field(default_factory=lambda: [[] for _ in range(4)])
    n_kita: list[int] = field(default_factory=lambda: [0] * 4)
    riichi_accepted: list[int] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    n_draws: int = 0
    quirks: set[str] = field(default_factory=set)
    is_closed: bool = False
    """end_kyoku came (or the next kyoku started) after the results."""
    compiled: Any = None
    """The kernel's rows (fast.py; a numpy array) that the first ``events`` were made from, when it played: those
    first ``events`` are then stand-ins (one shared row, never read: events.py reads ``compiled``), ``rows()`` gives
    them all."""

    def __init__(self, index: int, round_wind: int, kyoku: int, dealer: int, honba: int, riichi_sticks: int,
                 scores: list[int], hands_start: list[list[int]], hidden: list[bool]) -> None:  # fmt: skip
        """The kyoku's start values; everything else starts empty (no dora, events, melds, results...)."""
        self.index, self.round_wind, self.kyoku, self.dealer = index, round_wind, kyoku, dealer
        self.honba, self.riichi_sticks, self.scores, self.hands_start, self.hidden = (
            honba, riichi_sticks, scores, hands_start, hidden)  # fmt: skip
        self.dora, self.ura, self.events, self.riichi_accepted, self.results = [], [], [], [], []
        self.melds, self.n_kita = [[], [], [], []], [0, 0, 0, 0]
        self.n_draws, self.quirks, self.is_closed, self.compiled = 0, set(), False, None

    def rows(self) -> list[EventRow]:
        """The event rows, those the kernel played (``compiled``) made from its rows."""
        done = 0 if self.compiled is None else len(self.compiled)
        if not done:
            return self.events
        head = self.compiled[:, :OUT_MELD].tolist()  # the meld's size stands in the meld's place: 0 reads as None
        calls = np.flatnonzero(self.compiled[:, OUT_MELD_N])
        for row, tiles in zip(calls.tolist(), self.compiled[calls, OUT_MELD:].tolist(), strict=True):
            head[row][OUT_MELD_N] = tiles[: head[row][OUT_MELD_N]]
        return head + self.events[done:]


def int_field(event: Event, key: str, low: int = 0, high: int = 1 << 30) -> int:
    """The event's integer ``key`` in low..high; raises ParseError for anything else (a bool is no int here)."""
    value = event.get(key)
    if type(value) is int and low <= value <= high:  # the usual case, at once (a bool is no int here)
        return value
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ParseError(f"{event['type']} {key} {value!r} is not a number in {low}..{high}")
    return value


def _names(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not set(map(type, value)) <= {str}:  # JSON strings are never subclassed
        raise ParseError(f"{what} is not a list of tile names: {value!r}")
    return value


class KyokuReplay:
    """Feeds one kyoku's events (start_kyoku first) into a ``Replayed``; raises ParseError for an event
    that does not fit the round (a tile not held, a call of a tile nobody gave...)."""

    def __init__(self, index: int, start: Event, n_players: int, has_red_fives: bool,
                 dealt: tuple[list[list[int]], int] | None = None) -> None:  # fmt: skip
        """``dealt``: the ids of the deal and of the first dora indicator when they are known already (fast.GamePlay
        dealt them, as ``alloc`` would), else the deal is made here."""
        self.n_players = n_players
        self.red = has_red_fives
        self.alloc = IdAllocator(has_red_fives)
        self.round = self._start(index, start, dealt)
        self.held = [list(h) for h in self.round.hands_start] if dealt is None else []  # dealt: the caller sets it
        self.meld_from: list[list[int]] = [[] for _ in range(4)]
        self.last_draw = [-1] * 4
        self.draw_pos = [-1] * 4
        self.last_given, self.given_by = -1, -1
        self.last_actor = -1

    def _start(self, index: int, start: Event, dealt: tuple[list[list[int]], int] | None) -> Replayed:
        wind = WINDS.get(start.get("bakaze"))  # type: ignore[arg-type]
        if wind is None:
            raise ParseError(f"start_kyoku bakaze {start.get('bakaze')!r} is not E, S, W or N")
        scores = start.get("scores")
        if not isinstance(scores, list) or len(scores) < self.n_players:
            raise ParseError(f"start_kyoku scores {scores!r} do not cover {self.n_players} seats")
        tehais = start.get("tehais")
        if not isinstance(tehais, list) or len(tehais) < self.n_players:
            raise ParseError(f"start_kyoku tehais {tehais!r:.60} do not cover {self.n_players} seats")
        if dealt:  # a dealt kyoku's hands are 13 tile names each (fast._deal_codes), dealt 13 ids each
            hidden, hands = [False] * 4, dealt[0]
        else:
            hidden = [s < self.n_players and UNKNOWN in _names(tehais[s], "a tehai") for s in range(4)]
            hands = [[] if s >= self.n_players or hidden[s] else self.alloc.deal(_names(tehais[s], "a tehai"))
                     for s in range(4)]  # fmt: skip
            for s in range(self.n_players):
                if not hidden[s] and len(hands[s]) != 13:
                    raise ParseError(f"start_kyoku deals {len(hands[s])} tiles to seat {s}")
        replayed = Replayed(
            index, wind, int_field(start, "kyoku", 1, 4) - 1, int_field(start, "oya", 0, self.n_players - 1),
            int_field(start, "honba"), int_field(start, "kyotaku"),
            ([int(v) for v in scores[: self.n_players]] + [0] * 4)[:4], hands, hidden,
        )  # fmt: skip
        replayed.dora.append(dealt[1] if dealt else self.alloc.new(start.get("dora_marker")))  # type: ignore[arg-type]
        if any(hidden):
            replayed.quirks.add("hidden_hands")
        return replayed

    # --- feeding ---------------------------------------------------------------------------------
    def feed(self, index: int, event: Event) -> None:
        """Apply one event of the kyoku."""
        kind = event["type"]
        if kind in IGNORED_EVENTS:
            return
        if kind not in ROUND_EVENTS:
            raise ParseError(f"{kind} event inside a kyoku")
        if self.round.is_closed:
            raise ParseError(f"{kind} event after end_kyoku")
        if self.round.results and kind not in ("hora", "end_kyoku"):
            raise ParseError(f"{kind} event after the kyoku's result")
        if kind == "end_kyoku":
            self.round.is_closed = True
            return
        getattr(self, "_" + kind)(index, event)

    def _actor(self, event: Event) -> int:
        return int_field(event, "actor", 0, self.n_players - 1)

    def _emit(self, index: int, action: str, seat: int, tile: int = -1, from_seat: int = -1,
              meld: list[int] | None = None) -> None:  # fmt: skip
        """Append an event row (its flags are derived for the whole game: pipeline.sources.event_flags)."""
        row: EventRow = [index, CODE[action], seat, tile, from_seat, meld]
        self.round.events.append(row)
        if seat >= 0:
            self.last_actor = seat

    def _hide(self, seat: int) -> None:
        if not self.round.hidden[seat]:
            self.round.hidden[seat] = True
            self.round.quirks.add("hidden_hands")

    def _give(self, seat: int, name: str) -> int:
        """The id of a tile the seat shows from its hand (removed from its followed tiles)."""
        if self.round.hidden[seat]:
            return self.alloc.new(name)
        return take(self.held[seat], name, self.red)

    def _n_tiles(self, seat: int) -> int:
        """The seat's followed tiles, each meld counted as three (a kan's fourth tile is replaced)."""
        return len(self.held[seat]) + 3 * len(self.round.melds[seat])

    def _tsumo(self, index: int, event: Event) -> None:
        seat = self._actor(event)
        if not self.round.hidden[seat] and self._n_tiles(seat) != 13:
            raise ParseError(f"seat {seat} draws holding {self._n_tiles(seat)} tiles (melds counted as 3), not 13")
        pai = event.get("pai")
        if pai == UNKNOWN:
            self._hide(seat)
            tile = -1
        else:
            tile = self.alloc.new(pai)  # type: ignore[arg-type]
            if not self.round.hidden[seat]:
                self.held[seat].append(tile)
        self.round.n_draws += 1
        self.last_draw[seat], self.draw_pos[seat] = tile, len(self.round.events)
        self._emit(index, "draw", seat, tile)

    def _dahai(self, index: int, event: Event) -> None:
        seat, pai = self._actor(event), event.get("pai")
        tsumogiri = event.get("tsumogiri") is True
        drawn = self.last_draw[seat]
        if self.round.hidden[seat]:
            tile = drawn if tsumogiri and drawn >= 0 and matches(drawn, pai, self.red) else self.alloc.new(pai)
            if tsumogiri and drawn < 0 and self.draw_pos[seat] >= 0:
                self.round.events[self.draw_pos[seat]][TILE] = tile  # the hidden draw was this tile
        else:
            tile = take(self.held[seat], pai, self.red, prefer=drawn if tsumogiri else -1,  # type: ignore[arg-type]
                        avoid=-1 if tsumogiri else drawn)  # fmt: skip
            if tsumogiri and tile != drawn:
                self.round.quirks.add("tsumogiri_mismatch")
        self.last_draw[seat], self.draw_pos[seat] = -1, -1
        self.last_given, self.given_by = tile, seat
        self._emit(index, "discard", seat, tile)

    def _call(self, index: int, event: Event, action: str) -> None:
        seat, target = self._actor(event), int_field(event, "target", 0, self.n_players - 1)
        pai = event.get("pai")
        if target != self.given_by or target == seat or not matches(self.last_given, pai, self.red):  # type: ignore
            raise ParseError(f"{action} of {pai!r} from seat {target}, who did not just give it")
        meld = sorted([self.last_given] + [self._give(seat, c) for c in _names(event.get("consumed"), "consumed")])
        self.round.melds[seat].append(meld)
        self.meld_from[seat].append(target)
        self._emit(index, action, seat, self.last_given, target, meld)
        self.last_given, self.given_by, self.last_draw[seat] = -1, -1, -1

    def _chi(self, index: int, event: Event) -> None:
        self._call(index, event, "chi")

    def _pon(self, index: int, event: Event) -> None:
        self._call(index, event, "pon")

    def _daiminkan(self, index: int, event: Event) -> None:
        self._call(index, event, "daiminkan")

    def _kakan(self, index: int, event: Event) -> None:
        seat = self._actor(event)
        tile = self._give(seat, event.get("pai"))  # type: ignore[arg-type]
        for i, meld in enumerate(self.round.melds[seat]):
            if len(meld) == 3 and meld[0] // 4 == meld[1] // 4 == tile // 4:
                self.round.melds[seat][i] = sorted([*meld, tile])
                self._emit(index, "kakan", seat, tile, self.meld_from[seat][i], self.round.melds[seat][i])
                self.last_given, self.given_by, self.last_draw[seat] = tile, seat, -1
                return
        raise ParseError(f"kakan of {event.get('pai')!r} by seat {seat} without a pon of it")

    def _ankan(self, index: int, event: Event) -> None:
        seat = self._actor(event)
        consumed = _names(event.get("consumed"), "ankan consumed")
        if len(consumed) != 4:
            raise ParseError(f"ankan of {len(consumed)} tiles")
        tiles = [self._give(seat, c) for c in consumed]
        pai = event.get("pai")
        tile = next((t for t in tiles if matches(t, pai, self.red)), tiles[0]) if isinstance(pai, str) else tiles[0]
        self.round.melds[seat].append(sorted(tiles))
        self.meld_from[seat].append(seat)
        self._emit(index, "ankan", seat, tile, -1, sorted(tiles))
        self.last_given, self.given_by, self.last_draw[seat] = tile, seat, -1

    def _nukidora(self, index: int, event: Event) -> None:
        seat = self._actor(event)
        tile = self._give(seat, event.get("pai", "N"))
        self.round.n_kita[seat] += 1
        self._emit(index, "kita", seat, tile, -1, [tile])
        self.last_given, self.given_by, self.last_draw[seat] = tile, seat, -1

    def _kita(self, index: int, event: Event) -> None:
        self._nukidora(index, event)

    def _reach(self, index: int, event: Event) -> None:
        self._emit(index, "riichi", self._actor(event))

    def _reach_accepted(self, index: int, event: Event) -> None:
        seat = self._actor(event)
        self.round.riichi_accepted.append(seat)
        self._emit(index, "riichi_accepted", seat)

    def _dora(self, index: int, event: Event) -> None:
        tile = self.alloc.new(event.get("dora_marker"))  # type: ignore[arg-type]
        self.round.dora.append(tile)
        self._emit(index, "dora", -1, tile)

    # --- results ---------------------------------------------------------------------------------
    def _hora(self, index: int, event: Event) -> None:
        seat, target = self._actor(event), int_field(event, "target", 0, self.n_players - 1)
        tile = self._winning_tile(seat, target, event.get("pai"))
        if self.round.hidden[seat]:
            shown = event.get("hora_tehais")
            hand = [self.alloc.new(t) for t in _names(shown, "hora_tehais") if t != UNKNOWN] if shown else []
            hand = sorted(hand + [tile]) if hand else []
        else:
            hand = sorted(self.held[seat] + ([] if seat == target else [tile]))
            if len(hand) + 3 * len(self.round.melds[seat]) != 14:
                raise ParseError(f"seat {seat} wins with {len(hand)} closed tiles and {len(self.round.melds[seat])} "
                                 "melds, not a hand of 14")  # fmt: skip
            self._check_shown(event.get("hora_tehais"), hand, tile)
        if not self.round.ura:
            self.round.ura = [self.alloc.new(t) for t in ura_markers(event)]
        self.round.results.append(Result(index, event, tile, hand, last_actor=self.last_actor))

    def _winning_tile(self, seat: int, target: int, pai: Any) -> int:
        if seat != target:
            tile = self.last_given
            if target != self.given_by or tile < 0:
                raise ParseError(f"ron by seat {seat} on seat {target}, who did not just give a tile")
        else:
            if self.last_actor != seat or self.draw_pos[seat] < 0:
                raise ParseError(f"tsumo by seat {seat}, who did not draw last")
            tile = self.last_draw[seat]
            if tile < 0:  # a hidden draw: the hora's pai shows it
                if not isinstance(pai, str) or pai == UNKNOWN:
                    raise ParseError(f"tsumo by hidden seat {seat} without the winning tile (pai)")
                tile = self.alloc.new(pai)
                self.round.events[self.draw_pos[seat]][TILE] = tile
        if isinstance(pai, str) and pai != UNKNOWN and not matches(tile, pai, self.red):
            raise ParseError(f"hora pai {pai!r} is not the tile won on (136-id {tile})")
        return tile

    def _ryukyoku(self, index: int, event: Event) -> None:
        shown: list[list[int] | None] = [None if self.round.hidden[s] else sorted(self.held[s]) for s in range(4)]
        tehais = event.get("tehais")
        if isinstance(tehais, list):
            for s in range(min(len(tehais), self.n_players)):
                names = _names(tehais[s], "ryukyoku tehais")
                if shown[s] is None and names and UNKNOWN not in names:
                    shown[s] = sorted(self.alloc.new(t) for t in names)
                elif names and UNKNOWN not in names:
                    self._check_shown(names, shown[s] or [], -1)
        self.round.results.append(Result(index, event, shown=shown, last_actor=self.last_actor))

    def _check_shown(self, names: Any, hand: list[int], winning: int) -> None:
        """Quirk ``shown_hand_mismatch`` when tiles the log shows are not the followed hand (with or
        without the winning tile)."""
        if not isinstance(names, list) or not names or UNKNOWN in names:
            return
        shown = sorted(tile_kind(n)[0] for n in _names(names, "shown tiles"))
        kinds = sorted(t // 4 for t in hand)
        without = list(kinds)
        if winning >= 0:
            without.remove(winning // 4)
        if shown not in (kinds, without):
            self.round.quirks.add("shown_hand_mismatch")

    def finish(self) -> Replayed:
        """The replayed kyoku (call once its events are all fed)."""
        return self.round


def ura_markers(event: Event) -> list[str]:
    """The ura dora indicators of a hora, under any of the names logs use for them."""
    for key in ("ura_markers", "uradora_markers", "uradora_marker"):
        if key in event:
            markers = _names(event[key], key)
            return [m for m in markers if m != UNKNOWN]
    return []
