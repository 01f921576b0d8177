"""``paipu compact``: a partition's small parts merged into one part per run, in every table, with the same
rows; later ingests and derive work on the merged parts; an interrupted compaction changes nothing."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner
from warehouse_contents import contents, differences

import pipeline.compact as compact_module
from pipeline import __version__
from pipeline.cli import app
from pipeline.compact import compact, compacted_name, is_compacted_part, plan_runs
from pipeline.derive.run import derive, stale_parts
from pipeline.ingest import ingest
from pipeline.schema import DERIVED_TABLES, SCHEMA_VERSION, TABLES
from pipeline.store import transaction
from pipeline.store.lock import LOCK_FILE
from pipeline.store.published import COMMIT_LOCK_FILE
from pipeline.store.transaction import STAGING, Transaction, recover
from pipeline.store.warehouse import Warehouse

BATCH = 6
"""Files per ingest batch: small, so that each (source, year) partition gets several parts."""
MAX_GAMES = 20
"""Games per merged part in these tests: parts of fewer than 10 games are merged."""
ALL = (*TABLES, *DERIVED_TABLES)


@pytest.fixture(scope="module")
def inputs(shared_logs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two folders of Tenhou XML logs (one partition, year unknown) and a part of the tenhou.net/6 JSON
    logs (many years)."""
    folder = tmp_path_factory.mktemp("inputs")
    for name in ("pantheon", "dnovikoff-tenhou"):
        shutil.copytree(shared_logs / "tenhou-xml" / name, folder / name)
    json_files = sorted(p for p in (shared_logs / "tenhou-json").rglob("*") if p.is_file())
    for path in json_files[:24]:
        target = folder / "tenhou-json" / path.relative_to(shared_logs / "tenhou-json")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return folder


@pytest.fixture(scope="module")
def built(inputs: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A warehouse ingested and derived in small batches (its folder, never changed), and its contents."""
    warehouse = Warehouse(tmp_path_factory.mktemp("built") / "w")
    ingest([inputs], warehouse, batch_size=BATCH, derive=True)
    return warehouse.root, contents(warehouse)


@pytest.fixture
def warehouse(built: tuple[Path, dict], tmp_path: Path) -> Warehouse:
    """A copy of the built warehouse, for one test to change."""
    shutil.copytree(built[0], tmp_path / "w")
    return Warehouse(tmp_path / "w")


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file below ``root`` (relative path -> bytes), the lock files aside."""
    files = (p for p in sorted(root.rglob("*")) if p.is_file() and p.name not in (LOCK_FILE, COMMIT_LOCK_FILE))
    return {str(p.relative_to(root)): p.read_bytes() for p in files}


def read(part: Path) -> pa.Table:
    """A part file's rows, without the file's metadata."""
    return pq.read_table(part, partitioning=None).replace_schema_metadata(None)


def game_ids(part: Path) -> list[str]:
    """The game ids of a part file, in stored order."""
    return pq.read_table(part, columns=["game_id"], partitioning=None)["game_id"].to_pylist()


def fingerprints(part: Path) -> set[str]:
    """The fingerprints of a games part."""
    return set(pq.read_table(part, columns=["fingerprint"], partitioning=None)["fingerprint"].to_pylist())


def expected_runs(warehouse: Warehouse) -> dict[Path, list[Path]]:
    """Merged games part -> the games parts it is to hold, in order, as plan_runs groups them."""
    by_folder: dict[Path, list[tuple[str, int]]] = {}
    for part in warehouse.table_files("games"):
        by_folder.setdefault(part.parent, []).append((part.name, pq.read_metadata(part).num_rows))
    return {
        folder / compacted_name(run): [folder / name for name in run]
        for folder, parts in by_folder.items()
        for run in plan_runs(parts, MAX_GAMES)
    }


# --- planning -----------------------------------------------------------------------------------------------
def test_runs_group_small_parts_in_name_order_within_max_games() -> None:
    parts = [("part-e", 3), ("part-a", 8), ("part-b", 9), ("part-c", 10), ("part-d", 2), ("part-f", 1)]
    # part-c holds half of 20: left alone; a+b = 17, +d would be 19, +e 22: a new run
    assert plan_runs(parts, 20) == [["part-a", "part-b", "part-d"], ["part-e", "part-f"]]
    assert plan_runs([("part-a", 3), ("part-b", 18)], 20) == []  # a run of one part is left alone
    assert plan_runs([("part-a", 1), ("part-b", 1)], 1) == []  # every part holds at least half of 1 game


def test_the_merged_name_hashes_the_sorted_old_names() -> None:
    names = ["part-00000000000000bb.parquet", "part-00000000000000aa.parquet"]
    digest = hashlib.blake2b(b"part-00000000000000aa.parquet|part-00000000000000bb.parquet", digest_size=8)
    assert compacted_name(names) == compacted_name(names[::-1]) == f"part-c{digest.hexdigest()}.parquet"
    assert len(compacted_name(names)) == len(names[0]) + 1  # never a batch part's name
    assert compacted_name(names, attempt=1) != compacted_name(names)
    assert is_compacted_part(compacted_name(names)) and is_compacted_part(compacted_name(names, attempt=1))
    # a batch part whose hex starts with "c" is not a merged part (this once made a test fail at random)
    assert not any(is_compacted_part(n) for n in [*names, "part-cfa0511f4f498637.parquet"])


# --- compacting -----------------------------------------------------------------------------------------------
def test_compaction_keeps_every_row_and_merges_the_parts(warehouse: Warehouse, built: tuple[Path, dict]) -> None:
    runs = expected_runs(warehouse)
    old_ids = {old: game_ids(old) for olds in runs.values() for old in olds}
    assert any("tenhou_xml" in str(p) for p in runs) and any("tenhou_json" in str(p) for p in runs)
    stored = warehouse.stored_games()
    manifest = snapshot(warehouse.manifest_folder)
    parts_before = {t: len(warehouse.table_files(t)) for t in ALL}

    report = compact(warehouse, max_games=MAX_GAMES)

    assert differences(built[1], contents(warehouse)) == []
    assert snapshot(warehouse.manifest_folder) == manifest
    assert not (warehouse.root / STAGING).exists() and not list(warehouse.root.rglob("*.tmp"))
    # one new part per run, the old ones gone, in every table
    games_parts = set(warehouse.table_files("games"))
    assert set(runs) <= games_parts and not games_parts & set(old_ids)
    assert report.runs == len(runs) and report.games_moved == sum(len(ids) for ids in old_ids.values())
    assert report.parts_before == parts_before
    assert report.parts_after == {t: len(warehouse.table_files(t)) for t in ALL}
    assert report.parts_after["games"] == parts_before["games"] - sum(len(olds) - 1 for olds in runs.values())
    relatives = {p.relative_to(warehouse.root / "games") for p in games_parts}
    for table in ALL:
        assert {p.relative_to(warehouse.root / table) for p in warehouse.table_files(table)} <= relatives, table
    # each table's merged part: the old parts' rows, part after part, in their stored order (the old parts
    # are still in the built warehouse), with the version metadata
    for merged, olds in runs.items():
        assert game_ids(merged) == [g for old in olds for g in old_ids[old]]
        assert pq.read_metadata(merged).num_rows <= MAX_GAMES
        relative = merged.relative_to(warehouse.root / "games")
        for table in ALL:
            path = warehouse.root / table / relative
            sources = [built[0] / table / old.relative_to(warehouse.root / "games") for old in olds]
            old_rows = [read(p) for p in sources if p.is_file()]
            assert path.is_file() == bool(old_rows), table
            if not old_rows:
                continue
            assert read(path).equals(pa.concat_tables(old_rows)), table
            meta = pq.read_metadata(path).metadata
            assert (meta[b"paipu_version"], meta[b"paipu_schema_version"]) == (
                __version__.encode(), SCHEMA_VERSION.encode()
            )  # fmt: skip
    # every stored game points at the part now holding it
    now = warehouse.stored_games()
    assert now.keys() == stored.keys()
    moved = {fp for fp, game in stored.items() if game.part in old_ids}
    for fp, game in now.items():
        assert game.part.is_file() and fp in fingerprints(game.part)
        assert (game.part in runs) == (fp in moved)
        assert (game.game_id, game.source_file, game.completeness) == (
            stored[fp].game_id, stored[fp].source_file, stored[fp].completeness
        )  # fmt: skip
    assert stale_parts(warehouse) == []

    again = compact(warehouse, max_games=MAX_GAMES)  # nothing left to merge
    assert (again.runs, again.games_moved) == (0, 0) and again.parts_before == again.parts_after


def test_two_workers_merge_the_same_parts_as_one(
    warehouse: Warehouse, built: tuple[Path, dict], tmp_path: Path
) -> None:
    alone = Warehouse(tmp_path / "alone")
    shutil.copytree(built[0], alone.root)
    one = compact(alone, max_games=MAX_GAMES)
    two = compact(warehouse, max_games=MAX_GAMES, workers=2)
    assert two.runs == one.runs > 1 and two.games_moved == one.games_moved
    assert two.parts_after == one.parts_after
    assert snapshot(warehouse.root).keys() == snapshot(alone.root).keys()  # the same merged part names
    assert differences(built[1], contents(warehouse)) == []
    assert not (warehouse.root / STAGING).exists()


def test_derive_over_the_compacted_warehouse_gives_the_same_rows(
    warehouse: Warehouse, built: tuple[Path, dict]
) -> None:
    compact(warehouse, max_games=MAX_GAMES)
    report = derive(warehouse)
    assert report.parts == len(warehouse.table_files("games"))
    assert differences(built[1], contents(warehouse)) == []


def test_a_changed_copy_of_a_merged_game_replaces_it_in_every_table(
    warehouse: Warehouse, built: tuple[Path, dict], inputs: Path
) -> None:
    compact(warehouse, max_games=MAX_GAMES)
    merged = next(p for p in warehouse.table_files("games") if is_compacted_part(p.name))
    game = next(g for g in warehouse.stored_games().values() if g.part == merged and Path(g.source_file).is_file())
    source = Path(game.source_file)
    original = source.read_bytes()
    source.write_bytes(original + b"\n")  # the same game, a new content hash: read again
    try:
        report = ingest([inputs], warehouse, batch_size=BATCH, derive=True)
    finally:
        source.write_bytes(original)

    assert report.files["ok"] == 1 and report.games == 1
    now = contents(warehouse)
    assert differences({t: built[1][t] for t in ALL}, now) == []  # every table: the same rows, once
    stored = {g.game_id: g for g in warehouse.stored_games().values()}
    assert stored[game.game_id].part != merged and not is_compacted_part(stored[game.game_id].part.name)
    relative = merged.relative_to(warehouse.root / "games")
    for table in ALL:
        path = warehouse.root / table / relative
        assert not path.is_file() or game.game_id not in game_ids(path), table
    assert stale_parts(warehouse) == []


def test_parts_not_derived_by_this_version_are_left_alone(warehouse: Warehouse, built: tuple[Path, dict]) -> None:
    runs = expected_runs(warehouse)
    old = next(iter(runs.values()))[0]
    hands = warehouse.root / "hand_states" / old.relative_to(warehouse.root / "games")
    table = pq.read_table(hands, partitioning=None)
    pq.write_table(table.replace_schema_metadata({**table.schema.metadata, b"paipu_version": b"0.0.1"}), hands)

    report = compact(warehouse, max_games=MAX_GAMES)

    assert report.underived == 1 and old.is_file() and stale_parts(warehouse) == [old]
    assert differences(built[1], contents(warehouse)) == []


def _set_schema_version(part: Path, version: bytes) -> None:
    """Rewrite a part file as if an older paipu had written it with schema ``version``."""
    table = pq.read_table(part, partitioning=None)
    pq.write_table(table.replace_schema_metadata({**table.schema.metadata, b"paipu_schema_version": version}), part)


def test_fact_parts_of_a_version_with_the_current_columns_are_merged_older_ones_left_alone(
    warehouse: Warehouse, built: tuple[Path, dict]
) -> None:
    runs = list(expected_runs(warehouse).values())
    same_columns, older = runs[0][0], runs[-1][0]  # version 3 facts have today's columns, version 2 facts do not
    _set_schema_version(same_columns, b"3")
    _set_schema_version(older, b"2")

    report = compact(warehouse, max_games=MAX_GAMES)

    assert report.old_schema == 1 and older.is_file() and not same_columns.is_file()
    assert differences(built[1], contents(warehouse)) == []


# --- interrupted -----------------------------------------------------------------------------------------------
def raise_on_third_call(real):  # noqa: ANN001, ANN201 - wraps any function
    """``real``, raising RuntimeError on its third call (after two tables of a run were staged)."""
    calls = []

    def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("killed")
        return real(*args, **kwargs)

    return wrapper


@pytest.mark.parametrize("where", ["staging", "commit"])
def test_an_aborted_compaction_changes_nothing(warehouse: Warehouse, monkeypatch, where: str) -> None:  # noqa: ANN001
    before = snapshot(warehouse.root)
    if where == "staging":
        monkeypatch.setattr(compact_module, "_concatenate", raise_on_third_call(compact_module._concatenate))
    else:

        def fail(self: Transaction) -> None:
            assert self.staged_files()  # the run's new parts are staged, nothing published
            raise RuntimeError("killed")

        monkeypatch.setattr(Transaction, "commit", fail)

    with pytest.raises(RuntimeError, match="killed"):
        compact(warehouse, max_games=MAX_GAMES)

    assert snapshot(warehouse.root) == before  # the staged files were thrown away


def test_a_compaction_killed_while_publishing_is_finished_by_recover(
    warehouse: Warehouse, built: tuple[Path, dict], monkeypatch
) -> None:  # noqa: ANN001
    real_apply, real_replace = transaction._apply, os.replace

    def killed_apply(root: Path, folder: Path) -> None:
        calls = []

        def replace(src: str, dst: str) -> None:
            calls.append(dst)
            if len(calls) == 4:  # three files of the run published, then the "kill"
                raise KeyboardInterrupt
            real_replace(src, dst)

        with monkeypatch.context() as patch:
            patch.setattr(os, "replace", replace)
            real_apply(root, folder)

    monkeypatch.setattr(transaction, "_apply", killed_apply)
    with pytest.raises(KeyboardInterrupt):
        compact(warehouse, max_games=MAX_GAMES)
    monkeypatch.undo()
    assert list((warehouse.root / STAGING).iterdir())  # the journal is kept for recover()

    assert recover(warehouse.root) == (1, 0)
    assert differences(built[1], contents(warehouse)) == []
    compact(warehouse, max_games=MAX_GAMES)  # the other runs
    assert differences(built[1], contents(warehouse)) == []
    runs = expected_runs(Warehouse(built[0]))
    left = {p for p in Warehouse(built[0]).table_files("games")} - {old for olds in runs.values() for old in olds}
    expected = {p.relative_to(built[0] / "games") for p in (*left, *runs)}
    assert {p.relative_to(warehouse.root / "games") for p in warehouse.table_files("games")} == expected


# --- command line ------------------------------------------------------------------------------------------------
def test_the_compact_command_prints_parts_before_and_after(warehouse: Warehouse, tmp_path: Path) -> None:
    runner = CliRunner()
    n_parts = len(warehouse.table_files("games"))
    result = runner.invoke(app, ["compact", "-w", str(warehouse.root), "--max-games", str(MAX_GAMES)])
    assert result.exit_code == 0, result.output
    after = len(warehouse.table_files("games"))
    assert after < n_parts
    assert re.search(rf"games\s+{n_parts} -> {after}\b", result.output), result.output
    assert re.search(r"compacted: \d+ games into \d+ merged parts? ", result.output), result.output

    missing = runner.invoke(app, ["compact", "-w", str(tmp_path / "nothing")])
    assert missing.exit_code == 4 and "no warehouse" in missing.output and "Traceback" not in missing.output
    bad = runner.invoke(app, ["compact", "-w", str(warehouse.root), "--max-games", "0"])
    assert bad.exit_code == 2
