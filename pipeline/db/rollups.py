"""The marts' rollups: each mart's inputs summed per game attributes, stored beside the Parquet for fast statistics.

A rollup (``pipeline/sql/rollups/<mart>.sql``) is the first, additive half of a mart: its facts summed per the
attributes of the seat or game they belong to (macros/rollup_seats: the player's name, the game's source, year,
room, mode and flags) and per the flags the mart filters on. The mart reads the view ``rollup_<mart>`` and sums
it per group. Every connection (pipeline.db.connect) starts with those views computed from the warehouse's
Parquet views, so a mart always answers from the Parquet.

Over a large warehouse that is most of the time of `paipu stats`; so the rollups are also stored, per chunk of
part files, in a DuckDB database in the warehouse (STORE_NAME). ``refresh_rollups`` brings it in step with the
part files (a chunk whose parts changed, were compacted or removed is computed again; new parts make new chunks;
then every rollup's chunks are summed per key into its totals), and ``attach_rollups`` copies the totals into a
connection and points its rollup views at them when the store is in step. The Parquet stays the source
of truth: the store is a cache that any paipu can rebuild, and a store that is missing, locked by another
process, not writable or out of step is never read (the views stay on the Parquet). `paipu stats` refreshes it
before it reads it; ingest, derive and compact refresh it when it exists.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pyarrow.parquet as pq

from pipeline.db import STORE_NAME
from pipeline.db.sqlfiles import load_sql, sql_names
from pipeline.schema import ALL_TABLES, SCHEMA_VERSION
from pipeline.store.warehouse import Warehouse

STORE_ALIAS = "paipu_rollups"
"""The name the store is attached under in a connection."""

ROLLUP_GAME_COLUMNS = (
    "source", "year", "room", "n_players", "is_hanchan", "has_red_fives", "has_kuitan", "is_fast", "is_vs_humans",
    "is_custom_rule", "is_server_log", "is_complete",
)  # fmt: skip
"""The games' columns every rollup row keeps (macros/rollup_seats): a `paipu stats --where` predicate over these
alone filters the stored rollups; one over any other column of games is answered from the Parquet."""

CHUNK_GAMES = 20_000
"""Games per chunk a refresh computes at once (parts are never split: a chunk holds whole parts)."""

PART_TABLES = tuple(table for table in ALL_TABLES if table != "manifest")
"""The tables whose part files make a part: every one but the manifest (it names files read, not games)."""


def rollup_names() -> list[str]:
    """Return the names of the rollups (the files of ``pipeline/sql/rollups``: each named after the mart that
    reads it)."""
    return sql_names("rollups")


def create_rollup_views(con: duckdb.DuckDBPyConnection) -> None:
    """Create (or put back) the view ``rollup_<name>`` of every rollup in ``con`` computed from its staging views
    and macros (the games of counted_games): what the marts read when no stored rollup is attached."""
    for name in rollup_names():
        con.execute(f"create or replace view rollup_{name} as {load_sql('rollups', name)}")


def store_path(warehouse: Warehouse) -> Path:
    """Return where the warehouse's stored rollups live (they may not exist)."""
    return warehouse.root / STORE_NAME


def rollups_version() -> str:
    """Return a digest of everything a stored rollup depends on (the schema version, the rollups' and the
    macros' SQL): a store made by another version is rebuilt, never read."""
    digest = hashlib.blake2b(SCHEMA_VERSION.encode(), digest_size=16)
    for kind in ("rollups", "macros"):
        for name in sql_names(kind):
            digest.update(f"{kind}/{name}\0{load_sql(kind, name)}\0".encode())
    return digest.hexdigest()


def current_parts(warehouse: Warehouse) -> dict[str, str]:
    """Return every part of the warehouse (its path below a table's folder, e.g.
    ``source=tenhou_xml/year=2021/part-x.parquet``, as the games table holds it) -> its identity: the size,
    modification time and inode of its file in every table that has one (a rewritten, derived or compacted part
    gets a new identity)."""
    games = warehouse.root / "games"
    parts: dict[str, str] = {}
    for games_file in warehouse.table_files("games"):
        relative = games_file.relative_to(games).as_posix()
        stamps = []
        for table in PART_TABLES:
            try:
                stat = os.stat(f"{warehouse.root}/{table}/{relative}")
            except FileNotFoundError:
                continue
            stamps.append(f"{table}:{stat.st_size}:{stat.st_mtime_ns}:{stat.st_ino}")
        parts[relative] = ";".join(stamps)
    return parts


def refresh_rollups(warehouse: Warehouse, parts: dict[str, str] | None = None) -> bool:
    """Bring the warehouse's stored rollups in step with its part files (``parts``: current_parts, computed when
    not given), creating the store when absent: drop the chunks any of whose parts changed or went, compute the
    parts no chunk holds in new chunks of about CHUNK_GAMES games, each chunk in one transaction, then the totals
    when a chunk changed (what a connection reads). Return True when the store is in step, False when it could
    not be written (another connection writes or reads it, a read-only folder): the statistics then read the
    Parquet."""
    parts = current_parts(warehouse) if parts is None else parts
    try:
        with _attached_store(warehouse) as con:
            _reset_if_other_version(con)
            _drop_stale_chunks(con, parts)
            held = {row[0] for row in con.execute(f"select part from {STORE_ALIAS}.rollup_chunks").fetchall()}
        for chunk in _chunks(warehouse, [part for part in sorted(parts) if part not in held]):
            with _attached_store(warehouse, chunk) as con:
                _store_chunk(con, chunk, parts)
        with _attached_store(warehouse) as con:
            if not _store_has(con, "rollup_totals"):  # dropped with every change of the chunks
                _store_totals(con)
    except duckdb.Error:  # another connection, of this process or another, is writing or reading it
        return False
    return True


@contextmanager
def _attached_store(warehouse: Warehouse, chunk: list[str] | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
    """Yield an in-memory connection with the store attached for writing and, given a chunk of parts, the
    staging views, macros and rollup views over those parts' files only; closed on leaving."""
    from pipeline.db.connection import create_views

    con = duckdb.connect()
    try:
        if chunk is not None:
            files = {
                table: [str(path) for part in chunk if (path := warehouse.root / table / part).exists()]
                for table in PART_TABLES
            }
            create_views(con, files)
        con.execute(f"attach '{_quoted(store_path(warehouse))}' as {STORE_ALIAS}")
        yield con
    finally:
        con.close()


def _quoted(path: Path) -> str:
    """A path as the body of a SQL string literal (ATTACH takes no parameter)."""
    return str(path).replace("'", "''")


def _reset_if_other_version(con: duckdb.DuckDBPyConnection) -> None:
    """Empty the attached store unless its version is this paipu's (rollups_version), and create its bookkeeping
    tables: meta (the version) and rollup_chunks (chunk, part, identity)."""
    version = rollups_version()
    tables = {
        row[0]
        for row in con.execute(
            "select table_name from duckdb_tables() where database_name = $db", {"db": STORE_ALIAS}
        ).fetchall()
    }
    if "meta" in tables and con.execute(f"select version from {STORE_ALIAS}.meta").fetchall() == [(version,)]:
        return
    con.execute("begin")
    for table in tables:
        con.execute(f"drop table {STORE_ALIAS}.{table}")
    con.execute(f"create table {STORE_ALIAS}.meta (version varchar)")
    con.execute(f"insert into {STORE_ALIAS}.meta values ($v)", {"v": version})
    con.execute(f"create table {STORE_ALIAS}.rollup_chunks (chunk integer, part varchar, identity varchar)")
    con.execute("commit")


def _drop_stale_chunks(con: duckdb.DuckDBPyConnection, parts: dict[str, str]) -> None:
    """Delete every chunk of the store one of whose parts is gone or has another identity (its other parts are
    then computed again in a new chunk), and the totals with them."""
    held = con.execute(f"select chunk, part, identity from {STORE_ALIAS}.rollup_chunks").fetchall()
    stale = sorted({chunk for chunk, part, identity in held if parts.get(part) != identity})
    if not stale:
        return
    con.execute("begin")
    for table in ("rollup_chunks", *(f"rollup_{name}" for name in rollup_names())):
        if _store_has(con, table):
            con.execute(f"delete from {STORE_ALIAS}.{table} where list_contains($stale, chunk)", {"stale": stale})
    con.execute(f"drop table if exists {STORE_ALIAS}.rollup_totals")  # the totals are out of step
    con.execute("commit")


def _store_has(con: duckdb.DuckDBPyConnection, table: str) -> bool:
    """Whether the attached store has the table."""
    sql = "select count(*) from duckdb_tables() where database_name = $db and table_name = $t"
    return con.execute(sql, {"db": STORE_ALIAS, "t": table}).fetchall() == [(1,)]


def _chunks(warehouse: Warehouse, parts: list[str]) -> Iterable[list[str]]:
    """Yield the parts in runs of about CHUNK_GAMES games (a part's game count from its games file's footer)."""
    chunk: list[str] = []
    games = 0
    for part in parts:
        chunk.append(part)
        games += pq.read_metadata(warehouse.root / "games" / part).num_rows
        if games >= CHUNK_GAMES:
            yield chunk
            chunk, games = [], 0
    if chunk:
        yield chunk


def _store_chunk(con: duckdb.DuckDBPyConnection, chunk: list[str], parts: dict[str, str]) -> None:
    """Store every rollup of ``con``'s views (over one chunk's parts) with a new chunk number, and the chunk's
    parts with their identities, in one transaction."""
    number = _next_chunk(con)
    con.execute("begin")
    for name in rollup_names():
        if not _store_has(con, f"rollup_{name}"):
            con.execute(
                f"create table {STORE_ALIAS}.rollup_{name} as select 0::integer as chunk, * from rollup_{name} limit 0"
            )
        con.execute(f"insert into {STORE_ALIAS}.rollup_{name} select $chunk, * from rollup_{name}", {"chunk": number})
    con.execute(
        f"insert into {STORE_ALIAS}.rollup_chunks select $chunk, unnest($parts), unnest($ids)",
        {"chunk": number, "parts": chunk, "ids": [parts[part] for part in chunk]},
    )
    con.execute(f"drop table if exists {STORE_ALIAS}.rollup_totals")  # the totals are out of step
    con.execute("commit")


MEASURE_TYPES = ("BIGINT", "HUGEINT", "DECIMAL(38,")
"""The types of a rollup's measures (its counts and sums: DuckDB's count and sum give these); every column of
another type is one of its keys (attributes, flags, small integer keys cast to INTEGER or narrower)."""


def _store_totals(con: duckdb.DuckDBPyConnection) -> None:
    """Replace the store's totals (``total_<name>``: every rollup's chunks summed per key, what a connection reads)
    and mark them made (the table rollup_totals), in one transaction."""
    con.execute("begin")
    for name in rollup_names():
        if not _store_has(con, f"rollup_{name}"):
            continue
        columns = con.execute(f"describe {STORE_ALIAS}.rollup_{name}").fetchall()
        select = ", ".join(
            f"sum({column})::{kind} as {column}" if kind.startswith(MEASURE_TYPES) else column
            for column, kind, *_ in columns
            if column != "chunk"
        )
        con.execute(
            f"create or replace table {STORE_ALIAS}.total_{name} as "
            f"select {select} from {STORE_ALIAS}.rollup_{name} group by all"
        )
    con.execute(f"create or replace table {STORE_ALIAS}.rollup_totals (made boolean)")
    con.execute("commit")


def _next_chunk(con: duckdb.DuckDBPyConnection) -> int:
    """Return a chunk number the store has not used."""
    return int(con.execute(f"select coalesce(max(chunk), 0) + 1 from {STORE_ALIAS}.rollup_chunks").fetchall()[0][0])


def attach_rollups(con: duckdb.DuckDBPyConnection, warehouse: Warehouse, parts: dict[str, str] | None = None) -> bool:
    """Copy the warehouse's stored totals into ``con`` (tables ``stored_rollup_<name>``, read from the store
    attached read-only for the copy alone: no other connection, in this process or another, is kept from the
    store) and point its rollup views at them, when the store exists, is this paipu's version and holds exactly
    the warehouse's current parts (``parts``: current_parts, computed when not given); return whether it did.
    Otherwise the views stay computed from the Parquet (a store another connection writes cannot be read)."""
    from pipeline.db.connection import ensure_views

    path = store_path(warehouse)
    if not path.exists():
        return False
    try:
        con.execute(f"attach '{_quoted(path)}' as {STORE_ALIAS} (read_only)")
    except duckdb.Error:  # being written, or attached for writing by another connection of this process
        return False
    try:
        if not _in_step(con, current_parts(warehouse) if parts is None else parts):
            return False
        for name in rollup_names():
            source = f"select * from {STORE_ALIAS}.total_{name}"
            if not _store_has(con, f"total_{name}"):  # no chunk was ever stored: an empty warehouse
                ensure_views(con)
                source = f"select * from ({load_sql('rollups', name)}) limit 0"
            con.execute(f"create or replace table stored_rollup_{name} as {source}")
    finally:
        con.execute(f"detach {STORE_ALIAS}")
    stored_rollup_views(con, None)
    return True


def _in_step(con: duckdb.DuckDBPyConnection, parts: dict[str, str]) -> bool:
    """Whether the attached store is this paipu's version, holds exactly the current parts and their totals."""
    if not _store_has(con, "meta") or not _store_has(con, "rollup_chunks"):
        return False
    if con.execute(f"select version from {STORE_ALIAS}.meta").fetchall() != [(rollups_version(),)]:
        return False
    held = dict(con.execute(f"select part, identity from {STORE_ALIAS}.rollup_chunks").fetchall())
    return held == parts and _store_has(con, "rollup_totals")


def has_stored_rollups(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``con`` holds the stored rollups (attach_rollups copied them)."""
    sql = "select count(*) from duckdb_tables() where database_name = 'memory' and table_name = $t"
    # fetchall: a result left unread would keep the connection from DuckDB's relation API (con.sql)
    return con.execute(sql, {"t": f"stored_rollup_{rollup_names()[0]}"}).fetchall() == [(1,)]


def stored_rollup_views(con: duckdb.DuckDBPyConnection, predicate: str | None) -> None:
    """Point the rollup views of ``con`` (holding the stored rollups: attach_rollups) at the stored rows, only
    those of games for which ``predicate`` holds when one is given: a SQL expression over ROLLUP_GAME_COLUMNS
    (see filters_stored)."""
    where = f"where ({predicate})" if predicate else ""
    for name in rollup_names():
        con.execute(f"create or replace view rollup_{name} as select * from stored_rollup_{name} {where}")


def filters_stored(con: duckdb.DuckDBPyConnection, predicate: str) -> bool:
    """Whether ``predicate`` (a `paipu stats --where` expression, already checked over games) reads only
    ROLLUP_GAME_COLUMNS, so that it can filter the stored rollups' rows."""
    columns = ", ".join(ROLLUP_GAME_COLUMNS)
    try:
        con.execute(f"select count(*) from (select {columns} from games limit 0) where ({predicate})").fetchall()
    except duckdb.Error:
        return False
    return True


def connect_with_rollups(warehouse: Warehouse, lazy: bool = False, make: bool = True) -> duckdb.DuckDBPyConnection:
    """Return ``pipeline.db.connect(warehouse)`` with the warehouse's stored rollups refreshed (refresh_rollups:
    made when absent, unless ``make`` is false) and attached when that succeeded: the connection `paipu stats`,
    `paipu report` and the notebooks (make=False) read. ``lazy``: the views over the part files are made only when
    ensure_views is called (or the stored rollups could not be read), as connect(lazy=True). Raises
    WarehouseError as connect does."""
    from pipeline.db.connection import connect, ensure_views

    con = connect(warehouse, rollup_views=False, lazy=lazy)
    parts = current_parts(warehouse)
    wanted = make or store_path(warehouse).exists()
    if not (wanted and refresh_rollups(warehouse, parts) and attach_rollups(con, warehouse, parts)):
        ensure_views(con)
        create_rollup_views(con)
    return con
