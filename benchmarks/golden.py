"""Golden set: every warehouse table (facts and derived) of ../shared/logs, saved once and compared later.

Proof of sameness for changes that must not move a value (issue 19, the compiled core): before the change,
``build OUT`` ingests all of ../shared/logs (deriving) into a temporary warehouse with the current code, through
the CLI (``paipu ingest LOGS -w TMP``, so the script does not depend on where the ingest code lives), and saves
each table, every row sorted by all its columns, as ``OUT/<table>.parquet``, and the users' view of the same name
(pipeline.db.connect) as ``OUT/view_<table>.parquet``: a change of a table's stored layout must leave its view
the same. After the change, ``compare OUT`` rebuilds the same way and compares table by table, value for value:
per table the rows of both sides, the rows found on one side only, the keys found on one side only and (joined
on the table's key columns) the number of differing values per column with the first differing keys and both
values. Exit status 1 on any difference.
Run by hand, OUT outside the repository:

    python benchmarks/golden.py build /tmp/paipu-golden
    python benchmarks/golden.py compare /tmp/paipu-golden

Volatile columns (the manifest's ingest time) are left out of both sides.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb

REPO = Path(__file__).resolve().parents[1]
LOGS = REPO.parent / "shared" / "logs"
PAIPU = Path(sys.executable).parent / "paipu"

EXIT_QUARANTINED = 3
"""paipu ingest's status when some files were quarantined (two of ../shared/logs are: expected)."""

VOLATILE = {"manifest": ("ingested_at", "mtime_ns")}
"""Columns that differ between two ingests of the same logs, or of the same logs copied again (not compared)."""

KEY_CANDIDATES = (
    "path", "game_id", "source", "round_idx", "win_idx", "seat", "event_idx", "first_draw_event_idx", "kind",
    "start_event_idx", "component",
)  # fmt: skip
"""Columns that may identify a row, in key order; a table's key is those it has (checked unique)."""

SHOWN = 5
"""Differing rows shown per table and column."""


def ingest(logs: Path, warehouse: Path, workers: int) -> None:
    """Ingest ``logs`` into ``warehouse`` (deriving) with the installed paipu CLI; raise if it fails."""
    command = [str(PAIPU), "ingest", str(logs), "-w", str(warehouse), "-j", str(workers)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in (0, EXIT_QUARANTINED):
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"paipu ingest failed with status {done.returncode}")


def table_names(warehouse: Path) -> list[str]:
    """The tables of a warehouse: its folders holding Parquet files (lock and temporary names skipped)."""
    folders = (p for p in warehouse.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
    return sorted(p.name for p in folders if any(p.rglob("*.parquet")))


def relation_sql(warehouse: Path, table: str) -> str:
    """SELECT of one table's rows (hive partition columns included, volatile ones left out)."""
    exclude = VOLATILE.get(table, ())
    star = f"* EXCLUDE ({', '.join(exclude)})" if exclude else "*"
    pattern = str(warehouse / table / "**" / "*.parquet")
    return f"SELECT {star} FROM read_parquet('{pattern}', hive_partitioning = true, union_by_name = true)"


def save(warehouse: Path, out: Path) -> dict[str, int]:
    """Write every table of ``warehouse`` to ``out/<table>.parquet`` and the users' view of each table that has one
    (pipeline.db.connect) to ``out/view_<table>.parquet``, sorted by all columns; rows per table or view."""
    out.mkdir(parents=True, exist_ok=True)
    rows = {}
    with duckdb.connect() as con:
        for table in table_names(warehouse):
            target = out / f"{table}.parquet"
            con.execute(f"COPY ({relation_sql(warehouse, table)} ORDER BY ALL) TO '{target}' (FORMAT parquet)")
            rows[table] = con.execute(f"SELECT count(*) FROM '{target}'").fetchone()[0]
    from pipeline.db import connect  # the views as the installed paipu defines them
    from pipeline.store.warehouse import Warehouse

    con = connect(Warehouse(warehouse))
    views = {r[0] for r in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
    for table in sorted(views & set(table_names(warehouse))):
        target = out / f"view_{table}.parquet"
        exclude = VOLATILE.get(table, ())
        star = f"* EXCLUDE ({', '.join(exclude)})" if exclude else "*"
        con.execute(f"COPY (SELECT {star} FROM {table} ORDER BY ALL) TO '{target}' (FORMAT parquet)")
        rows[f"view_{table}"] = con.execute(f"SELECT count(*) FROM '{target}'").fetchone()[0]
    con.close()
    return rows


def build(out: Path, logs: Path, workers: int) -> None:
    """Ingest ``logs`` with the current code and save every table under ``out``."""
    with tempfile.TemporaryDirectory(prefix="paipu-golden-") as tmp:
        warehouse = Path(tmp) / "w"
        ingest(logs, warehouse, workers)
        for table, n in save(warehouse, out).items():
            print(f"{table:20} {n:>10,} rows")
    print(f"golden set written to {out}")


def key_of(con: duckdb.DuckDBPyConnection, table: str, columns: list[str]) -> list[str]:
    """The table's key columns (KEY_CANDIDATES it has), or [] when they do not identify its rows."""
    key = [c for c in KEY_CANDIDATES if c in columns]
    if not key:
        return []
    listed = ", ".join(f'"{c}"' for c in key)
    n, distinct = con.execute(f"SELECT count(*), count(DISTINCT ({listed})) FROM {table}").fetchone()
    return key if n == distinct else []


def compare_table(con: duckdb.DuckDBPyConnection, table: str) -> bool:
    """Compare views ``gold_<table>`` and ``new_<table>``; print what differs; True when they are equal."""
    gold, new = f"gold_{table}", f"new_{table}"
    n_gold = con.execute(f"SELECT count(*) FROM {gold}").fetchone()[0]
    n_new = con.execute(f"SELECT count(*) FROM {new}").fetchone()[0]
    gold_columns = [r[0] for r in con.execute(f"DESCRIBE {gold}").fetchall()]
    new_columns = [r[0] for r in con.execute(f"DESCRIBE {new}").fetchall()]
    if gold_columns != new_columns:
        print(f"{table}: columns differ: golden {gold_columns}, new {new_columns}")
        return False
    only_gold = con.execute(f"SELECT count(*) FROM (FROM {gold} EXCEPT ALL FROM {new})").fetchone()[0]
    only_new = con.execute(f"SELECT count(*) FROM (FROM {new} EXCEPT ALL FROM {gold})").fetchone()[0]
    same = only_gold == only_new == 0
    print(f"{table:20} golden {n_gold:>10,} rows, new {n_new:>10,}: {'same' if same else 'DIFFERENT'}")
    if same:
        return True
    print(f"    rows only in golden: {only_gold:,}, only in new: {only_new:,}")
    key = key_of(con, gold, gold_columns)
    if not key:  # no key to join on: the rows found on one side only
        for name, left, right in (("golden", gold, new), ("new", new, gold)):
            rows = con.execute(f"FROM (FROM {left} EXCEPT ALL FROM {right}) ORDER BY ALL LIMIT {SHOWN}").fetchall()
            for row in rows:
                print(f"    only in {name}: {row}")
        return False
    listed = ", ".join(f'"{c}"' for c in key)
    for name, left, right in (("golden", gold, new), ("new", new, gold)):
        missing = f"FROM (SELECT {listed} FROM {left} EXCEPT SELECT {listed} FROM {right})"
        n_missing = con.execute(f"SELECT count(*) {missing}").fetchone()[0]
        if n_missing:
            print(f"    keys ({', '.join(key)}) only in {name}: {n_missing:,}, first:")
            for row in con.execute(f"{missing} ORDER BY ALL LIMIT {SHOWN}").fetchall():
                print(f"      {row}")
    on = " AND ".join(f'g."{c}" IS NOT DISTINCT FROM n."{c}"' for c in key)
    keys = ", ".join(f'g."{c}"' for c in key)
    for column in (c for c in gold_columns if c not in key):
        joined = f'FROM {gold} g JOIN {new} n ON {on} WHERE g."{column}" IS DISTINCT FROM n."{column}"'
        n_diff = con.execute(f"SELECT count(*) {joined}").fetchone()[0]
        if n_diff:
            print(f"    column {column}: {n_diff:,} rows differ (key {', '.join(key)}: golden, new), first:")
            first = f'SELECT {keys}, g."{column}" AS golden, n."{column}" AS new {joined} ORDER BY ALL LIMIT {SHOWN}'
            for row in con.execute(first).fetchall():
                print(f"      {row}")
    return False


def compare(out: Path, logs: Path, workers: int) -> int:
    """Rebuild with the current code and compare with the golden set in ``out``; 0 when all is the same."""
    golden = sorted(p.stem for p in out.glob("*.parquet"))
    if not golden:
        raise SystemExit(f"no golden set in {out}: run `build {out}` first")
    with tempfile.TemporaryDirectory(prefix="paipu-golden-") as tmp:
        fresh = Path(tmp) / "new"
        warehouse = Path(tmp) / "w"
        ingest(logs, warehouse, workers)
        save(warehouse, fresh)
        built = sorted(p.stem for p in fresh.glob("*.parquet"))
        ok = True
        for table in sorted(set(golden) ^ set(built)):
            print(f"{table}: only in the {'golden set' if table in golden else 'new build'}")
            ok = False
        with duckdb.connect() as con:
            for table in sorted(set(golden) & set(built)):
                con.execute(f"CREATE VIEW gold_{table} AS FROM '{out / f'{table}.parquet'}'")
                con.execute(f"CREATE VIEW new_{table} AS FROM '{fresh / f'{table}.parquet'}'")
                ok &= compare_table(con, table)
    print("no difference" if ok else "DIFFERENCES found")
    return 0 if ok else 1


def main() -> None:
    """Parse ``build OUT`` / ``compare OUT`` and run it."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("build", "compare"))
    parser.add_argument("out", type=Path, help="golden set folder (outside the repository)")
    parser.add_argument("--logs", type=Path, default=LOGS, help="logs to ingest (default: ../shared/logs)")
    parser.add_argument("-j", "--workers", type=int, default=1, help="ingest worker processes (default 1)")
    args = parser.parse_args()
    out = args.out.resolve()
    if out.is_relative_to(REPO):
        raise SystemExit(f"{out} is inside the repository: put the golden set elsewhere")
    if args.command == "build":
        build(out, args.logs, args.workers)
    else:
        raise SystemExit(compare(out, args.logs, args.workers))


if __name__ == "__main__":
    main()
