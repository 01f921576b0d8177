"""The events table of a game in one compiled pass, for every format (numba).

``event_table`` takes a game's event rows (a reader's rows in document order, and the rows it wrote apart, merged
by source index), derives the flags as pipeline.sources.event_flags does, narrows the columns to their declared
widths, gathers the meld lists, counts the events per round and checks that no tile enters a round twice; it
declines (``done`` False) where event_flags would read the rows otherwise or the check fails, and the caller
takes its numpy path, which raises the error where there is one. The Tenhou XML reader runs it inside its bulk
pass (tenhou_xml.bulk) or with its handlers' rows (tenhou_xml.event_columns); the replaying readers (mjai,
tenhou.net/6, Mahjong Soul) through ``ordered_event_columns``.
"""

from __future__ import annotations

import numpy as np

from pipeline.columns import Coded, Lists
from pipeline.sources.event_flags import _TABLES, _flags
from rules.compiled import njit
from rules.hands import ACTIONS, CODE


def ordered_event_columns(
    round_idx: np.ndarray, seat: np.ndarray, action: np.ndarray, tile: np.ndarray, from_seat: np.ndarray,
    meld: np.ndarray, meld_size: np.ndarray, source_index: np.ndarray, n_rounds: int, has_red_fives: bool,
) -> dict[str, np.ndarray | Coded | Lists] | None:  # fmt: skip
    """The events columns at their declared widths of the ``n_rounds`` rounds of a game whose events a reader
    replayed in order (contiguous int64 arrays, one row an event; ``meld``: each row's meld tiles
    padded, ``meld_size`` how many, a 2-D and a 1-D contiguous int64 array) by event_table, game_id aside; None when
    it declines (rows event_flags reads otherwise, a tile id past 135): the caller then takes its numpy path. No
    dealt tile nor indicator is given to its check that a tile enters a round once: a replay that hands each id
    out once holds it."""
    small, w16, w32, values, offsets, valid, per_round, done = event_table(
        round_idx, seat, action, tile, from_seat, meld, meld_size, source_index, NO_EXTRA, n_rounds,
        bool(has_red_fives), _TABLES, ENTERING, _NO_TILES, np.full(n_rounds, -1, dtype=np.int64),
    )  # fmt: skip
    return event_table_columns(small, w16, w32, values, offsets, valid, per_round)[0] if done else None


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


SMALL_FIELDS = ("seat", "action", "tile34", "is_red", "from_seat", "is_tsumogiri", "is_rinshan")
"""The int8 columns of event_table, by row of its ``small`` block."""
ENTERING = np.array([CODE["draw"], CODE["dora"]], dtype=np.int64)
"""The actions whose tile enters the round (check_tiles_enter_once)."""
EXTRA_FIELDS = ("round_idx", "seat", "action", "tile", "from_seat", "source_index")
"""The rows of event_table's ``extra`` (handler rows without a meld)."""
NO_EXTRA = np.zeros((len(EXTRA_FIELDS), 0), dtype=np.int64)
"""No row written apart."""
_NO_TILES = np.zeros(0, dtype=np.int64)


@njit
def event_table(
    round_idx: np.ndarray, seat: np.ndarray, action: np.ndarray, tile: np.ndarray, from_seat: np.ndarray,
    meld: np.ndarray, meld_size: np.ndarray, source_index: np.ndarray, extra: np.ndarray, n_rounds: int, red: bool,
    tables: np.ndarray, entering: np.ndarray, dealt: np.ndarray, indicators: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]:  # fmt: skip
    """The events table of a game of ``n_rounds`` rounds from a reader's rows (the XML's: hot.BulkRows, in document
    order) and the rows it wrote apart, without a meld (``extra``: EXTRA_FIELDS by row, in document order), as
    tenhou_xml.event_columns.event_columns gives it, checked as its check_tiles_enter_once checks it (``dealt`` and
    ``indicators``: its arguments as int64 arrays): (small, w16, w32, meld values, meld offsets, meld valid, events
    per round, done).

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
