"""Ingest: input files -> parsed games -> deduplicated Parquet parts + one manifest row per file.

Files are processed in batches (pipeline.batch): a worker reads a batch, stages the best copy of each of its
games (every fact table) and, when asked, their derived tables, in its own transaction folder. The main
process takes the batches back in order, deduplicates them against the whole warehouse (pipeline.dedup),
drops the copies that lost from the staged parts, rewrites parts whose stored copy was superseded, stages
the manifest, and commits: a batch is published whole or not at all (pipeline.store.transaction), so a run
killed at any point is finished (or rolled back) by the next, which then reads only what is not in the
manifest. Memory is bounded by the batch size, per worker.

Containers (zip, tar, compressed tar, log databases) are read in place, one manifest row per member, named
'<container path>!/<member>' (see pipeline.containers). What the manifest holds from this paipu version is
skipped as unchanged: a plain file whose size and modification time are those recorded is not even opened
(unless ``rehash``); any other entry is read, and skipped when its content hash is the recorded one.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from pipeline import __version__
from pipeline.batch import BatchJob, BatchOutcome, run_batch
from pipeline.containers import Entry
from pipeline.dedup import CONFLICTING, Deduplicator, Resolution, conflict_message
from pipeline.errors import WarehouseError
from pipeline.executors import executor, ordered
from pipeline.known_files import COLUMNS as KNOWN_COLUMNS
from pipeline.known_files import KnownFiles
from pipeline.limits import DEFAULT_LIMITS, Limits
from pipeline.reading import (
    PARSERS,
    STATUSES,
    FileResult,
    content_hash,
    detect_format,
    discover_files,
    discover_paths,
    expand_entries,
    read_file,
    unchanged_on_disk,
)  # fmt: skip
from pipeline.schema import new_buffers
from pipeline.store.lock import warehouse_lock
from pipeline.store.parquet import remove_orphaned_temp_files
from pipeline.store.stored_index import StoredIndex
from pipeline.store.transaction import Transaction, recover, remove_empty_staging
from pipeline.store.warehouse import Warehouse

__all__ = [
    "PARSERS", "STATUSES", "FileResult", "IngestReport", "content_hash", "detect_format", "discover_files",
    "discover_paths", "ingest", "read_file",
]  # fmt: skip


@dataclass
class IngestReport:
    """Counts of one ingest run and the files that were not stored as ok."""

    files: dict[str, int] = field(default_factory=lambda: dict.fromkeys((*STATUSES, "unchanged"), 0))
    games: int = 0
    rounds: int = 0
    problems: list[tuple[str, str, str]] = field(default_factory=list)
    derived: bool = False
    """Whether the parts written were derived in the same transactions."""
    status_by_file: dict[str, str] = field(default_factory=dict, repr=False)
    """Status of every file read in this run (to move a file to duplicate when its copy is superseded)."""

    @property
    def all_read(self) -> bool:
        """True when no file was quarantined."""
        return self.files["quarantined"] == 0


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
    FileNotFoundError for a missing input path and WarehouseError when the warehouse cannot be written;
    per-file problems never raise. ``files``: ``discover_paths(paths)`` when the caller already has it (the
    list is consumed: each file's place is emptied as its entries are made, containers opened batch by batch).
    ``rehash`` reads every file the manifest holds to compare its content hash, even when its size and
    modification time are those recorded. ``limits`` bound what reading one file or member may cost (its
    size once decompressed, a log database's rows and query time: pipeline.limits); ``follow_links`` follows
    symbolic links out of the input folders (see reading.discover_paths).
    """
    with warehouse_lock(warehouse.root, "ingest"):  # one writer at a time (reentrant: the CLI may hold it)
        files = discover_paths(paths, follow_links) if files is None else files
        if warehouse.root.is_dir():
            recover(warehouse.root)  # finish or discard what a killed run left staged
            remove_orphaned_temp_files(warehouse.root)
        index = ManifestIndex(*_read_manifest_index(warehouse))
        dedup = Deduplicator(StoredIndex.of_warehouse(warehouse))
        report = IngestReport(derived=derive)
        started: list[str] = []  # the transactions of the batches handed out so far
        jobs = _batch_jobs(files, batch_size, warehouse, index.known, file_format, derive, started, rehash, limits)
        with executor(workers, scheduler, -(-len(files) // max(batch_size, 1))) as pool:
            try:
                for outcome in ordered(pool, run_batch, jobs):
                    _commit_batch(outcome, warehouse, dedup, report, index)
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


@dataclass
class ManifestIndex:
    """What the main process keeps of the manifest: every path read before this run (-> content hash,
    paipu version) and, per fingerprint, the paths of rows a later copy may restate (see
    _restate_earlier_rows): duplicates and partial copies. Updated as batches commit."""

    known: KnownFiles
    restatable: dict[str, set[str]]

    def record(self, rows: dict[str, list]) -> None:
        """Remember the restatable rows among a committed batch's manifest rows."""
        for path, status, error, fingerprints in zip(
            rows["path"], rows["status"], rows["error"], rows["fingerprints"], strict=True
        ):
            if _is_restatable(status, error):
                for fingerprint in fingerprints:
                    self.restatable.setdefault(fingerprint, set()).add(path)


def _commit_batch(
    outcome: BatchOutcome, warehouse: Warehouse, dedup: Deduplicator, report: IngestReport, index: ManifestIndex
) -> None:
    """Deduplicate a staged batch against the warehouse, stage the manifest, and publish it all."""
    txn = Transaction(warehouse.root, outcome.name)
    report.files["unchanged"] += outcome.unchanged
    results = outcome.results
    if not results:
        _commit_restamped(outcome.restamped, warehouse, txn)
        return
    resolution = dedup.resolve(results)
    chosen = {game.fingerprint for game in resolution.chosen}
    missing = chosen - set(outcome.staged)
    if missing:  # dedup.best_copies stages every copy dedup may choose
        raise WarehouseError(f"internal error: batch {outcome.name} chose copies it did not stage: {sorted(missing)}")
    losers = [stored for fp, stored in outcome.staged.items() if fp not in chosen]
    superseded = [old for old, new in resolution.superseded if old.part != outcome.staged[new.fingerprint].part]
    warehouse.remove_games(losers + superseded, txn)
    rows = _manifest_rows(results)
    restated = _restate_earlier_rows(rows, warehouse, resolution, {r.path for r in results}, index)
    _restamp_rows(rows, warehouse, outcome.restamped)
    new_paths_only = not restated and not outcome.restamped and not any(path in index.known for path in rows["path"])
    warehouse.upsert_manifest(rows, txn, new_paths_only)
    txn.commit()
    index.record(rows)
    dedup.record_written({fp: outcome.staged[fp] for fp in chosen})
    _count(report, results, resolution, restated)


PARTIAL = " (a partial copy with no complete round)"
"""Said of a duplicate whose copy had no complete round (see dedup)."""

_CONFLICT_ROUND = re.compile(r"round (\d+) differs")


def _is_restatable(status: str, error: str | None) -> bool:
    """Whether a manifest row may be restated by a later copy of its game: a duplicate, a copy in conflict with
    the stored one, or a partial copy quarantined for want of a stored one."""
    if status == "conflict":
        return CONFLICTING in (error or "")
    return status == "duplicate" or (status == "quarantined" and "no complete round" in (error or ""))


def _restate_earlier_rows(
    rows: dict[str, list], warehouse: Warehouse, resolution: Resolution, read: set[str], index: ManifestIndex
) -> list[tuple[str, str, str]]:
    """Rows of files read earlier (another batch or run) that hold a game now stored from this batch are
    restated as they would be had all been read in one batch: the file whose stored copy was superseded,
    a duplicate naming an older copy, or a partial copy quarantined for want of a stored one become
    duplicates naming the copy now stored (conflicts when the replaced copy disagrees with it: see
    Resolution.conflicting). Appends them to ``rows``; returns (path, new status, new message) of each."""
    by_fp = {game.fingerprint: game for game in resolution.chosen}
    candidates = {old.source_file for old, _ in resolution.superseded}
    for fingerprint in by_fp:
        candidates |= index.restatable.get(fingerprint, set())
    candidates -= read
    changed = []
    for row in warehouse.manifest_rows(candidates) if candidates else []:
        error = row["error"] or ""
        partial = PARTIAL in error or (row["status"] == "quarantined" and "no complete round" in error)
        holds = [fp for fp in row["fingerprints"] if fp in by_fp]
        if not holds or (row["status"] == "quarantined" and not partial):
            continue  # no longer holds the game, or quarantined for another reason
        new = by_fp[holds[0]]
        if row["path"] in resolution.conflicting:  # the replaced copy disagrees with its replacement
            row["status"], row["error"] = "conflict", resolution.conflicting[row["path"]]
            row["reason"] = "round_disagrees"
        elif row["status"] == "conflict":  # it disagreed with the copy replaced, which agrees with the new one
            differs = int(_CONFLICT_ROUND.search(error).group(1))  # type: ignore[union-attr]
            row["error"], row["reason"] = conflict_message(row["path"], differs, new), "round_disagrees"
        else:
            row["status"], row["reason"] = "duplicate", "partial_copy" if partial else "copy_of_stored"
            row["error"] = f"same game as {new.game_id}, stored from {new.source_file}{PARTIAL if partial else ''}"
        changed.append((row["path"], row["status"], row["error"]))
        _append_row(rows, row)
    return changed


def _append_row(rows: dict[str, list], row: dict) -> None:
    """Append a manifest row as stored (a dict of its columns) to per-column lists; a column a part written by an
    older paipu lacks (``reason``) is null."""
    for name, values in rows.items():
        values.append(row.get(name))


def _restamp_rows(rows: dict[str, list], warehouse: Warehouse, restamped: dict[str, int]) -> None:
    """Give the manifest rows of files found unchanged by their content their modification time now (``restamped``:
    path -> ns): rows already among ``rows`` (restated) in place, the others appended as stored."""
    if not restamped:
        return
    for i, path in enumerate(rows["path"]):
        if path in restamped:
            rows["mtime_ns"][i] = restamped[path]
    for row in warehouse.manifest_rows(set(restamped) - set(rows["path"])):
        row["mtime_ns"] = restamped[row["path"]]
        _append_row(rows, row)


def _commit_restamped(restamped: dict[str, int], warehouse: Warehouse, txn: Transaction) -> None:
    """Publish a batch that read nothing new: its files' new modification times, if any (see _restamp_rows)."""
    if not restamped:
        txn.abort()
        return
    rows = new_buffers("manifest")
    _restamp_rows(rows, warehouse, restamped)
    warehouse.upsert_manifest(rows, txn)
    txn.commit()


def _read_manifest_index(warehouse: Warehouse) -> tuple[KnownFiles, dict[str, set[str]]]:
    """The ManifestIndex fields from the manifest as stored."""
    manifest = warehouse.read_manifest([*KNOWN_COLUMNS, "status", "error", "fingerprints"])
    # only the statuses that may be restatable become Python objects: not a million rows of "ok"
    candidates = manifest.filter(pc.is_in(manifest["status"], pa.array(["duplicate", "conflict", "quarantined"])))
    restatable: dict[str, set[str]] = {}
    for path, status_, error_, fingerprints in zip(
        *(candidates[name].to_pylist() for name in ("path", "status", "error", "fingerprints")), strict=True
    ):
        if _is_restatable(status_, error_):
            for fingerprint in fingerprints:
                restatable.setdefault(fingerprint, set()).add(path)
    known = KnownFiles(manifest)
    del manifest, candidates
    pa.default_memory_pool().release_unused()  # the manifest read whole is freed: give its pages back
    return known, restatable


def _manifest_rows(results: list[FileResult]) -> dict[str, list]:
    rows = new_buffers("manifest")
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    for r in results:
        for name, value in (
            ("path", r.path), ("size", r.size), ("mtime_ns", r.mtime_ns), ("content_hash", r.content_hash),
            ("format", r.format),
            ("status", r.status), ("reason", r.reason), ("error", r.error), ("n_games", len(r.game_ids)),
            ("game_ids", r.game_ids),
            ("fingerprints", r.fingerprints),
            ("paipu_version", __version__), ("ingested_at", now),
        ):  # fmt: skip
            rows[name].append(value)
    return rows


def _count(
    report: IngestReport, results: list[FileResult], resolution: Resolution, restated: list[tuple[str, str, str]]
) -> None:
    """Add a committed batch to the report; files of this run restated as duplicates are moved (and a
    superseded copy stored earlier in this run taken back out), so the report describes the warehouse as
    it now is."""
    for r in results:
        report.files[r.status] += 1
        report.status_by_file[r.path] = r.status
        if r.status != "ok":
            report.problems.append((r.path, r.status, r.error or ""))
    for path, status, error in restated:
        old = report.status_by_file.get(path)
        if old is None:
            continue  # read by an earlier run
        report.files[old] -= 1
        report.files[status] += 1
        report.status_by_file[path] = status
        report.problems = [p for p in report.problems if p[0] != path]
        report.problems.append((path, status, error))
    read = {r.path for r in results}
    for old, _ in resolution.superseded:
        if old.source_file in report.status_by_file and old.source_file not in read:  # stored earlier this run
            report.games -= 1
            report.rounds -= old.completeness[1]  # completeness_key: (complete, rounds, events, named)
    report.games += len(resolution.chosen)
    report.rounds += sum(g.n_rounds for g in resolution.chosen)
