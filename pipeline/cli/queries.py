"""The commands that read the warehouse and answer: ``audit``, ``sql``, ``schema``, ``check`` and ``version``.

Each imports what it uses when it runs (pipeline.cli: start-up)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from pipeline import __version__
from pipeline.cli.frame import (
    EXIT_NOT_DERIVED,
    EXIT_VIOLATIONS,
    JsonOption,
    WarehouseOption,
    app,
    domain_errors,
    err,
    out,
    reads_warehouse,
    report_derived,
    usage,
)  # fmt: skip
from pipeline.store import DEFAULT_WAREHOUSE


@app.command("audit")
@domain_errors
@reads_warehouse
def audit_command(
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    as_json: JsonOption = False,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print the truth table (Markdown) instead.")] = False,
) -> None:
    """Compare every derived value with the server's label; exit 1 on any disagreement, 5 when the warehouse
    holds games not derived (no check is then run: each says so)."""
    from pipeline.audit import run_audit
    from pipeline.cli.render import audit_markdown, render_audit
    from pipeline.db import connect
    from pipeline.store.warehouse import Warehouse

    con = connect(Warehouse(warehouse))
    derived = report_derived(Warehouse(warehouse))
    results = run_audit(con, derived=derived)
    if markdown:
        sys.stdout.write(audit_markdown(results))
    elif as_json:
        payload = {"checks": {name: r.to_json() for name, r in results.items()}}
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, default=str) + "\n")
    else:
        render_audit(out, results)
    if not derived:
        raise typer.Exit(EXIT_NOT_DERIVED)
    if any(r.disagreements for r in results.values()):
        raise typer.Exit(EXIT_VIOLATIONS)


@app.command("sql")
@domain_errors
@reads_warehouse
def sql_command(
    query: Annotated[str, typer.Argument(help="A SQL query, or the path of a .sql file (QUERY ending in .sql).")],
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    fmt: Annotated[str, typer.Option("--format", "-f", help="table, csv or json.")] = "table",
    limit: Annotated[
        int | None, typer.Option("--limit", help="Rows shown at most (default: all).", min=0, show_default=False)
    ] = None,
) -> None:
    """Run a query over the warehouse views (games, players, rounds, events, wins, draws, manifest)."""
    from pipeline.cli.render import render_result
    from pipeline.db.connection import execute_query
    from pipeline.store.warehouse import Warehouse

    if fmt not in ("table", "csv", "json"):
        usage(f"--format must be table, csv or json, not {fmt!r}")
    sql = _query_text(query)
    result = execute_query(Warehouse(warehouse), sql)  # the views it reads, when it reads staging views alone
    if result is None:  # only comments or semicolons: DuckDB runs nothing
        usage("the query holds no SQL statement")
    columns = [d[0] for d in result.description or []]
    rows = result.fetchall() if limit is None else result.fetchmany(limit + 1)
    render_result(out, columns, rows[:limit], fmt)
    if limit is not None and len(rows) > limit:
        err.print(f"[yellow]showing the first {limit} rows[/yellow]: the query returns more", highlight=False)


def _query_text(query: str) -> str:
    """The SQL of ``paipu sql``'s QUERY: the text of the .sql file it names (a QUERY ending in .sql), else QUERY
    itself; exits 2 when that file cannot be read or the SQL is empty."""
    if query.strip().lower().endswith(".sql"):
        path = Path(query.strip())
        if not path.is_file():
            usage(f"no such .sql file: {query}" if not path.exists() else f"not a file: {query}")
        try:
            query = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            usage(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}")
        if not query.strip():
            usage(f"empty query: {path} holds no SQL")
    elif not query.strip():
        usage("empty query")
    return query


@app.command("schema")
@domain_errors
def schema_command(
    table: Annotated[str | None, typer.Argument(help="A table or view; every one when left out.")] = None,
) -> None:
    """Print every table and view (or one) with its columns, their types and what they mean."""
    from pipeline.schema import ALL_TABLES, schema_text

    if table is not None and table not in ALL_TABLES:
        usage(f"no table or view {table!r}; they are {', '.join(ALL_TABLES)}")
    sys.stdout.write(schema_text([table] if table else list(ALL_TABLES)))


@app.command("check")
@domain_errors
@reads_warehouse
def check_command(
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    as_json: JsonOption = False,
) -> None:
    """Run the invariant checks; exit 1 when any server-written log violates one."""
    from pipeline.cli.render import render_checks
    from pipeline.db import connect
    from pipeline.statistics import run_checks
    from pipeline.store.warehouse import Warehouse

    results = run_checks(connect(Warehouse(warehouse)))
    if as_json:
        payload = {name: [v.__dict__ for v in violations] for name, violations in results.items()}
        sys.stdout.write(json.dumps({"checks": payload}, ensure_ascii=False) + "\n")
    else:
        render_checks(out, results)
    if any(v.is_server_log for violations in results.values() for v in violations):
        raise typer.Exit(EXIT_VIOLATIONS)


@app.command("version")
def version_command() -> None:
    """Print paipu's version."""
    out.print(__version__)
