"""Reading one input: detecting a file's format by its content, parsing it into games (known by their content:
pipeline.identity), and turning every failure, of any kind, into a result whose verdict (pipeline.ingest.status)
names the file and says why (quarantined, not a log, skipped, pending), within the bounds of pipeline.limits."""

from __future__ import annotations

import hashlib
import importlib
import lzma
import os
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from pipeline import __version__
from pipeline.errors import NotALogError, ParseError, UnknownCodeError
from pipeline.ingest import containers
from pipeline.ingest.containers import Entry
from pipeline.ingest.status import OK, Verdict, decide
from pipeline.limits import DEFAULT_LIMITS, Limits, TooLargeError, uncompressed
from pipeline.sources import FORMATS, majsoul, mjai, tenhou_json, tenhou_xml
from pipeline.sources.base import ParsedGame


def _parser(package: str) -> Callable[[bytes, str], list[ParsedGame]]:
    """The parse function of a format's package (``parse(data, source_file) -> list[ParsedGame]``), the package's
    parser imported at the first call: a run reads (and compiles) only the formats it meets."""

    def parse(data: bytes, source_file: str) -> list[ParsedGame]:
        return importlib.import_module(package).parse(data, source_file)

    return parse


PARSERS: dict[str, Callable[[bytes, str], list[ParsedGame]]] = {
    name: _parser(f"pipeline.sources.{name}") for name in FORMATS
}
"""Format name (pipeline.sources.FORMATS) -> parse function; every format exposes the same signature."""


def parse_reason(exc: ParseError) -> str:
    """The quarantine reason code of a parser's error (REASONS): too_large, unknown_code or malformed."""
    if isinstance(exc, TooLargeError):
        return "too_large"
    return "unknown_code" if isinstance(exc, UnknownCodeError) else "malformed"


def detect_format(data: bytes) -> str | None:
    """Return the format name of a file's bytes (looked at, not guessed from the name), or None.

    Gzip-compressed bytes are looked at inside (the first 64 KiB)."""
    if data[:2] == b"\x1f\x8b":
        data = _gzip_head(data)
        if not data:  # corrupt: the Tenhou XML reader (gzip is its archive's own form) reports it
            return tenhou_xml.SOURCE
    if b"<mjloggm" in data[:4096]:
        return tenhou_xml.SOURCE
    if mjai.starts_like(data):  # its first line tells: no other format's 64 KiB search
        return mjai.SOURCE
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
    """What became of one input file: its verdict (status, reason code, message) and the games read."""

    path: str
    size: int
    content_hash: str
    format: str | None
    verdict: Verdict = OK
    games: list = field(default_factory=list)
    """The games read (ParsedGame; in a batch's outcome, their dedup.GameCopy)."""
    game_ids: list[str] = field(default_factory=list)
    fingerprints: list[str] = field(default_factory=list)
    mtime_ns: int | None = None
    """A plain file's modification time when it was read (ns since the epoch); None for a container's member."""

    @property
    def status(self) -> str:
        """The manifest status (pipeline.ingest.status.STATUSES)."""
        return self.verdict.status

    @property
    def reason(self) -> str | None:
        """The status's reason code (pipeline.ingest.status.REASONS), None when ok."""
        return self.verdict.reason

    @property
    def error(self) -> str | None:
        """The one-line message naming the file, None when ok."""
        return self.verdict.message

    def found(self, reason: str, message: str) -> None:
        """Record what a later stage found of this file (a reason code and the message naming it): its verdict
        becomes what pipeline.ingest.status.decide says, and a file no longer ok keeps no games to store."""
        self.verdict = decide(reason, message, self.verdict)
        self.games = []


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
            return FileResult(str(path), 0, "", None, exc.verdict)
    fmt = file_format or detect_format(data)
    result = FileResult(str(path), len(data), content_hash(data), fmt)
    if fmt is None:
        result.verdict = decide("unknown_format", one_line(f"{path}: not a game log of any known format"))
        return result
    cut = None
    try:
        plain, cut = _uncompressed(data, path, limits.max_bytes)
        result.games = PARSERS[fmt](plain, str(path))  # every parser's games carry pipeline.identity's fingerprint
    except NotALogError as exc:
        result.verdict = decide("not_a_log", one_line(_said_cut(str(exc), cut)))
    except ParseError as exc:
        result.verdict = decide(parse_reason(exc), one_line(_said_cut(str(exc), cut)))
    except Exception as exc:  # noqa: BLE001 - a reader's failure on hostile bytes ends this file, not the batch
        result.verdict = decide("reader_error", one_line(f"{path}: cannot be read as {fmt} ({_why(exc)})"))
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
        return FileResult(entry.name, 0, "", None, exc.verdict)
    previous = known.get(entry.name)
    same = previous is not None and previous.paipu_version == __version__ and previous.read_as(file_format)
    if same and content_hash(data) == previous.content_hash:
        return None
    result = read_file(Path(entry.name), data, file_format, entry.limits)
    result.mtime_ns = entry.mtime_ns
    return result


class _Unread(Exception):
    """An entry that could not be read, with its verdict (the message naming it)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.verdict = decide(reason, one_line(message))


def _entry_bytes(entry: Entry) -> bytes:
    """The bytes of an entry; raises _Unread (its verdict naming it) for a failure of any kind."""
    try:
        return entry.read()
    except containers.ContainerError as exc:  # its message names the container and the member
        raise _Unread(exc.reason, str(exc)) from None
    except OSError as exc:
        raise _Unread("unreadable", f"{entry.name}: cannot read ({exc.strerror or exc})") from None
    except Exception as exc:  # noqa: BLE001 - a reader's failure on a hostile entry ends this entry only
        raise _Unread("unreadable", f"{entry.name}: cannot read ({_why(exc)})") from None


def _why(exc: BaseException) -> str:
    """'ErrorName: message' of an unexpected exception, for a one-line reason."""
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def one_line(message: str, limit: int = 2000) -> str:
    """A message on one line (line breaks written as \\n) of at most ``limit`` characters."""
    flat = message.replace("\r", "\\r").replace("\n", "\\n")
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."
