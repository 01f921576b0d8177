"""The events table of one game, as column arrays, from the replayed rows of its kyoku.

The replay writes one row per event (a mutable list: a hidden draw's id is filled in later) with the
flags the XML parser derives, computed as it goes: ``is_tsumogiri`` (a discard of the very id the
seat's previous hand event drew) and ``is_rinshan`` (a draw right after the seat's own kan or kita).
Columns follow pipeline.columns: numpy integer arrays with -1 for null, flags as 1/0/-1, the action
as a ``Coded`` column of the rules layer's vocabulary, meld tiles as an object array.
"""

from __future__ import annotations

import numpy as np

from pipeline.columns import Coded, ColumnValues, Repeated
from pipeline.sources.mjai.tiles import RED_IDS
from rules.hands import ACTIONS

EventRow = list
"""[source_index, action code, seat (-1 none), tile (-1 none), from_seat (-1), is_tsumogiri (-1/0/1),
is_rinshan (-1/0/1), meld tiles (list or None)]."""

INDEX, ACTION, SEAT, TILE, FROM_SEAT, TSUMOGIRI, RINSHAN, MELD = range(8)
"""Positions in an EventRow."""

_RED = np.array(sorted(RED_IDS))


def event_columns(game_id: str, rounds: list[list[EventRow]], has_red_fives: bool) -> dict[str, ColumnValues]:
    """The events table's columns for a game's kyoku (``rounds``: each kyoku's rows, in order)."""
    rows = [row for events in rounds for row in events]
    n = len(rows)
    lengths = [len(events) for events in rounds]
    round_idx = np.repeat(np.arange(len(rounds), dtype=np.int64), lengths)
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths) if n else np.zeros(0, dtype=np.int64)
    ints = np.array([row[: RINSHAN + 1] for row in rows], dtype=np.int64).reshape(n, RINSHAN + 1)
    tile = ints[:, TILE]
    red = np.isin(tile, _RED) if has_red_fives else np.zeros(n, dtype=bool)
    melds = np.empty(n, dtype=object)
    melds[:] = [row[MELD] for row in rows]
    return {
        "game_id": Repeated(game_id, n),
        "round_idx": round_idx,
        "event_idx": np.arange(n, dtype=np.int64) - starts,
        "seat": ints[:, SEAT],
        "action": Coded(ints[:, ACTION], ACTIONS),
        "tile": tile,
        "tile34": np.where(tile >= 0, tile >> 2, -1),
        "is_red": np.where(tile >= 0, red.astype(np.int64), -1),
        "from_seat": ints[:, FROM_SEAT],
        "is_tsumogiri": ints[:, TSUMOGIRI],
        "is_rinshan": ints[:, RINSHAN],
        "meld_tiles": melds,
        "source_index": ints[:, INDEX],
    }
