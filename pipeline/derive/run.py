"""``paipu derive``: run the rules layer over the warehouse, one games part at a time.

Every fact table's part of the same name holds the same games, so each games part is derived on
its own and its derived tables are written under the same relative path: rewriting a games part
(a more complete copy arrived) and deriving it again replaces exactly its derived parts. Each part's
derived tables are staged and published together (pipeline.store.transaction); parts are derived in
parallel by the workers of pipeline.executors.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from pipeline import __version__
from pipeline.derive.inputs import PartTables, game_slices, part_tables, read_inputs, split_inputs
from pipeline.derive.registry import derive_part
from pipeline.executors import executor, ordered
from pipeline.schema import DERIVED_TABLES, SCHEMA_VERSION, arrow_schema, to_arrow
from pipeline.store.lock import warehouse_lock
from pipeline.store.parquet import AtomicParquetWriter
from pipeline.store.transaction import Transaction, recover, remove_empty_staging
from pipeline.store.upgrade import upgrade_stored_layouts
from pipeline.store.versions import require_readable
from pipeline.store.warehouse import Warehouse


@dataclass
class DeriveReport:
    """Parts derived and rows written per derived table."""

    parts: int = 0
    rows: dict[str, int] | None = None
    upgraded: int = 0
    """Fact parts of an older stored layout rewritten first (pipeline.store.upgrade)."""


@dataclass(frozen=True)
class DeriveJob:
    """One games part to derive (``relative`` to the games folder) in the transaction ``name``."""

    root: Path
    relative: Path
    name: str


ROW_GROUP_ROWS = 100_000
"""Derived rows gathered before a row group is written: a chunk's hand_states (~250k rows) is one, the small
tables' chunks are gathered (one row group each per 1,000-game part instead of four)."""


def derive(
    warehouse: Warehouse,
    parts: Iterable[Path] | None = None,
    on_part: Callable[[int], None] | None = None,
    workers: int = 1,
    scheduler: str | None = None,
) -> DeriveReport:
    """Derive the given games parts (default: all) and drop derived parts whose games part is gone.

    Parts run on ``workers`` local processes (or the Dask ``scheduler``: see pipeline.executors); each
    part's derived tables are published together. ``on_part(n_games)`` is called after each part. Raises
    WarehouseError when a part cannot be read or written, or its facts were written by a schema version this
    paipu does not read (pipeline.store.versions). Fact parts of an older stored layout are rewritten first
    (pipeline.store.upgrade).
    """
    with warehouse_lock(warehouse.root, "derive"):  # one writer at a time (reentrant: ingest may hold it)
        recover(warehouse.root)
        upgraded = upgrade_stored_layouts(warehouse)  # facts of an older stored layout rewritten in the current one
        require_readable(warehouse, derived=False)  # old derived tables are what this replaces; old facts are not
        games_root = warehouse.root / "games"
        todo = sorted(parts) if parts is not None else warehouse.table_files("games")
        report = DeriveReport(rows=dict.fromkeys(DERIVED_TABLES, 0), upgraded=upgraded)
        jobs = [DeriveJob(warehouse.root, part.relative_to(games_root), uuid.uuid4().hex) for part in todo]
        with executor(workers, scheduler, len(jobs)) as pool:
            for job, (n_games, rows) in zip(jobs, ordered(pool, run_derive_job, jobs), strict=True):
                Transaction(warehouse.root, job.name).commit()
                for table, n in rows.items():
                    report.rows[table] += n
                report.parts += 1
                if on_part:
                    on_part(n_games)
        remove_empty_staging(warehouse.root)
        _drop_orphans(warehouse)
        from pipeline.db import refresh_if_stored  # noqa: PLC0415 - at the end only

        refresh_if_stored(warehouse)  # the statistics' stored rollups, when made, kept in step
        return report


def run_derive_job(job: DeriveJob) -> tuple[int, dict[str, int]]:
    """Derive one published games part into the job's transaction; returns (games, rows per table)."""
    txn = Transaction(job.root, job.name)
    try:
        return derive_part_into(job.root, job.relative, txn)
    except BaseException:
        txn.abort()
        raise


def derive_staged(txn: Transaction, parts: dict[Path, PartTables]) -> None:
    """Derive games parts staged in ``txn`` from their fact tables in memory (by the part's path relative to
    a table folder; see Warehouse.write_games) into the same transaction."""
    for relative, tables in parts.items():
        derive_tables_into(tables, relative, txn)


def derive_part_into(source_root: Path, relative: Path, txn: Transaction) -> tuple[int, dict[str, int]]:
    """Derive the games part ``relative`` whose fact tables are below ``source_root`` (the warehouse or a
    staging folder) and stage its derived tables in ``txn``; returns what derive_tables_into returns."""
    return derive_tables_into(part_tables(source_root, relative), relative, txn)


def derive_tables_into(tables: PartTables, relative: Path, txn: Transaction) -> tuple[int, dict[str, int]]:
    """Derive a games part from its fact tables and stage its derived tables in ``txn`` at ``relative`` (a
    table without rows is deleted there).

    Returns (games in the part, rows written per derived table).
    """
    n_games = tables["games"].num_rows
    with ExitStack() as stack:
        writers = {
            table: stack.enter_context(
                AtomicParquetWriter(txn.staged(Path(table) / relative), arrow_schema(table), ROW_GROUP_ROWS)
            )
            for table in DERIVED_TABLES
        }
        # a slice of games read into arrays at a time, then a chunk of them derived at a time, each written as
        # row groups: the working memory stays bounded by the slice and the chunk, whatever the part's size
        for piece in game_slices(tables):
            for chunk in split_inputs(read_inputs(piece)):
                for table, columns in derive_part(chunk).items():
                    writers[table].write(to_arrow(table, columns))
    for table, writer in writers.items():
        if not writer.rows:
            txn.delete(Path(table) / relative)
    return n_games, {table: writer.rows for table, writer in writers.items()}


def stale_parts(warehouse: Warehouse) -> list[Path]:
    """Games parts whose derived tables are missing or were derived by another paipu or schema version
    (judged by their hand_states part, which every derived part has: every game deals hands)."""
    stale = []
    for part in warehouse.table_files("games"):
        hands = warehouse.root / "hand_states" / part.relative_to(warehouse.root / "games")
        if not hands.is_file():
            stale.append(part)
            continue
        meta = pq.read_metadata(hands).metadata or {}
        if (meta.get(b"paipu_version"), meta.get(b"paipu_schema_version")) != (
            __version__.encode(), SCHEMA_VERSION.encode()
        ):
            stale.append(part)
    return stale


def _drop_orphans(warehouse: Warehouse) -> None:
    """Delete derived parts whose games part no longer exists."""
    live = {p.relative_to(warehouse.root / "games") for p in warehouse.table_files("games")}
    for table in DERIVED_TABLES:
        for path in warehouse.table_files(table):
            if path.relative_to(warehouse.root / table) not in live:
                path.unlink()
