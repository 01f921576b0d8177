"""Readers see only whole published batches (pipeline.store.published): during a commit, which holds the
publishing lock while it renames a batch's files into place, and after a writer was killed in the middle of one,
whose journal the next reader finishes first."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

import pipeline.store.transaction as transaction
from pipeline.api import open_warehouse
from pipeline.db import connect
from pipeline.ingest import ingest
from pipeline.store.published import generation, reading
from pipeline.store.transaction import JOURNAL, STAGING, Transaction
from pipeline.store.warehouse import Warehouse

PLAIN = "tenhou-xml/mjx/tests_py/resources/mjlog/2020052700gm-00a9-0000-75a4695c.mjlog"
OTHER = "tenhou-xml/mjx/tests_py/resources/mjlog/2010081709gm-00a9-0000-fe3371ad.mjlog"


def counts(warehouse: Warehouse) -> tuple[int, int, int]:
    """(games, rounds, events) the views show."""
    con = connect(warehouse)
    return tuple(con.execute(f"select count(*) from {t}").fetchone()[0] for t in ("games", "rounds", "events"))


@pytest.fixture
def two_batches(shared_logs: Path, tmp_path: Path) -> tuple[Warehouse, Path]:
    """A warehouse holding one game, and a folder with a second one to ingest."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (first / "a.mjlog").write_bytes((shared_logs / PLAIN).read_bytes())
    (second / "b.mjlog").write_bytes((shared_logs / OTHER).read_bytes())
    warehouse = Warehouse(tmp_path / "warehouse")
    ingest([first], warehouse)
    return warehouse, second


def test_a_reader_waits_for_the_commit_in_flight_and_sees_it_whole(
    two_batches: tuple[Warehouse, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    warehouse, second = two_batches
    before = counts(warehouse)
    halfway, go_on = threading.Event(), threading.Event()
    real_replace = os.replace
    renamed = []

    def slow_replace(src, dst) -> None:  # noqa: ANN001
        real_replace(src, dst)
        if str(dst).endswith(".parquet") and "_staging" not in str(dst):
            renamed.append(dst)
            if len(renamed) == 2:  # some of the batch's files are in place, the others not yet
                halfway.set()
                go_on.wait(10)

    monkeypatch.setattr(transaction.os, "replace", slow_replace)
    writer = threading.Thread(target=ingest, args=([second], warehouse))
    writer.start()
    assert halfway.wait(30)
    seen: list[tuple[int, int, int]] = []
    reader = threading.Thread(target=lambda: seen.append(_read_whole(warehouse)))
    reader.start()
    time.sleep(0.5)
    assert not seen  # the reader waits while the batch is half published
    go_on.set()
    writer.join(30)
    reader.join(30)
    after = counts(warehouse)
    assert seen == [after] and after[0] == before[0] + 1


def _read_whole(warehouse: Warehouse) -> tuple[int, int, int]:
    with reading(warehouse.root):
        return counts(warehouse)


def test_a_reader_finishes_the_commit_a_killed_writer_left(two_batches: tuple[Warehouse, Path]) -> None:
    warehouse, second = two_batches
    before = counts(warehouse)
    txn = Transaction(warehouse.root, "killed")
    staged = _stage_copy_of(warehouse, second, txn)
    (txn.folder / JOURNAL).write_text(json.dumps({"replace": staged, "delete": []}))  # then the writer died
    assert (warehouse.root / STAGING / "killed" / JOURNAL).is_file()
    with reading(warehouse.root):
        assert not (warehouse.root / STAGING / "killed").exists()
        assert counts(warehouse)[0] == before[0] + 1


def _stage_copy_of(warehouse: Warehouse, folder: Path, txn: Transaction) -> list[str]:
    """Stage in ``txn`` the parts another warehouse made of ``folder`` (a batch ready to publish)."""
    other = Warehouse(warehouse.root.parent / "other")
    ingest([folder], other)
    staged = []
    for table in ("games", "players", "rounds", "events", "wins", "draws"):
        for part in other.table_files(table):
            relative = part.relative_to(other.root)
            txn.staged(relative).write_bytes(part.read_bytes())
            staged.append(str(relative))
    return staged


def test_a_notebook_connection_sees_what_was_published_since(two_batches: tuple[Warehouse, Path]) -> None:
    warehouse, second = two_batches
    wh = open_warehouse(warehouse.root)
    n_before = int(wh.sql("select count(*) as n from games")["n"][0])
    mark = generation(warehouse.root)
    ingest([second], warehouse)
    assert generation(warehouse.root) != mark
    assert int(wh.sql("select count(*) as n from games")["n"][0]) == n_before + 1
