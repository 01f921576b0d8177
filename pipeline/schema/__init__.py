"""The declared schema of every warehouse table: column name, type, nullability, description.

Parsers fill per-table column lists (``new_buffers``) and turn them into one Arrow table per batch
(``to_arrow``), which checks that every declared column is there and casts to the declared type.
Descriptions travel with the data as Parquet field metadata. The declarations live in
``facts.py`` (parsers' tables and the manifest) and ``derived.py`` (the rules layer's tables).
"""

from __future__ import annotations

import functools

import pyarrow as pa

from pipeline.columns import ColumnValues, to_arrow_array
from pipeline.errors import SchemaError
from pipeline.schema.base import CURRENT_FACT_VERSIONS, SCHEMA_VERSION, Column
from pipeline.schema.derived import DERIVED_TABLES
from pipeline.schema.facts import MANIFEST, TABLES
from pipeline.schema.stored import STORED_SINCE, STORED_TABLES

__all__ = [
    "ALL_TABLES", "CURRENT_FACT_VERSIONS", "DERIVED_TABLES", "SCHEMA_VERSION", "STORED_SINCE", "STORED_TABLES",
    "TABLES", "Column", "arrow_schema", "column_names", "stored_schema",
    "markdown_tables", "new_buffers", "schema_text", "to_arrow",
]  # fmt: skip

ALL_TABLES: dict[str, list[Column]] = {**TABLES, **DERIVED_TABLES, "manifest": MANIFEST}
"""Every table of the warehouse, the manifest included."""


def arrow_schema(table: str) -> pa.Schema:
    """Return the declared Arrow schema of a table, descriptions as field metadata."""
    return _schema_of(ALL_TABLES[table])


def stored_schema(table: str) -> pa.Schema:
    """Return the Arrow schema of a table's Parquet parts: its stored layout (pipeline.schema.stored) or, for
    most tables, its declared schema."""
    return _schema_of(STORED_TABLES.get(table, ALL_TABLES[table]))


def _schema_of(columns: list[Column]) -> pa.Schema:
    """The Arrow schema of some declared columns, descriptions as field metadata."""
    return pa.schema(
        [pa.field(c.name, c.type, nullable=c.nullable, metadata={"description": c.description}) for c in columns]
    )


@functools.cache
def column_names(table: str) -> tuple[str, ...]:
    """The declared column names of a table, in order (read once per table)."""
    return tuple(c.name for c in ALL_TABLES[table])


def new_buffers(table: str) -> dict[str, list]:
    """Return empty per-column lists for a table, to be filled by a parser."""
    return {name: [] for name in column_names(table)}


def to_arrow(table: str, buffers: dict[str, ColumnValues], keep_dictionaries: bool = False) -> pa.Table:
    """Build an Arrow table with the declared schema from column values (see pipeline.columns).

    With ``keep_dictionaries`` a string column given as codes (pipeline.columns.Coded) stays dictionary-encoded
    (cast the table to arrow_schema(table) before writing it): readers that look values up (the derivation's
    game ids and actions) then do it per distinct value, not per row.
    Raises SchemaError when a column is missing, lengths differ, or a value does not fit its type.
    """
    schema = arrow_schema(table)
    missing = [name for name in schema.names if name not in buffers]
    if missing:
        raise SchemaError(f"table {table}: missing columns {missing}")
    lengths = {len(buffers[name]) for name in schema.names}
    if len(lengths) > 1:
        raise SchemaError(f"table {table}: columns of different lengths {sorted(lengths)}")
    try:
        arrays = [to_arrow_array(buffers[f.name], f.type, f.nullable, keep_dictionaries) for f in schema]
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as exc:
        raise SchemaError(f"table {table}: {exc}") from exc
    null_in_required = [f.name for f, a in zip(schema, arrays, strict=True) if not f.nullable and a.null_count]
    if null_in_required:
        raise SchemaError(f"table {table}: nulls in non-nullable columns {null_in_required}")
    if keep_dictionaries:
        schema = pa.schema([f.with_type(a.type) for f, a in zip(schema, arrays, strict=True)], metadata=schema.metadata)
    return pa.Table.from_arrays(arrays, schema=schema)


def schema_text(tables: list[str]) -> str:
    """Plain text describing ``tables`` (names of ALL_TABLES): a heading per table, then one line per column with
    its type, ', null' when nullable, and its meaning, from the declarations (what ``paipu schema`` prints). The
    views of the same names show these columns (hand_states' counts as lists: see its meanings)."""
    out: list[str] = []
    for table in tables:
        columns = ALL_TABLES[table]
        width = max(len(c.name) for c in columns)
        out += [f"{table} ({len(columns)} columns)"]
        for c in columns:
            type_name = str(c.type).replace("<item: ", "<") + (", null" if c.nullable else "")
            out.append(f"  {c.name.ljust(width)}  {type_name}: {c.description}")
        out.append("")
    return "\n".join(out)


def markdown_tables() -> str:
    """Return the README's description of every table (one markdown table each), from the declarations."""
    out: list[str] = []
    for table, columns in ALL_TABLES.items():
        out += [f"#### `{table}`", "", "| column | type | meaning |", "|---|---|---|"]
        for c in columns:
            type_name = str(c.type).replace("<item: ", "<")
            out.append(f"| `{c.name}` | {type_name}{', null' if c.nullable else ''} | {c.description} |")
        out.append("")
    return "\n".join(out)
