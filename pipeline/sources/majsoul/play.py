"""Replay one round's play records (RecordNewRound .. the record before its result) into events.

Events follow Tenhou XML's order, as the other parsers write them: the dealer's 14th tile is a draw
(event 0; the deal keeps 13 tiles); riichi, then any new dora indicator, then the discard; the riichi
stick is accepted (``riichi_accepted``) right before the next record that shows the discard passed (a
draw, a call, a draw of the round); a kan's or kita's new indicator comes right after the record that
names it (Mahjong Soul reveals an open kan's indicator with the caller's discard, a closed kan's at once).

Every record that carries the server's own furiten (``zhenting``, one flag per seat) or waits
(``tingpais``) adds a flag row keyed by the event it belongs to (see pipeline.sources.majsoul.flags).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pipeline.errors import ParseError, UnknownCodeError
from pipeline.sources.majsoul.codes import CALL_TYPES, KAN_TYPES, lookup, parse_tile
from pipeline.sources.majsoul.document import Record
from pipeline.sources.majsoul.tiles import SeatTiles, TileIds
from pipeline.sources.tenhou_json.rows import EventRows, concatenate
from pipeline.sources.tenhou_json.tiles import IdEvent

FlagRow = tuple[int | None, int, bool | None, list[int] | None, str]
"""(event_idx or None for the deal, seat, zhenting or None, waits as 34-kinds or None, action)."""


@dataclass
class Play:
    """The state of a round being replayed: tiles, events, scores and sticks, riichi, server flags."""

    n_players: int
    dealer: int
    ids: TileIds
    scores: list[int]
    sticks: int
    seats: list[SeatTiles] = field(default_factory=lambda: [SeatTiles() for _ in range(4)])
    hands_start: list[list[int]] = field(default_factory=list)
    dora: list[int] = field(default_factory=list)
    events: list[tuple[int, IdEvent]] = field(default_factory=list)
    flags: list[FlagRow] = field(default_factory=list)
    quirks: set[str] = field(default_factory=set)
    meld_from: list[list[int]] = field(default_factory=lambda: [[] for _ in range(4)])
    """Per seat, the seat each meld's called tile came from, in call order (-1 for a closed kan)."""
    riichi_seats: set[int] = field(default_factory=set)
    pending_riichi: int = -1
    n_accepted: int = 0
    kan_seats: list[int] = field(default_factory=list)
    last_given: int = -1
    """The id of the last tile released (discard, added or closed kan, kita): a ron takes it."""
    last_giver: int = -1
    last_actor: int = -1
    compiled: tuple[EventRows, np.ndarray] | None = None
    """The events the compiled play made (fast.py) and their records' indexes; ``events`` follow them."""
    compiled_flags: np.ndarray | None = None
    """The flag rows the compiled play made (kernel.F_* columns); ``flags`` come before them."""

    def emit(self, index: int, action: str, seat: int, tile: int = -1, from_seat: int = -1,
             meld: list[int] | None = None) -> int:  # fmt: skip
        """Append an event (``index``: its record's position in the file); return its event_idx."""
        self.events.append((index, IdEvent(action, seat, tile, from_seat, meld)))
        if seat >= 0:
            self.last_actor = seat
        return len(self.events) - 1 + (len(self.compiled[0]) if self.compiled else 0)

    def event_rows(self) -> tuple[EventRows, np.ndarray]:
        """The round's events as rows, with each one's record index (the compiled ones first)."""
        rows = EventRows.from_events([event for _, event in self.events])
        index = np.array([index for index, _ in self.events], dtype=np.int64).reshape(len(rows))
        if self.compiled is None:
            return rows, index
        compiled, compiled_index = self.compiled
        return concatenate([compiled, rows]), np.concatenate([compiled_index, index])

    def seat_of(self, data: dict[str, Any]) -> int:
        """The record's seat (0 when absent: protobuf omits defaults); raises ParseError when out of range."""
        seat = data.get("seat", 0)
        if not isinstance(seat, int) or not 0 <= seat < self.n_players:
            raise ParseError(f"seat {seat!r} out of range in a {self.n_players}-player game")
        return seat


def start_round(record: Record, following: Record | None, n_players: int, has_red_fives: bool) -> Play:
    """Read a RecordNewRound: the deal (the dealer's 14th tile becomes event 0, a draw), the first dora
    indicator, scores and sticks, and the server's waits at the deal."""
    data = record.data
    dealer = data.get("ju", 0)
    if not isinstance(dealer, int) or not 0 <= dealer < n_players:
        raise ParseError(f"kyoku {dealer!r} out of range in a {n_players}-player game")
    scores = [int(v) for v in data.get("scores") or []]
    if len(scores) != n_players:
        raise ParseError(f"{len(scores)} scores in a {n_players}-player game")
    play = Play(n_players, dealer, TileIds(has_red_fives), scores + [0] * (4 - n_players), data.get("liqibang", 0))
    hands = _hands(data, n_players, dealer)
    drawn = hands[dealer].pop(_drawn_position(hands[dealer], following))
    play.hands_start = [[play.ids.new(t) for t in hand] for hand in hands]
    for seat in range(4):
        play.seats[seat].held = list(play.hands_start[seat])
    doras = list(data.get("doras") or ([data["dora"]] if data.get("dora") else []))
    if len(doras) != 1:
        raise UnknownCodeError(f"{len(doras)} dora indicators at the deal (a special mode?)", tag="RecordNewRound")
    play.dora = [play.ids.new(doras[0])]
    tile = play.ids.new(drawn)
    play.seats[dealer].held.append(tile)
    play.seats[dealer].last_draw = tile
    play.emit(record.index, "draw", dealer, tile)
    for entry in data.get("tingpai") or []:
        play.flags.append((None, play.seat_of(entry), None, _kinds(entry.get("tingpais1")), "deal"))
    return play


def _hands(data: dict[str, Any], n_players: int, dealer: int) -> list[list[str]]:
    """The dealt tile strings of seats 0-3: 14 for the dealer, 13 for the others, none for sanma's seat 3."""
    hands = [list(data.get(f"tiles{seat}") or []) for seat in range(4)]
    for seat, hand in enumerate(hands):
        expected = 0 if seat >= n_players else 14 if seat == dealer else 13
        if len(hand) != expected:
            raise ParseError(f"seat {seat} is dealt {len(hand)} tiles, expected {expected}")
    return hands


def _drawn_position(hand: list[str], following: Record | None) -> int:
    """Which of the dealer's 14 tiles is taken as its first draw: the last one dealt, unless the next record
    tells (a heavenly hand names its winning tile; a first discard is the drawn tile when tsumogiri, another
    tile when not)."""
    named, same = None, True
    if following is not None and following.kind == "Hule":
        named = next((h.get("hu_tile") for h in following.data.get("hules") or [] if h.get("zimo")), None)
    elif following is not None and following.kind == "DiscardTile":
        named, same = following.data.get("tile"), bool(following.data.get("moqie"))
    for position in range(len(hand) - 1, -1, -1):
        if named is None or (hand[position] == named) == same:
            return position
    return len(hand) - 1


def _kinds(infos: Any) -> list[int]:
    """The 34-kinds of a list of TingPaiInfo, sorted and distinct."""
    return sorted({parse_tile(info.get("tile"))[0] for info in infos or []})


def accept_riichi(play: Play, record: Record) -> None:
    """The pending riichi discard passed: its stick goes on the table (event ``riichi_accepted``). A
    ``liqi`` field naming another seat is a ParseError; one marked ``failed`` accepts nothing."""
    seat = play.pending_riichi
    liqi = record.data.get("liqi")
    if isinstance(liqi, dict) and liqi.get("seat", 0) != seat:
        raise ParseError(f"{record.kind} accepts the riichi of seat {liqi.get('seat', 0)}, pending: seat {seat}")
    if seat < 0 or (isinstance(liqi, dict) and liqi.get("failed")):
        play.pending_riichi = -1
        return
    play.emit(record.index, "riichi_accepted", seat)
    play.scores[seat] -= 1000
    play.sticks += 1
    play.n_accepted += 1
    play.pending_riichi = -1


def reveal(play: Play, record: Record) -> None:
    """Emit a dora event for every indicator of the record's ``doras`` not revealed yet."""
    doras = record.data.get("doras") or []
    for position, text in enumerate(doras):
        if position < len(play.dora):
            if not play.ids.is_tile(play.dora[position], text):
                raise ParseError(f"dora indicator {position} is {text!r}, earlier records said otherwise")
            continue
        tile = play.ids.new(text)
        play.dora.append(tile)
        play.emit(record.index, "dora", -1, tile)


def _seat_flags(play: Play, record: Record, event_idx: int, action: str) -> None:
    """Flag rows of a record's per-seat ``zhenting`` (a discard also gives the discarder's waits)."""
    data = record.data
    zhenting = data.get("zhenting")
    per_seat = zhenting if isinstance(zhenting, list) else []
    seat = play.seat_of(data)
    waits = _kinds(data.get("tingpais")) if action == "discard" and (per_seat or data.get("tingpais")) else None
    for other in range(min(len(per_seat), play.n_players)):
        play.flags.append((event_idx, other, bool(per_seat[other]), waits if other == seat else None, action))
    if not per_seat and waits is not None:
        play.flags.append((event_idx, seat, None, waits, action))


def deal(play: Play, record: Record) -> None:
    """RecordDealTile: a draw (a replacement draw after a kan or kita), then any new indicator."""
    accept_riichi(play, record)
    seat = play.seat_of(record.data)
    tile = play.ids.new(record.data.get("tile"))
    play.seats[seat].held.append(tile)
    play.seats[seat].last_draw = tile
    event_idx = play.emit(record.index, "draw", seat, tile)
    reveal(play, record)
    _seat_flags(play, record, event_idx, "draw")


def discard(play: Play, record: Record) -> None:
    """RecordDiscardTile: riichi (``is_liqi``/``is_wliqi``), any new indicator, the discard."""
    data = record.data
    seat = play.seat_of(data)
    mine = play.seats[seat]
    moqie = bool(data.get("moqie"))
    drawn = mine.last_draw
    tile = mine.take(play.ids, data.get("tile"), prefer=drawn if moqie else -1)
    if moqie != (tile == drawn):
        play.quirks.add("tsumogiri_mismatch")  # the flag and the tiles held disagree
    if data.get("is_liqi") or data.get("is_wliqi"):
        play.emit(record.index, "riichi", seat)
        play.riichi_seats.add(seat)
        play.pending_riichi = seat
    reveal(play, record)
    event_idx = play.emit(record.index, "discard", seat, tile)
    play.last_given, play.last_giver, mine.last_draw = tile, seat, -1
    _seat_flags(play, record, event_idx, "discard")


def call(play: Play, record: Record) -> None:
    """RecordChiPengGang: chi, pon or daiminkan of the tile just discarded (``froms`` names its seat)."""
    accept_riichi(play, record)
    data = record.data
    seat = play.seat_of(data)
    action = lookup(CALL_TYPES, data.get("type", 0), "call type", "RecordChiPengGang")
    texts, froms = list(data.get("tiles") or []), list(data.get("froms") or [])
    called = [i for i, f in enumerate(froms) if f != seat]
    if len(texts) != (4 if action == "daiminkan" else 3) or len(froms) != len(texts) or len(called) != 1:
        raise ParseError(f"malformed {action}: tiles {texts}, froms {froms}")
    if froms[called[0]] != play.last_giver or not play.ids.is_tile(play.last_given, texts[called[0]]):
        raise ParseError(f"{action} of {texts[called[0]]!r} from seat {froms[called[0]]}, not the last discard")
    mine = play.seats[seat]
    own = [mine.take(play.ids, t) for i, t in enumerate(texts) if i != called[0]]
    meld = sorted([play.last_given, *own])
    mine.melds.append(meld)
    play.meld_from[seat].append(play.last_giver)
    if action == "pon":
        mine.pon_from[meld[0] // 4] = play.last_giver
    if action == "daiminkan":
        play.kan_seats.append(seat)
    mine.last_draw = -1
    event_idx = play.emit(record.index, action, seat, play.last_given, play.last_giver, meld)
    _seat_flags(play, record, event_idx, action)


def kan(play: Play, record: Record) -> None:
    """RecordAnGangAddGang: an added kan on a pon (type 2) or a closed kan (type 3), then any new indicator."""
    data = record.data
    seat = play.seat_of(data)
    action = lookup(KAN_TYPES, data.get("type"), "kan type", "RecordAnGangAddGang")
    mine, text = play.seats[seat], data.get("tiles")
    if action == "kakan":
        tile = mine.take(play.ids, text, prefer=mine.last_draw)
        meld, from_seat = mine.upgrade_pon(tile)
    else:
        kind = parse_tile(text)[0]
        taken = [t for t in mine.held if t // 4 == kind]
        if len(taken) != 4:
            raise ParseError(f"closed kan of {text!r} with {len(taken)} such tiles in hand")
        for t in taken:
            mine.held.remove(t)
        tile, from_seat, meld = next((t for t in taken if play.ids.is_tile(t, text)), taken[0]), -1, sorted(taken)
        mine.melds.append(meld)
        play.meld_from[seat].append(-1)
    play.kan_seats.append(seat)
    mine.last_draw = -1
    play.emit(record.index, action, seat, tile, from_seat, meld)
    play.last_given, play.last_giver = tile, seat
    reveal(play, record)


def babei(play: Play, record: Record) -> None:
    """RecordBaBei: a North set aside (kita, sanma), then any new indicator."""
    seat = play.seat_of(record.data)
    mine = play.seats[seat]
    tile = mine.take(play.ids, "4z", prefer=mine.last_draw if record.data.get("moqie") else -1)
    mine.n_kita += 1
    mine.last_draw = -1
    play.emit(record.index, "kita", seat, tile, -1, [tile])
    play.last_given, play.last_giver = tile, seat
    reveal(play, record)


PLAY_HANDLERS = {"DealTile": deal, "DiscardTile": discard, "ChiPengGang": call, "AnGangAddGang": kan,
                 "BaBei": babei}  # fmt: skip
"""Record kind -> handler of the play records (results: pipeline.sources.majsoul.results)."""
