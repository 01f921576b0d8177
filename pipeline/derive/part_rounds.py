"""A part's rounds and wins as derive reads them, put together in Arrow: each round with its game's rules, its draw
and its winners; each win with its game's kuitan rule.

What a DuckDB query over the part's tables did before (rounds joined to their games, left-joined to their draw and
to their wins' seats, ordered by game_id and round_idx; wins ordered by game_id, round_idx, win_idx), in a quarter
of its time: the part's rows are few and already keyed, so each join is a lookup of positions (round_positions)
and a take. A part holds each game once and each round's draw once (the invariant checks see to it).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.derive.round_arrays import games_of_rounds

ROUND_COLUMNS = [
    "round_idx", "round_wind", "kyoku", "dealer", "dora_indicator", "honba", "riichi_sticks", "scores_pre",
    "scores_post", "hands_start", "end_kind", "n_winners", "is_last",
]  # fmt: skip
"""The rounds' own columns derive reads (after game_id)."""

GAME_COLUMNS = [
    "n_players", "has_red_fives", "has_kuitan", "is_custom_rule", "is_server_log", "is_complete", "is_hanchan",
    "n_rounds", "started_at", "log_quirks",
]  # fmt: skip
"""The games' columns each round carries."""

DRAW_COLUMNS = {
    "kind": "draw_kind", "is_shown": "is_shown", "hands_shown": "hands_shown", "score_deltas": "draw_deltas",
}  # fmt: skip
"""The draws' columns each round carries (null without a draw), by their name there -> their name here."""

WIN_COLUMNS = [
    "round_idx", "win_idx", "seat", "from_seat", "is_tsumo", "points", "tile", "hand", "melds", "n_kita",
    "dora_indicators", "ura_indicators",
]  # fmt: skip
"""The wins' columns derive reads (after game_id; has_kuitan, their game's, last)."""


def game_ids(table: pa.Table) -> pa.Array:
    """A table's game ids as one plain string array (part_tables reads them dictionary-encoded)."""
    return table["game_id"].cast(pa.string()).combine_chunks()


def _key_order(ids: pa.Array, table: pa.Table, keys: list[str]) -> np.ndarray:
    """Row positions that sort ``table`` by game id (``ids``), then by ``keys`` (all ascending)."""
    sort_keys = pa.table({"game_id": ids, **{key: table[key] for key in keys}})
    return pc.sort_indices(sort_keys, [(key, "ascending") for key in sort_keys.column_names]).to_numpy()


def _seat_lists(seat: np.ndarray, at: np.ndarray, n: int) -> pa.Array:
    """list<int8> of n rounds: the ``seat`` of every row whose round ``at`` is that round (-1: none), in row
    order; null for a round with none (as a left join's missing group)."""
    found = np.flatnonzero(at >= 0)
    found = found[np.argsort(at[found], kind="stable")]
    counts = np.bincount(at[found], minlength=n)
    offsets = pa.array(np.concatenate([[0], np.cumsum(counts)]).astype(np.int32))
    return pa.ListArray.from_arrays(offsets, pa.array(seat[found], pa.int8()), mask=pa.array(counts == 0))


def rounds_table(tables: dict[str, pa.Table]) -> pa.Table:
    """Every round of a game of the part, by (game_id, round_idx), with its game's GAME_COLUMNS, its draw's
    DRAW_COLUMNS and its winners (winner_seats) and ron winners (ron_seats), list<int8> (null: none)."""
    games, rounds, draws, wins = (tables[name] for name in ("games", "rounds", "draws", "wins"))
    ids, of_games = game_ids(rounds), game_ids(games)
    game_row = pc.index_in(ids, value_set=of_games)
    # the rounds of a known game (an inner join), ordered by game id then round
    order = _key_order(ids, rounds, ["round_idx"])
    order = order[game_row.is_valid().to_numpy(zero_copy_only=False)[order]]
    game_row = game_row.take(order)
    out = pa.table({
        "game_id": ids.take(order),
        **{name: rounds[name].take(order) for name in ROUND_COLUMNS},
        **{name: games[name].take(game_row) for name in GAME_COLUMNS},
    })  # fmt: skip
    n = out.num_rows
    # each round's draw: its row in draws, null where it has none
    draw_at = round_positions(out, pa.table({"game_id": game_ids(draws), "round_idx": draws["round_idx"]}))
    draw_row = np.full(n, -1, dtype=np.int64)
    draw_row[draw_at[draw_at >= 0]] = np.flatnonzero(draw_at >= 0)
    taken = pa.array(draw_row, pa.int64(), mask=draw_row < 0)
    for name, as_name in DRAW_COLUMNS.items():
        out = out.append_column(as_name, draws[name].take(taken))
    win_at = round_positions(out, pa.table({"game_id": game_ids(wins), "round_idx": wins["round_idx"]}))
    seat = wins["seat"].to_numpy()
    ron = ~wins["is_tsumo"].to_numpy(zero_copy_only=False).astype(bool)
    out = out.append_column("winner_seats", _seat_lists(seat, win_at, n))
    return out.append_column("ron_seats", _seat_lists(seat, np.where(ron, win_at, -1), n))


def wins_table(tables: dict[str, pa.Table]) -> pa.Table:
    """Every win of the part by (game_id, round_idx, win_idx) with WIN_COLUMNS and its game's has_kuitan (null
    for a win of no game of the part)."""
    games, wins = tables["games"], tables["wins"]
    ids = game_ids(wins)
    order = _key_order(ids, wins, ["round_idx", "win_idx"])
    ids = ids.take(order)
    kuitan = games["has_kuitan"].take(pc.index_in(ids, value_set=game_ids(games)))
    return pa.table({"game_id": ids, **{name: wins[name].take(order) for name in WIN_COLUMNS}, "has_kuitan": kuitan})


def round_positions(rounds: pa.Table, rows: pa.Table) -> np.ndarray:
    """Position in ``rounds`` (ordered by game_id, round_idx) of the round of each row of another table
    (game_id, round_idx); -1 for a row whose round is not there."""
    if not rounds.num_rows or not rows.num_rows:
        return np.full(rows.num_rows, -1, dtype=np.int64)
    game_ids, game_of_round = games_of_rounds(rounds)
    # each row's game as a position among the rounds' games: hash the row ids once, look up the distinct ones
    encoded = pc.dictionary_encode(rows["game_id"]).combine_chunks()
    game_of_value = pc.index_in(encoded.dictionary, value_set=pa.array(game_ids, pa.string()))
    game_of_row = game_of_value.fill_null(-1).to_numpy(zero_copy_only=False)[encoded.indices.to_numpy()]
    # one sortable key per round: the game's position, then the round index
    round_keys = game_of_round * 65536 + rounds["round_idx"].to_numpy().astype(np.int64)
    row_keys = game_of_row * 65536 + rows["round_idx"].to_numpy().astype(np.int64)
    # rows come round by round (events: a round's rows together): look up each run of equal keys once
    starts = np.flatnonzero(np.r_[True, row_keys[1:] != row_keys[:-1]])
    run_keys = row_keys[starts]
    found = np.minimum(np.searchsorted(round_keys, run_keys), len(round_keys) - 1)
    of_run = np.where((run_keys >= 0) & (round_keys[found] == run_keys), found, -1)
    return np.repeat(of_run, np.diff(np.append(starts, len(row_keys)))).astype(np.int64)
