"""Staged changes are published whole: a journal interrupted part way is finished by recover(), an
unjournaled staging folder is thrown away; and derived parts of another paipu version are derived again."""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.derive.run import stale_parts
from pipeline.errors import WarehouseError
from pipeline.store.parquet import write_parquet_atomic
from pipeline.store.transaction import JOURNAL, STAGING, Transaction, recover

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"


def table(value: int) -> pa.Table:
    """A one-row table holding ``value``."""
    return pa.table({"x": [value]})


def read(path: Path) -> int:
    """The value a one-row table file holds."""
    return pq.read_table(path)["x"][0].as_py()


def test_commit_publishes_every_staged_file_and_deletion(tmp_path: Path) -> None:
    write_parquet_atomic(table(1), tmp_path / "a" / "old.parquet")
    write_parquet_atomic(table(1), tmp_path / "b" / "gone.parquet")
    txn = Transaction(tmp_path)
    write_parquet_atomic(table(2), txn.staged("a/old.parquet"))
    write_parquet_atomic(table(3), txn.staged("a/new.parquet"))
    txn.delete("b/gone.parquet")
    assert read(tmp_path / "a" / "old.parquet") == 1  # nothing visible before the commit
    txn.commit()
    assert (read(tmp_path / "a" / "old.parquet"), read(tmp_path / "a" / "new.parquet")) == (2, 3)
    assert not (tmp_path / "b" / "gone.parquet").exists()
    assert not txn.folder.exists()


def test_recover_finishes_a_journal_cut_short(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    txn = Transaction(tmp_path, "t1")
    for name in ("a", "b", "c"):
        write_parquet_atomic(table(ord(name)), txn.staged(f"t/{name}.parquet"))
    real_replace, calls = os.replace, []

    def die_on_the_second_publish(src: str, dst: str) -> None:
        calls.append(dst)
        if len(calls) == 3:  # the journal's rename, then one part published, then the "kill"
            raise KeyboardInterrupt
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", die_on_the_second_publish)
    with pytest.raises(KeyboardInterrupt):
        txn.commit()
    monkeypatch.undo()
    assert (txn.folder / JOURNAL).is_file() and len(list((tmp_path / "t").glob("*.parquet"))) == 1

    assert recover(tmp_path) == (1, 0)
    assert sorted(read(p) for p in (tmp_path / "t").glob("*.parquet")) == [ord("a"), ord("b"), ord("c")]
    assert not (tmp_path / STAGING).exists()


def test_abort_keeps_a_commit_cut_short_for_recover(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    """A caller cleaning up after a failed commit (the ingest aborts its batches on any error) must not throw
    the journal away: the commit is finished by recover(), not left half applied."""
    txn = Transaction(tmp_path, "t3")
    for name in ("a", "b"):
        write_parquet_atomic(table(ord(name)), txn.staged(f"t/{name}.parquet"))
    real_replace, calls = os.replace, []

    def fail_after_the_first_publish(src: str, dst: str) -> None:
        calls.append(dst)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", fail_after_the_first_publish)
    with pytest.raises(WarehouseError):
        txn.commit()
    monkeypatch.undo()
    txn.abort()
    assert (txn.folder / JOURNAL).is_file()
    assert recover(tmp_path) == (1, 0)
    assert sorted(read(p) for p in (tmp_path / "t").glob("*.parquet")) == [ord("a"), ord("b")]


def test_recover_discards_what_was_never_committed(tmp_path: Path) -> None:
    txn = Transaction(tmp_path, "t2")
    write_parquet_atomic(table(1), txn.staged("t/x.parquet"))
    assert recover(tmp_path) == (0, 1)
    assert not (tmp_path / "t").exists() and not (tmp_path / STAGING).exists()


def test_ingest_rederives_parts_derived_by_another_version(tmp_path: Path) -> None:
    warehouse = tmp_path / "w"
    runner = CliRunner()
    assert runner.invoke(app, ["ingest", str(SAMPLE), "-w", str(warehouse), "-j", "1"]).exit_code == 0
    from pipeline.store.warehouse import Warehouse  # noqa: PLC0415

    hands = Warehouse(warehouse).table_files("hand_states")[0]
    old = pq.read_table(hands)
    old_meta = {**old.schema.metadata, b"paipu_version": b"0.0.1"}
    pq.write_table(old.replace_schema_metadata(old_meta), hands)
    assert len(stale_parts(Warehouse(warehouse))) == 1

    again = runner.invoke(app, ["ingest", str(SAMPLE), "-w", str(warehouse), "-j", "1"])

    assert again.exit_code == 0 and "derived:" in again.output
    assert stale_parts(Warehouse(warehouse)) == []
