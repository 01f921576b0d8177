"""Which games of a batch the invariant checks' SQL must look at: the compiled pass (kernel.py) and the
table-level checks around it, over the batch's Arrow tables."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.invariants import arrays
from pipeline.invariants.kernel import (
    END_KINDS,
    KEYS_UNIQUE,
    ROUND_RESULTS,
    UNSURE,
    VALUES_IN_RANGE,
    round_bits,
)
from rules.hands import ACTIONS

SEAT, TILE, KIND = (0, 3), (0, 135), (0, 33)
RANGES = {
    "events": {"seat": SEAT, "from_seat": SEAT, "tile": TILE, "tile34": KIND, "meld_tiles": TILE},
    "rounds": {"dealer": SEAT, "dora_indicator": TILE, "hands_start": TILE},
    "wins": {"seat": SEAT, "from_seat": SEAT, "pao_seat": SEAT, "tile": TILE, "tile34": KIND, "hand": TILE,
             "melds": TILE, "dora_indicators": TILE, "ura_indicators": TILE},
    "draws": {"hands_shown": TILE},
}  # fmt: skip
"""values_in_range: the columns whose values (a list's too) must lie in these bounds, by table."""

ROUND_BITS = 20
"""A row's (game, round) key is game << ROUND_BITS | round_idx."""
MAX_ROUND = (1 << ROUND_BITS) - 1


def _keys(game: np.ndarray, round_idx: np.ndarray) -> np.ndarray:
    """The (game, round) key of each row; a round_idx out of 0..MAX_ROUND is clipped (its game is UNSURE)."""
    return (game << ROUND_BITS) | np.clip(round_idx, 0, MAX_ROUND)


def _flag(bits: np.ndarray, game: np.ndarray, where: np.ndarray, bit: int) -> None:
    """Set ``bit`` for the games of the rows ``where`` (a boolean mask over rows whose game is ``game``)."""
    np.bitwise_or.at(bits, game[where], bit)


def _sorted_rows(table: pa.Table, game: np.ndarray, bits: np.ndarray, *order_by: str) -> dict[str, np.ndarray]:
    """A table's rows of known games (``game``: each row's, -1 for none of the batch's: no game's concern), sorted
    by (game, round, *order_by): the rows' original index ``row``, ``game``, ``key`` and each ``order_by`` column,
    all sorted. Flags UNSURE for a game with a round_idx or ``order_by`` value that is null or out of range."""
    round_idx = arrays.integers(table, "round_idx")
    columns = {name: arrays.integers(table, name) for name in order_by}
    known = np.arange(len(game))
    if (game < 0).any():  # rows of no game of the batch: left out (a parser's rows all have one)
        known = np.flatnonzero(game >= 0)
        game, round_idx = game[known], round_idx[known]
        columns = {name: values[known] for name, values in columns.items()}
    _flag(bits, game, (round_idx < 0) | (round_idx > MAX_ROUND), UNSURE)
    for values in columns.values():
        _flag(bits, game, values < 0, UNSURE)
    key = _keys(game, round_idx)
    order = _order(key, [columns[name] for name in order_by])
    if order is None:  # sorted already, as a parser's rows are: no copy
        return {"row": known, "game": game, "key": key, **columns}
    out = {"row": known[order], "game": game[order], "key": key[order]}
    out.update({name: values[order] for name, values in columns.items()})
    return out


def _order(key: np.ndarray, then: list[np.ndarray]) -> np.ndarray | None:
    """The stable order of rows by ``key``, then by ``then`` (at most one column); None when they are sorted
    already, as a parser's rows are."""
    steps = np.diff(key)
    if not (steps < 0).any() and not (then and ((steps == 0) & (np.diff(then[0]) < 0)).any()):
        return None
    return np.lexsort((*reversed(then), key))


def _among(keys: np.ndarray, sorted_keys: np.ndarray) -> np.ndarray:
    """Whether each of ``keys`` is one of ``sorted_keys`` (sorted ascending): np.isin without its sort."""
    if not len(sorted_keys):
        return np.zeros(len(keys), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    return sorted_keys[at] == keys


def _ranges(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """[start, end) of each of ``keys`` among ``sorted_keys``, as an (n, 2) int64 array."""
    return np.stack([np.searchsorted(sorted_keys, keys, "left"), np.searchsorted(sorted_keys, keys, "right")], 1)


def _table_checks(tables: dict[str, pa.Table], games: dict[str, np.ndarray], bits: np.ndarray) -> None:
    """keys_unique of games and players, and round_results' count of each game's rounds (``games``: each table's
    rows' game)."""
    first = games["games"]
    duplicated = first != np.arange(len(first))
    _flag(bits, np.arange(len(first)), duplicated, KEYS_UNIQUE)
    _flag(bits, first, duplicated, KEYS_UNIQUE)
    players = tables["players"]
    game, seat = games["players"], arrays.integers(players, "seat")
    known = game >= 0
    game, seat = game[known], seat[known]
    _flag(bits, game, seat < 0, UNSURE)
    pairs = game * 64 + np.clip(seat, 0, 63)
    ordered = np.sort(pairs)
    _flag(bits, ordered // 64, np.r_[False, ordered[1:] == ordered[:-1]], KEYS_UNIQUE)
    rounds = tables["rounds"]
    game, round_idx = games["rounds"], arrays.integers(rounds, "round_idx")
    known = game >= 0
    count = np.bincount(game[known], minlength=len(first))
    last = np.full(len(first), -1, dtype=np.int64)
    np.maximum.at(last, game[known], round_idx[known])
    n_rounds = arrays.integers(tables["games"], "n_rounds")
    _flag(bits, np.arange(len(first)), (n_rounds != count) | (last != n_rounds - 1), ROUND_RESULTS)


def _out_of_range(column: pa.ChunkedArray, low: int, high: int) -> np.ndarray:
    """Rows of ``column`` (integers, or lists of them, or lists of lists) holding a value outside [low, high]."""
    column = column.combine_chunks()
    leaves = column
    while pa.types.is_list(leaves.type):
        leaves = leaves.flatten()
    bounds = pc.min_max(leaves)  # one pass; nearly every batch has nothing out of range
    if bounds["min"].as_py() is None or (bounds["min"].as_py() >= low and bounds["max"].as_py() <= high):
        return np.zeros(0, dtype=np.int64)
    values, rows = column, None
    while pa.types.is_list(values.type):
        parents = pc.list_parent_indices(values).to_numpy()
        rows = parents if rows is None else rows[parents]
        values = values.flatten()
    outside = pc.fill_null(pc.or_(pc.less(values, low), pc.greater(values, high)), False)
    hits = np.flatnonzero(outside.to_numpy(zero_copy_only=False))
    return np.unique(hits if rows is None else rows[hits])


def _range_checks(tables: dict[str, pa.Table], games: dict[str, np.ndarray], bits: np.ndarray) -> None:
    """values_in_range, over the columns of RANGES (``games``: each table's rows' game)."""
    for table, columns in RANGES.items():
        game = games[table]
        for name, (low, high) in columns.items():
            rows = _out_of_range(tables[table].column(name), low, high)
            rows = rows[game[rows] >= 0]
            np.bitwise_or.at(bits, game[rows], VALUES_IN_RANGE)


def game_bits(tables: dict[str, pa.Table]) -> np.ndarray:
    """The bits (pipeline.invariants.kernel) of each row of ``tables['games']``, from the batch's fact tables
    (Arrow, as pipeline.schema.to_arrow builds them). Returns int64 bits aligned with the games rows."""
    game_ids = tables["games"].column("game_id").combine_chunks().cast(pa.string())
    bits = np.zeros(len(game_ids), dtype=np.int64)
    games = {table: arrays.game_index(rows, game_ids) for table, rows in tables.items()}
    _table_checks(tables, games, bits)
    _range_checks(tables, games, bits)
    rounds = _sorted_rows(tables["rounds"], games["rounds"], bits)
    events = _sorted_rows(tables["events"], games["events"], bits, "event_idx")
    wins = _sorted_rows(tables["wins"], games["wins"], bits, "win_idx")
    draws = _sorted_rows(tables["draws"], games["draws"], bits)
    for name, rows in (("events", events), ("wins", wins), ("draws", draws)):
        orphan = ~_among(rows["key"], rounds["key"])
        _flag(bits, rows["game"], orphan, UNSURE if name == "events" else ROUND_RESULTS)
    if not len(rounds["key"]):
        return bits
    bits_of_round = _round_bits(tables, rounds, events, wins, draws)
    np.bitwise_or.at(bits, rounds["game"], bits_of_round)
    return bits


def _round_bits(tables: dict[str, pa.Table], rounds: dict[str, np.ndarray], events: dict[str, np.ndarray],
                wins: dict[str, np.ndarray], draws: dict[str, np.ndarray]) -> np.ndarray:  # fmt: skip
    """The compiled pass over the sorted rows (kernel.round_bits)."""
    r_table, e_table, w_table, d_table = (tables[t] for t in ("rounds", "events", "wins", "draws"))
    rr = rounds["row"]
    hand_lists, hands = arrays.nested(r_table, "hands_start")
    pre, post = arrays.flat(r_table, "scores_pre"), arrays.flat(r_table, "scores_post")
    round_idx = arrays.integers(r_table, "round_idx")[rr]
    r_unsure = hand_lists.unsure[rr] | pre.unsure[rr] | post.unsure[rr] | (round_idx > MAX_ROUND)
    meld = arrays.flat(e_table, "meld_tiles")
    w_deltas, d_deltas = arrays.flat(w_table, "score_deltas"), arrays.flat(d_table, "score_deltas")
    er, wr = events["row"], wins["row"]
    return round_bits(
        rounds["game"], round_idx, rr, r_unsure, arrays.integers(r_table, "dora_indicator")[rr],
        arrays.integers(r_table, "riichi_sticks")[rr], arrays.integers(r_table, "n_winners")[rr],
        arrays.codes(r_table, "end_kind", END_KINDS)[rr], _ranges(events["key"], rounds["key"]),
        _ranges(wins["key"], rounds["key"]), _ranges(draws["key"], rounds["key"]),
        hand_lists.offsets, hands.offsets, hands.values, hands.unsure, pre.values, pre.offsets, post.values,
        post.offsets,
        events["event_idx"], arrays.integers(e_table, "seat")[er], arrays.codes(e_table, "action", ACTIONS)[er],
        arrays.integers(e_table, "tile")[er], er, meld.offsets, meld.values, meld.unsure,
        wins["win_idx"], arrays.integers(w_table, "seat")[wr], arrays.integers(w_table, "riichi_sticks")[wr], wr,
        w_deltas.values, w_deltas.offsets, w_deltas.unsure, draws["row"], d_deltas.values, d_deltas.offsets,
        d_deltas.unsure,
    )  # fmt: skip
