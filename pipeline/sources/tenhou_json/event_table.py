"""The events table of one game, as column arrays, from its replayed rounds.

Columns follow the XML parser's conventions (pipeline.columns): numpy integer arrays with -1 for
null, booleans as 1/0/-1, the action as a ``Coded`` column of the rules layer's vocabulary, meld
tiles as ``Lists`` (a list per call, null elsewhere); made at their declared widths by the compiled pass
every format shares (events_kernel.ordered_event_columns), int64 where it declines. Tsumogiri, rinshan, red fives and
the order within the round are derived as for every format (pipeline.sources.event_flags).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pipeline.columns import Coded
from pipeline.sources.event_flags import event_flags
from pipeline.sources.events_kernel import ordered_event_columns
from pipeline.sources.tenhou_json.rows import EventRows, RowSpan, concatenate
from pipeline.sources.tenhou_json.tiles import IdEvent
from rules.hands import ACTIONS


@dataclass
class EventColumns:
    """A game's events, appended round by round (as rows), turned into the table's columns once."""

    has_red_fives: bool
    chunks: list[EventRows] = field(default_factory=list)
    round_idx: list[int] = field(default_factory=list)
    """Each chunk's round."""
    source_index: list[np.ndarray | int] = field(default_factory=list)
    """Each chunk's source indexes, or the first of them when they run on one by one."""

    def add_round(self, round_idx: int, events: list[tuple[int, IdEvent]]) -> None:
        """Append one round's events, each with its source index, in order."""
        rows = EventRows.from_events([event for _, event in events])
        self.add_rows(round_idx, rows, np.array([index for index, _ in events], dtype=np.int64).reshape(len(rows)))

    def add_rows(self, round_idx: int, rows: EventRows | RowSpan, source_index: np.ndarray | int) -> None:
        """Append one round's event rows with their source indexes (an int: the first, the others following)."""
        self.chunks.append(rows)
        self.round_idx.append(round_idx)
        self.source_index.append(source_index)

    def columns(self) -> dict[str, np.ndarray | Coded]:
        """The events table's columns (game_id excluded)."""
        rows = concatenate(self.chunks)
        lengths = [len(rows) for rows in self.chunks]
        round_idx = np.repeat(np.array(self.round_idx, dtype=np.int64), lengths)
        source_index = self._source_index(lengths)
        seat, action, tile, from_seat, meld, meld_n = (np.ascontiguousarray(column, dtype=np.int64) for column in (
            rows.seat, rows.action, rows.tile, rows.from_seat, rows.meld, rows.meld_n))  # one compiled signature
        n_rounds = max(self.round_idx) + 1 if self.round_idx else 0
        narrow = ordered_event_columns(round_idx, seat, action, tile, from_seat, meld, meld_n, source_index, n_rounds,
                                       self.has_red_fives)  # fmt: skip
        if narrow is not None:  # the declared widths: a batch keeps less memory and converts them cheaper
            return narrow
        flags = event_flags(round_idx, rows.seat, rows.action, rows.tile, self.has_red_fives)
        out = {"round_idx": round_idx, "seat": rows.seat, "action": Coded(rows.action, ACTIONS), "tile": rows.tile,
               "from_seat": rows.from_seat, "meld_tiles": rows.meld_tiles(), "source_index": source_index,
               **flags}  # fmt: skip
        return {name: out[name] for name in _ORDER}

    def _source_index(self, lengths: list[int]) -> np.ndarray:
        """The source_index column: each chunk's array, or its first index counted on over its rows."""
        if not all(type(first) is int for first in self.source_index):
            return np.concatenate([np.arange(first, first + n, dtype=np.int64) if type(first) is int else first
                                   for first, n in zip(self.source_index, lengths, strict=True)]
                                  or [np.zeros(0, dtype=np.int64)])  # fmt: skip
        at = np.cumsum([0, *lengths[:-1]], dtype=np.int64)  # where each chunk's rows start
        return np.arange(sum(lengths), dtype=np.int64) + np.repeat(np.array(self.source_index, np.int64) - at, lengths)

    def per_round(self, n_rounds: int) -> list[int]:
        """Events of each round."""
        counts = [0] * n_rounds
        for rows, round_idx in zip(self.chunks, self.round_idx, strict=True):
            if len(rows):
                counts[round_idx] += len(rows)
        return counts


_ORDER = ("round_idx", "event_idx", "seat", "action", "tile", "tile34", "is_red", "from_seat", "is_tsumogiri",
          "is_rinshan", "meld_tiles", "source_index")  # fmt: skip
