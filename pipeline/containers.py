"""Logs inside containers, read in place: zip archives, tar archives (plain or gzip/bz2/xz-compressed) and the
SQLite databases of the phoenix-logs and houou-logs downloaders.

``entries(path)`` lists what there is to read in one input file, as ``Entry`` objects: a plain file (a log, or
a gzip-compressed log: the parsers look inside those themselves) is one entry named by its path; a container is
one entry per member, named ``<container path>!/<member name>`` (``/data/2019.zip!/2019/x.mjlog``,
``/data/2019.db!/logs/<log id>``), in the container's own order. Listing reads no member's data; ``Entry.read()``
reads one member when called, so a container is streamed one member at a time and never held in memory whole.

Containers are recognised by content, never by name: zip by its local-header magic, SQLite by its file header,
tar by a valid first tar header (checksum checked), also inside gzip, bz2 or xz. A SQLite file is a container
only when it holds a ``logs`` table of a known layout; other files (and empty archives) are plain files, which
the ingest then reports as not a log.

Every failure becomes an entry, never an exception out of the listing: a member that cannot be read raises
ContainerError (an OSError naming the container and the member) from ``read()``; a container that cannot be
listed (or stops being listable part way) yields, after the members listed so far, one entry named by the
container's own path whose ``read()`` raises ContainerError saying why. Directories, links, empty members and
hidden members (a path part starting with '.', or '__MACOSX') are skipped.

Not supported: containers inside containers (a zip inside a tar is one entry whose bytes are a zip), zip
archives without their central directory (truncated downloads), zstd-compressed tar. Reading members in
listed order is fastest: a compressed tar is decompressed forwards, and going back re-reads it from the start.
Open containers are kept in a small cache (not thread-safe); ``close_all()`` closes them.
"""

from __future__ import annotations

import bz2
import errno
import gzip
import lzma
import os
import re
import sqlite3
import tarfile
import zipfile
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SEPARATOR = "!/"
"""Joins a container's path and a member's name into an entry name."""

HIDDEN_PARTS = ("__MACOSX",)
"""Member path parts skipped besides those starting with '.' (macOS resource-fork folders)."""

SQLITE_LAYOUTS = (("log_id", "log_content"), ("id", "log"), ("log_id", "log"), ("id", "log_content"))
"""(id column, content column) of the ``logs`` table, tried in order: phoenix-logs uses log_id/log_content
(bz2, older copies gzip), houou-logs id/log (gzip)."""

_HEAD_SIZE = 4096
_COMPRESSED_TAR = {b"\x1f\x8b": gzip.open, b"BZh": bz2.open, b"\xfd7zXZ\x00": lzma.open}
"""Magic bytes -> opener of the compressions a tar may be wrapped in."""

_ERRORS = (
    OSError, EOFError, ValueError, RuntimeError, zlib.error, lzma.LZMAError,
    zipfile.BadZipFile, tarfile.TarError, sqlite3.Error,
)  # fmt: skip
"""What reading a damaged container or member raises (RuntimeError: encrypted zip, NotImplementedError: an
unsupported zip compression)."""


class ContainerError(OSError):
    """A container or one of its members cannot be read; the message names the container and the member."""

    def __init__(self, message: str) -> None:
        super().__init__(errno.EIO, message)

    def __str__(self) -> str:
        return str(self.strerror)


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing to read: a plain file (``name`` is its path) or a container's member
    (``name`` is '<container path>!/<member name>'). ``size`` is the member's size as stored
    (uncompressed size in an archive, the stored blob's length in a database)."""

    name: str
    size: int
    _source: Any = field(repr=False, compare=False)
    _key: Any = field(repr=False, compare=False)
    mtime_ns: int | None = None
    """A plain file's modification time when its entry was made (ns since the epoch); None for a member."""

    def read(self) -> bytes:
        """Read the entry's bytes now (a database's logs decompressed). Raises OSError when it cannot be read:
        ContainerError, naming the container and the member, for a damaged container or member."""
        return self._source.read(self._key, self.name)


# --- public API -------------------------------------------------------------------------------------------------
def is_container(path: Path) -> bool:
    """Whether a file is a container of logs (zip, tar, compressed tar, log database), judged by content.

    An unreadable file is not a container (reading it then fails as a plain file)."""
    return _container(Path(path), _head(path)[0]) is not None


def entries(path: Path | str) -> Iterator[Entry]:
    """Yield what there is to read in one file: the file itself, or a container's members in its own order.

    The path is made absolute for the names (symlinks are kept as given). Never raises for a damaged container: see the
    module docstring."""
    name = os.path.abspath(path)
    head, size, mtime_ns = _head(name)
    container = _container(Path(name), head)
    if container is None:
        yield Entry(name, size if head is not None else _file_size(name), _PLAIN_FILE, name, mtime_ns)
    else:
        yield from container.entries()


def close_all() -> None:
    """Close the containers kept open for reading (they are reopened when read again)."""
    _HANDLES.close_all()


# --- detection --------------------------------------------------------------------------------------------------
def _container(path: Path, head: bytes | None) -> _Container | None:
    """The reader of a container from its first bytes (see _head), or None for a plain (or unreadable) file or a
    database that holds no logs."""
    kind = _kind_of(path, head)
    if kind is None or (kind == "sqlite" and not _holds_logs(path)):
        return None
    return _READERS[kind](path)


def _head(path: Path | str) -> tuple[bytes | None, int, int | None]:
    """The first bytes of a file, its size and its modification time (ns), with one open (None, 0, None when it
    cannot be opened)."""
    try:
        with open(path, "rb") as stream:
            status = os.fstat(stream.fileno())
            return stream.read(_HEAD_SIZE), status.st_size, status.st_mtime_ns
    except OSError:
        return None, 0, None


def _kind_of(path: Path | str, head: bytes | None) -> str | None:
    """'zip', 'tar', 'sqlite' or None, from the first bytes of a file (None: unreadable)."""
    if head is None:
        return None
    if head.startswith(b"PK\x03\x04"):
        return "zip"
    if head.startswith(b"SQLite format 3\x00"):
        return "sqlite"
    return "tar" if _is_tar_header(_inner_head(path, head)) else None


def _inner_head(path: Path | str, head: bytes) -> bytes:
    """The first 512 bytes inside a gzip, bz2 or xz file ('' when damaged); other heads unchanged."""
    for magic, opener in _COMPRESSED_TAR.items():
        if head.startswith(magic):
            try:
                with opener(path) as stream:
                    return stream.read(tarfile.BLOCKSIZE)
            except _ERRORS:
                return b""
    return head


_TAR_CHECKSUM_FIELD = re.compile(rb"[0-7 \x00]{8}")


def _is_tar_header(head: bytes) -> bool:
    """Whether bytes start with a valid tar header (ustar, GNU or old v7: the checksum must match)."""
    if len(head) < tarfile.BLOCKSIZE or not _TAR_CHECKSUM_FIELD.match(head[148:156]):
        return False  # cheap: the checksum field of a tar header is octal digits padded with spaces or NULs
    try:
        tarfile.TarInfo.frombuf(head[: tarfile.BLOCKSIZE], "utf-8", "surrogateescape")
    except (tarfile.HeaderError, ValueError):
        return False
    return True


def _holds_logs(path: Path) -> bool:
    """Whether a SQLite file has a logs table of a known layout (a damaged database counts: it is reported)."""
    try:
        return _sqlite_layout(path) is not None
    except sqlite3.Error:
        return True


def _file_size(path: Path | str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


# --- member names -----------------------------------------------------------------------------------------------
def _member_name(raw: str) -> str | None:
    """A member's name with empty and '.' parts dropped (so ``str(Path(entry.name)) == entry.name``), or None
    for a hidden member or one without a name."""
    parts = [part for part in raw.split("/") if part not in ("", ".")]
    if not parts or any(part.startswith(".") or part in HIDDEN_PARTS for part in parts):
        return None
    return "/".join(parts)


def _unique(name: str, seen: dict[str, int]) -> str:
    """The name, or 'name;N' for its N-th occurrence in one container (archives may repeat a name)."""
    count = seen.get(name, 0) + 1
    seen[name] = count
    return name if count == 1 else f"{name};{count}"


# --- readers ----------------------------------------------------------------------------------------------------
class _PlainFile:
    """Reads a plain file (key: its path); errors stay the file system's own OSError."""

    @staticmethod
    def read(key: Path | str, name: str) -> bytes:
        with open(key, "rb") as stream:
            return stream.read()


class _Unreadable:
    """Stands for a container that could not be listed (key: why); reading it raises."""

    @staticmethod
    def read(key: str, name: str) -> bytes:
        raise ContainerError(key)


_PLAIN_FILE = _PlainFile()
_UNREADABLE = _Unreadable()


class _Container:
    """Lists and reads the members of one container file; subclasses say how for their kind."""

    kind = "container"

    def __init__(self, path: Path) -> None:
        self.path = path

    def members(self) -> Iterator[tuple[str, int, Any]]:
        """Yield (raw member name, size, key for read_member) for every regular, non-empty member."""
        raise NotImplementedError

    def read_member(self, key: Any) -> bytes:
        """The bytes of the member with this key."""
        raise NotImplementedError

    def entries(self) -> Iterator[Entry]:
        """Yield the members as entries; a listing failure becomes a last entry named by the container."""
        seen: dict[str, int] = {}
        last = None
        try:
            for raw, size, key in self.members():
                member = _member_name(raw)
                if member is not None:
                    last = member
                    yield Entry(_unique(f"{self.path}{SEPARATOR}{member}", seen), size, self, key)
        except _ERRORS as exc:
            yield Entry(str(self.path), 0, _UNREADABLE, self._listing_error(exc, last))

    def _listing_error(self, exc: BaseException, last: str | None) -> str:
        if last is None:
            return f"{self.path}: {self.kind} cannot be read ({_why(exc)}); none of its members was listed"
        return (
            f"{self.path}: {self.kind} cannot be read after member {last!r} ({_why(exc)}); "
            "the members after it were not listed"
        )

    def read(self, key: Any, name: str) -> bytes:
        """Read one member; any failure becomes a ContainerError naming the container and the member."""
        member = name[len(str(self.path)) + len(SEPARATOR) :]
        try:
            return self.read_member(key)
        except ContainerError as exc:
            raise ContainerError(f"{self.path}: member {member!r} of the {self.kind}: {exc}") from None
        except _ERRORS as exc:
            raise ContainerError(f"{self.path}: member {member!r} of the {self.kind} is damaged ({_why(exc)})") from exc


def _why(exc: BaseException) -> str:
    """'module.Error: message' of an exception (no module for builtins), for error messages."""
    kind = type(exc)
    name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    return f"{name}: {exc}" if str(exc) else name


class _Zip(_Container):
    """A zip archive: listed from its central directory, a member read by its index there."""

    kind = "zip archive"

    def members(self) -> Iterator[tuple[str, int, Any]]:
        with zipfile.ZipFile(self.path) as archive:
            for index, info in enumerate(archive.infolist()):
                if not info.is_dir() and info.file_size > 0:
                    yield info.filename, info.file_size, (index, info.filename)

    def read_member(self, key: tuple[int, str]) -> bytes:
        index, raw = key
        archive = _HANDLES.get(self.path, zipfile.ZipFile)
        infos = archive.infolist()
        if index >= len(infos) or infos[index].filename != raw:
            raise ContainerError("the archive changed since it was listed")
        with archive.open(infos[index]) as member:
            return member.read()


class _Tar(_Container):
    """A tar archive, plain or compressed: listed header by header, a member read at its data offset."""

    kind = "tar archive"

    def members(self) -> Iterator[tuple[str, int, Any]]:
        with tarfile.open(self.path, "r:*") as archive:
            while (info := archive.next()) is not None:
                archive.members.clear()  # keep no list of every header: the entries hold what reading needs
                if info.isreg() and info.size > 0:
                    yield info.name, info.size, (info.offset_data, info.size, info.sparse)

    def read_member(self, key: tuple[int, int, Any]) -> bytes:
        info = tarfile.TarInfo()
        info.type = tarfile.REGTYPE
        info.offset_data, info.size, info.sparse = key
        member = _HANDLES.get(self.path, _open_tar).extractfile(info)
        assert member is not None  # a regular member always has a file object
        with member:
            return member.read()


def _open_tar(path: Path) -> tarfile.TarFile:
    return tarfile.open(path, "r:*")


class _Sqlite(_Container):
    """A phoenix-logs or houou-logs database: one member per row of ``logs`` holding content, named
    'logs/<log id>'; a log is returned decompressed (gzip, zlib or bz2, judged by content)."""

    kind = "log database"

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self._layout: tuple[str, str] | None = None

    def layout(self) -> tuple[str, str]:
        """(id column, content column) of the logs table, looked up once; names from SQLITE_LAYOUTS only,
        so they are safe to put in the SQL."""
        if self._layout is None:
            self._layout = _sqlite_layout(self.path)
            if self._layout is None:
                raise ContainerError("no logs table of a known layout")
        return self._layout

    def members(self) -> Iterator[tuple[str, int, Any]]:
        id_column, content = self.layout()
        sql = f"SELECT {id_column}, length({content}) FROM logs WHERE length({content}) > 0 ORDER BY {id_column}"
        with closing(_connect(self.path)) as db:
            for log_id, size in db.execute(sql):
                if log_id is not None:
                    yield f"logs/{log_id}", size, log_id

    def read_member(self, key: Any) -> bytes:
        id_column, content = self.layout()
        db = _HANDLES.get(self.path, _connect)
        row = db.execute(f"SELECT {content} FROM logs WHERE {id_column} = ?", (key,)).fetchone()
        if row is None or not row[0]:
            raise ContainerError("the row is gone or empty since the database was listed")
        return _decompressed(row[0])


def _connect(path: Path) -> sqlite3.Connection:
    """A read-only connection to a SQLite file."""
    return sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)


def _sqlite_layout(path: Path) -> tuple[str, str] | None:
    """(id column, content column) of the database's logs table, or None. Raises sqlite3.Error when damaged."""
    with closing(_connect(path)) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info(logs)")}
    return next(((i, c) for i, c in SQLITE_LAYOUTS if i in columns and c in columns), None)


def _decompressed(value: bytes | str) -> bytes:
    """A stored log's bytes: gzip, bz2 or zlib data decompressed (judged by content), text encoded as UTF-8."""
    data = value.encode() if isinstance(value, str) else bytes(value)
    if data.startswith(b"\x1f\x8b"):
        return gzip.decompress(data)
    if data.startswith(b"BZh"):
        return bz2.decompress(data)
    if len(data) > 1 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0:
        return zlib.decompress(data)
    return data


_READERS: dict[str, Callable[[Path], _Container]] = {"zip": _Zip, "tar": _Tar, "sqlite": _Sqlite}


# --- open containers --------------------------------------------------------------------------------------------
class _Handles:
    """The containers open for reading, the most recently used few kept (closed when they fall out).

    Keyed by path, modification time and size, so a container rewritten in place is opened afresh."""

    def __init__(self, capacity: int = 4) -> None:
        self._open: OrderedDict[tuple[str, int, int], Any] = OrderedDict()
        self._capacity = capacity

    def get(self, path: Path, opener: Callable[[Path], Any]) -> Any:
        """The open handle of a container, opened with ``opener`` when it is not open yet."""
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        if key in self._open:
            self._open.move_to_end(key)
            return self._open[key]
        for stale in [k for k in self._open if k[0] == key[0]]:
            self._open.pop(stale).close()
        handle = self._open[key] = opener(path)
        while len(self._open) > self._capacity:
            self._open.popitem(last=False)[1].close()
        return handle

    def close_all(self) -> None:
        """Close every open handle."""
        while self._open:
            self._open.popitem()[1].close()


_HANDLES = _Handles()
