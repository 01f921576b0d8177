"""A warehouse's contents as comparable values: every table's rows in a canonical order, the manifest without
its timestamps. Used to show that two runs (workers, Dask, killed and resumed) produced the same warehouse."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.schema import DERIVED_TABLES, TABLES
from pipeline.store.warehouse import Warehouse

ORDER = ("game_id", "round_idx", "seat", "event_idx", "fingerprint", "path")
"""Columns sorting a table's rows canonically (those it has, in this order)."""


def table_rows(warehouse: Warehouse, table: str) -> pa.Table | None:
    """One table's rows from all its parts, sorted by its ORDER columns; None without any part."""
    files = warehouse.table_files(table)
    if not files:
        return None
    rows = pa.concat_tables([pq.read_table(f, partitioning=None) for f in files])
    rows = rows.replace_schema_metadata(None)
    keys = [(c, "ascending") for c in ORDER if c in rows.column_names]
    return rows.sort_by(keys) if rows.num_rows else rows


def contents(warehouse: Warehouse) -> dict[str, pa.Table | None]:
    """Every fact and derived table, and the manifest without ``ingested_at``."""
    out = {table: table_rows(warehouse, table) for table in (*TABLES, *DERIVED_TABLES)}
    out["manifest"] = warehouse.read_manifest().drop(["ingested_at"]).replace_schema_metadata(None)
    return out


def differences(a: dict[str, pa.Table | None], b: dict[str, pa.Table | None]) -> list[str]:
    """Names of the tables whose rows differ (row counts given), [] when both warehouses are the same."""
    out = []
    for table in a:
        x, y = a[table], b.get(table)
        if (x is None) != (y is None) or (x is not None and not x.equals(y)):
            out.append(f"{table}: {None if x is None else x.num_rows} vs {None if y is None else y.num_rows} rows")
    return out
