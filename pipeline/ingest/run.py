"""The ingest run: input paths -> batches read by workers -> each batch committed by the main process.

Files are processed in batches (pipeline.ingest.batch): a worker reads a batch, stages the best copy of each of
its games (every fact table) and, when asked, their derived tables, in its own transaction folder. The main
process takes the batches back in order and commits them (pipeline.ingest.commit): a batch is published whole
or not at all, so a run killed at any point is finished (or rolled back) by the next, which then reads only
what is not in the manifest. Memory is bounded by the batch size, per worker. One writer at a time holds the
warehouse's lock (pipeline.store.lock).

What the manifest holds from this paipu version is skipped as unchanged: a plain file whose size and
modification time are those recorded is not even opened (unless ``rehash``); any other entry is read, and
skipped when its content hash is the recorded one.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from pipeline.executors import executor, ordered
from pipeline.ingest.batch import BatchJob, run_batch
from pipeline.ingest.commit import ManifestIndex, commit_batch
from pipeline.ingest.containers import Entry
from pipeline.ingest.dedup import Deduplicator
from pipeline.ingest.discovery import discover_paths, expand_entries
from pipeline.ingest.known_files import KnownFiles
from pipeline.ingest.reading import unchanged_on_disk
from pipeline.ingest.report import IngestReport
from pipeline.limits import DEFAULT_LIMITS, Limits
from pipeline.store.lock import warehouse_lock
from pipeline.store.parquet import remove_orphaned_temp_files
from pipeline.store.stored_index import StoredIndex
from pipeline.store.transaction import Transaction, recover, remove_empty_staging
from pipeline.store.upgrade import upgrade_stored_layouts
from pipeline.store.versions import require_readable
from pipeline.store.warehouse import Warehouse


def ingest(
    paths: Iterable[Path],
    warehouse: Warehouse,
    batch_size: int = 1000,
    on_file: Callable[[int], None] | None = None,
    file_format: str | None = None,
    derive: bool = False,
    workers: int = 1,
    scheduler: str | None = None,
    files: list[str] | None = None,
    rehash: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    follow_links: bool = False,
) -> IngestReport:
    """Ingest files and folders into the warehouse; return the report.

    ``derive`` derives the games written in the same transactions; ``workers`` local processes run the
    batches (or the Dask ``scheduler``, see pipeline.executors); the result is the same for any of them.
    ``on_file(n_games)`` is called for each file as its batch is committed (progress display); ``file_format``
    (a PARSERS name) forces the format instead of detecting it from each file's content. Raises
    FileNotFoundError for a missing input path and WarehouseError when the warehouse cannot be written (or
    holds facts of a schema version this paipu does not read: pipeline.store.versions; facts of an older stored
    layout are rewritten first, pipeline.store.upgrade);
    per-file problems never raise. ``files``: ``discover_paths(paths)`` when the caller already has it (the
    list is consumed: each file's place is emptied as its entries are made, containers opened batch by batch).
    ``rehash`` reads every file the manifest holds to compare its content hash, even when its size and
    modification time are those recorded. ``limits`` bound what reading one file or member may cost (its
    size once decompressed, a log database's rows and query time: pipeline.limits); ``follow_links`` follows
    symbolic links out of the input folders (see discovery.discover_paths).
    """
    with warehouse_lock(warehouse.root, "ingest"):  # one writer at a time (reentrant: the CLI may hold it)
        files = discover_paths(paths, follow_links) if files is None else files
        if warehouse.root.is_dir():
            recover(warehouse.root)  # finish or discard what a killed run left staged
            remove_orphaned_temp_files(warehouse.root)
            upgrade_stored_layouts(warehouse)  # facts of an older stored layout rewritten in the current one
            require_readable(warehouse, derived=False)  # never new parts beside facts stored otherwise
        index = ManifestIndex.of_warehouse(warehouse)
        dedup = Deduplicator(StoredIndex.of_warehouse(warehouse))
        report = IngestReport(derived=derive)
        started: list[str] = []  # the transactions of the batches handed out so far
        jobs = _batch_jobs(files, batch_size, warehouse, index.known, file_format, derive, started, rehash, limits)
        with executor(workers, scheduler, -(-len(files) // max(batch_size, 1))) as pool:
            try:
                for outcome in ordered(pool, run_batch, jobs):
                    commit_batch(outcome, warehouse, dedup, report, index)
                    if on_file:
                        for result in outcome.results:
                            on_file(len(result.game_ids))
                        for _ in range(outcome.unchanged):
                            on_file(0)
            except BaseException:
                for name in started:  # staged batches not committed (a later run would discard them anyway)
                    Transaction(warehouse.root, name).abort()
                raise
            finally:
                remove_empty_staging(warehouse.root)
        from pipeline.db import refresh_if_stored  # noqa: PLC0415 - at the end only

        refresh_if_stored(warehouse)  # the statistics' stored rollups, when made, kept in step
        return report


def _batch_jobs(
    files: list[str],
    size: int,
    warehouse: Warehouse,
    known: KnownFiles,
    file_format: str | None,
    derive: bool,
    started: list[str],
    rehash: bool = False,
    limits: Limits = DEFAULT_LIMITS,
) -> Iterator[BatchJob]:
    """The batches of the entries of ``files`` as jobs, made as they are asked for (each job's name appended to
    ``started``): a run's memory holds the entries of the batches in flight, not a million of them."""
    for batch, unread in _batches(files, size, KnownFiles.empty() if rehash else known, limits, file_format):
        job = BatchJob(
            warehouse.root, uuid.uuid4().hex, batch, known.of(e.name for e in batch), file_format, derive, unread
        )
        started.append(job.name)
        yield job


def _batches(
    files: list[str], size: int, known: KnownFiles, limits: Limits = DEFAULT_LIMITS, file_format: str | None = None
) -> Iterator[tuple[list[Entry], int]]:
    """Consecutive batches of the entries of ``files`` (a container's members in its order; each entry to be
    read within ``limits``), made as they are asked for, each with the number of files skipped unread before it
    (unchanged on disk since ``known`` was recorded, and read as ``file_format`` when one is forced); a batch
    and its skipped files make at most ``size``. Each file's place in ``files`` is emptied (None) once it is
    dealt with."""
    batch: list[Entry] = []
    unread = 0
    for i, name in enumerate(files):
        files[i] = None  # type: ignore[call-overload]  # released: each entry carries its own name
        if unchanged_on_disk(name, known.get(name), file_format):
            unread += 1
        else:
            batch.extend(expand_entries([name], limits))
        while len(batch) + unread >= size:
            taken = batch[:size]
            yield taken, min(unread, size - len(taken))
            unread -= min(unread, size - len(taken))
            batch = batch[size:]
    if batch or unread:
        yield batch, unread
