"""Fact parts written before their table's stored layout (pipeline.schema.stored), rewritten in it.

Events parts of schema versions 1-7 hold the declared columns; version 8 stores them packed. ``paipu ingest``,
``paipu derive`` and ``paipu compact`` rewrite such parts before they read or write the warehouse (reading a
part and packing it costs a fraction of parsing its logs again, and the logs may be gone), all of them in one
transaction: a killed upgrade leaves the warehouse as it was, or ``recover()`` finishes it.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.errors import WarehouseError
from pipeline.schema import STORED_SINCE, arrow_schema, stored_schema
from pipeline.store.layout import stored_rows
from pipeline.store.parquet import AtomicParquetWriter
from pipeline.store.transaction import Transaction
from pipeline.store.versions import part_version, predates_stored_layout
from pipeline.store.warehouse import Warehouse


def outdated_parts(warehouse: Warehouse) -> list[tuple[str, Path]]:
    """(table, part) of every part written before its table's stored layout, by a schema version this paipu
    reads (READABLE_FACT_VERSIONS); raises WarehouseError for a part whose footer cannot be read. A table whose
    first part is in its stored layout has all of them so (an upgrade rewrites all at once, and this paipu
    writes no other), so only its first footer is read then."""
    found = []
    for table in STORED_SINCE:
        parts = warehouse.table_files(table)
        if parts and predates_stored_layout(table, part_version(parts[0])):
            found += [(table, part) for part in parts if predates_stored_layout(table, part_version(part))]
    return found


def upgrade_stored_layouts(warehouse: Warehouse) -> int:
    """Rewrite every outdated part (outdated_parts) in its table's stored layout, in one transaction; returns
    how many were rewritten. Call it holding the writer lock (pipeline.store.lock). Raises WarehouseError naming
    a part that cannot be read or does not hold its table's declared columns."""
    outdated = outdated_parts(warehouse)
    if not outdated:
        return 0
    txn = Transaction(warehouse.root)
    try:
        for table, part in outdated:
            _rewrite(table, part, txn.staged(part.relative_to(warehouse.root)))
        txn.commit()
    except BaseException:
        txn.abort()  # a transaction whose journal was written is kept: recover() finishes it
        raise
    return len(outdated)


def _rewrite(table: str, part: Path, target: Path) -> None:
    """Write ``part``'s rows to ``target`` in its table's stored layout, a row group at a time (memory bounded by
    one); raises WarehouseError when the part cannot be read or does not hold the table's declared columns."""
    declared, stored = arrow_schema(table), stored_schema(table)
    try:
        source = pq.ParquetFile(part)
        with AtomicParquetWriter(target, stored) as writer:
            for group in range(source.num_row_groups):
                rows = source.read_row_group(group, columns=declared.names).cast(declared)
                writer.write(stored_rows(table, rows).cast(stored))
    except (OSError, KeyError, ValueError, pa.ArrowException) as exc:  # ValueError: a column missing
        raise WarehouseError(f"{part} does not hold the declared columns of table {table}: {exc}") from None
