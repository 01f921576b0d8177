"""The compiled path of a kyoku's play: its events encoded as integer rows for kernel.play, and the state the
kernel leaves written back into the KyokuReplay (which then reads the results, or goes on event by event)."""

from __future__ import annotations

from array import array
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np

from pipeline.sources.mjai import kernel as k
from pipeline.sources.mjai.lines import OTHER, PYTHON
from pipeline.sources.mjai.replay import KyokuReplay

if TYPE_CHECKING:
    from pipeline.sources.mjai.stream import Events

_CALLS = (k.T_CHI, k.T_PON, k.T_DAIMINKAN, k.T_ANKAN)
_BIG = 10**15
"""Seat values past this are refused as -99 (the kernel refuses any seat out of the table anyway)."""


def _tile(value: Any) -> int:
    """The kernel code of a tile value (-1 when it is not a tile name)."""
    return k.TILE_CODES.get(value, -1) if type(value) is str else -1


def _seat(value: Any) -> int:
    """A seat value as the kernel reads it: the int when it is one of a sane size, else -99 (refused)."""
    return value if type(value) is int and -_BIG < value < _BIG else -99


def encode_event(kind: int, event: dict[str, Any]) -> list[int]:
    """One event as a kernel input row (``kind``: its kernel type)."""
    row = [kind, _seat(event.get("actor")), -1, -99, 0, 0, -1, -1, -1, -1]
    if kind == k.T_DORA:
        row[k.IN_TILE] = _tile(event.get("dora_marker"))
    elif kind == k.T_KITA:
        row[k.IN_TILE] = _tile(event.get("pai", "N"))
    elif kind == k.T_ANKAN:
        pai = event.get("pai")
        row[k.IN_TILE] = _tile(pai) if isinstance(pai, str) else -3
    else:
        row[k.IN_TILE] = _tile(event.get("pai"))
    if kind == k.T_DAHAI:
        row[k.IN_TSUMOGIRI] = 1 if event.get("tsumogiri") is True else 0
    elif kind in _CALLS:
        row[k.IN_TARGET] = _seat(event.get("target"))
        consumed = event.get("consumed")
        if type(consumed) is list and len(consumed) <= 4:
            row[k.IN_N] = len(consumed)
            row[k.IN_CONSUMED : k.IN_CONSUMED + len(consumed)] = [_tile(c) for c in consumed]
        else:
            row[k.IN_N] = -1
    return row


def encode(events: Events, start: int, lines: np.ndarray | None) -> np.ndarray:
    """The input rows of the events from ``start`` up to the first of a type the kernel does not apply: from
    ``lines`` (lines.line_rows, by file index) where the kernel could read them, else from the parsed events."""
    if lines is None:
        return _encode_parsed(events, start)
    first = events.index(start) if start < len(events) else 0
    rows = lines[first : first + len(events) - start]
    kinds = rows[:, k.IN_TYPE]
    stops = np.flatnonzero(kinds == OTHER)
    stop = int(stops[0]) if len(stops) else len(rows)
    parsed = np.flatnonzero(kinds[:stop] == PYTHON).tolist()
    if not parsed:
        return rows[:stop]
    rows = rows[:stop].copy()
    for row in parsed:
        kind = k.TYPES.get(events[start + row][1]["type"], -1)
        if kind < 0:
            return rows[:row]
        rows[row] = encode_event(kind, events[start + row][1])
    return rows


def _encode_parsed(events: Events, start: int) -> np.ndarray:
    """encode's rows from the parsed events alone."""
    flat, n = array("q"), 0
    codes = k.TILE_CODES
    for _, event in events[start:]:
        kind = event["type"]
        if kind == "tsumo" or kind == "dahai":  # most events: inline
            actor, pai = event.get("actor"), event.get("pai")
            flat.extend((k.T_TSUMO if kind == "tsumo" else k.T_DAHAI, _seat(actor),
                         codes.get(pai, -1) if type(pai) is str else -1, -99,
                         1 if kind == "dahai" and event.get("tsumogiri") is True else 0,
                         0, -1, -1, -1, -1))  # fmt: skip
        else:
            code = k.TYPES.get(kind, -1)
            if code < 0:
                break
            flat.extend(encode_event(code, event))
        n += 1
    return np.frombuffer(flat, dtype=np.int64).reshape(n, k.IN_WIDTH) if n else np.zeros((0, k.IN_WIDTH), np.int64)


def play_compiled(replay: KyokuReplay, events: Events, start: int, lines: np.ndarray | None = None) -> int:
    """Apply the kyoku's events from ``start`` with the kernel (a kyoku just started, every hand shown; ``lines``:
    the file's rows from lines.line_rows when it gave them); return how many were applied (0: kernel not used)."""
    rnd = replay.round
    if any(rnd.hidden) or rnd.events:
        return 0
    rows = encode(events, start, lines)
    if not len(rows):
        return 0
    first = events.index(start)  # a game's events are numbered one after the other (stream.py)
    indexes = np.arange(first, first + len(rows), dtype=np.int64)
    held = np.full((4, k.MAX_HELD), -1, dtype=np.int64)
    for seat, tiles in enumerate(replay.held):
        held[seat, : len(tiles)] = tiles
    n_held = np.array([len(tiles) for tiles in replay.held], dtype=np.int64)
    used = np.array(replay.alloc.used, dtype=np.int64)
    melds, n_melds = np.full((4, k.MAX_MELDS, 4), -1, dtype=np.int64), np.zeros(4, dtype=np.int64)
    meld_from, n_kita = np.zeros((4, k.MAX_MELDS), dtype=np.int64), np.zeros(4, dtype=np.int64)
    last_draw, draw_pos = np.full(4, -1, dtype=np.int64), np.full(4, -1, dtype=np.int64)
    st = np.array([-1, -1, -1, 0, 0, replay.n_players, int(replay.red)], dtype=np.int64)
    done, out, dora, accepted = k.play(rows, indexes, held, n_held, used, melds, n_melds, meld_from, n_kita,
                                       last_draw, draw_pos, st)  # fmt: skip
    _write_back(replay, out, held, n_held, used, melds, n_melds, meld_from, n_kita, last_draw, draw_pos, st)
    rnd.dora.extend(dora.tolist())
    rnd.riichi_accepted.extend(accepted.tolist())
    return int(done)


def _write_back(replay: KyokuReplay, out: np.ndarray, held: np.ndarray, n_held: np.ndarray, used: np.ndarray,
                melds: np.ndarray, n_melds: np.ndarray, meld_from: np.ndarray, n_kita: np.ndarray,
                last_draw: np.ndarray, draw_pos: np.ndarray, st: np.ndarray) -> None:  # fmt: skip
    """Give the KyokuReplay the state the kernel left."""
    rnd = replay.round
    held_lists, counts = held.tolist(), n_held.tolist()
    replay.held = [held_lists[s][: counts[s]] for s in range(4)]
    replay.alloc.used = used.tolist()
    meld_lists, meld_counts, froms = melds.tolist(), n_melds.tolist(), meld_from.tolist()
    rnd.melds = [[[t for t in m if t >= 0] for m in meld_lists[s][: meld_counts[s]]] for s in range(4)]
    replay.meld_from = [froms[s][: meld_counts[s]] for s in range(4)]
    rnd.n_kita, replay.last_draw, replay.draw_pos = n_kita.tolist(), last_draw.tolist(), draw_pos.tolist()
    replay.last_given, replay.given_by = int(st[k.ST_GIVEN]), int(st[k.ST_GIVER])
    if st[k.ST_ACTOR] >= 0:
        replay.last_actor = int(st[k.ST_ACTOR])
    rnd.n_draws += int(st[k.ST_DRAWS])
    if st[k.ST_MISMATCH]:
        rnd.quirks.add("tsumogiri_mismatch")
    rnd.events.extend([[-1] * k.OUT_MELD] * len(out))  # stand-ins: Replayed.rows
    rnd.compiled = out


def _deal_names(start: dict[str, Any], n_players: int) -> list[Any] | None:
    """A start_kyoku's deal as the kernel reads it (13 tile names a seat, then the first dora indicator's), None when
    the kernel must not deal it (a hand not of 13, anything KyokuReplay would refuse or follow in Python; _deal_codes
    then checks the names): KyokuReplay deals such a kyoku itself and raises its own errors."""
    tehais, marker = start.get("tehais"), start.get("dora_marker")
    if type(tehais) is not list or len(tehais) < n_players or type(marker) is not str:
        return None
    hands = tehais[:n_players]
    if set(map(type, hands)) != {list} or set(map(len, hands)) != {13}:  # the seats' lists checked at C speed
        return None
    return [*chain.from_iterable(hands), marker]


def _deal_codes(deals: list[list[Any]]) -> np.ndarray:
    """The kernel tile codes of deals (_deal_names' lists, all of one length), one row a deal; a row holding a name
    that is not a tile (a hidden "?", anything else) has a negative code: the kernel does not deal that one."""
    try:
        return np.array(list(map(k.TILE_CODES.__getitem__, chain.from_iterable(deals))),  # at C speed
                        dtype=np.int64).reshape(len(deals), -1)  # fmt: skip
    except (KeyError, TypeError):  # not a tile name (or not hashable): -1 in its place
        return np.array([[k.TILE_CODES.get(n, -1) if type(n) is str else -1 for n in names] for names in deals],
                        dtype=np.int64)  # fmt: skip


class GamePlay:
    """Every kyoku of a game dealt and played by one kernel call (kernel.play_game) before the replay reads the
    game: ``replay`` gives, for a start_kyoku the kernel dealt, the KyokuReplay the per-kyoku path (KyokuReplay, then
    play_compiled) would have left, and how many events were applied; for any other start_kyoku, None (that kyoku
    goes the per-kyoku way)."""

    def __init__(self, events: Events, lines: np.ndarray, n_players: int, has_red_fives: bool) -> None:
        self.n_players, self.red = n_players, has_red_fives
        starts = [(pos, event) for pos, event in events.decoded() if event["type"] == "start_kyoku"]
        self.starts = starts
        """(position, event) of every start_kyoku of the game."""
        first, n = events.index(0), len(events)
        deals = np.full((max(len(starts), 1), 4, 14), -1, dtype=np.int64)
        begin, end = np.full(len(starts), -1, dtype=np.int64), np.zeros(len(starts), dtype=np.int64)
        self.kyoku: dict[int, int] = {}
        dealt_kyoku, dealt_names = [], []
        for j, (_, event) in enumerate(starts):
            end[j] = starts[j + 1][0] if j + 1 < len(starts) else n
            names = _deal_names(event, n_players)
            if names is not None:
                dealt_kyoku.append(j)
                dealt_names.append(names)
        if dealt_kyoku:  # every deal set at once: each seat's 13 codes, then the first indicator's
            codes = _deal_codes(dealt_names)
            known = (codes.min(axis=1) >= 0).tolist()  # a hidden or unknown tile: that kyoku goes the Python way
            dealt_kyoku = [j for j, ok in zip(dealt_kyoku, known, strict=True) if ok]
            codes = codes[np.array(known, dtype=bool)]
            deals[dealt_kyoku, :n_players, :13] = codes[:, :-1].reshape(-1, n_players, 13)
            deals[dealt_kyoku, 0, 13] = codes[:, -1]
            for j in dealt_kyoku:
                pos = starts[j][0]
                begin[j] = pos + 1
                self.kyoku[pos] = j
        rows = lines[first : first + n]
        parsed = np.flatnonzero(rows[:, k.IN_TYPE] == PYTHON).tolist()
        if parsed:  # the lines the scan left to json (start_kyoku, hora...): encode's rows for them
            rows = rows.copy()
            dicts = events.dicts  # json read these lines already (stream.py): taken as they are, not through Events
            decoded = [dicts[first + pos] or events[pos][1] for pos in parsed]
            kinds = [k.TYPES.get(event["type"], -1) for event in decoded]
            rows[[pos for pos, kind in zip(parsed, kinds, strict=True) if kind < 0], k.IN_TYPE] = OTHER  # encode stops
            for pos, kind, event in zip(parsed, kinds, decoded, strict=True):
                if kind >= 0:
                    rows[pos] = encode_event(kind, event)
        st0 = np.array([-1, -1, -1, 0, 0, n_players, int(has_red_fives)], dtype=np.int64)
        index = np.arange(first, first + n, dtype=np.int64)
        result = k.play_game(rows, index, begin, end, deals, st0)
        self.done = result[0].tolist()
        dealt, held, n_held, used, melds, n_melds, meld_from = result[1:8]
        self.dealt, self.n_melds, self.n_kita, self.last_draw, self.draw_pos, self.st = (
            a.tolist() for a in (dealt[:, :, :13], n_melds, *result[8:12]))  # fmt: skip
        self._held, self._n_held, self._melds, self._meld_from = held, n_held.tolist(), melds, meld_from
        self.first_dora = dealt[:, 0, 13].tolist()
        self.used = used.tolist()  # as alloc's
        out, dora, accepted, offsets = result[12:]
        self.out, self.offsets = out, offsets.tolist()
        self.dora, self.accepted = dora.tolist(), accepted.tolist()

    def hand(self, j: int, seat: int) -> list[int]:
        """The closed tiles the seat holds after kyoku ``j``'s play (136-ids, in the order held)."""
        return self._held[j, seat, : self._n_held[j][seat]].tolist()

    def seat_melds(self, j: int, seat: int) -> list[list[int]]:
        """The seat's melds after kyoku ``j``'s play, oldest first (each its 136-ids, as the replay lists them)."""
        return [[t for t in meld if t >= 0] for meld in self._melds[j, seat, : self.n_melds[j][seat]].tolist()]

    def replay(self, pos: int, index: int, start: dict[str, Any]) -> tuple[KyokuReplay, int] | None:
        """The KyokuReplay of the start_kyoku at ``pos`` (file index ``index``) after the kernel's play, and the
        number of events it applied; None when the kernel did not deal that kyoku."""
        j = self.kyoku.get(pos)
        if j is None or self.done[j] < 0:
            return None
        n = self.n_players
        dealt = self.dealt[j]
        replay = KyokuReplay(index, start, n, self.red, ([dealt[s] if s < n else [] for s in range(4)],
                                                         self.first_dora[j]))  # fmt: skip
        rnd = replay.round
        replay.held = [self.hand(j, s) for s in range(4)]
        replay.alloc.used = self.used[j]
        if any(self.n_melds[j]):
            rnd.melds = [self.seat_melds(j, s) for s in range(4)]
            replay.meld_from = [self._meld_from[j, s, : self.n_melds[j][s]].tolist() for s in range(4)]
        rnd.n_kita, replay.last_draw, replay.draw_pos = self.n_kita[j], self.last_draw[j], self.draw_pos[j]
        st = self.st[j]
        replay.last_given, replay.given_by = st[k.ST_GIVEN], st[k.ST_GIVER]
        if st[k.ST_ACTOR] >= 0:
            replay.last_actor = st[k.ST_ACTOR]
        rnd.n_draws += st[k.ST_DRAWS]
        if st[k.ST_MISMATCH]:
            rnd.quirks.add("tsumogiri_mismatch")
        (o, d, a), (o_end, d_end, a_end) = self.offsets[j], self.offsets[j + 1]
        rnd.dora.extend(self.dora[d:d_end])
        rnd.riichi_accepted.extend(self.accepted[a:a_end])
        rnd.events.extend([[-1] * k.OUT_MELD] * (o_end - o))  # stand-ins: Replayed.rows
        rnd.compiled = self.out[o:o_end]
        return replay, self.done[j]
