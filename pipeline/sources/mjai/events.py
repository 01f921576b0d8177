"""The events table of one game, as column arrays, from the replayed rows of its kyoku.

The replay writes one row per event (a mutable list: a hidden draw's id is filled in later); the order
within the round, tile kinds, red fives, ``is_tsumogiri`` and ``is_rinshan`` are derived as for every
format, once the game is read (pipeline.sources.event_flags).
Columns follow pipeline.columns: numpy integer arrays with -1 for null, flags as 1/0/-1, the action
as a ``Coded`` column of the rules layer's vocabulary, meld tiles as ``Lists``; made at their declared widths by
the compiled pass every format shares (events_kernel.ordered_event_columns), int64 where it declines.
"""

from __future__ import annotations

import numpy as np

from pipeline.columns import Coded, ColumnValues, Lists, Repeated
from pipeline.sources.event_flags import event_flags
from pipeline.sources.events_kernel import ordered_event_columns
from pipeline.sources.mjai.kernel import OUT_WIDTH
from rules.hands import ACTIONS

EventRow = list
"""[source_index, action code, seat (-1 none), tile (-1 none), from_seat (-1), meld tiles (list, or None or 0)]."""

INDEX, ACTION, SEAT, TILE, FROM_SEAT, MELD = range(6)
"""Positions in an EventRow."""

def event_columns(
    game_id: str, rounds: list[list[EventRow]], has_red_fives: bool, compiled: list[np.ndarray | None] | None = None
) -> dict[str, ColumnValues]:
    """The events table's columns for a game's kyoku (``rounds``: each kyoku's rows, in order; ``compiled``: per
    kyoku the kernel's rows (fast.py) that its first rows are made from, or None)."""
    n = sum(len(events) for events in rounds)
    lengths = [len(events) for events in rounds]
    round_idx = np.repeat(np.arange(len(rounds), dtype=np.int64), lengths)
    blocks, written, at = [], [], 0  # the rows in order, as the kernel's; the meld lists the replay wrote
    for events, head in zip(rounds, compiled or [None] * len(rounds), strict=True):
        done = 0 if head is None else len(head)
        if done:
            blocks.append(head)
        rest = events[done:]
        if rest:
            block = np.zeros((len(rest), OUT_WIDTH), dtype=np.int64)  # meld size 0: its meld is in ``written``
            block[:, :MELD] = [row[:MELD] for row in rest]
            blocks.append(block)
            written += [(at + done + i, row[MELD]) for i, row in enumerate(rest) if row[MELD]]  # 0, None: no meld
        at += len(events)
    table = np.concatenate(blocks) if blocks else np.zeros((0, OUT_WIDTH), dtype=np.int64)
    ints = table[:, :MELD]
    padded, sizes = table[:, MELD + 1 :], table[:, MELD]  # the kernel's rows of a call, kan or kita: their tiles
    if written:
        width = max(padded.shape[1], *(len(tiles) for _, tiles in written))
        padded, sizes = np.pad(padded, ((0, 0), (0, width - padded.shape[1]))), sizes.copy()
        for row, tiles in written:
            padded[row, : len(tiles)], sizes[row] = tiles, len(tiles)
    columns = ints.T.copy()  # INDEX..FROM_SEAT each contiguous (the compiled pass's arguments, as XML's)
    narrow = ordered_event_columns(round_idx, columns[SEAT], columns[ACTION], columns[TILE], columns[FROM_SEAT],
                                   np.ascontiguousarray(padded), np.ascontiguousarray(sizes), columns[INDEX],
                                   len(rounds), has_red_fives)  # fmt: skip
    if narrow is not None:  # the declared widths: a batch keeps half the memory and converts them cheaper
        return {"game_id": Repeated(game_id, n), **narrow}
    melds = Lists.from_padded(padded, sizes)
    flags = event_flags(round_idx, columns[SEAT], columns[ACTION], columns[TILE], has_red_fives)
    return {
        "game_id": Repeated(game_id, n),
        "round_idx": round_idx,
        "event_idx": flags["event_idx"],
        "seat": columns[SEAT],
        "action": Coded(columns[ACTION], ACTIONS),
        "tile": columns[TILE],
        "tile34": flags["tile34"],
        "is_red": flags["is_red"],
        "from_seat": columns[FROM_SEAT],
        "is_tsumogiri": flags["is_tsumogiri"],
        "is_rinshan": flags["is_rinshan"],
        "meld_tiles": melds,
        "source_index": columns[INDEX],
    }
