"""The ``paipu`` command line: thin typer commands over plain functions.

Exit codes: 0 success (also when the reader of the output went away, e.g. ``| head``); 1 a check or the audit
found violations or disagreements, or ``stats --player`` names no stored player; 2 usage error (bad
option, missing path); 3 some input files were quarantined (the rest was written); 4 warehouse or SQL error;
70 an internal error (a bug: reported in one line, never as a traceback).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any

import duckdb
import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from pipeline import __version__
from pipeline.audit import run_audit
from pipeline.cli_render import (
    audit_markdown,
    render_audit,
    render_checks,
    render_ingest,
    render_result,
    render_stats,
    render_stats_csv,
    render_stats_json,
)
from pipeline.compact import DEFAULT_MAX_GAMES, compact
from pipeline.db import connect
from pipeline.derive.run import derive, stale_parts
from pipeline.errors import PaipuError, WarehouseError
from pipeline.executors import default_workers
from pipeline.ingest import PARSERS, discover_paths, ingest
from pipeline.statistics import GROUPINGS, all_stats, has_player, run_checks
from pipeline.store.warehouse import DEFAULT_WAREHOUSE, Warehouse

EXIT_VIOLATIONS, EXIT_USAGE, EXIT_QUARANTINED, EXIT_WAREHOUSE, EXIT_INTERNAL = 1, 2, 3, 4, 70

app = typer.Typer(
    help="paipu: Riichi Mahjong game logs into a Parquet warehouse, queried with DuckDB.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
out = Console()
err = Console(stderr=True)

WarehouseOption = Annotated[Path, typer.Option("--warehouse", "-w", help="Warehouse folder.", show_default=True)]
WorkersOption = Annotated[
    int | None,
    typer.Option("--workers", "-j", help="Worker processes (default: all cores).", min=1, show_default=False),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Run the batches on a Dask cluster: its scheduler address (tcp://host:8786), or 'local' for a "
        "LocalCluster of --workers processes. The warehouse path must be shared by every worker.",
    ),
]


def _error(message: object, label: str = "error") -> None:
    """Print one line on stderr: the message with its line breaks folded (DuckDB's span several)."""
    text = escape(" ".join(str(message).split()))
    err.print(f"[red]{label}:[/red] {text}", highlight=False, soft_wrap=True)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush to a closed pipe raises nothing."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _domain_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Turn paipu's errors into a one-line message and exit code 4, never a traceback."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except FileNotFoundError as exc:
            _error(exc)
            raise typer.Exit(EXIT_USAGE) from None
        except (PaipuError, duckdb.Error) as exc:
            _error(exc)
            raise typer.Exit(EXIT_WAREHOUSE) from None
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            raise
        except BrokenPipeError:  # the reader went away (`paipu sql ... | head`): stop quietly
            _silence_stdout()
            raise typer.Exit(0) from None
        except Exception as exc:  # a bug in paipu: one clear line, never a traceback
            _error(f"{type(exc).__name__}: {exc} (please report this)", "internal error")
            raise typer.Exit(EXIT_INTERNAL) from None

    return wrapper


@app.command("ingest")
@_domain_errors
def ingest_command(
    paths: Annotated[list[Path], typer.Argument(help="Log files or folders (read recursively).")],
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    batch_size: Annotated[int, typer.Option(help="Files per batch (bounds memory, per worker).", min=1)] = 1000,
    run_derive: Annotated[bool, typer.Option("--derive/--no-derive", help="Derive the new games.")] = True,
    file_format: Annotated[
        str | None, typer.Option("--format", help=f"Read every file as this format: {', '.join(PARSERS)}.")
    ] = None,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    rehash: Annotated[
        bool,
        typer.Option(
            "--rehash",
            help="Read every file the manifest holds and compare its content, not only its size and modification time.",
        ),
    ] = False,
) -> None:
    """Read game logs into the warehouse (every file is accounted for in the manifest), then derive."""
    if file_format is not None and file_format not in PARSERS:
        _error(f"--format must be one of {', '.join(PARSERS)}, not {file_format!r}")
        raise typer.Exit(EXIT_USAGE)
    n_workers = workers or default_workers()
    files = discover_paths(paths)  # listed once; containers are opened as their batch comes
    n_files = len(files)
    done = games = 0
    start = time.perf_counter()
    columns = (
        TextColumn("[bold]ingest"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("files · {task.fields[games]} games · {task.fields[rate]:.0f} games/s"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err, transient=True) as progress:
        task = progress.add_task("ingest", total=n_files, games=0, rate=0.0)

        def on_file(n_games: int) -> None:
            nonlocal done, games
            done += 1
            games += n_games
            rate = games / max(time.perf_counter() - start, 1e-9)
            # a container's members are read one by one: the total grows when they outnumber the files
            progress.update(task, completed=done, total=max(n_files, done), games=games, rate=rate)

        report = ingest(
            paths, Warehouse(warehouse), batch_size=batch_size, on_file=on_file, file_format=file_format,
            derive=run_derive, workers=n_workers, scheduler=scheduler, files=files, rehash=rehash,
        )  # fmt: skip
    render_ingest(out, report, time.perf_counter() - start)
    if run_derive:
        stale = stale_parts(Warehouse(warehouse))  # derived by another paipu version, or never
        if stale:
            _derive_with_progress(Warehouse(warehouse), stale, n_workers, scheduler)
    if not report.all_read:
        raise typer.Exit(EXIT_QUARANTINED)


def _derive_with_progress(
    warehouse: Warehouse, parts: list[Path] | None, workers: int, scheduler: str | None = None
) -> None:
    start = time.perf_counter()
    games = 0
    columns = (TextColumn("[bold]derive"), BarColumn(), MofNCompleteColumn(), TextColumn("parts"), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True) as progress:
        task = progress.add_task(
            "derive", total=len(parts) if parts is not None else len(warehouse.table_files("games"))
        )

        def on_part(n_games: int) -> None:
            nonlocal games
            games += n_games
            progress.update(task, advance=1)

        report = derive(warehouse, parts, on_part=on_part, workers=workers, scheduler=scheduler)
    seconds = time.perf_counter() - start
    rows = ", ".join(f"{table} {n}" for table, n in (report.rows or {}).items())
    out.print(f"derived: {games} games in {report.parts} parts ({seconds:.1f} s): {rows}")


@app.command("derive")
@_domain_errors
def derive_command(
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE, workers: WorkersOption = None, scheduler: SchedulerOption = None
) -> None:
    """Run the rules layer again over the whole warehouse (hand states, waits, draw outcomes)."""
    if not Warehouse(warehouse).exists():
        raise WarehouseError(f"no warehouse at {warehouse} (run `paipu ingest` first)")
    _derive_with_progress(Warehouse(warehouse), None, workers or default_workers(), scheduler)


@app.command("compact")
@_domain_errors
def compact_command(
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    max_games: Annotated[
        int,
        typer.Option(
            "--max-games",
            help="Games per merged part at most (derive and replacing a game rewrite whole parts).",
            min=1,
        ),
    ] = DEFAULT_MAX_GAMES,
    workers: WorkersOption = None,
) -> None:
    """Merge each partition's small part files into fewer, larger ones (same rows, faster queries); run it
    after a large ingest, never while an ingest or derive writes to the warehouse."""
    start = time.perf_counter()
    columns = (TextColumn("[bold]compact"), BarColumn(), MofNCompleteColumn(), TextColumn("parts"), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True) as progress:
        task = progress.add_task("compact", total=None)

        def on_run(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        report = compact(Warehouse(warehouse), max_games, on_run=on_run, workers=workers or default_workers())
    seconds = time.perf_counter() - start
    out.print(
        f"compacted: {report.games_moved} games into {report.runs} merged part{'' if report.runs == 1 else 's'}"
        f" ({seconds:.1f} s); part files per table:",
        highlight=False,
    )
    width = max(len(table) for table in report.parts_before)
    for table, before in report.parts_before.items():
        out.print(f"  {table:<{width}}  {before:>6} -> {report.parts_after[table]}", highlight=False)
    if report.underived:
        out.print(
            f"{report.underived} small parts left alone: not derived by this paipu version "
            "(run `paipu derive`, then compact again)",
            highlight=False,
        )
    if report.old_schema:
        out.print(f"{report.old_schema} small parts left alone: written with an older schema", highlight=False)


@app.command("audit")
@_domain_errors
def audit_command(
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print the truth table (Markdown) instead.")] = False,
) -> None:
    """Compare every derived value with the server's label; exit 1 on any disagreement."""
    results = run_audit(connect(Warehouse(warehouse)))
    if markdown:
        sys.stdout.write(audit_markdown(results))
    elif as_json:
        payload = {"checks": {name: r.to_json() for name, r in results.items()}}
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, default=str) + "\n")
    else:
        render_audit(out, results)
    if any(r.disagreements for r in results.values()):
        raise typer.Exit(EXIT_VIOLATIONS)


@app.command("sql")
@_domain_errors
def sql_command(
    query: Annotated[str, typer.Argument(help="A SQL query, or the path of a .sql file.")],
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    fmt: Annotated[str, typer.Option("--format", "-f", help="table, csv or json.")] = "table",
) -> None:
    """Run a query over the warehouse views (games, players, rounds, events, wins, draws, manifest)."""
    if fmt not in ("table", "csv", "json"):
        _error(f"--format must be table, csv or json, not {fmt!r}")
        raise typer.Exit(EXIT_USAGE)
    if query.endswith(".sql") and Path(query).is_file():
        query = Path(query).read_text(encoding="utf-8")
    con = connect(Warehouse(warehouse))
    result = con.execute(query)
    columns = [d[0] for d in result.description or []]
    render_result(out, columns, result.fetchall(), fmt)


EXIT_NO_PLAYER = 1
"""``paipu stats --player NAME``: no stored game has a seat of that name."""


@app.command("stats")
@_domain_errors
def stats_command(
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    by: Annotated[str, typer.Option("--by", help="Group by: " + ", ".join(GROUPINGS) + ".")] = "all",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV, one row per statistic.")] = False,
    player: Annotated[
        str | None, typer.Option("--player", help="One player's profile: that player's rows of --by player.")
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            help="Also write PNG charts of the whole warehouse into this folder: draw rates by room and year "
            "(and by --by source or length), fu and han histograms, tenpai at exhaustive draws.",
        ),
    ] = None,
) -> None:
    """Print the statistics of every mart (round outcomes, seats, tenpai, furiten, kyuushu, scoring), each with
    its numerator, denominator, 95% interval and definition."""
    if by not in GROUPINGS:
        _error(f"--by must be one of {', '.join(GROUPINGS)}, not {by!r}")
        raise typer.Exit(EXIT_USAGE)
    if as_json and as_csv:
        _error("--json and --csv cannot be used together")
        raise typer.Exit(EXIT_USAGE)
    if player is not None and by not in ("all", "player"):
        _error(f"--player prints one player's rows; it cannot be grouped by {by!r}")
        raise typer.Exit(EXIT_USAGE)
    con = connect(Warehouse(warehouse))
    if player is not None and not has_player(con, player):
        _error(f"no player named {player!r} in the warehouse at {warehouse}")
        raise typer.Exit(EXIT_NO_PLAYER)
    stats = all_stats(con, by) if player is None else all_stats(con, "player", group=player)
    if as_json:
        render_stats_json(stats)
    elif as_csv:
        render_stats_csv(stats)
    else:
        render_stats(out, stats)
    if plot is not None:
        from pipeline.plots import plot_groupings, write_plots  # noqa: PLC0415 - matplotlib loads in ~1 s

        paths = write_plots(con, plot, plot_groupings(by))
        err.print(f"charts: {len(paths)} PNG files written to {plot}", highlight=False)


@app.command("report")
@_domain_errors
def report_command(
    out_file: Annotated[Path, typer.Option("--out", "-o", help="The HTML file to write (its folder is created).")],
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
) -> None:
    """Write one self-contained HTML page: the warehouse's counts, every chart and every statistic with its
    definition and 95% interval."""
    from pipeline.report import write_report  # noqa: PLC0415 - matplotlib loads in ~1 s

    path = write_report(connect(Warehouse(warehouse)), out_file)
    out.print(f"report: {path}", highlight=False)


@app.command("check")
@_domain_errors
def check_command(
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Run the invariant checks; exit 1 when any server-written log violates one."""
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
