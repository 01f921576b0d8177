"""DuckDB over the warehouse: views from the staging SQL files, marts and checks from theirs.

``connect`` and ``query`` (and duckdb with them) are imported when first read (pipeline.lazy_exports): reading
the SQL files does not need them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline import lazy_exports

if TYPE_CHECKING:
    from pipeline.store.warehouse import Warehouse

__all__ = ["STORE_NAME", "connect", "load_sql", "query", "refresh_if_stored", "sql_names"]

STORE_NAME = "rollups.duckdb"
"""The statistics' stored rollups (pipeline.db.rollups), a DuckDB database in the warehouse's root folder."""

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "connect": "pipeline.db.connection",
        "query": "pipeline.db.connection",
        "load_sql": "pipeline.db.sqlfiles",
        "sql_names": "pipeline.db.sqlfiles",
    },
)


def refresh_if_stored(warehouse: Warehouse) -> None:
    """Refresh the stored rollups when the warehouse has a store (pipeline.db.rollups.refresh_rollups): what ingest,
    derive and compact call after they change parts, so that a store once made by `paipu stats` stays in step.
    DuckDB is imported only when there is a store."""
    if (warehouse.root / STORE_NAME).exists():
        from pipeline.db.rollups import refresh_rollups  # noqa: PLC0415 - duckdb, only for a store to refresh

        refresh_rollups(warehouse)
