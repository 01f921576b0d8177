"""The events table of one game, built in bulk (numpy) from the tile-element arrays and the few
event rows the per-tag handlers collect.

Order within the round, tsumogiri and rinshan flags, tile kinds and red fives are derived here
for the whole game at once.
"""

from __future__ import annotations

import numpy as np

from pipeline.columns import Coded
from pipeline.errors import ParseError
from pipeline.sources.tenhou_xml.elements import Elements
from rules.hands import ACTIONS, CODE

ACTION_CODE = CODE
"""Event action name -> code (the rules layer's vocabulary, rules.hands.ACTIONS)."""

ROW_FIELDS = ("round_idx", "seat", "action", "tile", "from_seat", "meld_tiles", "source_index")
"""Fields of an event row tuple from a per-tag handler; -1 (or None for meld_tiles) when absent."""


def _lookup(size: int, true_at: list[int]) -> np.ndarray:
    """A boolean lookup table; index -1 (the null sentinel) reads the last entry, always False."""
    table = np.zeros(size + 1, dtype=bool)
    table[true_at] = True
    return table


_IS_HAND_ACTION = _lookup(len(ACTIONS), [ACTION_CODE[a] for a in ACTIONS[:8]])
_IS_RINSHAN_AFTER = _lookup(len(ACTIONS), [ACTION_CODE[a] for a in ("daiminkan", "kakan", "ankan", "kita")])
_IS_RED_FIVE = _lookup(136, [16, 52, 88])
_DRAW, _DISCARD = ACTION_CODE["draw"], ACTION_CODE["discard"]


def _previous_hand_action(round_idx: np.ndarray, seat: np.ndarray, is_hand: np.ndarray) -> np.ndarray:
    """For each event, the row of the same seat's previous hand-changing event in the round (-1: none)."""
    rows = np.flatnonzero(is_hand)
    # rows are in event order: a stable sort by (round, seat) keeps that order within each seat
    order = rows[np.argsort(round_idx[rows] * 4 + seat[rows], kind="stable")]
    prev = np.full(len(round_idx), -1, dtype=np.int64)
    same = (round_idx[order[1:]] == round_idx[order[:-1]]) & (seat[order[1:]] == seat[order[:-1]])
    prev[order[1:][same]] = order[:-1][same]
    return prev


def _merge(elements: Elements, rows: list[tuple], round_starts: np.ndarray) -> dict[str, np.ndarray]:
    """Put tile elements and handler rows into one sequence ordered by element index."""
    named = list(zip(*rows, strict=True)) if rows else [[] for _ in ROW_FIELDS]
    tile_round = np.searchsorted(round_starts, elements.tile_index, side="right") - 1
    if np.any(tile_round < 0):
        raise ParseError("a draw or discard before the first round (INIT)")
    n_tiles = len(tile_round)

    def joined(tile_part: np.ndarray, named_part: list) -> np.ndarray:
        return np.concatenate((tile_part, np.asarray(named_part, dtype=np.int64)))

    cols = {
        "round_idx": joined(tile_round, named[0]),
        "seat": joined(elements.tile_seat, named[1]),
        "action": joined(elements.tile_action, named[2]),
        "tile": joined(elements.tile_value, named[3]),
        "from_seat": joined(np.full(n_tiles, -1), named[4]),
        "source_index": joined(elements.tile_index, named[6]),
    }
    melds = np.empty(len(cols["seat"]), dtype=object)
    melds[n_tiles:] = named[5]
    cols["meld_tiles"] = melds
    order = np.argsort(cols["source_index"], kind="stable")
    return {name: values[order] for name, values in cols.items()}


def event_columns(
    elements: Elements, rows: list[tuple], round_starts: np.ndarray, n_rounds: int, has_red_fives: bool
) -> dict[str, np.ndarray | Coded]:
    """Return the events table's columns (game_id excluded) for the first ``n_rounds`` rounds, as
    numpy arrays with -1 for null (see pipeline.columns).

    ``round_starts`` holds the element index of every INIT; events of rounds past ``n_rounds``
    (a round cut off before its result) are dropped. Raises ParseError on a tile id above 135.
    """
    cols = _merge(elements, rows, round_starts)
    keep = cols["round_idx"] < n_rounds
    if not keep.all():
        cols = {name: values[keep] for name, values in cols.items()}
    round_idx, seat, action, tile = cols["round_idx"], cols["seat"], cols["action"], cols["tile"]
    if np.any(tile > 135):
        bad = int(np.flatnonzero(tile > 135)[0])
        raise ParseError(f"tile id {tile[bad]} out of range", round_idx=int(round_idx[bad]))
    n = len(round_idx)
    starts = np.flatnonzero(np.concatenate(([True], round_idx[1:] != round_idx[:-1]))) if n else np.zeros(0, int)
    # order within the round: position minus the round's first position
    event_idx = np.arange(n) - np.repeat(starts, np.diff(np.append(starts, n)))
    prev = _previous_hand_action(round_idx, seat, _IS_HAND_ACTION[action])
    prev_action = np.where(prev >= 0, action[np.maximum(prev, 0)], -1)
    is_discard, is_draw, has_tile = action == _DISCARD, action == _DRAW, tile >= 0
    # tsumogiri: the seat's previous hand event drew this very tile
    tsumogiri = (prev_action == _DRAW) & (tile[np.maximum(prev, 0)] == tile)
    # rinshan: the seat's previous hand event was its own kan or kita
    rinshan = _IS_RINSHAN_AFTER[prev_action]
    red = _IS_RED_FIVE[tile] & has_red_fives
    # narrow integers (the declared widths; -1 is null): a batch concatenates and converts them cheaply
    return {
        "round_idx": round_idx.astype(np.int16),
        "event_idx": event_idx.astype(np.int32),
        "seat": seat.astype(np.int8),
        "action": Coded(action.astype(np.int8), ACTIONS),
        "tile": tile.astype(np.int16),
        "tile34": np.where(has_tile, tile >> 2, -1).astype(np.int8),
        "is_red": np.where(has_tile, red, -1).astype(np.int8),
        "from_seat": cols["from_seat"].astype(np.int8),
        "is_tsumogiri": np.where(is_discard, tsumogiri, -1).astype(np.int8),
        "is_rinshan": np.where(is_draw, rinshan, -1).astype(np.int8),
        "meld_tiles": cols["meld_tiles"],
        "source_index": cols["source_index"].astype(np.int32),
    }


def events_per_round(round_idx: np.ndarray, n_rounds: int) -> list[int]:
    """Count the events of each of the first ``n_rounds`` rounds."""
    return np.bincount(round_idx, minlength=n_rounds)[:n_rounds].tolist()
