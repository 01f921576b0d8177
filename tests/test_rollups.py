"""The stored rollups (pipeline.db.rollups): the marts read from them say what they say from the Parquet, and the
store is read only when it is in step with the warehouse's part files."""

from __future__ import annotations

import functools
import shutil
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from pipeline.compact import compact
from pipeline.db import connect, load_sql, query
from pipeline.db.rollups import (
    ROLLUP_GAME_COLUMNS,
    STORE_ALIAS,
    attach_rollups,
    connect_with_rollups,
    current_parts,
    filters_stored,
    has_stored_rollups,
    refresh_rollups,
    rollup_names,
    store_path,
)
from pipeline.derive.run import derive
from pipeline.ingest import ingest
from pipeline.statistics import GROUPINGS, MARTS, Stat, all_stats, filtered_games, has_player, mart_stats
from pipeline.store.warehouse import Warehouse

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


def every_stat(con: duckdb.DuckDBPyConnection, where: str | None = None) -> dict[tuple, Stat]:
    """Every statistic of every mart under every grouping (and 'room,year'), over the games for which ``where``
    holds (one filtered_games block, as `paipu stats --where` runs), keyed by mart, grouping, name and group;
    standard errors rounded to 12 significant digits (exact sums, summed in another order)."""
    stats = {}
    with filtered_games(con, where):
        for by in (*GROUPINGS, "room,year"):
            for mart in MARTS:
                for stat in mart_stats(con, mart, by):
                    key = (mart, by, stat.name, tuple(sorted((stat.group or {}).items())))
                    row = stat.to_json()
                    if row["std_error"] is not None:
                        row["std_error"] = float(f"{row['std_error']:.12g}")
                    stats[key] = row
    return stats


@pytest.fixture(scope="module")
def real_copy(tenhou_warehouse: tuple[Warehouse, object], tmp_path_factory: pytest.TempPathFactory) -> Warehouse:
    """A copy of the session's real-log warehouse (its store made here does not reach the other tests)."""
    root = tmp_path_factory.mktemp("rollups") / "warehouse"
    shutil.copytree(tenhou_warehouse[0].root, root)
    return Warehouse(root)


@pytest.fixture(scope="module")
def parquet_stats(real_copy: Warehouse) -> Callable[[str | None], dict[tuple, Stat]]:
    """every_stat over real_copy's Parquet views for a ``where``, each computed once (no test here changes the
    Parquet: only the rollup store)."""
    con = connect(real_copy)
    return functools.cache(lambda where: every_stat(con, where))


def test_stored_rollups_give_every_statistic_the_parquet_gives(real_copy: Warehouse, parquet_stats: Callable) -> None:
    from_parquet = parquet_stats(None)
    con = connect_with_rollups(real_copy)
    assert has_stored_rollups(con) and store_path(real_copy).is_file()
    assert every_stat(con) == from_parquet
    assert len(from_parquet) > 10_000  # every mart said something under every grouping


@pytest.mark.parametrize(
    "where",
    ["room = 'houou' and n_players = 4", "year >= 2015 or is_server_log is false", "n_rounds >= 10", "lobby = 0"],
)
def test_where_filters_the_stored_rollups_or_reads_the_parquet(
    real_copy: Warehouse, parquet_stats: Callable, where: str
) -> None:
    con = connect_with_rollups(real_copy)
    stored = filters_stored(con, where)
    assert stored == ("n_rounds" not in where and "lobby" not in where)  # games columns a rollup does not keep
    assert every_stat(con, where) == parquet_stats(where)
    assert all_stats(con, where=where) == all_stats(connect(real_copy), where=where)  # the command's own way in
    assert has_stored_rollups(con)  # and after the block, the views are on the stored rows again
    assert all_stats(con) == all_stats(connect(real_copy))


def sample_warehouse(tmp_path: Path, files: list[Path]) -> Warehouse:
    """A warehouse of some of the bundled sample's files (ingested and derived), one part per file."""
    warehouse = Warehouse(tmp_path / "warehouse")
    ingest(files, warehouse, batch_size=1, derive=True)
    return warehouse


def chunks(warehouse: Warehouse) -> dict[str, tuple[int, str]]:
    """The store's part -> (chunk number, the part's identity when the chunk was computed)."""
    con = duckdb.connect()
    con.execute(f"attach '{store_path(warehouse)}' as {STORE_ALIAS} (read_only)")
    rows = con.execute(f"select part, chunk, identity from {STORE_ALIAS}.rollup_chunks").fetchall()
    return {part: (chunk, identity) for part, chunk, identity in rows}


def in_step(warehouse: Warehouse) -> bool:
    """Whether the store holds exactly the current parts, each as it is now."""
    return {part: identity for part, (_, identity) in chunks(warehouse).items()} == current_parts(warehouse)


def test_ingest_derive_and_compact_keep_a_made_store_in_step(tmp_path: Path) -> None:
    files = sorted(p for p in SAMPLE.rglob("*") if p.is_file() and p.name != "README.md")
    assert len(files) >= 4, files
    warehouse = sample_warehouse(tmp_path, files[:2])
    assert not store_path(warehouse).exists()  # nobody asked for statistics: no store
    assert refresh_rollups(warehouse)
    first = chunks(warehouse)
    assert in_step(warehouse) and len(first) == 2

    ingest(files[2:], warehouse, batch_size=1, derive=True)  # refreshes the store: the old chunk stays as it was
    after = chunks(warehouse)
    assert in_step(warehouse) and len(after) == len(files)
    assert {part: after[part] for part in first} == first
    assert attach_rollups(connect(warehouse, rollup_views=False), warehouse)
    assert every_stat(connect_with_rollups(warehouse)) == every_stat(connect(warehouse))

    derive(warehouse)  # every part derived again: new files, so every chunk is made again
    assert in_step(warehouse)
    assert all(chunks(warehouse)[part][1] != identity for part, (_, identity) in after.items())
    report = compact(warehouse, max_games=1_000)
    assert report.runs >= 1
    assert in_step(warehouse) and len(chunks(warehouse)) < len(after)
    assert every_stat(connect_with_rollups(warehouse)) == every_stat(connect(warehouse))


def test_a_store_out_of_step_or_of_another_version_is_not_read(tmp_path: Path) -> None:
    files = sorted(p for p in SAMPLE.rglob("*") if p.is_file() and p.name != "README.md")[:2]
    warehouse = sample_warehouse(tmp_path, files)
    assert refresh_rollups(warehouse)
    writer = duckdb.connect(str(store_path(warehouse)))
    writer.execute("delete from rollup_chunks where part = (select min(part) from rollup_chunks)")
    writer.execute("update meta set version = 'another paipu'")
    writer.close()
    con = connect(warehouse)
    assert not attach_rollups(con, warehouse) and not has_stored_rollups(con)
    assert every_stat(con) == every_stat(connect(warehouse))  # the views stayed on the Parquet

    assert refresh_rollups(warehouse)  # another version: emptied and made again
    assert in_step(warehouse)


def test_a_store_another_connection_writes_is_left_alone(tmp_path: Path) -> None:
    files = sorted(p for p in SAMPLE.rglob("*") if p.is_file() and p.name != "README.md")[:2]
    warehouse = sample_warehouse(tmp_path, files)
    assert refresh_rollups(warehouse)
    holder = duckdb.connect()
    holder.execute(f"attach '{store_path(warehouse)}' as held")  # a writer of this process holds the file
    try:
        assert not refresh_rollups(warehouse)
        con = connect_with_rollups(warehouse)
        assert not has_stored_rollups(con)
        assert every_stat(con) == every_stat(connect(warehouse))
    finally:
        holder.close()
    assert has_stored_rollups(connect_with_rollups(warehouse))


def test_a_lazy_connection_makes_its_views_only_when_something_reads_them(
    real_copy: Warehouse, parquet_stats: Callable
) -> None:
    con = connect_with_rollups(real_copy, lazy=True)
    views = "select count(*) from duckdb_views() where view_name = 'games'"
    assert has_stored_rollups(con) and con.execute(views).fetchone() == (0,)
    assert all_stats(con) == all_stats(connect(real_copy))  # the marts read the stored totals alone
    assert con.execute(views).fetchone() == (0,)
    assert every_stat(con, "n_rounds >= 10") == parquet_stats("n_rounds >= 10")
    assert con.execute(views).fetchone() == (1,)  # made for the --where, the stored totals read again after it
    assert has_stored_rollups(con) and all_stats(con) == all_stats(connect(real_copy))


def test_totals_missing_after_a_change_are_made_again(tmp_path: Path) -> None:
    files = sorted(p for p in SAMPLE.rglob("*") if p.is_file() and p.name != "README.md")[:2]
    warehouse = sample_warehouse(tmp_path, files)
    assert refresh_rollups(warehouse)
    writer = duckdb.connect(str(store_path(warehouse)))
    writer.execute("drop table rollup_totals")  # as a run killed between its chunks and its totals leaves it
    writer.close()
    assert not attach_rollups(connect(warehouse), warehouse)
    assert refresh_rollups(warehouse)
    con = connect_with_rollups(warehouse)
    assert has_stored_rollups(con) and every_stat(con) == every_stat(connect(warehouse))


def test_every_rollup_keeps_the_columns_a_where_may_filter_it_by(real_copy: Warehouse) -> None:
    con = connect(real_copy)
    for name in rollup_names():
        columns = {row[0] for row in con.execute(f"describe rollup_{name}").fetchall()}
        assert set(ROLLUP_GAME_COLUMNS) <= columns, name


def test_notebooks_read_the_stored_rollups_once_paipu_stats_made_them(tmp_path: Path) -> None:
    from pipeline.api import PaipuWarehouse

    files = sorted(p for p in SAMPLE.rglob("*") if p.is_file() and p.name != "README.md")[:2]
    warehouse = sample_warehouse(tmp_path, files)
    opened = PaipuWarehouse(warehouse.root)
    assert not has_stored_rollups(opened.con) and not store_path(warehouse).exists()  # never made by a notebook
    assert refresh_rollups(warehouse)
    opened = PaipuWarehouse(warehouse.root)
    assert has_stored_rollups(opened.con)
    stored = opened.mart("player_wins", by="room", as_="arrow").to_pylist()
    from_parquet = connect(warehouse)
    expected = query(from_parquet, load_sql("marts", "player_wins"), {"by": "room"})
    assert stored and stored == expected.to_pylist()


def test_a_where_over_stored_columns_binds_the_games_view_alone(real_copy: Warehouse, parquet_stats: Callable) -> None:
    con = connect_with_rollups(real_copy, lazy=True)
    views = "select view_name from duckdb_views() where not internal and view_name in ('games', 'players', 'rounds')"
    where = "room = 'houou'"
    assert every_stat(con, where) == parquet_stats(where)
    assert {row[0] for row in con.execute(views).fetchall()} == {"games"}
    assert has_player(con, "NoName") and {row[0] for row in con.execute(views).fetchall()} == {"games", "players"}
    assert every_stat(con, "n_rounds >= 10") == parquet_stats("n_rounds >= 10")
    assert {row[0] for row in con.execute(views).fetchall()} == {"games", "players", "rounds"}  # every view now
