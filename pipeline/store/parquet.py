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


def read_part(part: Path, columns: list[str] | None = None) -> pa.Table:
    """A part file's rows (only ``columns`` when given), its folders not taken as partition columns. Raises
    WarehouseError naming the file when it cannot be read."""
    try:
        return pq.read_table(part, columns=columns, partitioning=None)
    except (OSError, pa.ArrowInvalid) as exc:
        raise WarehouseError(f"cannot read {part}: {exc}") from None


def file_metadata() -> dict[bytes, bytes]:
    """Return the key-value metadata stored in every Parquet file: paipu's and the schema's version."""
    meta = {"paipu_version": __version__, "paipu_schema_version": SCHEMA_VERSION}
    return {k.encode(): v.encode() for k, v in meta.items()}


UNIQUE_STRINGS = frozenset({"fingerprint", "source_file", "counts", "decomposition", "path", "content_hash", "error"})
"""String columns whose values rarely repeat (a file, a hand): a dictionary would only cost time."""


KEY_COLUMNS = ("game_id", "round_idx", "seat", "event_idx", "win_idx", "path")
"""The columns whose Parquet statistics (min/max per row group) are written: the keys a query looks rows up by.
Other columns' ranges span nearly every value in every row group, so their statistics would prune nothing and
cost time (the min/max of two million 34-digit hand strings)."""


def statistics_columns(schema: pa.Schema) -> list[str]:
    """The columns of ``schema`` that get Parquet statistics (KEY_COLUMNS present in it)."""
    return [name for name in schema.names if name in KEY_COLUMNS]


def dictionary_columns(schema: pa.Schema) -> list[str]:
    """Columns worth dictionary-encoding: the strings (ids, actions, kinds repeat a lot) but UNIQUE_STRINGS;
    numbers and tile lists compress better, and faster, without."""
    strings = [f.name for f in schema if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)]
    return [name for name in strings if name not in UNIQUE_STRINGS]


def writer_options(schema: pa.Schema) -> dict:
    """The Parquet writer options every paipu file is written with: zstd, dictionaries and statistics where
    they pay (dictionary_columns, statistics_columns)."""
    return {
        "compression": "zstd",
        "use_dictionary": dictionary_columns(schema),
        "write_statistics": statistics_columns(schema),
    }


def _publish(tmp: Path, path: Path, expected_rows: int) -> None:
    """Read the temp file's footer back, check its row count, rename it into place."""
    written = pq.read_metadata(tmp).num_rows
    if written != expected_rows:
        raise WarehouseError(f"{path}: wrote {written} rows, expected {expected_rows}")
    os.replace(tmp, path)


def write_parquet_atomic(table: pa.Table, path: Path) -> None:
    """Write ``table`` to ``path`` (zstd) so that readers see either the old file or the new one.

    The data goes to a temp file in the same folder, its footer is read back and its row count
    checked, then it is renamed into place. Raises WarehouseError on any I/O failure (disk full,
    permission denied), leaving no temp file behind.
    """
    tmp = path.with_name(f"{path.name}.{os.getpid()}{TEMP_SUFFIX}")
    meta = dict(table.schema.metadata or {})
    meta.update(file_metadata())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(table.replace_schema_metadata(meta), tmp, **writer_options(table.schema))
        _publish(tmp, path, table.num_rows)
    except OSError as exc:
        raise WarehouseError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp.is_file():
            tmp.unlink()


class AtomicParquetWriter:
    """Write a Parquet file piece by piece, visible only once closed.

    Each ``write`` is one row group, or with ``row_group_rows`` > 0 consecutive writes are gathered until
    they hold that many rows (small pieces make many small row groups, each with its own pages and
    statistics, slower to write and to read). Use as a context manager: on a clean exit what is gathered is
    written, the footer checked and the file renamed into place (an empty file is not created, an existing
    one is removed); on an error the temp file is removed. Raises WarehouseError on any I/O failure.
    """

    def __init__(self, path: Path, schema: pa.Schema, row_group_rows: int = 0) -> None:
        self.path = path
        self.schema = schema.with_metadata({**(schema.metadata or {}), **file_metadata()})
        self.tmp = path.with_name(f"{path.name}.{os.getpid()}{TEMP_SUFFIX}")
        self.rows = 0
        self.row_group_rows = row_group_rows
        self.gathered: list[pa.Table] = []
        self.gathered_rows = 0
        self.writer: pq.ParquetWriter | None = None

    def write(self, table: pa.Table) -> None:
        """Append a table with the writer's schema (as a row group, or gathered: see the class)."""
        if table.num_rows == 0:
            return
        self.gathered.append(table)
        self.gathered_rows += table.num_rows
        if self.gathered_rows >= self.row_group_rows:
            self._write_gathered()

    def _write_gathered(self) -> None:
        """Write the gathered tables as one row group."""
        if not self.gathered:
            return
        table = self.gathered[0] if len(self.gathered) == 1 else pa.concat_tables(self.gathered)
        self.gathered, self.gathered_rows = [], 0
        try:
            if self.writer is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.writer = pq.ParquetWriter(self.tmp, self.schema, **writer_options(self.schema))
            self.writer.write_table(table.replace_schema_metadata(self.schema.metadata))
        except OSError as exc:
            self._discard()
            raise WarehouseError(f"cannot write {self.path}: {exc.strerror or exc}") from None
        self.rows += table.num_rows

    def __enter__(self) -> AtomicParquetWriter:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is not None:
            self._discard()
            return
        try:
            self._write_gathered()
            if self.writer is None:
                self.path.unlink(missing_ok=True)
                return
            self.writer.close()
            _publish(self.tmp, self.path, self.rows)
        except OSError as exc:
            raise WarehouseError(f"cannot write {self.path}: {exc.strerror or exc}") from None
        finally:
            self._discard()

    def _discard(self) -> None:
        if self.writer is not None and self.tmp.is_file():
            self.writer.close()
        if self.tmp.is_file():
            self.tmp.unlink()


def remove_orphaned_temp_files(root: Path) -> int:
    """Delete temp files left by an interrupted run below ``root``; return how many were removed."""
    removed = 0
    for tmp in root.rglob(f"*{TEMP_SUFFIX}"):
        tmp.unlink(missing_ok=True)
        removed += 1
    return removed
