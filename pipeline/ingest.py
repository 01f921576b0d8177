"""Ingest: input files -> parsed games -> deduplicated Parquet parts + one manifest row per file.

Files are read in batches; each batch's games are written before the next batch is read, so
memory is bounded by the batch size. Containers (zip, tar, compressed tar, log databases) are read
in place, one manifest row per member, named '<container path>!/<member>' (see pipeline.containers).
An entry whose name and content hash are already in the manifest (read by this paipu version) is
skipped as unchanged.
"""

from __future__ import annotations

import gc
import gzip
import hashlib
import os
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pipeline import __version__, containers
from pipeline.containers import Entry
from pipeline.dedup import Deduplicator, Resolution
from pipeline.errors import NotALogError, ParseError
from pipeline.schema import new_buffers
from pipeline.sources import majsoul, mjai, tenhou_json, tenhou_xml
from pipeline.sources.base import ParsedGame
from pipeline.store.parquet import remove_orphaned_temp_files
from pipeline.store.warehouse import Warehouse

PARSERS: dict[str, Callable[[bytes, str], list[ParsedGame]]] = {
    tenhou_xml.SOURCE: tenhou_xml.parse,
    tenhou_json.SOURCE: tenhou_json.parse,
    mjai.SOURCE: mjai.parse,
    majsoul.SOURCE: majsoul.parse,
}
"""Format name -> parse function; every format exposes the same signature."""

STATUSES = ("ok", "duplicate", "quarantined", "not_a_log")
"""Manifest statuses of a file."""


def discover_files(paths: Iterable[Path]) -> list[Entry]:
    """Expand files and folders (recursively) into the entries to read, files sorted by absolute path: a plain
    file is one entry, a container (detected by content) one entry per member, in the container's order.

    Hidden files and folders are skipped. Raises FileNotFoundError for a path that does not exist.
    """
    found: set[Path] = set()
    for path in paths:
        if path.is_file():
            found.add(path.resolve())
        elif path.is_dir():
            found.update(_files_below(path.resolve()))
        else:
            raise FileNotFoundError(f"no such file or folder: {path}")
    return [entry for path in sorted(found) for entry in containers.entries(path)]


def _files_below(folder: Path) -> Iterator[Path]:
    """Yield the files below a folder (absolute), skipping hidden files and folders."""
    for root, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        base = Path(root)
        yield from (base / name for name in names if not name.startswith(".") and (base / name).is_file())


def detect_format(data: bytes) -> str | None:
    """Return the format name of a file's bytes (looked at, not guessed from the name), or None.

    Gzip-compressed bytes are looked at inside (the first 64 KiB)."""
    if data[:2] == b"\x1f\x8b":
        data = _gzip_head(data)
        if not data:  # corrupt: the Tenhou XML reader (gzip is its archive's own form) reports it
            return tenhou_xml.SOURCE
    if b"<mjloggm" in data[:4096]:
        return tenhou_xml.SOURCE
    if tenhou_json.looks_like(data):
        return tenhou_json.SOURCE
    if majsoul.looks_like(data):
        return majsoul.SOURCE
    if mjai.looks_like(data):
        return mjai.SOURCE
    return None


def _gzip_head(data: bytes, size: int = 65536) -> bytes:
    """The first ``size`` bytes inside gzip data ('' when it is corrupt: the parser then says why)."""
    try:
        return zlib.decompressobj(wbits=31).decompress(data, size)
    except zlib.error:
        return b""


def _gunzip(data: bytes, path: Path) -> bytes:
    """Decompress gzip data; raises ParseError naming the file when it is corrupt."""
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:
        raise ParseError(f"{path}: corrupt gzip data ({exc})") from None


def content_hash(data: bytes) -> str:
    """Return the BLAKE2b-128 hex digest of a file's bytes."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass
class FileResult:
    """What became of one input file."""

    path: str
    size: int
    content_hash: str
    format: str | None
    status: str = "ok"
    error: str | None = None
    games: list[ParsedGame] = field(default_factory=list)
    game_ids: list[str] = field(default_factory=list)
    fingerprints: list[str] = field(default_factory=list)


@dataclass
class IngestReport:
    """Counts of one ingest run and the files that were not stored as ok."""

    files: dict[str, int] = field(default_factory=lambda: dict.fromkeys((*STATUSES, "unchanged"), 0))
    games: int = 0
    rounds: int = 0
    problems: list[tuple[str, str, str]] = field(default_factory=list)
    changed_parts: set[Path] = field(default_factory=set)
    """Games parts written or rewritten: their derived tables must be derived again."""

    @property
    def all_read(self) -> bool:
        """True when no file was quarantined."""
        return self.files["quarantined"] == 0


def read_file(path: Path, data: bytes | None = None, file_format: str | None = None) -> FileResult:
    """Parse one file (its bytes, when already read) as ``file_format`` (default: detected from the
    content); failures become a quarantined / not_a_log result."""
    data = path.read_bytes() if data is None else data
    fmt = file_format or detect_format(data)
    result = FileResult(str(path), len(data), content_hash(data), fmt)
    if fmt is None:
        result.status, result.error = "not_a_log", f"{path}: not a game log of any known format"
        return result
    try:
        if fmt != tenhou_xml.SOURCE and data[:2] == b"\x1f\x8b":
            data = _gunzip(data, path)
        result.games = PARSERS[fmt](data, str(path))
    except NotALogError as exc:
        result.status, result.error = "not_a_log", str(exc)
    except ParseError as exc:
        result.status, result.error = "quarantined", str(exc)
    return result


def _batches(items: list[Entry], size: int) -> Iterator[list[Entry]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def ingest(
    paths: Iterable[Path],
    warehouse: Warehouse,
    batch_size: int = 2000,
    on_file: Callable[[int], None] | None = None,
    file_format: str | None = None,
) -> IngestReport:
    """Ingest files and folders into the warehouse; return the report.

    ``on_file(n_games)`` is called after each file is read (for progress display); ``file_format``
    (a PARSERS name) forces the format instead of detecting it from each file's content. Raises
    FileNotFoundError for a missing input path and WarehouseError when the warehouse cannot be
    written; per-file problems never raise.
    """
    files = discover_files(paths)
    if warehouse.root.is_dir():
        remove_orphaned_temp_files(warehouse.root)  # left by a run that was killed mid-write
    known = _known_files(warehouse)
    dedup = Deduplicator(warehouse.stored_games())
    report = IngestReport()
    with _collector_paused():
        try:
            for batch in _batches(files, batch_size):
                _ingest_batch(batch, warehouse, dedup, known, report, on_file, file_format)
        finally:
            containers.close_all()
    return report


def _ingest_batch(
    batch: list[Entry],
    warehouse: Warehouse,
    dedup: Deduplicator,
    known: dict[str, tuple[str, str]],
    report: IngestReport,
    on_file: Callable[[int], None] | None,
    file_format: str | None = None,
) -> None:
    """Read, deduplicate and write one batch of files, and record them in the manifest."""
    results = _read_batch(batch, known, report, on_file, file_format)
    resolution = dedup.resolve(results)
    report.changed_parts |= warehouse.remove_games([old for old, _ in resolution.superseded])
    written = warehouse.write_games(resolution.chosen)
    report.changed_parts |= {stored.part for stored in written.values()}
    dedup.record_written(written)
    rows = _manifest_rows(results)
    _add_superseded_rows(rows, warehouse, resolution, {r.path for r in results})
    warehouse.upsert_manifest(rows)
    _count(report, results, resolution.chosen)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector during the ingest: parsing and writing make no
    cycles, and full collections over a batch's many objects cost a fifth of the time, freeing nothing.
    A batch's games are freed by reference counting once the batch is written."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _read_batch(
    batch: list[Entry],
    known: dict[str, tuple[str, str]],
    report: IngestReport,
    on_file: Callable[[int], None] | None,
    file_format: str | None = None,
) -> list[FileResult]:
    """Read the entries of one batch (skipping unchanged ones); every failure becomes a result."""
    results = []
    for entry in batch:
        try:
            result = _read_unless_unchanged(entry, known, file_format)
        except containers.ContainerError as exc:  # its message names the container and the member
            result = FileResult(entry.name, 0, "", None, "quarantined", str(exc))
        except OSError as exc:
            result = FileResult(entry.name, 0, "", None, "quarantined", f"{entry.name}: cannot read ({exc.strerror})")
        if result is None:
            report.files["unchanged"] += 1
        else:
            results.append(result)
        if on_file:
            on_file(len(result.games) if result else 0)
    return results


def _add_superseded_rows(rows: dict[str, list], warehouse: Warehouse, resolution: Resolution, read: set[str]) -> None:
    """Files whose stored copy was replaced by a more complete one become duplicates of it."""
    replaced_by = {old.source_file: new for old, new in resolution.superseded if old.source_file not in read}
    for row in warehouse.manifest_rows(set(replaced_by)):
        new = replaced_by[row["path"]]
        row["status"] = "duplicate"
        row["error"] = f"same game as {new.game_id}, stored from {new.source_file} (a more complete copy)"
        for name, value in row.items():
            rows[name].append(value)


def _known_files(warehouse: Warehouse) -> dict[str, tuple[str, str]]:
    manifest = warehouse.read_manifest()
    return {
        p: (h, v)
        for p, h, v in zip(
            manifest["path"].to_pylist(),
            manifest["content_hash"].to_pylist(),
            manifest["paipu_version"].to_pylist(),
            strict=True,
        )
    }


def _read_unless_unchanged(
    entry: Entry, known: dict[str, tuple[str, str]], file_format: str | None = None
) -> FileResult | None:
    data = entry.read()
    previous = known.get(entry.name)
    if previous is not None and previous[1] == __version__ and content_hash(data) == previous[0]:
        return None
    return read_file(Path(entry.name), data, file_format)


def _manifest_rows(results: list[FileResult]) -> dict[str, list]:
    rows = new_buffers("manifest")
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    for r in results:
        for name, value in (
            ("path", r.path), ("size", r.size), ("content_hash", r.content_hash), ("format", r.format),
            ("status", r.status), ("error", r.error), ("n_games", len(r.game_ids)), ("game_ids", r.game_ids),
            ("fingerprints", r.fingerprints),
            ("paipu_version", __version__), ("ingested_at", now),
        ):  # fmt: skip
            rows[name].append(value)
    return rows


def _count(report: IngestReport, results: list[FileResult], chosen: list[ParsedGame]) -> None:
    for r in results:
        report.files[r.status] += 1
        if r.status != "ok":
            report.problems.append((r.path, r.status, r.error or ""))
    report.games += len(chosen)
    report.rounds += sum(g.n_rounds for g in chosen)
