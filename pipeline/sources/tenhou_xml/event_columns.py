"""The events table of one game, built in bulk from the hot elements' rows (hot.py: draws, discards, calls,
riichi, dora indicators) and the few event rows the per-tag handlers collect.

One compiled pass (event_table) builds the columns, narrowed, with the meld lists, the events per round and the
tile-once check; a document read in bulk runs it with its rounds (bulk.read_document). The numpy reading
(event_columns, check_tiles_enter_once) is the definition, taken for a call read by its handler and for the
errors. Order within the round, tsumogiri and rinshan flags, tile kinds and red fives are derived for the
whole game at once (pipeline.sources.event_flags, shared with the other formats).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from pipeline.columns import Coded, Lists
from pipeline.errors import ParseError
from pipeline.sources.event_flags import _TABLES, _flags, event_flags
from rules.compiled import njit
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
        bulk.source_index, extra_rows(rows), n_rounds, bool(has_red_fives), _TABLES, _ENTERING, dealt,
        np.asarray(dora_indicator, dtype=np.int64),
    )  # fmt: skip
    if not done:
        return None
    return event_table_columns(small, w16, w32, values, offsets, valid, per_round)


def ordered_event_columns(
    round_idx: np.ndarray, seat: np.ndarray, action: np.ndarray, tile: np.ndarray, from_seat: np.ndarray,
    meld: np.ndarray, meld_size: np.ndarray, source_index: np.ndarray, n_rounds: int, has_red_fives: bool,
) -> tuple[dict[str, np.ndarray | Coded | Lists], list[int]] | None:  # fmt: skip
    """(the events columns at their declared widths, events per round) of the ``n_rounds`` rounds of a game whose
    events a reader replayed in order (contiguous int64 arrays, one row an event; ``meld``: each row's meld tiles
    padded, ``meld_size`` how many, a 2-D and a 1-D contiguous int64 array) by event_table, game_id aside; None when
    it declines (rows event_flags reads otherwise, a tile id past 135): the caller then takes its numpy path. No
    dealt tile nor indicator is given to its check that a tile enters a round once: a replay that hands each id
    out once holds it."""
    small, w16, w32, values, offsets, valid, per_round, done = event_table(
        round_idx, seat, action, tile, from_seat, meld, meld_size, source_index, _NO_EXTRA, n_rounds,
        bool(has_red_fives), _TABLES, _ENTERING, _NO_TILES, np.full(n_rounds, -1, dtype=np.int64),
    )  # fmt: skip
    return event_table_columns(small, w16, w32, values, offsets, valid, per_round) if done else None


def extra_rows(rows: list[tuple]) -> np.ndarray:
    """Handler rows without a meld (ROW_FIELDS tuples) as event_table's ``extra`` (EXTRA_FIELDS by row)."""
    if not rows:
        return _NO_EXTRA
    return np.array([row[:5] + row[6:] for row in rows], dtype=np.int64).T.copy()


def event_table_columns(
    small: np.ndarray, w16: np.ndarray, w32: np.ndarray, values: np.ndarray, offsets: np.ndarray, valid: np.ndarray,
    per_round: np.ndarray,
) -> tuple[dict[str, np.ndarray | Coded | Lists], list[int]]:  # fmt: skip
    """(the events columns, events per round) from event_table's arrays."""
    seat, action, tile34, is_red, from_seat, is_tsumogiri, is_rinshan = small
    columns = {
        "round_idx": w16[0],
        "event_idx": w32[0],
        "seat": seat,
        "action": Coded(action, ACTIONS),
        "tile": w16[1],
        "tile34": tile34,
        "is_red": is_red,
        "from_seat": from_seat,
        "is_tsumogiri": is_tsumogiri,
        "is_rinshan": is_rinshan,
        "meld_tiles": Lists(values, offsets, valid),
        "source_index": w32[1],
    }
    return columns, per_round.tolist()


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


SMALL_FIELDS = ("seat", "action", "tile34", "is_red", "from_seat", "is_tsumogiri", "is_rinshan")
"""The int8 columns of event_table, by row of its ``small`` block."""
_ENTERING = np.array([CODE["draw"], CODE["dora"]], dtype=np.int64)
"""The actions whose tile enters the round (check_tiles_enter_once)."""
EXTRA_FIELDS = ("round_idx", "seat", "action", "tile", "from_seat", "source_index")
"""The rows of event_table's ``extra`` (handler rows without a meld)."""
_NO_EXTRA = np.zeros((len(EXTRA_FIELDS), 0), dtype=np.int64)
_NO_TILES = np.zeros(0, dtype=np.int64)


@njit
def event_table(
    round_idx: np.ndarray, seat: np.ndarray, action: np.ndarray, tile: np.ndarray, from_seat: np.ndarray,
    meld: np.ndarray, meld_size: np.ndarray, source_index: np.ndarray, extra: np.ndarray, n_rounds: int, red: bool,
    tables: np.ndarray, entering: np.ndarray, dealt: np.ndarray, indicators: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]:  # fmt: skip
    """The events table of a game of ``n_rounds`` rounds from the bulk rows (hot.BulkRows, in document order)
    and the handlers' rows without a meld (``extra``: EXTRA_FIELDS by row, in document order), as event_columns
    gives it, checked as check_tiles_enter_once checks it (``dealt`` and ``indicators``: its arguments as int64
    arrays): (small, w16, w32, meld values, meld offsets, meld valid, events per round, done).

    ``small`` holds the SMALL_FIELDS int8 columns by row, ``w16`` the int16 round_idx and tile, ``w32`` the int32
    event_idx and source_index. ``done`` is False when event_columns or check_tiles_enter_once would raise, or
    event_flags would take its numpy reading: the caller then takes their path, which raises the error.
    ``tables`` are event_flags' lookup tables, ``entering`` the codes of a draw and a dora indicator."""
    n_bulk, n_extra = len(round_idx), extra.shape[1]
    # the rows in source order: a bulk row's position, or -1 - an extra row's
    order = np.empty(n_bulk + n_extra, dtype=np.int64)
    n, i, j, size, sorted_rows = 0, 0, 0, n_rounds * 136, True
    for _ in range(n_bulk + n_extra):
        if j < n_extra and (i >= n_bulk or extra[5, j] < source_index[i]):
            row_round, row_tile = extra[0, j], extra[3, j]
            sorted_rows = sorted_rows and (j == 0 or extra[5, j - 1] < extra[5, j]) and row_round >= 0
            j += 1
            at = -j
        else:
            row_round, row_tile = round_idx[i], tile[i]
            sorted_rows = sorted_rows and row_round >= 0
            i += 1
            at = i - 1
        if not sorted_rows or (row_round < n_rounds and not -1 <= row_tile <= 135):
            return (np.empty((7, 0), np.int8), np.empty((2, 0), np.int16), np.empty((2, 0), np.int32),
                    np.empty(0, np.int64), np.zeros(1, np.int32), np.empty(0, np.bool_), np.empty(0, np.int64),
                    False)  # fmt: skip
        if row_round < n_rounds:  # events of a round cut off before its result are dropped
            order[n] = at
            n += 1
    r, s, a, t = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
    f, index, sizes = np.empty(n, np.int64), np.empty(n, np.int64), np.zeros(n, np.int64)
    for k in range(n):
        e = order[k]
        if e >= 0:
            r[k], s[k], a[k], t[k], f[k], index[k] = (
                round_idx[e],
                seat[e],
                action[e],
                tile[e],
                from_seat[e],
                source_index[e],
            )
            sizes[k] = meld_size[e]
        else:
            x = -1 - e
            r[k], s[k], a[k], t[k], f[k], index[k] = (
                extra[0, x],
                extra[1, x],
                extra[2, x],
                extra[3, x],
                extra[4, x],
                extra[5, x],
            )
    flags, done = _flags(r, s, a, t, tables, red)
    small = np.empty((7, n), dtype=np.int8)
    w16 = np.empty((2, n), dtype=np.int16)
    w32 = np.empty((2, n), dtype=np.int32)
    per_round = np.zeros(n_rounds, dtype=np.int64)
    # every tile entering a round (dealt, drawn, revealed as a dora indicator) is counted in its round
    seen = np.zeros(size + 1, dtype=np.int64)
    for k in range(len(dealt)):
        if 0 <= dealt[k] < size:
            seen[dealt[k]] += 1
        else:
            done = False
    for k in range(len(indicators)):
        if 0 <= indicators[k] <= 135 and k < n_rounds:
            seen[k * 136 + indicators[k]] += 1
        elif indicators[k] >= 0:
            done = False
    n_values = 0
    for k in range(n):
        small[0, k], small[1, k], small[4, k] = s[k], a[k], f[k]
        small[2, k], small[3, k], small[5, k], small[6, k] = flags[1, k], flags[2, k], flags[3, k], flags[4, k]
        w16[0, k], w16[1, k], w32[0, k], w32[1, k] = r[k], t[k], flags[0, k], index[k]
        per_round[r[k]] += 1
        n_values += sizes[k]
        if (a[k] == entering[0] or a[k] == entering[1]) and t[k] >= 0:
            seen[r[k] * 136 + t[k]] += 1
    for k in range(size):
        if seen[k] > 1:
            done = False
    values = np.empty(n_values, dtype=np.int64)
    offsets = np.zeros(n + 1, dtype=np.int32)
    valid = np.empty(n, dtype=np.bool_)
    v = 0
    for k in range(n):
        e = order[k]
        for m in range(sizes[k]):
            values[v] = meld[e, m]
            v += 1
        offsets[k + 1], valid[k] = v, sizes[k] > 0
    return small, w16, w32, values, offsets, valid, per_round, done
