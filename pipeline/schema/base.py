"""Building blocks of the table declarations: the Column record, type shorthands, the round key."""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

SCHEMA_VERSION = "8"
"""Bumped whenever a table's columns change; stored in every Parquet file's key-value metadata."""

CURRENT_FACT_VERSIONS = ("3", "4", "5", "6", "7", SCHEMA_VERSION)
"""Schema versions whose fact tables have the current columns: their parts are read, compacted and derived as
they are (4-7 changed only derived tables; 8 stores events packed, pipeline.schema.stored: their older parts are
rewritten so before anything else reads them, pipeline.store.upgrade)."""

I8, I16, I32, I64 = pa.int8(), pa.int16(), pa.int32(), pa.int64()
U8 = pa.uint8()
STR, BOOL, F64 = pa.string(), pa.bool_(), pa.float64()
TILES = pa.list_(I16)
"""A list of 136-ids."""


@dataclass(frozen=True)
class Column:
    """One declared column: name, Arrow type, whether nulls are allowed, what it means."""

    name: str
    type: pa.DataType
    nullable: bool
    description: str


def col(name: str, type_: pa.DataType, description: str, nullable: bool = False) -> Column:
    """Declare a column: name, Arrow type, what it means, whether it may be null."""
    return Column(name, type_, nullable, description)


ROUND_KEY = [
    col("game_id", STR, "Game id: the provider's log id when known, else 'fp-' + a hash of the file's own first "
        "round (its text)"),
    col("round_idx", I16, "0-based index of the round (kyoku) in the game"),
]
"""The key columns of every per-round table."""
