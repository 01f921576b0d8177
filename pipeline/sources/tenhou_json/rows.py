"""A round's events with 136-ids as column arrays (what the compiled path gives; the Python path is converted)."""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass

import numpy as np

from pipeline.columns import Lists
from pipeline.sources.tenhou_json.tiles import IdEvent
from rules.hands import CODE

RIICHI, ACCEPTED, DRAW = CODE["riichi"], CODE["riichi_accepted"], CODE["draw"]


@dataclass
class EventRows:
    """Events in order: action code (rules.hands.CODE), seat (-1 for a dora reveal), tile id (-1 when none), the
    seat the tile came from (-1), and the meld's ids (four slots per row, ``meld_n`` used; 0: not a call)."""

    action: np.ndarray
    seat: np.ndarray
    tile: np.ndarray
    from_seat: np.ndarray
    meld: np.ndarray
    meld_n: np.ndarray

    def __len__(self) -> int:
        return len(self.action)

    @classmethod
    def from_events(cls, events: list[IdEvent]) -> EventRows:
        """The rows of IdEvents (a meld of None: not a call)."""
        n = len(events)
        meld = np.full((n, 4), -1, dtype=np.int64)
        meld_n = np.zeros(n, dtype=np.int64)
        for row, event in enumerate(events):
            if event.meld is not None:
                meld_n[row] = len(event.meld)
                meld[row, : len(event.meld)] = event.meld
        columns = [[CODE[e.action] for e in events], [e.seat for e in events], [e.tile for e in events],
                   [e.from_seat for e in events]]  # fmt: skip
        return cls(*(np.array(c, dtype=np.int64).reshape(n) for c in columns), meld, meld_n)

    def meld_tiles(self) -> Lists:
        """The meld_tiles column: the row's ids for a call (or kita), null for the others."""
        return Lists.from_padded(self.meld, self.meld_n)

    def riichi_seats(self) -> set[int]:
        """The seats that declared riichi."""
        return set(self.seat[self.action == RIICHI].tolist())

    def accepted_riichi(self) -> list[int]:
        """The seat of each riichi stick put on the table, in order."""
        return self.seat[self.action == ACCEPTED].tolist()

    def draws_of(self, seat: int) -> list[int]:
        """The ids a seat drew, in order."""
        return self.tile[(self.action == DRAW) & (self.seat == seat)].tolist()

    def inserted(self, items: list[tuple[int, int, str]]) -> EventRows:
        """The rows with (step, seat, action) events put in before row ``step`` (at the end past it), each
        without a tile; ``items`` in decreasing step order, as the parser inserts them one by one."""
        rows = self
        for step, seat, action in items:
            at = min(step, len(rows))
            rows = EventRows(
                np.insert(rows.action, at, CODE[action]), np.insert(rows.seat, at, seat),
                np.insert(rows.tile, at, -1), np.insert(rows.from_seat, at, -1),
                np.insert(rows.meld, at, -1, axis=0), np.insert(rows.meld_n, at, 0),
            )  # fmt: skip
        return rows


@dataclass
class RowSpan:
    """Rows ``start:stop`` of a game's compiled event rows (fast.replay_rounds: ``columns`` holds the action, seat,
    tile, from_seat and meld_n rows, ``meld`` the melds' ids), cut as EventRows only when asked: the spans of
    consecutive rounds are one cut of the game's rows (concatenate)."""

    columns: np.ndarray
    meld: np.ndarray
    start: int
    stop: int
    riichi: Set[int]
    """The seats that declared riichi (replay_game counts them)."""
    accepted: Sequence[int]
    """The seat of each riichi stick put on the table (their order is not kept: their payments are summed)."""

    def __len__(self) -> int:
        return self.stop - self.start

    def rows(self) -> EventRows:
        """The span as EventRows (views of the game's rows)."""
        a, b = self.start, self.stop
        action, seat, tile, from_seat, meld_n = self.columns[:, a:b]
        return EventRows(action, seat, tile, from_seat, self.meld[a:b], meld_n)

    def riichi_seats(self) -> set[int]:
        """EventRows.riichi_seats."""
        return set(self.riichi)

    def accepted_riichi(self) -> list[int]:
        """EventRows.accepted_riichi, up to the order."""
        return list(self.accepted)

    def draws_of(self, seat: int) -> list[int]:
        """EventRows.draws_of."""
        return self.rows().draws_of(seat)

    def inserted(self, items: list[tuple[int, int, str]]) -> EventRows:
        """EventRows.inserted."""
        return self.rows().inserted(items)


def concatenate(chunks: list[EventRows | RowSpan]) -> EventRows:
    """The rows of every chunk, in order (spans that follow each other in one game's rows cut at once)."""
    pieces: list[EventRows | RowSpan] = []
    for chunk in chunks:  # once a round
        last = pieces[-1] if pieces else None
        if isinstance(chunk, RowSpan) and isinstance(last, RowSpan) and last.columns is chunk.columns \
                and last.stop == chunk.start:  # fmt: skip
            pieces[-1] = RowSpan(last.columns, last.meld, last.start, chunk.stop, _NONE, ())
        else:
            pieces.append(chunk)
    parts = [p.rows() if isinstance(p, RowSpan) else p for p in pieces]
    if len(parts) == 1:
        return parts[0]
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return EventRows(empty, empty, empty, empty, np.zeros((0, 4), dtype=np.int64), empty)
    names = ("action", "seat", "tile", "from_seat", "meld", "meld_n")
    return EventRows(*(np.concatenate([getattr(c, name) for c in parts]) for name in names))


_NONE: frozenset[int] = frozenset()
