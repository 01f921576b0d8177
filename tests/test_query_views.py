"""``paipu sql``'s connection (pipeline.db.connection.execute_query): a query that reads staging views alone gets
those views only, anything else every view, macro and rollup view, and the answers are connect()'s."""

from __future__ import annotations

import pytest

from pipeline.db import connect, sql_names
from pipeline.db import connection as db_connection
from pipeline.db.connection import execute_query
from pipeline.ingest.run import IngestReport
from pipeline.store.warehouse import Warehouse

VIEWS = "select view_name from duckdb_views() where not internal"


def _views(con) -> set[str]:  # noqa: ANN001 - a DuckDB connection
    """The views ``con`` holds (by name)."""
    return {row[0] for row in con.execute(VIEWS).fetchall()}


@pytest.fixture(scope="module")
def warehouse(tenhou_warehouse: tuple[Warehouse, IngestReport]) -> Warehouse:
    """The real-log warehouse (every file of ../shared/logs/tenhou-xml, derived)."""
    return tenhou_warehouse[0]


def test_a_query_of_staging_views_binds_those_views_alone(warehouse: Warehouse) -> None:
    sql = "select count(*), count(distinct r.game_id) from games g join rounds r using (game_id)"
    result = execute_query(warehouse, sql)
    rows = result.fetchall()
    assert rows == connect(warehouse).execute(sql).fetchall() and rows[0][0] > 0
    made = _views(result) & set(sql_names("staging"))
    assert made == {"games", "rounds"}


@pytest.mark.parametrize("table", sql_names("staging"))
def test_every_staging_view_reads_as_connect_reads_it(warehouse: Warehouse, table: str) -> None:
    sql = f"select * from {table} limit 0"
    lazy, full = execute_query(warehouse, sql), connect(warehouse).execute(sql)
    assert lazy.description == full.description
    count = f"select count(*) from {table}"
    assert execute_query(warehouse, count).fetchall() == connect(warehouse).execute(count).fetchall()


@pytest.mark.parametrize(
    "sql",
    [
        "select count(*) from rollup_placements",  # a rollup view
        "select count(*) from games where game_id in (select game_id from counted_games)",  # a macro's view
        "with g as (select * from games) select count(*) from g",  # a CTE (taken for a table: every view)
        "select count(*) from duckdb_views() where not internal",  # the catalog
        "select count(*) from games, duckdb_tables()",  # the catalog beside a staging view
        "create temp table t as select * from games; select count(*) from t",  # two statements
        "select 1",  # no table
    ],
)
def test_any_other_query_gets_every_view(warehouse: Warehouse, sql: str) -> None:
    result = execute_query(warehouse, sql)
    assert result.fetchall() == connect(warehouse).execute(sql).fetchall()
    assert "events" in _views(result)


def test_a_name_the_lazy_connection_lacks_falls_back_to_every_view(
    warehouse: Warehouse, monkeypatch: pytest.MonkeyPatch
) -> None:
    # as if DuckDB had said the query reads games alone: binding it on the lazy connection fails, nothing runs
    monkeypatch.setattr(db_connection, "_staging_tables_read", lambda con, sql: ("games",))
    sql = "select count(*) from rollup_placements"
    assert execute_query(warehouse, sql).fetchall() == connect(warehouse).execute(sql).fetchall()
