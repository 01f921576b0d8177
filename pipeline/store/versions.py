"""Which schema versions' parts this paipu reads as they are, and the error that says what to run otherwise."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.errors import WarehouseError
from pipeline.schema import ALL_TABLES, DERIVED_TABLES, SCHEMA_VERSION, STORED_SINCE
from pipeline.store.warehouse import Warehouse

READABLE_FACT_VERSIONS = ("1", "2", "3", "4", "5", "6", "7")
"""Schema versions of fact tables this paipu reads besides the current one (2 made wins.fu nullable and added
server_flags; 4-7 changed only derived tables). A table stored otherwise since (STORED_SINCE: events packed in
8) is read once its older parts are rewritten (pipeline.store.upgrade: ingest, derive and compact do it)."""


def part_version(part: Path) -> str:
    """The schema version a part's footer records ('?' when none); raises WarehouseError when it cannot be read."""
    try:
        metadata = pq.read_metadata(part).metadata or {}
    except (OSError, pa.ArrowInvalid) as exc:
        raise WarehouseError(f"cannot read {part}: {exc}") from None
    return metadata.get(b"paipu_schema_version", b"?").decode()


def require_readable(warehouse: Warehouse, derived: bool = True) -> None:
    """Raise WarehouseError, saying what to run, when a table's parts (judged by its first part) were written by
    a schema version this paipu cannot read as they are: a derived table (checked unless ``derived`` is false)
    only at the current version, a fact table at READABLE_FACT_VERSIONS from its STORED_SINCE on (older parts
    of such a table ask for `paipu derive`, which rewrites them)."""
    for table in ALL_TABLES:
        is_derived = table in DERIVED_TABLES
        if is_derived and not derived:
            continue
        files = warehouse.table_files(table)
        if not files:
            continue
        version = part_version(files[0])
        if version == SCHEMA_VERSION or (not is_derived and _readable_fact(table, version)):
            continue
        raise WarehouseError(
            f"table {table} in {warehouse.root} was written with schema version {version}, this paipu reads "
            f"version {SCHEMA_VERSION}: {_remedy(table, version)}"
        )


def predates_stored_layout(table: str, version: str) -> bool:
    """Whether a fact table's parts of schema ``version`` are read once rewritten (pipeline.store.upgrade): a
    readable version older than the table's stored layout (STORED_SINCE)."""
    return version in READABLE_FACT_VERSIONS and int(version) < STORED_SINCE.get(table, 0)


def _readable_fact(table: str, version: str) -> bool:
    """Whether a fact table's parts of schema ``version`` are read as they are."""
    return version in READABLE_FACT_VERSIONS and not predates_stored_layout(table, version)


def _remedy(table: str, version: str) -> str:
    """What to run for a table's parts of a schema ``version`` this paipu does not read as they are."""
    if table in DERIVED_TABLES:
        return "run `paipu derive`"
    if predates_stored_layout(table, version):  # rewritten by derive (pipeline.store.upgrade)
        return f"run `paipu derive` (it rewrites the {table} parts in their current layout first)"
    return "ingest the logs again into a new warehouse"
