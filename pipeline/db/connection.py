"""Open an in-memory DuckDB connection whose views read the warehouse's Parquet files."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

import duckdb
import pyarrow as pa

from pipeline.db.sqlfiles import load_sql, sql_names
from pipeline.errors import WarehouseError
from pipeline.schema import arrow_schema, stored_schema
from pipeline.store.layout import stored_rows
from pipeline.store.versions import require_readable
from pipeline.store.warehouse import Warehouse

_PARTS = "read_parquet(getvariable('{table}_files'), union_by_name = true, hive_partitioning = false)"
"""How every staging file reads its table's part files (replaced by an empty table when there are none)."""


def connect(
    warehouse: Warehouse, threads: int | None = None, rollup_views: bool = True, lazy: bool = False
) -> duckdb.DuckDBPyConnection:
    """Return a DuckDB connection with one view per warehouse table (``games``, ``rounds``...).

    Each view is the staging SQL file of that name over the table's part files; a table with no
    files yet is an empty view with the declared columns; then the macros and, unless ``rollup_views`` is
    false (the caller makes them: pipeline.db.rollups), the marts' rollup views. ``lazy``: only the macros
    that read no table now, the views and the rest when ensure_views is called (binding a view over many part
    files reads every file's footer: `paipu stats` from stored rollups needs none). Raises WarehouseError when
    the folder holds no warehouse.
    """
    if not warehouse.exists():
        raise WarehouseError(f"no warehouse at {warehouse.root} (run `paipu ingest` first)")
    require_readable(warehouse)
    con = duckdb.connect()
    if threads:
        con.execute(f"set threads = {int(threads)}")
    if lazy:
        _create_macros(con, tolerant=True)
        con.execute(f"set variable {PENDING} = $root", {"root": str(warehouse.root)})
        return con
    files = {table: [str(p) for p in warehouse.table_files(table)] for table in sql_names("staging")}
    create_views(con, files, rollup_views)
    return con


def execute_query(warehouse: Warehouse, sql: str) -> duckdb.DuckDBPyConnection | None:
    """Run ``sql`` (what ``paipu sql`` is given) over the warehouse's views and return DuckDB's result (None when
    it holds no statement). One SELECT that reads staging views alone (_staging_tables_read) runs on a lazy
    connection holding just those views (connect(lazy=True), ensure_views): binding a view reads every part
    file's footer, and a warehouse of a million games has thousands. Anything else, or a statement that names a
    macro or view the lazy connection lacks (refused when bound, before it runs), runs on connect()'s whole set.
    Raises what DuckDB raises, and WarehouseError as connect does."""
    con = connect(warehouse, lazy=True)
    tables = _staging_tables_read(con, sql)
    if tables is not None:
        ensure_views(con, tables)
        try:
            return con.execute(sql)
        except duckdb.CatalogException:
            pass  # a macro or view made only with every view: bound, not run
    return connect(warehouse).execute(sql)


_CATALOG = re.compile(r"duckdb_|information_schema|pg_catalog|sqlite_|\b(show|pragma|describe)\b", re.IGNORECASE)
"""Words of a query that looks at the catalog (what views and functions there are)."""


def _staging_tables_read(con: duckdb.DuckDBPyConnection, sql: str) -> tuple[str, ...] | None:
    """The staging views ``sql`` reads when it is one SELECT whose tables are all staging views (read from its
    parse tree, DuckDB's json_serialize_sql: nothing is bound); None otherwise (several statements or none,
    another kind of statement, no table, a table function or macro, a name that is not a staging view: a rollup
    view, a CTE...; or a look at the catalog, which must see every view)."""
    if _CATALOG.search(sql):
        return None
    try:
        [(text,)] = con.execute("select json_serialize_sql($sql)", {"sql": sql}).fetchall()
    except duckdb.Error:
        return None
    tree = json.loads(text)
    if tree.get("error") or len(tree.get("statements", [])) != 1:
        return None
    refs = list(_table_refs(tree))
    names = {ref.get("table_name") for ref in refs}
    plain = all(ref.get("type") == "BASE_TABLE" and not ref.get("catalog_name")
                and ref.get("schema_name") in ("", "main") for ref in refs)  # fmt: skip
    return tuple(sorted(names)) if refs and plain and names <= set(sql_names("staging")) else None


def _table_refs(node: Any) -> Iterator[dict[str, Any]]:
    """Every table reference (a base table or a table function) in a json_serialize_sql tree."""
    if isinstance(node, dict):
        if node.get("type") in ("BASE_TABLE", "TABLE_FUNCTION"):
            yield node
        for value in node.values():
            yield from _table_refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _table_refs(value)


PENDING = "paipu_views_pending"
"""The variable a lazy connection (connect(lazy=True)) holds its warehouse's folder in until ensure_views."""


def ensure_views(con: duckdb.DuckDBPyConnection, tables: tuple[str, ...] | None = None) -> None:
    """Create the staging views of a lazy connection (connect(lazy=True)) that it does not have yet: those of
    ``tables`` (e.g. ('games',) to check a `--where`), or every one and then every macro when None (once); no-op
    for any other connection. The rollup views are left as they are (stored ones, or made by the caller)."""
    # fetchall: a result left unread would keep the connection from DuckDB's relation API (con.sql)
    [(pending,)] = con.execute(f"select getvariable('{PENDING}')").fetchall()
    if pending is None:
        return
    made = {row[0] for row in con.execute("select view_name from duckdb_views() where not internal").fetchall()}
    wanted = [table for table in (tables or sql_names("staging")) if table not in made]
    warehouse = Warehouse(pending)
    files = {table: [str(p) for p in warehouse.table_files(table)] for table in wanted}
    create_views(con, files, rollup_views=False, tables=wanted, tolerant=tables is not None)
    if tables is None:
        con.execute(f"set variable {PENDING} = null")


def create_views(
    con: duckdb.DuckDBPyConnection,
    files: Mapping[str, list[str]],
    rollup_views: bool = True,
    tables: list[str] | None = None,
    tolerant: bool = False,
) -> None:
    """Create in ``con`` the staging view of every table (of ``tables`` only, when given) over its part files
    (table name -> paths; a table with none, or not given, is an empty view with the declared columns), then the
    macros (``tolerant``: those that can be made without the views not made yet) and, with ``rollup_views``, the
    rollups' views (pipeline.db.rollups: computed from these views until stored ones are attached)."""
    from pipeline.db.rollups import create_rollup_views

    for table in sql_names("staging") if tables is None else tables:
        if files.get(table):
            con.execute(f"set variable {table}_files = $files", {"files": files[table]})
            con.execute(f"create view {table} as {load_sql('staging', table)}")
            if table in GROWING_TABLES:
                _add_missing_columns(con, table)
        else:
            _view_over_arrow(con, table, stored_schema(table).empty_table())  # no rows, the view's columns
    _create_macros(con, tolerant=tolerant)
    if rollup_views:
        create_rollup_views(con)


GROWING_TABLES = ("manifest",)
"""Tables whose older parts are read as they are although a later version added columns (the manifest's
``reason``): their views show every declared column, null where a part has none."""


def _add_missing_columns(con: duckdb.DuckDBPyConnection, table: str) -> None:
    """Recreate a table's view with its declared columns that none of its parts has, as typed nulls."""
    present = {row[0] for row in con.execute(f"describe {table}").fetchall()}
    missing = [f for f in arrow_schema(table) if f.name not in present]
    if not missing:
        return
    nulls = ", ".join(f"null::{_duckdb_type(f.type)} as {f.name}" for f in missing)
    sql = load_sql("staging", table)
    con.execute(f"create or replace view {table} as select *, {nulls} from ({sql})")


def _duckdb_type(arrow_type: pa.DataType) -> str:
    """The DuckDB type of a plain Arrow type (the manifest's added columns: strings)."""
    return {pa.string(): "varchar", pa.int64(): "bigint", pa.int32(): "integer", pa.bool_(): "boolean"}[arrow_type]


def connect_tables(tables: Mapping[str, pa.Table]) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with the staging views and macros of ``connect`` over tables held in memory (table
    name -> Arrow rows in the declared schema; a table not given is empty), e.g. a batch's games before they are
    published (the invariant checks)."""
    con = duckdb.connect()
    con.execute("set threads = 1")  # a worker's own check of its batch: one core is its share
    for table in sql_names("staging"):
        rows = tables.get(table)
        _view_over_arrow(con, table, stored_schema(table).empty_table() if rows is None else stored_rows(table, rows))
    _create_macros(con)  # no rollup views: the checks read none (~0.02 s a connection)
    return con


def _view_over_arrow(con: duckdb.DuckDBPyConnection, table: str, rows: pa.Table) -> None:
    """Create the staging view of ``table`` over Arrow rows instead of its part files."""
    con.register(f"_rows_{table}", rows)
    sql = load_sql("staging", table).replace(_PARTS.format(table=table), f"_rows_{table}")
    con.execute(f"create view {table} as {sql}")


def _create_macros(con: duckdb.DuckDBPyConnection, tolerant: bool = False) -> None:
    """Create the shared pieces of the marts (pipeline/sql/macros, e.g. rollup_seats; each file makes the macro or
    view of its name) that ``con`` does not have yet, each after the table macros it calls: DuckDB binds a table
    macro's calls when it is created, so one that fails for want of another is tried again once more of them
    exist. Raises the first error when no macro can be created, unless ``tolerant`` (a lazy connection without
    all its views yet: those that read a missing view are left for later). One made before is never made again:
    counted_games may hold a `--where` (pipeline.statistics.filtered_games)."""
    made = {row[0] for row in con.execute("select function_name from duckdb_functions() where not internal").fetchall()}
    made |= {row[0] for row in con.execute("select view_name from duckdb_views() where not internal").fetchall()}
    pending = [macro for macro in sql_names("macros") if macro not in made]
    while pending:
        failed: list[tuple[str, duckdb.CatalogException]] = []
        for macro in pending:
            try:
                con.execute(load_sql("macros", macro))
            except duckdb.CatalogException as exc:  # calls a macro not created yet
                failed.append((macro, exc))
        if len(failed) == len(pending):
            if tolerant:
                return
            raise failed[0][1]
        pending = [macro for macro, _ in failed]


def query(con: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any] | None = None) -> pa.Table:
    """Run a query (with ``$name`` parameters) and return the result as an Arrow table."""
    return con.sql(sql, params=params or None).to_arrow_table()
