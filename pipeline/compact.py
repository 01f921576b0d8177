"""``paipu compact``: merge each partition's small part files into fewer, larger ones.

Every ingest batch writes one part per table per (source, year) partition, so a large warehouse holds
thousands of small files and its queries pay for opening each. Compaction groups a partition's games
parts (in name order) into runs of at most ``max_games`` games and rewrites each run as ONE part, under
the same relative path in every fact and derived table: the rows of the run's parts, concatenated part
after part (each part's rows in their stored order, so a game's rows stay together). The new part is named
``part-c<16 hex>.parquet``, the hex a hash of the old part names: deterministic, and never a batch part's
name (those hash the copies they hold).

Each run is one transaction (pipeline.store.transaction): the new files are staged, the old ones of every
table recorded as deleted, then published together, so a compaction killed at any point leaves the
warehouse with the same rows (``recover()``, run first by every command that writes, finishes or discards
the run in flight). The manifest is not touched: it names files read, not parts.

Parts are left alone when they are already large (at least half of ``max_games``), when their derived
tables are missing or were derived by another paipu or schema version (pipeline.derive.run.stale_parts:
the merged part would otherwise carry the current version and never be derived again), or when their fact
tables were written by an older schema (their columns differ). Run it when no ingest or derive is writing
to the warehouse.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.derive.run import stale_parts
from pipeline.errors import WarehouseError
from pipeline.executors import executor, ordered
from pipeline.schema import CURRENT_FACT_VERSIONS, DERIVED_TABLES, TABLES, stored_schema
from pipeline.store.lock import warehouse_lock
from pipeline.store.parquet import AtomicParquetWriter, read_part, remove_orphaned_temp_files
from pipeline.store.transaction import Transaction, recover, remove_empty_staging
from pipeline.store.upgrade import upgrade_stored_layouts
from pipeline.store.warehouse import Warehouse

DEFAULT_MAX_GAMES = 5_000
"""Games per merged part at most: a part is the unit that derive reads whole and rewrites, and that replacing
one of its games rewrites whole, so larger parts make those slower and use more memory (deriving a 5,000-game
part, read whole and derived 1,000 games at a time, peaks at 1.0 GB)."""

ROW_GROUP_ROWS = 1_000_000
"""Rows gathered (from consecutive old parts) before they are written as a row group of the new part."""

COMPACTED_PREFIX = "part-c"
"""Name prefix of a merged part: ``part-c`` + 16 hex is one character longer than a batch part's name
(``part-`` + 16 hex), so the two never coincide. A batch part's hex may itself start with ``c``: tell the
two apart with is_compacted_part, never by the prefix alone."""

_COMPACTED_NAME = re.compile(rf"{COMPACTED_PREFIX}[0-9a-f]{{16}}\.parquet")


@dataclass
class CompactReport:
    """What a compaction did: part files per table (fact and derived) before and after, the merged parts
    written, the games they hold, and the small games parts left alone for want of a current derivation
    (``underived``) or because their fact tables have an older schema (``old_schema``)."""

    parts_before: dict[str, int] = field(default_factory=dict)
    parts_after: dict[str, int] = field(default_factory=dict)
    runs: int = 0
    games_moved: int = 0
    underived: int = 0
    old_schema: int = 0


def plan_runs(parts: Sequence[tuple[str, int]], max_games: int) -> list[list[str]]:
    """Group one partition's games parts into runs to merge.

    Takes (part name, games in it) pairs and the most games a merged part may hold; returns the runs, each
    a list of part names (in name order) of at least two parts totalling at most ``max_games`` games. Parts
    are taken in name order and added to the current run while it stays within ``max_games``; a part with
    at least half of ``max_games`` games is left alone, and so is a run of one part.
    """
    runs: list[list[str]] = []
    run: list[str] = []
    total = 0
    for name, n_games in sorted(parts):
        if 2 * n_games >= max_games:
            continue
        if run and total + n_games > max_games:
            runs.append(run)
            run, total = [], 0
        run.append(name)
        total += n_games
    runs.append(run)
    return [r for r in runs if len(r) > 1]


def compacted_name(names: Sequence[str], attempt: int = 0) -> str:
    """Return the name of the part merging the parts ``names``: ``part-c`` + the 16-hex blake2b of the
    sorted names joined by '|' (``attempt`` > 0 salts the hash, for the unlikely case of a name taken)."""
    key = "|".join(sorted(names)) + (f"#{attempt}" if attempt else "")
    return f"{COMPACTED_PREFIX}{hashlib.blake2b(key.encode(), digest_size=8).hexdigest()}.parquet"


def is_compacted_part(name: str) -> bool:
    """Return whether the part file name ``name`` is a merged part's (``part-c`` + 16 hex + ``.parquet``)
    rather than a batch part's (``part-`` + 16 hex, which may start with ``c``)."""
    return _COMPACTED_NAME.fullmatch(name) is not None


def compact(
    warehouse: Warehouse,
    max_games: int = DEFAULT_MAX_GAMES,
    on_run: Callable[[int, int], None] | None = None,
    workers: int = 1,
) -> CompactReport:
    """Merge the small parts of every partition of ``warehouse`` (see the module docstring).

    Takes the warehouse, the most games a merged part may hold (>= 1), an optional ``on_run(done, total)``
    called after each merged part is published, and the local processes to merge runs in (each run is its own
    transaction, so they publish independently); returns a CompactReport. First finishes or discards what a
    killed run left staged. Raises WarehouseError when there is no warehouse or a part cannot be read or
    written (the runs published before stay, the ones in flight are finished or rolled back).
    """
    with warehouse_lock(warehouse.root, "compact"):  # one writer at a time
        if max_games < 1:
            raise ValueError(f"max_games must be at least 1, not {max_games}")
        if not warehouse.exists():
            raise WarehouseError(f"no warehouse at {warehouse.root} (run `paipu ingest` first)")
        root = warehouse.root
        recover(root)  # finish or discard what a killed run left staged
        remove_orphaned_temp_files(root)
        upgrade_stored_layouts(warehouse)  # facts of an older stored layout rewritten: mergeable with the rest
        tables = (*TABLES, *DERIVED_TABLES)
        report = CompactReport(parts_before={t: len(warehouse.table_files(t)) for t in tables})
        stale = set(stale_parts(warehouse))
        games_root = root / "games"
        partitions: dict[Path, list[tuple[str, int]]] = {}
        for part in warehouse.table_files("games"):
            n_games, schema_version = _games_footer(part)
            if schema_version in CURRENT_FACT_VERSIONS and part not in stale:
                partitions.setdefault(part.parent.relative_to(games_root), []).append((part.name, n_games))
            elif 2 * n_games < max_games:  # a small part left alone: say why
                if schema_version not in CURRENT_FACT_VERSIONS:
                    report.old_schema += 1
                else:
                    report.underived += 1
        runs = [
            MergeJob(root, folder, tuple(run))
            for folder, parts in sorted(partitions.items())
            for run in plan_runs(parts, max_games)
        ]
        try:
            with executor(workers, None, len(runs)) as pool:
                for done, moved in enumerate(ordered(pool, merge_run, runs), start=1):
                    report.games_moved += moved
                    report.runs += 1
                    if on_run:
                        on_run(done, len(runs))
        finally:
            remove_empty_staging(root)
        report.parts_after = {t: len(warehouse.table_files(t)) for t in tables}
        from pipeline.db import refresh_if_stored  # noqa: PLC0415 - at the end only

        refresh_if_stored(warehouse)  # the statistics' stored rollups, when made, kept in step
        return report


def _games_footer(part: Path) -> tuple[int, str]:
    """(rows, schema version) of a games part, from its footer."""
    try:
        meta = pq.read_metadata(part)
    except (OSError, pa.ArrowInvalid) as exc:
        raise WarehouseError(f"cannot read {part}: {exc}") from None
    version = (meta.metadata or {}).get(b"paipu_schema_version", b"?").decode()
    return meta.num_rows, version


@dataclass(frozen=True)
class MergeJob:
    """One run to merge: the parts ``names`` of the partition ``folder`` (relative to a table's folder) of the
    warehouse at ``root``."""

    root: Path
    folder: Path
    names: tuple[str, ...]


def merge_run(job: MergeJob) -> int:
    """Merge a run's parts into one part in one transaction, in every table; returns the games moved."""
    root, folder, names = job.root, job.folder, job.names
    attempt = 0
    while (root / "games" / folder / compacted_name(names, attempt)).exists():
        attempt += 1
    target = folder / compacted_name(names, attempt)
    olds = [folder / name for name in names]
    txn = Transaction(root)
    try:
        n_games = _check_game_ids([root / "games" / old for old in olds])
        for table in (*TABLES, *DERIVED_TABLES):
            txn.delete(Path(table) / target)  # a stray file at the new name (an orphan) must not survive
            sources = [root / table / old for old in olds if (root / table / old).is_file()]
            if sources:
                _concatenate(sources, txn.staged(Path(table) / target), stored_schema(table))
            for source in sources:
                txn.delete(source.relative_to(root))
        txn.commit()
    except BaseException:
        txn.abort()  # a transaction whose journal was written is kept: recover() finishes it
        raise
    return n_games


def _check_game_ids(parts: list[Path]) -> int:
    """Return the games in the games ``parts``; raise WarehouseError when a game id is in two of them (a
    game is removed from its part by id, so a merged part must hold each id once)."""
    ids = [read_part(part, columns=["game_id"])["game_id"] for part in parts]
    merged = pa.chunked_array([c for column in ids for c in column.chunks], pa.string())
    if pc.count_distinct(merged).as_py() != len(merged):
        raise WarehouseError(f"a game id is stored twice in the parts {[str(p) for p in parts]}: not merged")
    return len(merged)


def _concatenate(sources: list[Path], target: Path, schema: pa.Schema) -> None:
    """Write the rows of ``sources`` (one table's parts), part after part, to ``target`` with the declared
    ``schema``; consecutive parts are gathered into row groups of about ROW_GROUP_ROWS rows, so memory is
    bounded by that and one part."""
    with AtomicParquetWriter(target, schema, row_group_rows=ROW_GROUP_ROWS) as writer:
        for source in sources:
            table = read_part(source)
            try:
                table = table.select(schema.names).cast(schema)
            except (KeyError, pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError) as exc:
                raise WarehouseError(f"{source} does not hold the declared columns of its table: {exc}") from None
            writer.write(table)
