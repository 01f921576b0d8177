"""Event columns derived in bulk (numpy) from the bare event rows a parser collects.

The element loop only records (round_idx, seat, action, tile, from_seat, meld_tiles, source_index);
the order within the round, tsumogiri and rinshan flags, tile kinds and red fives are derived here
for the whole game at once.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from pipeline.errors import ParseError

ROW_FIELDS = ("round_idx", "seat", "action", "tile", "from_seat", "meld_tiles", "source_index")
"""Order of the fields of an event row tuple."""

HAND_ACTIONS = ("draw", "discard", "chi", "pon", "daiminkan", "kakan", "ankan", "kita")
"""Actions that change a seat's tiles (the others: riichi steps, dora, connections)."""

_REPLACED_BY_RINSHAN = ("daiminkan", "kakan", "ankan", "kita")
_RED_FIVES = np.array([16, 52, 88])


def _previous_hand_action(round_idx: np.ndarray, seat: np.ndarray, is_hand: np.ndarray) -> np.ndarray:
    """For each event, the row of the same seat's previous hand-changing event in the round (-1: none)."""
    rows = np.flatnonzero(is_hand)
    order = rows[np.lexsort((rows, seat[rows], round_idx[rows]))]
    prev = np.full(len(round_idx), -1, dtype=np.int64)
    same = (round_idx[order[1:]] == round_idx[order[:-1]]) & (seat[order[1:]] == seat[order[:-1]])
    prev[order[1:][same]] = order[:-1][same]
    return prev


def event_columns(rows: list[tuple], has_red_fives: bool) -> dict[str, pa.Array]:
    """Turn event row tuples (see ROW_FIELDS) of one game into the events table's Arrow columns.

    Adds event_idx (order within the round), is_tsumogiri (a discard of the tile the seat just
    drew), is_rinshan (a draw right after the seat's own kan or kita), tile34 and is_red. Raises
    ParseError when a tile id is outside 0-135.
    """
    fields = dict(zip(ROW_FIELDS, (list(col) for col in zip(*rows, strict=True)), strict=True))
    n = len(rows)
    round_idx = np.asarray(fields["round_idx"], dtype=np.int64)
    seat = np.array([-1 if s is None else s for s in fields["seat"]], dtype=np.int64)
    tile = np.array([-1 if t is None else t for t in fields["tile"]], dtype=np.int64)
    action = np.asarray(fields["action"], dtype=object)
    bad = np.flatnonzero(tile > 135)
    if len(bad):
        raise ParseError(f"tile id {tile[bad[0]]} out of range", round_idx=int(round_idx[bad[0]]))
    starts = np.flatnonzero(np.r_[True, round_idx[1:] != round_idx[:-1]])
    # order within the round: position minus the round's first position
    event_idx = np.arange(n) - np.repeat(starts, np.diff(np.r_[starts, n]))
    prev = _previous_hand_action(round_idx, seat, np.isin(action, HAND_ACTIONS))
    has_prev = prev >= 0
    prev_action = np.where(has_prev, action[np.maximum(prev, 0)], None)
    is_discard, is_draw = action == "discard", action == "draw"
    # tsumogiri: the seat's previous hand event drew this very tile
    tsumogiri = is_discard & (prev_action == "draw") & (tile[np.maximum(prev, 0)] == tile)
    # rinshan: the seat's previous hand event was its own kan or kita
    rinshan = is_draw & np.isin(prev_action, _REPLACED_BY_RINSHAN)
    has_tile = tile >= 0
    red = has_tile & np.isin(tile, _RED_FIVES) & has_red_fives
    return {
        "round_idx": pa.array(round_idx, pa.int16()),
        "event_idx": pa.array(event_idx, pa.int32()),
        "seat": pa.array(seat, pa.int8(), mask=seat < 0),
        "action": pa.array(fields["action"], pa.string()),
        "tile": pa.array(tile, pa.int16(), mask=~has_tile),
        "tile34": pa.array(tile >> 2, pa.int8(), mask=~has_tile),
        "is_red": pa.array(red, pa.bool_(), mask=~has_tile),
        "from_seat": pa.array(fields["from_seat"], pa.int8()),
        "is_tsumogiri": pa.array(tsumogiri, pa.bool_(), mask=~is_discard),
        "is_rinshan": pa.array(rinshan, pa.bool_(), mask=~is_draw),
        "meld_tiles": pa.array(fields["meld_tiles"], pa.list_(pa.int16())),
        "source_index": pa.array(fields["source_index"], pa.int32()),
    }
