"""Reading one input: discovering the files and members to read, detecting a file's format by its content,
parsing it into games, and turning every failure into a result (quarantined / not a log) with a reason."""

from __future__ import annotations

import gzip
import hashlib
import os
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from pipeline import __version__, containers
from pipeline.containers import Entry
from pipeline.errors import NotALogError, ParseError
from pipeline.sources import majsoul, mjai, tenhou_json, tenhou_xml
from pipeline.sources.base import ParsedGame

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
    return list(expand_entries(discover_paths(paths)))


def discover_paths(paths: Iterable[Path]) -> list[str]:
    """The files below ``paths`` (folders recursively, hidden ones skipped) as absolute paths sorted folder by
    folder, not looked into: expand_entries turns them into entries as they are needed. Raises FileNotFoundError
    for a path that does not exist."""
    found: set[str] = set()
    for path in paths:
        if path.is_file():
            found.add(str(path.resolve()))
        elif path.is_dir():
            found.update(_files_below(str(path.resolve())))
        else:
            raise FileNotFoundError(f"no such file or folder: {path}")
    # kept as strings: Path objects for 100k files cost seconds
    return sorted(found, key=_path_order)


def expand_entries(names: Iterable[str]) -> Iterator[Entry]:
    """The entries of files (as discover_paths gives them), lazily: a plain file is one entry, a container
    (detected by its first bytes) one entry per member, in the container's order."""
    for name in names:
        yield from containers.entries(name)


def _path_order(name: str) -> str:
    """Sort key of a path, folder by folder: the separator made the lowest character (one string per path,
    not a list of its parts: a million paths' keys take ~100 MB instead of ~450 MB)."""
    return name.replace(os.sep, "\0")


def _files_below(folder: str) -> Iterator[str]:
    """Yield the files below a folder (absolute paths), skipping hidden files and folders; symbolic links to
    files are files, links to folders are not followed; a folder that cannot be listed is skipped."""
    try:
        with os.scandir(folder) as listing:
            children = [entry for entry in listing if not entry.name.startswith(".")]
    except OSError:
        return
    for entry in children:
        if entry.is_dir(follow_symlinks=False):
            yield from _files_below(entry.path)
        elif entry.is_file():
            yield entry.path


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
    games: list = field(default_factory=list)
    """The games read (ParsedGame; in a batch's outcome, their dedup.GameCopy)."""
    game_ids: list[str] = field(default_factory=list)
    fingerprints: list[str] = field(default_factory=list)
    mtime_ns: int | None = None
    """A plain file's modification time when it was read (ns since the epoch); None for a container's member."""


class KnownFile(NamedTuple):
    """What the manifest says of a file read before: what a later run compares to skip it."""

    content_hash: str
    paipu_version: str
    size: int
    mtime_ns: int | None
    """None for a container's member (and for files read by a paipu that did not record it)."""


def unchanged_on_disk(path: str, known: KnownFile | None) -> bool:
    """Whether a file read before by this paipu version still has the size and modification time the manifest
    recorded, so that it need not be read again (a container's members, with no time recorded, never are)."""
    if known is None or known.mtime_ns is None or known.paipu_version != __version__:
        return False
    try:
        status = os.stat(path)
    except OSError:
        return False  # reading it will say what is wrong
    return status.st_mtime_ns == known.mtime_ns and status.st_size == known.size


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


def read_entry(entry: Entry, known: dict[str, KnownFile], file_format: str | None = None) -> FileResult | None:
    """Read and parse one entry; None when it is unchanged (``known``: the files read before, by name; one read
    by this version with the same content hash is skipped). Never raises: a file or member that cannot be read
    becomes a quarantined result naming it."""
    try:
        data = entry.read()
    except containers.ContainerError as exc:  # its message names the container and the member
        return FileResult(entry.name, 0, "", None, "quarantined", str(exc))
    except OSError as exc:
        return FileResult(entry.name, 0, "", None, "quarantined", f"{entry.name}: cannot read ({exc.strerror})")
    previous = known.get(entry.name)
    if previous is not None and previous.paipu_version == __version__ and content_hash(data) == previous.content_hash:
        return None
    result = read_file(Path(entry.name), data, file_format)
    result.mtime_ns = entry.mtime_ns
    return result
