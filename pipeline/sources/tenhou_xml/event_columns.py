"""The events table of one game, built in bulk from the hot elements' rows (hot.py: draws, discards, calls,
riichi, dora indicators) and the few event rows the per-tag handlers collect.

One compiled pass (pipeline.sources.events_kernel.event_table, shared with the other formats) builds the columns,
narrowed, with the meld lists, the events per round and the tile-once check; a document read in bulk runs it with
its rounds (bulk.read_document). The numpy reading (event_columns, check_tiles_enter_once) is the definition, taken
for a call read by its handler and for the errors. Order within the round, tsumogiri and rinshan flags, tile kinds
and red fives are derived for the whole game at once (pipeline.sources.event_flags, shared with the other formats).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from pipeline.columns import Coded, Lists
from pipeline.errors import ParseError
from pipeline.sources.event_flags import _TABLES, event_flags
from pipeline.sources.events_kernel import ENTERING, NO_EXTRA, event_table, event_table_columns
from rules.hands import ACTIONS, CODE

if TYPE_CHECKING:
    from pipeline.sources.tenhou_xml.hot import BulkRows

ACTION_CODE = CODE
"""Event action name -> code (the rules layer's vocabulary, rules.hands.ACTIONS)."""

ROW_FIELDS = ("round_idx", "seat", "action", "tile", "from_seat", "meld_tiles", "source_index")
"""Fields of an event row tuple from a per-tag handler; -1 (or None for meld_tiles) when absent."""
_BULK_FIELDS = ("round_idx", "seat", "action", "tile", "from_seat", "source_index")


def _merge(bulk: BulkRows, rows: list[tuple]) -> dict[str, np.ndarray]:
    """Put the bulk rows (in document order) and the handler rows into one sequence ordered by element index;
    the called tiles as ``meld`` (four slots a row) and ``meld_size`` (0: not a call)."""
    cols = {name: getattr(bulk, name) for name in _BULK_FIELDS}
    cols["meld"], cols["meld_size"] = bulk.meld, bulk.meld_size
    if np.any(bulk.round_idx < 0):  # only a draw or discard has no round: hot elements are checked in one
        raise ParseError("a draw or discard before the first round (INIT)")
    if not rows:
        return cols
    named = list(zip(*rows, strict=True))
    for field, values in zip(ROW_FIELDS, named, strict=True):
        if field != "meld_tiles":
            cols[field] = np.concatenate((cols[field], np.asarray(values, dtype=np.int64)))
    melds = [tiles or () for tiles in named[5]]
    meld = np.zeros((len(melds), max(4, *map(len, melds))), dtype=np.int64)
    for row, tiles in enumerate(melds):
        meld[row, : len(tiles)] = tiles
    if meld.shape[1] > cols["meld"].shape[1]:  # a handler's meld of more than four tiles: widen every row
        cols["meld"] = np.pad(cols["meld"], ((0, 0), (0, meld.shape[1] - cols["meld"].shape[1])))
    cols["meld"] = np.concatenate((cols["meld"], meld))
    cols["meld_size"] = np.concatenate((cols["meld_size"], np.array([len(t) for t in melds], dtype=np.int64)))
    order = np.argsort(cols["source_index"], kind="stable")
    return {name: values[order] for name, values in cols.items()}


def event_columns(
    bulk: BulkRows, rows: list[tuple], n_rounds: int, has_red_fives: bool
) -> dict[str, np.ndarray | Coded | Lists]:
    """Return the events table's columns (game_id excluded) for the first ``n_rounds`` rounds, as
    numpy arrays with -1 for null (see pipeline.columns).

    ``bulk`` holds the rows read in bulk (hot.py), ``rows`` those of the per-tag handlers; events of rounds past
    ``n_rounds`` (a round cut off before its result) are dropped. Raises ParseError on a tile id above 135.
    """
    cols = _merge(bulk, rows)
    keep = cols["round_idx"] < n_rounds
    if not keep.all():
        cols = {name: values[keep] for name, values in cols.items()}
    round_idx, seat, action, tile = cols["round_idx"], cols["seat"], cols["action"], cols["tile"]
    if np.any(tile > 135):
        bad = int(np.flatnonzero(tile > 135)[0])
        raise ParseError(f"tile id {tile[bad]} out of range", round_idx=int(round_idx[bad]))
    flags = event_flags(round_idx, seat, action, tile, has_red_fives)
    # narrow integers (the declared widths; -1 is null): a batch concatenates and converts them cheaply
    return {
        "round_idx": round_idx.astype(np.int16),
        "event_idx": flags["event_idx"].astype(np.int32),
        "seat": seat.astype(np.int8),
        "action": Coded(action.astype(np.int8), ACTIONS),
        "tile": tile.astype(np.int16),
        "tile34": flags["tile34"].astype(np.int8),
        "is_red": flags["is_red"].astype(np.int8),
        "from_seat": cols["from_seat"].astype(np.int8),
        "is_tsumogiri": flags["is_tsumogiri"].astype(np.int8),
        "is_rinshan": flags["is_rinshan"].astype(np.int8),
        "meld_tiles": Lists.from_padded(cols["meld"], cols["meld_size"]),
        "source_index": cols["source_index"].astype(np.int32),
    }


def bulk_event_columns(
    bulk: BulkRows, rows: list[tuple], n_rounds: int, has_red_fives: bool, dealt: np.ndarray, dora_indicator: list
) -> tuple[dict[str, np.ndarray | Coded | Lists], list[int]] | None:
    """(event_columns' columns, events_per_round) of a game's bulk rows and handler rows (ROW_FIELDS tuples) by one
    compiled pass (event_table) that also makes check_tiles_enter_once's check; None when a handler row holds a
    meld or that pass declines (a check fails, or rows event_flags reads otherwise): the caller then takes the
    numpy path."""
    if any(row[5] is not None for row in rows):
        return None  # a call read by its handler: the numpy path
    small, w16, w32, values, offsets, valid, per_round, done = event_table(
        bulk.round_idx, bulk.seat, bulk.action, bulk.tile, bulk.from_seat, bulk.meld, bulk.meld_size,
        bulk.source_index, extra_rows(rows), n_rounds, bool(has_red_fives), _TABLES, ENTERING, dealt,
        np.asarray(dora_indicator, dtype=np.int64),
    )  # fmt: skip
    if not done:
        return None
    return event_table_columns(small, w16, w32, values, offsets, valid, per_round)


def extra_rows(rows: list[tuple]) -> np.ndarray:
    """Handler rows without a meld (ROW_FIELDS tuples) as event_table's ``extra`` (EXTRA_FIELDS by row)."""
    if not rows:
        return NO_EXTRA
    return np.array([row[:5] + row[6:] for row in rows], dtype=np.int64).T.copy()


def events_per_round(round_idx: np.ndarray, n_rounds: int) -> list[int]:
    """Count the events of each of the first ``n_rounds`` rounds."""
    return np.bincount(round_idx, minlength=n_rounds)[:n_rounds].tolist()


def check_tiles_enter_once(events: dict[str, np.ndarray | Coded], dealt: np.ndarray, dora_indicator: list) -> None:
    """Raise ParseError naming the round and tile when a physical tile (136-id) enters a round twice: dealt,
    drawn or revealed as a dora indicator (the tile_once check, applied before the game is stored).

    A real log never does; a log with a lost INIT (two rounds read as one) or a tile id written twice does,
    and its hands cannot be followed (a seat would call a fifth meld). ``events`` are the columns of
    event_columns; ``dealt`` round * 136 + tile of every tile dealt, ``dora_indicator`` the rounds' first
    indicators. Of several such tiles, the one of the first round, the lowest id there, is named (written as a
    float, 36.0, when a round dealt no tile: the message the check has always given)."""
    codes, tile = events["action"].codes, events["tile"].astype(np.int64)
    entering = ((codes == CODE["draw"]) | (codes == CODE["dora"])) & (tile >= 0)
    indicators = np.asarray(dora_indicator, dtype=np.int64)
    shown = indicators >= 0
    keys = np.concatenate((events["round_idx"][entering].astype(np.int64) * 136 + tile[entering], dealt,
                           np.flatnonzero(shown) * 136 + indicators[shown]))  # fmt: skip
    counts = np.bincount(keys, minlength=1)
    if counts.max() > 1:
        twice = int(np.argmax(counts > 1))
        undealt = not shown.any() or not np.bincount(dealt // 136, minlength=len(indicators)).all()
        raise ParseError(f"tile {float(twice % 136) if undealt else twice % 136} enters the round twice",
                         round_idx=twice // 136, tag="INIT")  # fmt: skip
