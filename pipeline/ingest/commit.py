"""Commit: a staged batch deduplicated against the warehouse and published whole, with its manifest rows.

The main process takes each worker's staged batch, lets deduplication (pipeline.ingest.dedup) choose the copy
that stays of every game, drops the staged copies that lost and the stored copies superseded, writes one
manifest row per file (and restates the earlier rows a better copy changes: see ``restate_earlier_rows``), and
commits the transaction: readers see the batch whole or not at all (pipeline.store.transaction).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

import pyarrow as pa
import pyarrow.compute as pc

from pipeline import __version__
from pipeline.errors import WarehouseError
from pipeline.ingest.batch import BatchOutcome
from pipeline.ingest.dedup import CONFLICTING, PARTIAL, Copy, Deduplicator, Resolution, conflict_message
from pipeline.ingest.known_files import COLUMNS as KNOWN_COLUMNS
from pipeline.ingest.known_files import KnownFiles
from pipeline.ingest.reading import FileResult
from pipeline.ingest.report import IngestReport
from pipeline.ingest.status import Verdict, decide, restatable
from pipeline.schema import new_buffers
from pipeline.store.transaction import Transaction
from pipeline.store.warehouse import Warehouse


@dataclass
class ManifestIndex:
    """What the main process keeps of the manifest: every path read before this run (-> content hash,
    paipu version) and, per fingerprint, the paths of rows a later copy may restate (status.RESTATABLE:
    duplicates, conflicts, partial copies). Updated as batches commit."""

    known: KnownFiles
    restatable: dict[str, set[str]]

    @classmethod
    def of_warehouse(cls, warehouse: Warehouse) -> ManifestIndex:
        """The index of the manifest as stored."""
        manifest = warehouse.read_manifest([*KNOWN_COLUMNS, "status", "reason", "error", "fingerprints"])
        # only the statuses that may be restatable become Python objects: not a million rows of "ok"
        candidates = manifest.filter(pc.is_in(manifest["status"], pa.array(["duplicate", "conflict", "quarantined"])))
        index = cls(KnownFiles(manifest), {})
        columns = ("path", "status", "reason", "error", "fingerprints")
        index.record({name: candidates[name].to_pylist() for name in columns})
        del manifest, candidates
        pa.default_memory_pool().release_unused()  # the manifest read whole is freed: give its pages back
        return index

    def record(self, rows: dict[str, list]) -> None:
        """Remember the restatable rows among manifest rows (per-column lists, as stored or committed)."""
        for path, status, reason, error, fingerprints in zip(
            rows["path"], rows["status"], rows["reason"], rows["error"], rows["fingerprints"], strict=True
        ):
            if restatable(status, reason or legacy_reason(status, error)):
                for fingerprint in fingerprints:
                    self.restatable.setdefault(fingerprint, set()).add(path)


def legacy_reason(status: str, error: str | None) -> str | None:
    """The reason code of a manifest row written before the manifest had one (paipu schema 5 and older), from
    its message's wording, for the statuses a later copy may restate (None for the others)."""
    error = error or ""
    if status == "conflict":
        return "round_disagrees" if CONFLICTING in error else "game_id_taken"
    if status == "duplicate":
        return "partial_copy" if PARTIAL in error else "copy_of_stored"
    return "no_complete_round" if status == "quarantined" and "no complete round" in error else None


def commit_batch(
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
    rows = manifest_rows(results)
    restated = restate_earlier_rows(rows, warehouse, resolution, {r.path for r in results}, index)
    _restamp_rows(rows, warehouse, outcome.restamped)
    new_paths_only = not restated and not outcome.restamped and not any(path in index.known for path in rows["path"])
    warehouse.upsert_manifest(rows, txn, new_paths_only)
    txn.commit()
    index.record(rows)
    dedup.record_written({fp: outcome.staged[fp] for fp in chosen})
    report.count_batch(results, resolution, restated)


def restate_earlier_rows(
    rows: dict[str, list], warehouse: Warehouse, resolution: Resolution, read: set[str], index: ManifestIndex
) -> list[tuple[str, str, str]]:
    """Rows of files read earlier (another batch or run) that hold a game now stored from this batch are
    restated as they would be had all been read in one batch: the file whose stored copy was superseded,
    a duplicate naming an older copy, or a partial copy quarantined for want of a stored one become
    duplicates naming the copy now stored (conflicts when the replaced copy disagrees with it: see
    Resolution.conflicting); status.decide says whether each may. Appends them to ``rows``; returns (path,
    new status, new message) of each."""
    by_fp = {game.fingerprint: game for game in resolution.chosen}
    candidates = {old.source_file for old, _ in resolution.superseded}
    for fingerprint in by_fp:
        candidates |= index.restatable.get(fingerprint, set())
    changed = []
    for row in warehouse.manifest_rows(candidates - read) if candidates - read else []:
        current = Verdict(row["status"], row.get("reason") or legacy_reason(row["status"], row["error"]), row["error"])
        holds = [fp for fp in row["fingerprints"] if fp in by_fp]
        if not holds or not (current.status == "ok" or restatable(current.status, current.reason)):
            continue  # no longer holds the game, or in a final state
        verdict = decide(*_restatement(row["path"], current, by_fp[holds[0]], resolution), current)
        row["status"], row["reason"], row["error"] = verdict.status, verdict.reason, verdict.message
        changed.append((row["path"], verdict.status, verdict.message or ""))
        _append_row(rows, row)
    return changed


_CONFLICT_ROUND = re.compile(r"round (\d+) differs")
"""The round a conflict's message (dedup.conflict_message) names."""


def _restatement(path: str, current: Verdict, new: Copy, resolution: Resolution) -> tuple[str, str]:
    """(reason code, message) of an earlier row holding a game whose copy ``new`` is now stored."""
    if path in resolution.conflicting:  # the replaced copy disagrees with its replacement
        return "round_disagrees", resolution.conflicting[path]
    if current.status == "conflict":  # it disagreed with the copy replaced: say the copy it disagrees with now
        differs = int(_CONFLICT_ROUND.search(current.message or "").group(1))  # type: ignore[union-attr]
        return "round_disagrees", conflict_message(path, differs, new)
    partial = current.reason in ("partial_copy", "no_complete_round")
    message = f"same game as {new.game_id}, stored from {new.source_file}{PARTIAL if partial else ''}"
    return ("partial_copy" if partial else "copy_of_stored"), message


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


def manifest_rows(results: list[FileResult]) -> dict[str, list]:
    """The manifest rows (per-column lists) of a batch's file results, stamped with this paipu version and now."""
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
