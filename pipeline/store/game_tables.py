"""The fact tables of a batch's parsed games, converted to Arrow once and cut per use.

Converting the games' column values to Arrow (pipeline.schema.to_arrow) costs about as much as the invariant
checks and the Parquet writing together; a batch needs the tables twice (checked layer by layer, then written
part by part), so it converts every game once and takes the rows of the games each use needs.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from pipeline.schema import TABLES, to_arrow
from pipeline.sources.base import ParsedGame, concat_buffers


class GameTables:
    """Every fact table of some parsed games (string columns given as codes stay dictionary-encoded: see
    schema.to_arrow's ``keep_dictionaries``), with the rows of each game."""

    def __init__(self, games: list[ParsedGame]) -> None:
        """Convert the games' rows; raises what schema.to_arrow raises when a value does not fit its column."""
        self.games = list(games)
        self.tables = {t: to_arrow(t, concat_buffers(self.games, t), keep_dictionaries=True) for t in TABLES}
        self._position = {id(game): k for k, game in enumerate(self.games)}
        self._starts = {t: _row_starts(self.games, t) for t in TABLES}

    def per_game(self, table: str, values: np.ndarray) -> dict[int, np.ndarray]:
        """``values`` (one per row of ``table``) cut per game: id(game) -> the values of its rows."""
        starts = self._starts[table]
        return {id(game): values[starts[k] : starts[k + 1]] for k, game in enumerate(self.games)}

    def of(self, games: list[ParsedGame]) -> dict[str, pa.Table]:
        """The tables of ``games`` (each one of this batch's), their rows in the order of ``games``."""
        positions = np.array([self._position[id(game)] for game in games], dtype=np.int64)
        if len(positions) and (np.diff(positions) == 1).all():  # a run of consecutive games: a slice, no copy
            first, last = positions[0], positions[-1] + 1
            return {t: self.tables[t].slice(self._starts[t][first], self._starts[t][last] - self._starts[t][first])
                    for t in TABLES}  # fmt: skip
        return {t: self.tables[t].take(_rows_of(self._starts[t], positions)) for t in TABLES}


def _row_starts(games: list[ParsedGame], table: str) -> np.ndarray:
    """Where each game's rows of ``table`` start in the batch's table, and (last) the table's length."""
    first_column = next(iter(games[0].tables[table])) if games else None
    lengths = [len(game.tables[table][first_column]) for game in games] if first_column else []
    starts = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    return starts


def _rows_of(starts: np.ndarray, positions: np.ndarray) -> pa.Array:
    """The row indexes of the games at ``positions``, game after game."""
    counts = starts[positions + 1] - starts[positions]
    first = np.repeat(starts[positions] - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
    return pa.array(first + np.arange(counts.sum()), pa.int64())
