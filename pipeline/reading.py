"""Reading one input: discovering the files and members to read, detecting a file's format by its content,
parsing it into games, and turning every failure, of any kind, into a result (quarantined / not a log /
skipped / pending) with a one-line reason naming it, within the bounds of pipeline.limits."""

from __future__ import annotations

import errno
import hashlib
import lzma
import os
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from pipeline import __version__, containers
from pipeline.containers import Entry
from pipeline.errors import NotALogError, ParseError, UnknownCodeError
from pipeline.identity import identify
from pipeline.limits import DEFAULT_LIMITS, Limits, TooLargeError, uncompressed
from pipeline.sources import majsoul, mjai, tenhou_json, tenhou_xml
from pipeline.sources.base import ParsedGame

PARSERS: dict[str, Callable[[bytes, str], list[ParsedGame]]] = {
    tenhou_xml.SOURCE: tenhou_xml.parse,
    tenhou_json.SOURCE: tenhou_json.parse,
    mjai.SOURCE: mjai.parse,
    majsoul.SOURCE: majsoul.parse,
}
"""Format name -> parse function; every format exposes the same signature."""

STATUSES = ("ok", "duplicate", "conflict", "quarantined", "not_a_log", "skipped", "pending")
"""Manifest statuses of a file: ``skipped`` is an input not read by design (a FIFO, a dangling link, a link
out of the inputs, a folder that cannot be listed), ``pending`` a database row whose log is not downloaded yet
(read again by the next run)."""

REASONS: dict[str, tuple[str, ...]] = {
    "ok": (),
    "duplicate": ("copy_of_stored", "partial_copy"),
    "conflict": ("round_disagrees", "game_id_taken"),
    "quarantined": (
        "unreadable", "too_large", "malformed", "unknown_code", "reader_error", "unstorable", "invariant_check",
        "no_complete_round",
    ),
    "not_a_log": ("unknown_format", "not_a_log"),
    "skipped": ("not_read",),
    "pending": ("not_downloaded",),
}  # fmt: skip
"""The manifest's reason codes of each status (``manifest.reason``; null for ok), the message (``error``) saying
the rest: duplicate a copy of a stored game, or a partial one (no complete round); conflict a copy disagreeing
with the stored one on a round, or another game under a stored game's id; quarantined a file or member that
cannot be read (I/O, a damaged container, a bound of pipeline.limits: too_large), a log its parser rejects
(malformed; unknown_code: a code of the format's vocabulary paipu does not know), a reader's unexpected failure,
a value that does not fit its column, a game failing an invariant check, or no complete round; not_a_log: no
known format, or the parser says it is none; skipped and pending as above."""


def parse_reason(exc: ParseError) -> str:
    """The quarantine reason code of a parser's error (REASONS): too_large, unknown_code or malformed."""
    if isinstance(exc, TooLargeError):
        return "too_large"
    return "unknown_code" if isinstance(exc, UnknownCodeError) else "malformed"


class Skipped(str):
    """A path discovery found but does not read: the string is its absolute path, ``reason`` the one-line
    message (naming it) that its manifest row carries."""

    reason: str

    def __new__(cls, path: str, reason: str) -> Skipped:
        """The path, carrying ``reason``."""
        skipped = super().__new__(cls, path)
        skipped.reason = reason
        return skipped

    def __reduce__(self) -> tuple:
        """Pickled with its reason."""
        return Skipped, (str(self), self.reason)


def discover_files(paths: Iterable[Path], limits: Limits = DEFAULT_LIMITS, follow_links: bool = False) -> list[Entry]:
    """Expand files and folders (recursively) into the entries to read, files sorted by absolute path: a plain
    file is one entry, a container (detected by content) one entry per member, in the container's order, each
    to be read within ``limits``; an input not read (see discover_paths) is an entry whose reading says why.

    Hidden files and folders are skipped. Raises FileNotFoundError for a path that does not exist.
    """
    return list(expand_entries(discover_paths(paths, follow_links), limits))


def discover_paths(paths: Iterable[Path], follow_links: bool = False) -> list[str]:
    """The files below ``paths`` (folders recursively, hidden ones skipped) as absolute paths sorted folder by
    folder, not looked into: expand_entries turns them into entries as they are needed.

    Inputs not read are listed too, as Skipped paths saying why: what is not a regular file (a FIFO, a
    socket, a device), a dangling link, a link loop, a folder that cannot be listed, a link to a folder inside
    the inputs (its files are read where they are), and a link out of the inputs unless ``follow_links`` (then
    each folder is walked once, so a loop of links ends). Raises FileNotFoundError for a path that does not
    exist."""
    paths = list(paths)
    walk = _Walk([os.path.realpath(path) for path in paths], follow_links)
    found: set[str] = set()
    for path in paths:
        if path.is_dir():
            found.update(walk.below(str(path.resolve()), os.path.realpath(path)))
        elif path.is_file():
            found.add(str(path.resolve()))
        elif os.path.lexists(path):  # a FIFO or a dangling link given by name
            found.add(_not_read(os.path.abspath(path)))
        else:
            raise FileNotFoundError(f"no such file or folder: {path}")
    # kept as strings: Path objects for 100k files cost seconds
    return sorted(found, key=_path_order)


def expand_entries(names: Iterable[str], limits: Limits = DEFAULT_LIMITS) -> Iterator[Entry]:
    """The entries of files (as discover_paths gives them), lazily, to be read within ``limits``: a plain file
    is one entry, a container (detected by its first bytes) one entry per member, in the container's order, a
    Skipped path one entry whose reading raises containers.SkippedError with its reason."""
    for name in names:
        if isinstance(name, Skipped):
            yield containers.skipped_entry(str(name), name.reason)
        else:
            yield from containers.entries(name, limits)


def _path_order(name: str) -> str:
    """Sort key of a path, folder by folder: the separator made the lowest character (one string per path,
    not a list of its parts: a million paths' keys take ~100 MB instead of ~450 MB)."""
    return name.replace(os.sep, "\0")


class _Walk:
    """Walks input folders: which links are followed, which folders were walked (by real path)."""

    def __init__(self, roots: list[str], follow_links: bool) -> None:
        self.roots = roots
        self.follow_links = follow_links
        self.walked: set[str] = set()

    def below(self, folder: str, real: str) -> Iterator[str]:
        """Yield the files below a folder (absolute paths under the name given; ``real``: its real path), hidden
        files and folders left out; what is not read is a Skipped path (see discover_paths). A folder walked
        already (an input given twice, or inside another) yields nothing more: its files are listed."""
        if real in self.walked:
            return
        self.walked.add(real)
        try:
            with os.scandir(folder) as listing:  # sorted: a folder reached twice is walked by its first name
                children = sorted((entry for entry in listing if not entry.name.startswith(".")), key=_name)
        except OSError as exc:
            yield Skipped(folder, f"{folder}: the folder cannot be listed ({exc.strerror}): its files are not read")
            return
        for entry in children:
            if entry.is_symlink():
                yield from self._link(entry.path)
            elif entry.is_dir(follow_symlinks=False):
                yield from self.below(entry.path, os.path.join(real, entry.name))
            elif entry.is_file(follow_symlinks=False):
                yield entry.path
            else:
                yield _not_read(entry.path)

    def _link(self, path: str) -> Iterator[str]:
        """A symbolic link: its target's files when it is followed, else a Skipped path saying why not."""
        try:
            target = os.path.realpath(path, strict=True)
        except OSError:
            yield _not_read(path)
            return
        inside = any(target == root or target.startswith(root.rstrip(os.sep) + os.sep) for root in self.roots)
        is_folder = os.path.isdir(target)
        if is_folder and inside:
            yield Skipped(path, f"{path}: a link to a folder inside the inputs ({target}): its files are read there")
        elif not inside and not self.follow_links:
            yield Skipped(path, f"{path}: a link out of the inputs (to {target}): not followed unless asked")
        elif is_folder and target in self.walked:
            yield Skipped(path, f"{path}: a link to a folder walked already ({target}): its files are read there")
        elif is_folder:
            yield from self.below(path, target)
        elif os.path.isfile(target):
            yield path
        else:
            yield _not_read(path)


def _name(entry: os.DirEntry) -> str:
    """A folder entry's name (its sort key)."""
    return entry.name


def _not_read(path: str) -> Skipped:
    """The Skipped path of what is not a regular file, nor a folder, nor a link that can be followed."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if not os.path.islink(path):
            return Skipped(path, f"{path}: cannot be looked at ({exc.strerror}): not read")
        why = "a link loop" if exc.errno == errno.ELOOP else f"a dangling link (to {os.readlink(path)})"
        return Skipped(path, f"{path}: {why}: not read")
    return Skipped(path, f"{path}: {containers.file_kind(mode)}, not a regular file: not read")


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


def _uncompressed(data: bytes, path: Path, limit: int) -> tuple[bytes, str | None]:
    """Gzip or xz data decompressed in chunks up to ``limit`` (what a stream cut short holds is kept: the
    parser keeps its complete rounds), other data as it is; and the compression's name when it is cut short.
    Raises ParseError naming the file when it is corrupt, TooLargeError past the limit."""
    try:
        return uncompressed(data, limit)
    except TooLargeError as exc:
        raise TooLargeError(f"{path}: {exc.message}") from None
    except (zlib.error, lzma.LZMAError, EOFError) as exc:
        raise ParseError(f"{path}: corrupt compressed data ({exc})") from None


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
    reason: str | None = None
    """The status's reason code (REASONS), None when ok."""
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
    format: str | None = None
    """The format it was read as (None: not a log of any known format)."""

    def read_as(self, file_format: str | None) -> bool:
        """Whether a run reading with ``--format file_format`` (None: detected) takes it as read before: a file
        read as another format than the one forced now is read again."""
        return file_format is None or self.format == file_format


def unchanged_on_disk(path: str, known: KnownFile | None, file_format: str | None = None) -> bool:
    """Whether a file read before by this paipu version (as ``file_format``, when one is forced) still has the
    size and modification time the manifest recorded, so that it need not be read again (a container's
    members, with no time recorded, never are)."""
    if known is None or known.mtime_ns is None or known.paipu_version != __version__ or not known.read_as(file_format):
        return False
    try:
        status = os.stat(path)
    except OSError:
        return False  # reading it will say what is wrong
    return status.st_mtime_ns == known.mtime_ns and status.st_size == known.size


def read_file(
    path: Path, data: bytes | None = None, file_format: str | None = None, limits: Limits = DEFAULT_LIMITS
) -> FileResult:
    """Parse one file (its bytes, when already read; else read within ``limits``) as ``file_format``
    (default: detected from the content), gzip or xz decompressed within ``limits``. Returns its result, its
    games known by their content fingerprint (pipeline.identity):
    a failure of any kind becomes a quarantined (or not_a_log, or skipped) result with a one-line reason
    naming the file; never raises."""
    if data is None:
        try:
            data = _entry_bytes(containers.plain_entry(str(path), limits))
        except _Unread as exc:
            return FileResult(str(path), 0, "", None, exc.status, exc.message, exc.code)
    fmt = file_format or detect_format(data)
    result = FileResult(str(path), len(data), content_hash(data), fmt)
    if fmt is None:
        result.status, result.error = "not_a_log", f"{path}: not a game log of any known format"
        result.reason = "unknown_format"
        return result
    cut = None
    try:
        plain, cut = _uncompressed(data, path, limits.max_bytes)
        result.games = [identify(game) for game in PARSERS[fmt](plain, str(path))]  # one identity for every format
    except NotALogError as exc:
        result.status, result.error, result.reason = "not_a_log", one_line(_said_cut(str(exc), cut)), "not_a_log"
    except ParseError as exc:
        result.status, result.error = "quarantined", one_line(_said_cut(str(exc), cut))
        result.reason = parse_reason(exc)
    except Exception as exc:  # noqa: BLE001 - a reader's failure on hostile bytes ends this file, not the batch
        result.status, result.error = "quarantined", one_line(f"{path}: cannot be read as {fmt} ({_why(exc)})")
        result.reason = "reader_error"
    return result


def _said_cut(message: str, compression: str | None) -> str:
    """A parser's message, saying that the file's compressed stream was cut short when it was."""
    return message if compression is None else f"{message}; its {compression} data is cut short (a truncated file)"


def read_entry(entry: Entry, known: dict[str, KnownFile], file_format: str | None = None) -> FileResult | None:
    """Read and parse one entry within its limits; None when it is unchanged (``known``: the files read
    before, by name; one read by this version with the same content hash, and as ``file_format`` when one is
    forced, is skipped). Never raises: an entry
    that cannot be read becomes a result naming it, with the status its failure gives (quarantined, or
    skipped, or pending: see containers.ContainerError)."""
    try:
        data = _entry_bytes(entry)
    except _Unread as exc:
        return FileResult(entry.name, 0, "", None, exc.status, exc.message, exc.code)
    previous = known.get(entry.name)
    same = previous is not None and previous.paipu_version == __version__ and previous.read_as(file_format)
    if same and content_hash(data) == previous.content_hash:
        return None
    result = read_file(Path(entry.name), data, file_format, entry.limits)
    result.mtime_ns = entry.mtime_ns
    return result


class _Unread(Exception):
    """An entry that could not be read: its manifest status, one-line message (naming it) and reason code."""

    def __init__(self, status: str, message: str, code: str = "unreadable") -> None:
        super().__init__(message)
        self.status = status
        self.message = one_line(message)
        self.code = code


def _entry_bytes(entry: Entry) -> bytes:
    """The bytes of an entry; raises _Unread (status, reason naming it) for a failure of any kind."""
    try:
        return entry.read()
    except containers.ContainerError as exc:  # its message names the container and the member
        raise _Unread(exc.status, str(exc), exc.reason) from None
    except OSError as exc:
        raise _Unread("quarantined", f"{entry.name}: cannot read ({exc.strerror or exc})") from None
    except Exception as exc:  # noqa: BLE001 - a reader's failure on a hostile entry ends this entry only
        raise _Unread("quarantined", f"{entry.name}: cannot read ({_why(exc)})") from None


def _why(exc: BaseException) -> str:
    """'ErrorName: message' of an unexpected exception, for a one-line reason."""
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def one_line(message: str, limit: int = 2000) -> str:
    """A message on one line (line breaks written as \\n) of at most ``limit`` characters."""
    flat = message.replace("\r", "\\r").replace("\n", "\\n")
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."
