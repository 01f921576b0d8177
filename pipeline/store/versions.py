"""Which schema versions' parts this paipu reads as they are, and the error that says what to run otherwise."""

from __future__ import annotations

import pyarrow.parquet as pq

from pipeline.errors import WarehouseError
from pipeline.schema import ALL_TABLES, DERIVED_TABLES, SCHEMA_VERSION, STORED_SINCE
from pipeline.store.warehouse import Warehouse

READABLE_FACT_VERSIONS = ("1", "2", "3", "4", "5", "6", "7")
"""Schema versions of fact tables this paipu reads besides the current one (2 made wins.fu nullable and added
server_flags; 4-7 changed only derived tables), except a table stored otherwise since (STORED_SINCE: events
packed in 8)."""


def require_readable(warehouse: Warehouse, derived: bool = True) -> None:
    """Raise WarehouseError, saying what to run, when a table's parts (judged by its first part) were written by
    a schema version this paipu cannot read as they are: a derived table (checked unless ``derived`` is false)
    only at the current version, a fact table at READABLE_FACT_VERSIONS from its STORED_SINCE on."""
    for table in ALL_TABLES:
        is_derived = table in DERIVED_TABLES
        if is_derived and not derived:
            continue
        files = warehouse.table_files(table)
        if not files:
            continue
        metadata = pq.read_metadata(files[0]).metadata or {}
        version = metadata.get(b"paipu_schema_version", b"?").decode()
        if version == SCHEMA_VERSION or (not is_derived and _readable_fact(table, version)):
            continue
        remedy = "run `paipu derive`" if is_derived else "ingest the logs again into a new warehouse"
        raise WarehouseError(
            f"table {table} in {warehouse.root} was written with schema version {version}, this paipu reads "
            f"version {SCHEMA_VERSION}: {remedy}"
        )


def _readable_fact(table: str, version: str) -> bool:
    """Whether a fact table's parts of schema ``version`` are read as they are."""
    return version in READABLE_FACT_VERSIONS and int(version) >= STORED_SINCE.get(table, 0)
