"""What the manifest says of the files read before, by path, as an ingest run asks it, in ~150 bytes a file.

A rerun over an archive asks, for every file it finds, whether the manifest holds it and with what size,
modification time, content hash and paipu version (pipeline.ingest.reading.unchanged_on_disk, read_entry). A dict of
Python objects per file costs ~0.9 KB a file, most of a gigabyte at a million files. This index keeps the
manifest's columns as Arrow arrays ordered by a 64-bit hash of the path (Python's ``hash``: stable within the
process that builds and asks it) beside the sorted hashes as numpy; a lookup searches the hash and compares
the path stored there, so a hash collision finds the right row or none.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pyarrow as pa

from pipeline.ingest.reading import KnownFile
from pipeline.schema import arrow_schema

COLUMNS = ("path", "content_hash", "paipu_version", "size", "mtime_ns", "format")
"""The manifest columns the index keeps."""
_CHUNK = 1 << 16
"""Paths turned into Python strings at a time while hashing (bounds the memory that takes)."""


def _key(path: str) -> int:
    """The 64-bit hash a path is indexed by."""
    return hash(path)


def _hashes(paths: pa.ChunkedArray | pa.Array) -> np.ndarray:
    """Python's hash of every path (int64), a chunk of paths at a time."""
    out = np.empty(len(paths), dtype=np.int64)
    for start in range(0, len(paths), _CHUNK):
        chunk = paths.slice(start, _CHUNK).to_pylist()
        out[start : start + len(chunk)] = np.fromiter((_key(p) for p in chunk), dtype=np.int64, count=len(chunk))
    return out


class KnownFiles:
    """The manifest's files by path (see the module docstring); asked like a read-only dict of KnownFile."""

    def __init__(self, manifest: pa.Table) -> None:
        """Index a table holding at least COLUMNS (one row per path, as the manifest stores them)."""
        hashes = _hashes(manifest["path"])
        order = np.argsort(hashes, kind="stable")
        self._hashes = hashes[order]
        rows = manifest.select(list(COLUMNS)).take(pa.array(order)).combine_chunks()
        self._paths, self._digests, self._versions = rows["path"], rows["content_hash"], rows["paipu_version"]
        self._formats = rows["format"]
        self._sizes = rows["size"].to_numpy()
        mtimes = rows["mtime_ns"]
        self._mtimes = mtimes.fill_null(0).to_numpy()
        self._has_mtime = mtimes.is_valid().to_numpy(zero_copy_only=False)

    @classmethod
    def empty(cls) -> KnownFiles:
        """An index of no file."""
        manifest = arrow_schema("manifest")
        return cls(pa.schema([manifest.field(name) for name in COLUMNS]).empty_table())

    def __len__(self) -> int:
        return len(self._hashes)

    def _row(self, path: str) -> int | None:
        """The row of ``path``, or None when the manifest does not hold it."""
        if not len(self._hashes):  # a first ingest asks of every file
            return None
        key = _key(path)
        row = int(np.searchsorted(self._hashes, key))
        while row < len(self._hashes) and self._hashes[row] == key:
            if self._paths[row].as_py() == path:
                return row
            row += 1
        return None

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self._row(path) is not None

    def get(self, path: str) -> KnownFile | None:
        """What the manifest says of ``path``, or None when it does not hold it."""
        row = self._row(path)
        if row is None:
            return None
        mtime = int(self._mtimes[row]) if self._has_mtime[row] else None
        return KnownFile(
            self._digests[row].as_py(), self._versions[row].as_py(), int(self._sizes[row]), mtime,
            self._formats[row].as_py(),
        )  # fmt: skip

    def of(self, paths: Iterable[str]) -> dict[str, KnownFile]:
        """The KnownFile of each of ``paths`` the manifest holds, by path (a batch's entries: what its worker needs)."""
        found = {path: self.get(path) for path in paths}
        return {path: known for path, known in found.items() if known is not None}
