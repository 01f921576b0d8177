"""Test helpers: one parsed game's table buffers as Python rows (shared by the source tests)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from pipeline.columns import Coded, Repeated
from pipeline.schema import TABLES
from pipeline.sources.base import ParsedGame


def values(column: Any, is_bool: bool = False) -> list:
    """A column buffer as a Python list (-1 in a numpy column -> None; 1/0 -> True/False for a flag)."""
    if isinstance(column, Repeated):
        return [column.value] * column.count
    if isinstance(column, Coded):
        return [column.categories[c] if c >= 0 else None for c in column.codes]
    if isinstance(column, np.ndarray) and column.dtype != object:
        return [None if v < 0 else (bool(v) if is_bool else v) for v in column.tolist()]
    return [v.tolist() if isinstance(v, np.ndarray) else v for v in column]


def rows(game: ParsedGame, table: str) -> list[dict]:
    """A table of one game as row dicts."""
    flags = {c.name for c in TABLES[table] if c.type == pa.bool_()}
    columns = {name: values(col, name in flags) for name, col in game.tables[table].items()}
    n = len(columns["game_id"])
    return [{name: col[i] for name, col in columns.items()} for i in range(n)]
