"""One batch of files, read, written and derived in a staging transaction: the unit of work a worker runs.

A batch job is self-contained and picklable (entries, the manifest's knowledge of them, the warehouse path),
so the same function runs inline, in a local process pool or on a Dask cluster. It never touches the
published warehouse: it reads its files, stages the most complete copy of each game it read (every fact
table, one part per source and year) and, when asked, the derived tables of those parts, all in its own
transaction folder. The ingest's main process then deduplicates against the whole warehouse and commits
(pipeline.ingest.commit), so the result does not depend on how many workers ran or where.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from pipeline.derive.inputs import PartTables
from pipeline.derive.run import derive_staged
from pipeline.errors import SchemaError
from pipeline.identity import round_digests
from pipeline.ingest import containers
from pipeline.ingest.containers import Entry
from pipeline.ingest.dedup import GameCopy, best_copies, id_layers
from pipeline.ingest.reading import FileResult, KnownFile, read_entry
from pipeline.invariants import failing_games
from pipeline.schema import TABLES, to_arrow
from pipeline.sources.base import ParsedGame, concat_buffers
from pipeline.store.game_tables import GameTables
from pipeline.store.transaction import Transaction
from pipeline.store.warehouse import StoredGame, Warehouse, write_order


@dataclass
class BatchJob:
    """What a worker needs to process one batch."""

    root: Path
    """The warehouse folder (shared by every worker)."""
    name: str
    """The batch's transaction name (its staging folder)."""
    entries: list[Entry]
    known: dict[str, KnownFile]
    """Entry name -> what the manifest says of it, for the entries of this batch read before."""
    file_format: str | None = None
    derive: bool = True
    unread: int = 0
    """Files the main process skipped before this batch without reading them (unchanged on disk)."""


@dataclass
class BatchOutcome:
    """What a worker sends back: per-file results (games as GameCopy), the staged copies and their parts."""

    name: str
    results: list[FileResult]
    staged: dict[str, StoredGame] = field(default_factory=dict)
    """fingerprint -> the staged copy (``part``: where its games part goes once committed)."""
    unchanged: int = 0
    """Entries skipped as unchanged: in the manifest from this paipu version with the same content, or (``unread``)
    with the same size and modification time."""
    restamped: dict[str, int] = field(default_factory=dict)
    """Plain files found unchanged by their content whose modification time is not the one recorded: name -> the
    time now (ns), for the manifest, so that the next run need not read them."""


def run_batch(job: BatchJob) -> BatchOutcome:
    """Read a batch's entries, stage the best copy of every game in the job's transaction and derive them.

    Returns the outcome; per-file problems are results, never exceptions. Raises WarehouseError when the
    staging folder cannot be written (the transaction is then discarded).
    """
    txn = Transaction(job.root, job.name)
    try:
        with _collector_paused():
            outcome, written = _stage(job, txn)
            if job.derive and written:
                derive_staged(txn, written)
            del written  # the batch's tables, freed before the collector runs again
    except BaseException:
        txn.abort()
        raise
    finally:
        containers.close_all()
    return outcome


def _stage(job: BatchJob, txn: Transaction) -> tuple[BatchOutcome, dict[Path, PartTables]]:
    """Read the entries and stage the best copies; returns the outcome and the staged parts' tables (by the
    part's path relative to a table folder)."""
    results: list[FileResult] = []
    unchanged = job.unread
    restamped: dict[str, int] = {}
    for entry in job.entries:
        result = read_entry(entry, job.known, job.file_format)
        if result is not None:
            results.append(result)
            continue
        unchanged += 1
        if entry.mtime_ns is not None and entry.mtime_ns != job.known[entry.name].mtime_ns:
            restamped[entry.name] = entry.mtime_ns
    batch = _check_every_copy(results)
    staged, written = _write(Warehouse(job.root), results, txn, batch)
    digests = batch.per_game("rounds", round_digests(batch.tables["rounds"]))
    for result in results:  # the rows stay behind, staged
        result.games = [GameCopy.of(game, tuple(digests[id(game)].tolist())) for game in result.games]
    return BatchOutcome(job.name, results, staged, unchanged, restamped), written


STORE_ERRORS = (SchemaError, pa.ArrowException, OverflowError, TypeError, ValueError)
"""What converting a game's rows to its tables' Arrow types raises when a value does not fit."""


def _write(
    warehouse: Warehouse, results: list[FileResult], txn: Transaction, batch: GameTables
) -> tuple[dict[str, StoredGame], dict[Path, PartTables]]:
    """Stage the best copy of every game of the results (layer by layer: see dedup.id_layers), their rows taken
    from ``batch``; returns the staged copies by fingerprint and the staged parts' tables."""
    games = [game for result in results for game in result.games]
    staged: dict[str, StoredGame] = {}
    written: dict[Path, PartTables] = {}
    for layer in id_layers(best_copies(games)):
        staged.update(warehouse.write_games(layer, txn, written, batch))
    return staged, written


def _quarantine_unstorable(results: list[FileResult]) -> None:
    """Quarantine the files holding a game whose rows cannot be converted to the declared tables (the
    parsers check what they read; this catches what they missed), naming the file, game and table."""
    for result in results:
        problem = next((p for game in result.games if (p := _unstorable(game)) is not None), None)
        if problem is not None:
            result.found("unstorable", f"{result.path}: {problem}")


def _unstorable(game: ParsedGame) -> str | None:
    """Why a game's rows cannot be stored ('game <id>: cannot be stored in table <t> (...)'), or None."""
    for table in TABLES:
        try:
            to_arrow(table, concat_buffers([game], table))
        except STORE_ERRORS as exc:
            why = str(exc).replace("\n", " ")[:300]
            return f"game {game.game_id}: cannot be stored in table {table} ({why})"
    return None


def _failing_copies(batch: GameTables) -> dict[int, str]:
    """id(game) -> the invariant check it fails, for every game of the batch (checked layer by layer: a layer
    holds each game id once)."""
    return {k: v for layer in id_layers(batch.games) for k, v in failing_games(layer, batch.of(layer)).items()}


def _batch_tables(results: list[FileResult]) -> GameTables:
    """The tables of every game the results read, in the order write_games writes them (write_order): a part's
    games then come as one run of rows. Raises what schema.to_arrow raises when a value does not fit."""
    return GameTables(sorted((game for result in results for game in result.games), key=write_order))


def _check_every_copy(results: list[FileResult]) -> GameTables:
    """Quarantine the files holding a game whose values do not fit their columns, or that fails an invariant
    check (pipeline.invariants): every copy read is checked, not only the one stored, so a file's status does
    not depend on which other copies share its batch. Returns the tables of the games read (those of the
    files quarantined here among them: the batch takes the rows of the games it keeps)."""
    try:
        batch = _batch_tables(results)
    except STORE_ERRORS:  # some value does not fit its column: find the games, quarantine their files
        _quarantine_unstorable(results)
        batch = _batch_tables(results)
    failing = _failing_copies(batch)
    for result in results:
        bad = next((game for game in result.games if id(game) in failing), None)
        if bad is not None:
            result.found("invariant_check", f"{result.path}: game {bad.game_id} {failing[id(bad)]}")
    return batch


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector during a batch: parsing, writing and deriving make no cycles,
    and full collections over a batch's many objects cost a fifth of the time, freeing nothing. The batch's
    games are freed by reference counting once it is written."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
