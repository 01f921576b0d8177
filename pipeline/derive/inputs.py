"""Read the fact tables the rules layer needs into its plain arrays (rules.hands.EventArrays).

Derivation runs one games part at a time: every fact table's part of the same name holds the
same games, so the part files are read directly and joined as Arrow tables (pipeline.derive.part_rounds).
Rounds are numbered 0.. in (game_id, round_idx) order: ``round_id``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.derive.part_rounds import round_positions, rounds_table, wins_table
from pipeline.derive.round_arrays import RoundArrays, round_arrays
from pipeline.schema import TABLES, stored_schema
from rules.hands import CODE, EventArrays

if TYPE_CHECKING:
    import duckdb


@dataclass
class RoundInputs:
    """The rounds (Arrow, in round_id order, with their game's rules and draw) and their events."""

    rounds: pa.Table
    events: pa.Table
    wins: pa.Table
    arrays: EventArrays

    @cached_property
    def win_round(self) -> np.ndarray:
        """(n_wins,) each win's round: its position in ``rounds``, -1 when its round is not there (found once,
        read by the furiten, scoring and seat derivations)."""
        return round_positions(self.rounds, self.wins)

    @cached_property
    def round_arrays(self) -> RoundArrays:
        """The rounds as typed arrays (read from Arrow once, by every derivation)."""
        return round_arrays(self.rounds)


PartTables = dict[str, pa.Table]
"""A games part's fact tables by name (games, rounds, events, wins, draws...): the same games in each."""

EVENT_COLUMNS = ["game_id", "round_idx", "event_idx", "seat", "action", "tile", "from_seat", "meld_tiles"]
"""The events columns the rules read."""

DICTIONARY_COLUMNS = ["game_id", "action"]
"""Columns read as the dictionaries they are stored as: looked up value by value, not row by row."""


def part_tables(root: Path, relative: Path) -> PartTables:
    """Read the part ``relative`` of every fact table below ``root`` as stored (a missing one is empty; events:
    only EVENT_COLUMNS; DICTIONARY_COLUMNS dictionary-encoded as stored), in this thread (workers run parts in
    parallel)."""
    tables = {}
    for table in TABLES:
        path = root / table / relative
        columns = EVENT_COLUMNS if table == "events" else None
        if path.is_file():
            tables[table] = pq.read_table(
                path, columns=columns, partitioning=None, read_dictionary=DICTIONARY_COLUMNS, use_threads=False
            )
        else:
            empty = stored_schema(table).empty_table()
            tables[table] = empty.select(columns) if columns else empty
    return tables


GAMES_PER_READ = 1000
"""Games turned into the rules' arrays at once: a larger part (a merged one, see pipeline.compact) is derived
slice by slice, so a worker's memory follows the slice, not the part (one ingest batch is 1,000 files)."""


def game_slices(tables: PartTables, games_per_slice: int = GAMES_PER_READ) -> Iterator[PartTables]:
    """Cut a part's tables into slices of at most ``games_per_slice`` games, in game id order (the order the
    derived rows come in either way); a part no larger comes back whole."""
    games = tables["games"]
    if games.num_rows <= games_per_slice:
        yield tables
        return
    ids = games["game_id"].cast(pa.string())  # read dictionary-encoded; sorted as plain strings
    ids = ids.take(pc.sort_indices(ids)).combine_chunks()
    for start in range(0, len(ids), games_per_slice):
        wanted = ids.slice(start, games_per_slice)
        yield {name: table.filter(_is_game_in(table["game_id"], wanted)) for name, table in tables.items()}


def _is_game_in(game_ids: pa.ChunkedArray, wanted: pa.Array) -> pa.ChunkedArray:
    """Boolean mask of the rows whose game id is in ``wanted``."""
    return pa.chunked_array(_per_value(game_ids, lambda values: pc.is_in(values, value_set=wanted)), pa.bool_())


def _per_value(column: pa.ChunkedArray, lookup: Callable[[pa.Array], pa.Array]) -> list[pa.Array]:
    """``lookup`` of every row of ``column``, chunk by chunk: of a dictionary-encoded chunk (as part_tables
    reads DICTIONARY_COLUMNS) its dictionary's values are looked up once each, then spread to the rows."""
    return [
        lookup(chunk.dictionary).take(chunk.indices) if pa.types.is_dictionary(chunk.type) else lookup(chunk)
        for chunk in column.chunks
    ]


def connect_part(tables: PartTables) -> duckdb.DuckDBPyConnection:
    """A new DuckDB connection with the part's tables as views of the same names (DuckDB imported here: the
    derivation itself does not use it, ~0.08 s of every ingest's start)."""
    import duckdb

    con = duckdb.connect(config={"threads": 1})  # a worker's share: parts run in parallel, not their queries
    for name, table in tables.items():
        con.register(name, table)
    return con


def _hands_start(rounds: pa.Table) -> np.ndarray:
    """(n_rounds, 4, 13) 136-ids of the starting hands, -1 where a seat has none."""
    out = np.full((rounds.num_rows, 4, 13), -1, dtype=np.int64)
    per_seat = pc.list_flatten(rounds["hands_start"])
    seat_lengths = pc.list_value_length(per_seat).to_numpy()
    tiles = pc.list_flatten(per_seat).to_numpy()
    seat_index = np.repeat(np.arange(len(seat_lengths)), seat_lengths)
    slot = np.arange(len(tiles)) - np.repeat(np.cumsum(seat_lengths) - seat_lengths, seat_lengths)
    out.reshape(-1, 13)[seat_index, slot] = tiles
    return out


def _in_round_order(events: pa.Table, round_id: np.ndarray) -> tuple[pa.Table, np.ndarray]:
    """The events ordered by round, then event_idx (sorted only when the part is not already)."""
    event_idx = events["event_idx"].to_numpy()
    same_round = round_id[1:] == round_id[:-1]
    if np.all((round_id[1:] > round_id[:-1]) | (same_round & (event_idx[1:] > event_idx[:-1]))):
        return events, round_id
    order = np.lexsort((event_idx, round_id))
    return events.take(order), round_id[order]


GAMES_PER_CHUNK = 250
"""Games derived together: bounds the rules' working memory whatever the part's size."""


def read_inputs(tables: PartTables) -> RoundInputs:
    """Read the rounds, events and wins of every game of a part (see part_tables), in game order;
    split_inputs cuts them into chunks. Events are taken as stored (parts are written game by game, event
    by event) and sorted only when a part is not in that order."""
    rounds, wins = rounds_table(tables), wins_table(tables)
    events = tables["events"].select(EVENT_COLUMNS)
    events, round_id = _in_round_order(events, round_positions(rounds, events))
    melds = events["meld_tiles"].combine_chunks()
    lengths = pc.list_value_length(melds).fill_null(0).to_numpy(zero_copy_only=False)
    codes = _action_codes(events["action"])
    arrays = EventArrays(
        round_id=round_id,
        event_idx=events["event_idx"].to_numpy().astype(np.int64),
        seat=events["seat"].fill_null(-1).to_numpy().astype(np.int64),
        action=codes.astype(np.int64),
        tile=events["tile"].fill_null(-1).to_numpy().astype(np.int64),
        from_seat=events["from_seat"].fill_null(-1).to_numpy().astype(np.int64),
        meld_offsets=np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64),
        meld_values=pc.list_flatten(melds).to_numpy(zero_copy_only=False).astype(np.int64),
        hands_start=_hands_start(rounds),
        has_red_fives=rounds["has_red_fives"].to_numpy(zero_copy_only=False),
    )
    return RoundInputs(rounds, events, wins, arrays)


def _action_codes(actions: pa.ChunkedArray) -> np.ndarray:
    """Each event's rules.hands.CODE of its action (-1 for an action the rules do not know)."""
    known = pa.array(list(CODE))
    codes = _per_value(actions, lambda values: pc.index_in(values, value_set=known).fill_null(-1))
    return np.concatenate([c.to_numpy(zero_copy_only=False) for c in codes]) if codes else np.zeros(0, np.int64)


def split_inputs(inputs: RoundInputs, games_per_chunk: int = GAMES_PER_CHUNK) -> Iterator[RoundInputs]:
    """Cut a part's inputs (rounds, events and wins all in game order) into chunks of whole games."""
    game_ids = inputs.rounds["game_id"].to_numpy(zero_copy_only=False)
    game_starts = np.flatnonzero(np.r_[True, game_ids[1:] != game_ids[:-1]]) if len(game_ids) else np.zeros(0, int)
    bounds = np.append(game_starts[::games_per_chunk], len(game_ids))
    win_rounds = inputs.win_round
    ev = inputs.arrays
    for r0, r1 in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        e0, e1 = np.searchsorted(ev.round_id, [r0, r1]).tolist()
        w0, w1 = np.searchsorted(win_rounds, [r0, r1]).tolist()
        m0, m1 = int(ev.meld_offsets[e0]), int(ev.meld_offsets[e1])
        arrays = EventArrays(
            round_id=ev.round_id[e0:e1] - r0,
            event_idx=ev.event_idx[e0:e1],
            seat=ev.seat[e0:e1],
            action=ev.action[e0:e1],
            tile=ev.tile[e0:e1],
            from_seat=ev.from_seat[e0:e1],
            meld_offsets=ev.meld_offsets[e0 : e1 + 1] - m0,
            meld_values=ev.meld_values[m0:m1],
            hands_start=ev.hands_start[r0:r1],
            has_red_fives=ev.has_red_fives[r0:r1],
        )
        yield RoundInputs(
            inputs.rounds.slice(r0, r1 - r0), inputs.events.slice(e0, e1 - e0), inputs.wins.slice(w0, w1 - w0), arrays
        )
