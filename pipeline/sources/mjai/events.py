"""The events table of one game, as column arrays, from the replayed rows of its kyoku.

The replay writes one row per event (a mutable list: a hidden draw's id is filled in later); the order
within the round, tile kinds, red fives, ``is_tsumogiri`` and ``is_rinshan`` are derived as for every
format, once the game is read (pipeline.sources.event_flags).
Columns follow pipeline.columns: numpy integer arrays with -1 for null, flags as 1/0/-1, the action
as a ``Coded`` column of the rules layer's vocabulary, meld tiles as an object array.
"""

from __future__ import annotations

import numpy as np

from pipeline.columns import Coded, ColumnValues, Repeated
from pipeline.sources.event_flags import event_flags
from rules.hands import ACTIONS

EventRow = list
"""[source_index, action code, seat (-1 none), tile (-1 none), from_seat (-1), meld tiles (list or None)]."""

INDEX, ACTION, SEAT, TILE, FROM_SEAT, MELD = range(6)
"""Positions in an EventRow."""

def event_columns(game_id: str, rounds: list[list[EventRow]], has_red_fives: bool) -> dict[str, ColumnValues]:
    """The events table's columns for a game's kyoku (``rounds``: each kyoku's rows, in order)."""
    rows = [row for events in rounds for row in events]
    n = len(rows)
    lengths = [len(events) for events in rounds]
    round_idx = np.repeat(np.arange(len(rounds), dtype=np.int64), lengths)
    ints = np.array([row[:MELD] for row in rows], dtype=np.int64).reshape(n, MELD)
    melds = np.empty(n, dtype=object)
    melds[:] = [row[MELD] for row in rows]
    flags = event_flags(round_idx, ints[:, SEAT], ints[:, ACTION], ints[:, TILE], has_red_fives)
    return {
        "game_id": Repeated(game_id, n),
        "round_idx": round_idx,
        "event_idx": flags["event_idx"],
        "seat": ints[:, SEAT],
        "action": Coded(ints[:, ACTION], ACTIONS),
        "tile": ints[:, TILE],
        "tile34": flags["tile34"],
        "is_red": flags["is_red"],
        "from_seat": ints[:, FROM_SEAT],
        "is_tsumogiri": flags["is_tsumogiri"],
        "is_rinshan": flags["is_rinshan"],
        "meld_tiles": melds,
        "source_index": ints[:, INDEX],
    }
