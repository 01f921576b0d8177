"""How paipu writes Parquet: statistics on the key columns only, no dictionary for strings that do not repeat."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.store.parquet import AtomicParquetWriter, write_parquet_atomic

ROWS = pa.table(
    {
        "game_id": ["g1", "g1", "g2"],
        "round_idx": pa.array([0, 1, 0], pa.int16()),
        "counts": ["0" * 34, "1" * 34, "2" * 34],
        "kind": ["exhaustive", "exhaustive", "exhaustive"],
    }
)


def column_facts(path: Path) -> dict[str, tuple[bool, bool]]:
    """Column -> (has statistics, dictionary-encoded) in the file's first row group."""
    group = pq.ParquetFile(path).metadata.row_group(0)
    out = {}
    for i in range(group.num_columns):
        column = group.column(i)
        out[column.path_in_schema] = (column.is_stats_set, column.has_dictionary_page)
    return out


def test_statistics_on_keys_and_dictionaries_on_repeating_strings(tmp_path: Path) -> None:
    write_parquet_atomic(ROWS, tmp_path / "a.parquet")
    with AtomicParquetWriter(tmp_path / "b.parquet", ROWS.schema) as writer:
        writer.write(ROWS)
    for name in ("a.parquet", "b.parquet"):
        assert column_facts(tmp_path / name) == {
            "game_id": (True, True),
            "round_idx": (True, False),
            "counts": (False, False),  # a hand's 34 digits: neither worth a dictionary nor a min/max
            "kind": (False, True),
        }, name
        assert pq.read_table(tmp_path / name).equals(ROWS)


def test_small_writes_are_gathered_into_row_groups_of_the_asked_size(tmp_path: Path) -> None:
    path = tmp_path / "gathered.parquet"
    with AtomicParquetWriter(path, ROWS.schema, row_group_rows=7) as writer:
        for _ in range(4):
            writer.write(ROWS)  # 3 rows each: 9 rows are written as a group once gathered, the last 3 when closed
        assert writer.rows == 9 and not path.exists()
    meta = pq.ParquetFile(path).metadata
    assert [meta.row_group(i).num_rows for i in range(meta.num_row_groups)] == [9, 3]
    assert pq.read_table(path).equals(pa.concat_tables([ROWS] * 4))
