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
ContainerError (an OSError naming the container and the member, with the manifest ``reason`` it gives) from
``read()``; a container that cannot be listed (or stops being listable part way) yields, after the members
listed so far, one entry named by the container's own path whose ``read()`` raises ContainerError saying why.
Directories, links, empty members and hidden members (a path part starting with '.', or '__MACOSX') are
skipped; a member whose name has a '..' part is listed, and reading it raises (it is not read).

What reading costs is bounded (pipeline.limits): a file or member holding, or expanding to, more than
``Limits.max_bytes`` is not read past the limit (a compressed tar stops being listed after such a member:
skipping it would decompress it whole); a database lists at most ``max_rows`` rows and a query runs at most
``max_seconds``. A database row without a log (not downloaded yet) is a member whose ``read()`` raises
PendingError; a row whose id or log column holds a number, or whose id is a blob or null, is a member whose
``read()`` raises ContainerError. Only regular files are opened (never blocking on a FIFO).

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
import stat
import tarfile
import time
import zipfile
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from pipeline.limits import (
    BZ2_MAGIC,
    DEFAULT_LIMITS,
    GZIP_MAGIC,
    Limits,
    TooLargeError,
    bunzip2,
    gunzip,
    inflate,
    read_stream,
    too_large,
)

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
    """An entry (a container, one of its members, or a file) cannot be read; the message names the container
    and the member, ``reason`` is the manifest reason code it gives (pipeline.ingest.status.REASONS)."""

    reason = "unreadable"

    def __init__(self, message: str) -> None:
        super().__init__(errno.EIO, message)

    def __str__(self) -> str:
        return str(self.strerror)


class SkippedError(ContainerError):
    """An input that is not read by design (a FIFO, a dangling link, a link out of the inputs...)."""

    reason = "not_read"


class OverLimitError(ContainerError):
    """An entry over a bound of pipeline.limits (its size, a database's rows or query time): not read past it."""

    reason = "too_large"


class PendingError(ContainerError):
    """A database row whose log is not there yet (not downloaded): read again by the next run."""

    reason = "not_downloaded"


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing to read: a plain file (``name`` is its path) or a container's member
    (``name`` is '<container path>!/<member name>'). ``size`` is the member's size as stored
    (uncompressed size in an archive, the stored blob's length in a database, 0 for a log stored as text)."""

    name: str
    size: int
    _source: Any = field(repr=False, compare=False)
    _key: Any = field(repr=False, compare=False)
    mtime_ns: int | None = None
    """A plain file's modification time when its entry was made (ns since the epoch); None for a member."""
    limits: Limits = field(default=DEFAULT_LIMITS, repr=False, compare=False)
    """What reading the entry may cost (its size, a database query's rows and time)."""

    def read(self) -> bytes:
        """Read the entry's bytes now (a database's logs decompressed), within ``limits``. Raises OSError when
        it cannot be read: ContainerError, naming the container and the member, for a damaged container or
        member, one past the limits, or one not read by design (SkippedError, PendingError)."""
        return self._source.read(self._key, self.name, self.limits)


# --- public API -------------------------------------------------------------------------------------------------
def is_container(path: Path) -> bool:
    """Whether a file is a container of logs (zip, tar, compressed tar, log database), judged by content.

    An unreadable file is not a container (reading it then fails as a plain file)."""
    return _container(Path(path), _head(path)[0]) is not None


def entries(path: Path | str, limits: Limits = DEFAULT_LIMITS) -> Iterator[Entry]:
    """Yield what there is to read in one file: the file itself, or a container's members in its own order,
    each to be read within ``limits``.

    The path is made absolute for the names (symlinks are kept as given). Never raises for a damaged container: see the
    module docstring."""
    name = os.path.abspath(path)
    head, size, mtime_ns = _head(name)
    container = _container(Path(name), head, limits)
    if container is None:
        yield Entry(name, size if head is not None else _file_size(name), _PLAIN_FILE, name, mtime_ns, limits)
    else:
        yield from container.entries()


def plain_entry(path: str, limits: Limits = DEFAULT_LIMITS) -> Entry:
    """The entry of a file read as it is (never as a container), within ``limits``, named ``path``."""
    return Entry(path, _file_size(path), _PLAIN_FILE, path, None, limits)


def skipped_entry(name: str, reason: str) -> Entry:
    """The entry of an input not read by design (``reason`` names it and says why): reading it raises
    SkippedError, so that it is in the manifest as skipped."""
    return Entry(name, 0, _NOT_READ, (SkippedError, reason))


def close_all() -> None:
    """Close the containers kept open for reading (they are reopened when read again)."""
    _HANDLES.close_all()


# --- detection --------------------------------------------------------------------------------------------------
def _container(path: Path, head: bytes | None, limits: Limits = DEFAULT_LIMITS) -> _Container | None:
    """The reader of a container from its first bytes (see _head), or None for a plain (or unreadable) file or a
    database that holds no logs."""
    kind = _kind_of(path, head)
    if kind is None or (kind == "sqlite" and not _holds_logs(path)):
        return None
    return _READERS[kind](path, limits)


def _head(path: Path | str) -> tuple[bytes | None, int, int | None]:
    """The first bytes of a regular file, its size and its modification time (ns), with one open (None, 0, None
    when it cannot be opened or is not a regular file)."""
    try:
        with _open_regular(path, str(path)) as stream:
            status = os.fstat(stream.fileno())
            return stream.read(_HEAD_SIZE), status.st_size, status.st_mtime_ns
    except OSError:
        return None, 0, None


def _open_regular(path: Path | str, name: str) -> BinaryIO:
    """A regular file opened for reading. Raises SkippedError (naming ``name``) for anything else (a FIFO, a
    socket, a device), the file system's OSError when it cannot be opened."""
    stream = open(path, "rb", opener=_open_nonblocking)  # noqa: SIM115 - returned open
    mode = os.fstat(stream.fileno()).st_mode
    if not stat.S_ISREG(mode):
        stream.close()
        raise SkippedError(f"{name}: {file_kind(mode)}, not a regular file: not read")
    return stream


def _open_nonblocking(path: str, flags: int) -> int:
    """open()'s opener: a FIFO opened to be looked at does not block (regular files read as usual)."""
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


def file_kind(mode: int) -> str:
    """What an ``st_mode`` is, in words ('a FIFO', 'a folder', ...)."""
    for test, kind in _FILE_KINDS:
        if test(mode):
            return kind
    return "an unknown kind of file"


_FILE_KINDS: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a folder"), (stat.S_ISREG, "a file"),
)  # fmt: skip


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
    """A file's size (0 when it cannot be looked at)."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


# --- member names -----------------------------------------------------------------------------------------------
def _member_name(raw: str) -> str | None:
    """A member's name with empty and '.' parts dropped (so ``str(Path(entry.name)) == entry.name``) and bytes
    that are not UTF-8 written as \\xNN (see _text), or None for a hidden member or one without a name ('..'
    parts are kept: see _Container.entries)."""
    parts = [part for part in _text(raw).split("/") if part not in ("", ".")]
    if not parts or any((part.startswith(".") and part != "..") or part in HIDDEN_PARTS for part in parts):
        return None
    return "/".join(parts)


def _text(raw: str) -> str:
    """A name as one line of text that can be written (UTF-8): control characters (a line break...) written
    as \\xNN, and so are the bytes tarfile kept as surrogate escapes (a name that is not UTF-8); any other lone
    surrogate as \\uXXXX."""
    try:
        raw.encode()
    except UnicodeEncodeError:
        try:
            raw = raw.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        except UnicodeEncodeError:
            raw = raw.encode("utf-8", "backslashreplace").decode()
    return _CONTROL.sub(lambda found: f"\\x{ord(found[0]):02x}", raw)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _unique(name: str, seen: dict[str, int]) -> str:
    """The name, or 'name;N' for its N-th occurrence in one container (archives may repeat a name), N the
    first that leaves it distinct from every name given before (a member may be named 'name;2' itself).
    ``seen``: name -> the last N given for it, of every name given so far."""
    if name not in seen:
        seen[name] = 1
        return name
    count = seen[name] + 1
    while f"{name};{count}" in seen:
        count += 1
    seen[name] = count
    seen[f"{name};{count}"] = 1
    return f"{name};{count}"


# --- readers ----------------------------------------------------------------------------------------------------
class _PlainFile:
    """Reads a plain file (key: its path); errors stay the file system's own OSError, but for a file that is
    not regular (SkippedError) or holds more than the limit (ContainerError)."""

    @staticmethod
    def read(key: Path | str, name: str, limits: Limits) -> bytes:
        """The file's bytes, within ``limits.max_bytes``."""
        with _open_regular(key, name) as stream:
            try:
                if os.fstat(stream.fileno()).st_size > limits.max_bytes:
                    raise too_large("holds", limits.max_bytes)
                return read_stream(stream, limits.max_bytes)
            except TooLargeError as exc:
                raise OverLimitError(f"{name}: {exc}") from None


class _NotRead:
    """Stands for what is not read (key: the error class and the message): a container that could not be
    listed, a member refused by its name, an input skipped by design. Reading it raises."""

    @staticmethod
    def read(key: tuple[type[ContainerError], str], name: str, limits: Limits) -> bytes:
        """Raise the error the key holds."""
        error, message = key
        raise error(message)


_PLAIN_FILE = _PlainFile()
_NOT_READ = _NotRead()


class _Container:
    """Lists and reads the members of one container file; subclasses say how for their kind."""

    kind = "container"

    def __init__(self, path: Path, limits: Limits = DEFAULT_LIMITS) -> None:
        self.path = path
        self.limits = limits

    def members(self) -> Iterator[tuple[str, int, Any]]:
        """Yield (raw member name, size, key for read_member) for every regular, non-empty member."""
        raise NotImplementedError

    def read_member(self, key: Any, limits: Limits) -> bytes:
        """The bytes of the member with this key, within ``limits``."""
        raise NotImplementedError

    def entries(self) -> Iterator[Entry]:
        """Yield the members as entries; a listing failure (of any kind: the container is hostile, not the
        batch) becomes a last entry named by the container; a member named with a '..' part is an entry
        whose reading raises."""
        seen: dict[str, int] = {}
        last = None
        try:
            for raw, size, key in self.members():
                member = _member_name(raw)
                if member is None:
                    continue
                last = member
                name = _unique(f"{self.path}{SEPARATOR}{member}", seen)
                if ".." in member.split("/"):
                    refused = f"{self.path}: member {member!r} of the {self.kind} has a '..' in its name: not read"
                    yield Entry(name, size, _NOT_READ, (ContainerError, refused), None, self.limits)
                else:
                    yield Entry(name, size, self, key, None, self.limits)
        except Exception as exc:  # noqa: BLE001 - whatever the listing raises ends this container only
            error = type(exc) if isinstance(exc, ContainerError) else ContainerError  # its reason
            yield Entry(str(self.path), 0, _NOT_READ, (error, self._listing_error(exc, last)))

    def _listing_error(self, exc: BaseException, last: str | None) -> str:
        if last is None:
            return f"{self.path}: {self.kind} cannot be read ({_why(exc)}); none of its members was listed"
        return (
            f"{self.path}: {self.kind} cannot be read after member {last!r} ({_why(exc)}); "
            "the members after it were not listed"
        )

    def read(self, key: Any, name: str, limits: Limits) -> bytes:
        """Read one member within ``limits``; any failure becomes a ContainerError (or a subclass: its reason)
        naming the container and the member."""
        member = name[len(str(self.path)) + len(SEPARATOR) :]
        try:
            return self.read_member(key, limits)
        except (ContainerError, TooLargeError) as exc:
            error = type(exc) if isinstance(exc, ContainerError) else OverLimitError
            raise error(f"{self.path}: member {member!r} of the {self.kind}: {exc}") from None
        except _ERRORS as exc:
            raise ContainerError(f"{self.path}: member {member!r} of the {self.kind} is damaged ({_why(exc)})") from exc


def _why(exc: BaseException) -> str:
    """'module.Error: message' of an exception (no module for builtins), for error messages."""
    if isinstance(exc, ContainerError):
        return str(exc)
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

    def read_member(self, key: tuple[int, str], limits: Limits) -> bytes:
        """The member at its index in the central directory, decompressed in chunks up to the limit."""
        index, raw = key
        archive = _HANDLES.get(self.path, zipfile.ZipFile)
        infos = archive.infolist()
        if index >= len(infos) or infos[index].filename != raw:
            raise ContainerError("the archive changed since it was listed")
        if infos[index].file_size > limits.max_bytes:
            raise too_large("holds", limits.max_bytes)
        with archive.open(infos[index]) as member:
            return read_stream(member, limits.max_bytes)


class _Tar(_Container):
    """A tar archive, plain or compressed: listed header by header, a member read at its data offset."""

    kind = "tar archive"

    def members(self) -> Iterator[tuple[str, int, Any]]:
        """The regular members, header by header; a compressed tar is not listed past a member over the limit
        (its next header lies behind that member's data, decompressed whole to get there)."""
        with tarfile.open(self.path, "r:*", tarinfo=_ListedTarInfo) as archive:
            compressed = isinstance(archive.fileobj, _COMPRESSED_FILES)
            while (info := archive.next()) is not None:
                archive.members.clear()  # keep no list of every header: the entries hold what reading needs
                if info.isreg() and info.size > 0:
                    yield info.name, info.size, (info.offset_data, info.size, info.sparse)
                    if compressed and info.size > self.limits.max_bytes:
                        over = too_large("holds", self.limits.max_bytes)
                        raise OverLimitError(f"member {info.name!r} {over}: listing past it would decompress it")

    def read_member(self, key: tuple[int, int, Any], limits: Limits) -> bytes:
        """The member at its data offset, read in chunks up to the limit."""
        info = tarfile.TarInfo()
        info.type = tarfile.REGTYPE
        info.offset_data, info.size, info.sparse = key
        if info.size > limits.max_bytes:
            raise too_large("holds", limits.max_bytes)
        member = _HANDLES.get(self.path, _open_tar).extractfile(info)
        assert member is not None  # a regular member always has a file object
        with member:
            return read_stream(member, limits.max_bytes)


class _ListedTarInfo(tarfile.TarInfo):
    """The headers of a tar being listed: a damaged or cut header past the first raises ContainerError, where
    tarfile would end the archive there without a word (losing the members after it)."""

    @classmethod
    def fromtarfile(cls, archive: tarfile.TarFile) -> tarfile.TarInfo:
        """The next header of the archive (see tarfile.TarInfo.fromtarfile)."""
        at = archive.fileobj.tell()  # type: ignore[union-attr]
        try:
            return super().fromtarfile(archive)
        except (tarfile.InvalidHeaderError, tarfile.TruncatedHeaderError) as exc:
            if at == 0:  # not a tar (tarfile.open tries every compression): tarfile says so
                raise
            raise ContainerError(f"a damaged header at byte {at:,} ({exc})") from None


_COMPRESSED_FILES = (gzip.GzipFile, bz2.BZ2File, lzma.LZMAFile)
"""The file objects tarfile reads a compressed tar through."""


def _open_tar(path: Path) -> tarfile.TarFile:
    """The tar archive open for reading members (any compression)."""
    return tarfile.open(path, "r:*")


class _Sqlite(_Container):
    """A phoenix-logs or houou-logs database: one member per row of ``logs``, named 'logs/<log id>'; a log is
    returned decompressed (gzip, zlib or bz2, judged by content). A row without a log (null or empty: not
    downloaded yet) raises PendingError when read; a row whose id is not text or an integer, or whose log is
    a number, raises ContainerError (named by the id as SQL writes it: logs/NULL, logs/x'00ff', logs/1.5)."""

    kind = "log database"

    def __init__(self, path: Path, limits: Limits = DEFAULT_LIMITS) -> None:
        super().__init__(path, limits)
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
        """Every row in id order (key: id, id's type, log's type, its place among the rows of that id: a table
        without a unique id may repeat one), at most ``max_rows`` of them, the query interrupted after
        ``max_seconds``."""
        id_column, content = self.layout()
        # the size of a blob only: SQLite gets it without reading the value, a text's length reads it whole (and
        # one over the length bound would end the listing of every row)
        sql = (f"SELECT {id_column}, typeof({id_column}), typeof({content}), "
               f"CASE typeof({content}) WHEN 'blob' THEN length({content}) END FROM logs "
               f"ORDER BY {id_column} LIMIT ?")  # fmt: skip
        max_rows = self.limits.max_rows
        with closing(_connect(self.path)) as db, _bounded(db, self.limits):
            previous, repeat = None, 0
            for n, (log_id, id_type, content_type, size) in enumerate(db.execute(sql, (max_rows + 1,))):
                if n == max_rows:
                    raise OverLimitError(f"its logs table has more than {max_rows:,} rows, the limit of one database")
                repeat = repeat + 1 if (log_id, id_type) == previous else 0
                previous = (log_id, id_type)
                yield f"logs/{_row_id(log_id, id_type)}", size or 0, (log_id, id_type, content_type, repeat)

    def read_member(self, key: tuple[Any, str, str, int], limits: Limits) -> bytes:
        """The row's log, decompressed within the limit."""
        id_column, content = self.layout()
        log_id, id_type, content_type, repeat = key
        if id_type not in _ID_TYPES:
            raise ContainerError(f"its {id_column} is {id_type.upper()}, not a log id: not read")
        _check_content_type(content, content_type)
        db = _HANDLES.get(self.path, _connect)
        with _bounded(db, limits):
            sql = f"SELECT {content}, typeof({content}) FROM logs WHERE {id_column} = ? LIMIT 1 OFFSET ?"
            row = db.execute(sql, (log_id, repeat)).fetchone()
        if row is None:
            raise ContainerError("the row is gone since the database was listed")
        _check_content_type(content, row[1])
        return _decompressed(row[0], limits.max_bytes)


_ID_TYPES = ("text", "integer")
"""SQLite types of a log id a row is read by."""


def _row_id(log_id: Any, id_type: str) -> str:
    """A row's id as its member name ends: text and integers as they are, anything else as SQL writes it
    (NULL, 1.5, x'00ff': a blob's first 32 bytes)."""
    if id_type in _ID_TYPES:
        return str(log_id)
    if isinstance(log_id, bytes):
        return f"x'{log_id[:32].hex()}{'...' if len(log_id) > 32 else ''}'"
    return "NULL" if log_id is None else repr(log_id)


def _check_content_type(content: str, content_type: str) -> None:
    """Raise PendingError for a log column without a log (null or empty: see _decompressed), ContainerError for
    one holding a number."""
    if content_type == "null":
        raise PendingError(f"its {content} is NULL: the log is not downloaded yet")
    if content_type not in ("text", "blob"):
        raise ContainerError(f"its {content} is {content_type.upper()}, not a log")


def _connect(path: Path) -> sqlite3.Connection:
    """A read-only connection to a SQLite file."""
    return sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)


_PROGRESS_STEPS = 10_000
"""SQLite virtual machine steps between two looks at a query's clock."""


@contextmanager
def _bounded(db: sqlite3.Connection, limits: Limits) -> Iterator[None]:
    """Bound the queries run (and rows fetched) inside: no value longer than ``max_bytes``, interrupted after
    ``max_seconds`` in all. Their failures past a bound become ContainerError saying which."""
    deadline = time.monotonic() + limits.max_seconds
    db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, max(min(limits.max_bytes, 2**31 - 1), 1))
    db.set_progress_handler(lambda: time.monotonic() > deadline, _PROGRESS_STEPS)
    try:
        yield
    except sqlite3.OperationalError:
        if time.monotonic() <= deadline:
            raise
        raise OverLimitError(f"a query of its logs table ran over {limits.max_seconds:g} s: interrupted") from None
    except sqlite3.DataError as exc:
        if exc.sqlite_errorname != "SQLITE_TOOBIG":
            raise
        raise OverLimitError(f"its log {too_large('holds', limits.max_bytes)}") from None
    finally:
        db.set_progress_handler(None, 0)


def _sqlite_layout(path: Path) -> tuple[str, str] | None:
    """(id column, content column) of the database's logs table, or None. Raises sqlite3.Error when damaged."""
    with closing(_connect(path)) as db, _bounded(db, DEFAULT_LIMITS):
        columns = {row[1] for row in db.execute("PRAGMA table_info(logs)")}
    return next(((i, c) for i, c in SQLITE_LAYOUTS if i in columns and c in columns), None)


def _decompressed(value: bytes | str, limit: int) -> bytes:
    """A stored log's bytes: gzip, bz2 or zlib data decompressed within ``limit`` (judged by content; a cut
    stream gives what it holds), text encoded as UTF-8. Raises PendingError for an empty log (not downloaded,
    or its download failed), TooLargeError past the limit, the decompressor's error when it is corrupt."""
    data = value.encode() if isinstance(value, str) else bytes(value)
    if not data:
        raise PendingError("its log is empty: not downloaded yet (or its download failed)")
    if data.startswith(GZIP_MAGIC):
        return gunzip(data, limit)
    if data.startswith(BZ2_MAGIC):
        return bunzip2(data, limit)
    if len(data) > 1 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0:
        return inflate(data, limit)
    return data


_READERS: dict[str, Callable[[Path, Limits], _Container]] = {"zip": _Zip, "tar": _Tar, "sqlite": _Sqlite}


# --- open containers --------------------------------------------------------------------------------------------
class _Handles:
    """The containers open for reading, the most recently used few kept (closed when they fall out).

    Keyed by path, modification time and size, so a container rewritten in place is opened afresh."""

    def __init__(self, capacity: int = 4) -> None:
        self._open: OrderedDict[tuple[str, int, int], Any] = OrderedDict()
        self._capacity = capacity

    def get(self, path: Path, opener: Callable[[Path], Any]) -> Any:
        """The open handle of a container, opened with ``opener`` when it is not open yet."""
        status = path.stat()
        key = (str(path), status.st_mtime_ns, status.st_size)
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
