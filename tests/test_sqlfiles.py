"""The SQL files of pipeline/sql: house conventions, and each one runs against the real-log warehouse.

staging/ views are created by ``connect`` and carry the declared columns; marts/ take ``$by`` and
run for every grouping; checks/ return (check_name, game_id, round_idx, detail).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pipeline
from pipeline.db import load_sql, query, sql_names
from pipeline.db.sqlfiles import SQL_KINDS
from pipeline.schema import ALL_TABLES, arrow_schema
from pipeline.statistics import GROUPINGS, MODE_SPLIT_MARTS

SQL_ROOT = Path(pipeline.__file__).parent / "sql"
SQL_FILES = sorted(SQL_ROOT.rglob("*.sql"))
CHECK_COLUMNS = ["check_name", "game_id", "round_idx", "detail"]
KEYWORDS = {
    "select", "from", "where", "join", "left", "inner", "anti", "semi", "using", "on", "group", "by", "order",
    "having", "with", "as", "union", "all", "case", "when", "then", "else", "end", "and", "or", "not", "in",
    "is", "null", "distinct", "filter", "over", "window", "partition", "rows", "values", "unpivot", "into",
    "limit", "count", "sum", "max", "min", "coalesce", "unnest", "nulls", "first", "last", "asc", "desc",
}  # fmt: skip
"""SQL words that must be written in lowercase."""


def ids(paths: list[Path]) -> list[str]:
    return [p.relative_to(SQL_ROOT).as_posix() for p in paths]


def code_only(sql: str) -> str:
    """The SQL without its comments and string literals."""
    sql = re.sub(r"--[^\n]*", "", sql)
    return re.sub(r"'(?:[^']|'')*'", "''", sql)


def columns(con, sql: str, params: dict | None = None) -> tuple[list[str], list[tuple]]:  # noqa: ANN001
    result = con.execute(sql, params or {})
    return [d[0] for d in result.description], result.fetchall()


# --- conventions -------------------------------------------------------------------------------
def test_every_kind_has_sql_files() -> None:
    assert sorted(p.name for p in SQL_ROOT.iterdir() if p.is_dir()) == sorted(SQL_KINDS)
    for kind in SQL_KINDS:
        assert sql_names(kind), kind
    assert sql_names("staging") == sorted(ALL_TABLES)


@pytest.mark.parametrize("path", SQL_FILES, ids=ids(SQL_FILES))
def test_sql_file_opens_with_a_header_comment_naming_it(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines and lines[0].startswith(f"-- {path.stem}"), lines[:1]
    assert len(lines[0]) > len(f"-- {path.stem}: ") + 10, "the header says what the query is"


@pytest.mark.parametrize("path", SQL_FILES, ids=ids(SQL_FILES))
def test_sql_file_is_one_lowercase_query_with_named_parameters(path: Path) -> None:
    code = code_only(path.read_text(encoding="utf-8"))
    shouting = sorted({w for w in re.findall(r"\b[A-Z][A-Z_]+\b", code) if w.lower() in KEYWORDS})
    assert not shouting, f"uppercase keywords: {shouting}"
    assert ";" not in code.strip().rstrip(";"), "one query per file"
    assert not re.search(r"\{\w*\}|%s|%\(\w+\)s", code), "parameters are DuckDB $name parameters"
    assert load_sql(path.parent.name, path.stem) == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("kind", ["marts", "checks"])
def test_marts_and_checks_end_with_a_final_cte(kind: str) -> None:
    for name in sql_names(kind):
        code = code_only(load_sql(kind, name))
        assert re.search(r"\bfinal as \(", code), name
        last_select = code[code.rindex(")") :]
        assert re.search(r"\bfrom final\b", last_select), name


# --- they run on the real logs -------------------------------------------------------------------
ONLY_SOME_FORMATS = {"server_flags"}
"""Tables that formats other than Tenhou XML fill (tests/sources/test_majsoul.py checks it)."""


VIEW_COLUMNS = {
    "hand_states": [
        "game_id", "round_idx", "seat", "event_idx", "counts", "red_fives", "n_closed", "n_calls", "shanten",
        "waits_mask", "n_waits", "is_tenpai", "live_waits_public", "live_waits_actual", "is_karaten",
        "is_pure_karaten", "is_own_discard_furiten",
    ],
}  # fmt: skip
"""The columns of the views whose tables are stored packed (the users' columns, whatever the storage)."""


def test_staging_views_have_the_declared_columns_and_rows(tenhou_db) -> None:  # noqa: ANN001
    for table in sql_names("staging"):
        names, _ = columns(tenhou_db, f"select * from {table} limit 0")
        assert names == VIEW_COLUMNS.get(table, arrow_schema(table).names), table
        (n_rows,) = tenhou_db.execute(f"select count(*) from {table}").fetchone()
        # Tenhou XML records no furiten or waits flags of its own: only Mahjong Soul records fill server_flags
        assert n_rows > 0 or table in ONLY_SOME_FORMATS, table


def test_staging_views_read_every_part_once(tenhou_db, tenhou_warehouse) -> None:  # noqa: ANN001
    warehouse, report = tenhou_warehouse
    assert tenhou_db.execute("select count(*), count(distinct game_id) from games").fetchone() == (
        report.games,
        report.games,
    )
    assert tenhou_db.execute("select count(*) from rounds").fetchone() == (report.rounds,)
    assert tenhou_db.execute("select count(*) from manifest").fetchone() == (sum(report.files.values()),)


@pytest.mark.parametrize("name", sql_names("marts"))
@pytest.mark.parametrize("by", GROUPINGS)
def test_mart_runs_for_every_grouping(tenhou_db, name: str, by: str) -> None:  # noqa: ANN001
    sql = load_sql("marts", name)
    assert "$by" in code_only(sql), "every mart takes the grouping as $by"
    names, rows = columns(tenhou_db, sql, {"by": by})
    assert rows, (name, by)
    assert "group_value" in names
    groups = {row[names.index("group_value")] for row in rows}
    if by == "all" and name in MODE_SPLIT_MARTS:  # split by mode whatever the grouping: by 'all', the mode alone
        assert groups and groups <= {"4p_hanchan", "4p_tonpuu", "3p_hanchan", "3p_tonpuu"}
    elif by == "all":
        assert groups == {None}
    else:
        assert None not in groups and groups


@pytest.mark.parametrize("name", sql_names("checks"))
def test_check_returns_the_check_columns(tenhou_db, name: str) -> None:  # noqa: ANN001
    names, rows = columns(tenhou_db, load_sql("checks", name))
    assert names == CHECK_COLUMNS
    assert all(row[0] == name for row in rows)
    flagged = {row[1] for row in rows}
    if flagged:  # only logs written by other tools may break a rule
        server = tenhou_db.execute(
            "select game_id from games where is_server_log and game_id in (select unnest($ids))", {"ids": list(flagged)}
        ).fetchall()
        assert server == [], (name, server)


def test_query_helper_returns_an_arrow_table(tenhou_db) -> None:  # noqa: ANN001
    table = query(tenhou_db, "select count(*) as n from games where room = $room", {"room": "houou"})
    assert table.column_names == ["n"] and table.num_rows == 1
