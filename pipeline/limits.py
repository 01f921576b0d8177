"""What reading one input may cost, bounded, so that no input takes a batch down.

A file or a container's member may hold (or expand to) at most ``Limits.max_bytes`` bytes (default 64 MiB;
the largest real log is under 1 MiB, a database of thousands of logs is a container, read row by row): a
compression bomb then costs that much and no more, since everything is decompressed in chunks and
stopped at the limit, never decompressed whole first. A log database's query may yield at most
``max_rows`` rows and run at most ``max_seconds`` (a ``logs`` view that never ends is interrupted).

Decompressing here keeps what a stream cut short gives (a truncated download): the caller's parser then
keeps the complete rounds of the cut document, as it does for a truncated plain file.
"""

from __future__ import annotations

import bz2
import lzma
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO

from pipeline.errors import ParseError

MiB = 1 << 20
DEFAULT_MAX_FILE_MB = 64
"""Default bound of a file's or member's size, compressed or not, in MiB."""
CHUNK = MiB
"""Bytes decompressed or read at a time."""
GZIP_MAGIC = b"\x1f\x8b"
XZ_MAGIC = b"\xfd7zXZ\x00"
BZ2_MAGIC = b"BZh"


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds of the reading of one input (see the module docstring)."""

    max_bytes: int = DEFAULT_MAX_FILE_MB * MiB
    """Bytes a file or member may hold, after decompression."""
    max_rows: int = 10_000_000
    """Rows one log database may list."""
    max_seconds: float = 120.0
    """Seconds one database query may run."""

    @classmethod
    def of_file_mb(cls, max_file_mb: float) -> Limits:
        """Limits with ``max_bytes`` of ``max_file_mb`` MiB (what a ``--max-file-mb`` option gives), the
        others by default. Raises ValueError for a size that is not positive."""
        if max_file_mb <= 0:
            raise ValueError(f"the file size limit must be positive, not {max_file_mb} MB")
        return cls(max_bytes=int(max_file_mb * MiB))


DEFAULT_LIMITS = Limits()


class TooLargeError(ParseError):
    """Bytes that hold, or expand to, more than the limit."""


def too_large(what: str, limit: int) -> TooLargeError:
    """The error saying ``what`` (e.g. 'expands to') passes ``limit`` bytes, naming the option that sets it."""
    size = f"{limit // MiB} MiB" if limit % MiB == 0 else f"{limit:,} bytes"
    return TooLargeError(f"{what} more than {size} (the --max-file-mb limit of one file)")


def read_stream(stream: BinaryIO, limit: int) -> bytes:
    """All the bytes of a binary stream, read in chunks; raises TooLargeError (having read at most
    ``limit`` + 1 bytes) when it holds more than ``limit``."""
    chunks: list[bytes] = []
    size = 0
    while chunk := stream.read(min(CHUNK, limit + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise too_large("holds", limit)
    return b"".join(chunks)


def _drain(make: Callable[[], Any], data: bytes, limit: int, tail: Callable[[Any], bytes]) -> tuple[bytes, bool]:
    """Decompress ``data`` (streams one after another, as gzip and bz2 allow) in chunks of at most CHUNK
    bytes; ``tail(d)``: the input ``d`` has not consumed yet. Returns the bytes and whether the last stream
    was cut short: it stops at the end of the last stream (trailing bytes that start no stream are ignored)
    or at the end of the data (a stream cut short: what it gave is returned). Raises TooLargeError past
    ``limit``, the decompressor's error when the data is corrupt, and EOFError when a stream is cut short before
    giving anything. ``make()``: a zlib, bz2 or lzma decompressor (they share ``decompress(data, max_length)``,
    ``eof`` and ``unused_data``)."""
    chunks: list[bytes] = []
    size = 0
    decompressor, pending = make(), data
    while True:
        chunk = decompressor.decompress(pending, min(CHUNK, limit + 1 - size))
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise too_large("expands to", limit)
        if decompressor.eof:
            pending = decompressor.unused_data
            if not pending.startswith(data[:2]):  # trailing bytes, not a next stream of the same kind
                return b"".join(chunks), False
            decompressor = make()
            continue
        pending = tail(decompressor)
        if not pending and not chunk:  # all input consumed, no more output: the stream is cut short
            if not size:
                raise EOFError("compressed data cut short before any content")
            return b"".join(chunks), True


def gunzip(data: bytes, limit: int) -> bytes:
    """The bytes inside gzip data (concatenated members joined; a cut stream gives what it holds).
    Raises zlib.error (corrupt), EOFError (cut before any content) or TooLargeError (past ``limit``)."""
    return _drain(lambda: zlib.decompressobj(wbits=31), data, limit, _unconsumed)[0]


def inflate(data: bytes, limit: int) -> bytes:
    """The bytes inside zlib data; raises as gunzip."""
    return _drain(lambda: zlib.decompressobj(), data, limit, _unconsumed)[0]


def bunzip2(data: bytes, limit: int) -> bytes:
    """The bytes inside bz2 data (streams joined); raises OSError (corrupt), EOFError or TooLargeError."""
    return _drain(bz2.BZ2Decompressor, data, limit, _no_tail)[0]


def unxz(data: bytes, limit: int) -> bytes:
    """The bytes inside xz data (streams joined); raises lzma.LZMAError (corrupt), EOFError or TooLargeError."""
    return _drain(lzma.LZMADecompressor, data, limit, _no_tail)[0]


def _unconsumed(decompressor: Any) -> bytes:
    """The input a zlib decompressor holds back because of ``max_length``."""
    return decompressor.unconsumed_tail


def _no_tail(decompressor: Any) -> bytes:
    """bz2 and lzma decompressors keep the input held back themselves: feed them nothing more."""
    return b""


SINGLE_FILE_COMPRESSIONS: dict[bytes, tuple[str, Callable[[], Any], Callable[[Any], bytes]]] = {
    GZIP_MAGIC: ("gzip", lambda: zlib.decompressobj(wbits=31), _unconsumed),
    XZ_MAGIC: ("xz", lzma.LZMADecompressor, _no_tail),
}
"""Magic bytes -> (name, decompressor, its held-back input) of the compressions a log file may come in
(read_file removes them)."""


def uncompressed(data: bytes, limit: int) -> tuple[bytes, str | None]:
    """``data`` without its gzip or xz compression (judged by its magic bytes; other data as it is, when
    within ``limit``), and the compression's name when its stream is cut short (what it holds is returned),
    else None. Raises as gunzip and unxz."""
    for magic, (name, make, tail) in SINGLE_FILE_COMPRESSIONS.items():
        if data.startswith(magic):
            plain, cut = _drain(make, data, limit, tail)
            return plain, name if cut else None
    if len(data) > limit:
        raise too_large("holds", limit)
    return data, None
