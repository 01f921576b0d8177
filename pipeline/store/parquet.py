"""Atomic Parquet writes: a temp file beside the target, its footer checked, then a rename."""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline import __version__
from pipeline.errors import WarehouseError
from pipeline.schema import SCHEMA_VERSION

TEMP_SUFFIX = ".tmp"
"""Suffix of files being written; never matched by readers (they read ``*.parquet``)."""


def file_metadata(extra: dict[str, str] | None = None) -> dict[bytes, bytes]:
    """Return the key-value metadata stored in every Parquet file (paipu and schema version + extra)."""
    meta = {"paipu_version": __version__, "paipu_schema_version": SCHEMA_VERSION, **(extra or {})}
    return {k.encode(): v.encode() for k, v in meta.items()}


def write_parquet_atomic(table: pa.Table, path: Path, extra_metadata: dict[str, str] | None = None) -> None:
    """Write ``table`` to ``path`` (zstd) so that readers see either the old file or the new one.

    The data goes to a temp file in the same folder, its footer is read back and its row count
    checked, then it is renamed into place. Raises WarehouseError on any I/O failure (disk full,
    permission denied), leaving no temp file behind.
    """
    tmp = path.with_name(f"{path.name}.{os.getpid()}{TEMP_SUFFIX}")
    meta = dict(table.schema.metadata or {})
    meta.update(file_metadata(extra_metadata))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(table.replace_schema_metadata(meta), tmp, compression="zstd")
        written = pq.ParquetFile(tmp).metadata.num_rows
        if written != table.num_rows:
            raise WarehouseError(f"{path}: wrote {written} rows, expected {table.num_rows}")
        os.replace(tmp, path)
    except OSError as exc:
        raise WarehouseError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp.is_file():
            tmp.unlink()


def remove_orphaned_temp_files(root: Path) -> int:
    """Delete temp files left by an interrupted run below ``root``; return how many were removed."""
    removed = 0
    for tmp in root.rglob(f"*{TEMP_SUFFIX}"):
        tmp.unlink(missing_ok=True)
        removed += 1
    return removed
