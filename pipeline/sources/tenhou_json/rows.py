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
    riichi: Set[int] | None = None
    """riichi_seats() when known already (fast.replay_rounds reads it for every round of a game at once)."""
    accepted: Sequence[int] | None = None
    """accepted_riichi() when known already (likewise)."""

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
        if self.riichi is not None:
            return set(self.riichi)
        return set(self.seat[self.action == RIICHI].tolist())

    def accepted_riichi(self) -> list[int]:
        """The seat of each riichi stick put on the table, in order."""
        if self.accepted is not None:
            return list(self.accepted)
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


def concatenate(chunks: list[EventRows]) -> EventRows:
    """The rows of every chunk, in order."""
    if not chunks:
        empty = np.zeros(0, dtype=np.int64)
        return EventRows(empty, empty, empty, empty, np.zeros((0, 4), dtype=np.int64), empty)
    names = ("action", "seat", "tile", "from_seat", "meld", "meld_n")
    return EventRows(*(np.concatenate([getattr(c, name) for c in chunks]) for name in names))
