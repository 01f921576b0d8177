"""The ``paipu`` command line: thin typer commands over plain functions.

Exit codes: 0 success (also when the reader of the output went away, e.g. ``| head``); 1 a check or the audit
found violations or disagreements, or ``stats --player`` (or ``report --player``) names no stored player; 2 usage
error (bad option, missing or empty path, empty query: one line); 3 some input files were quarantined (the rest was
written); 4 warehouse or SQL error (another writer holds the warehouse included); 5 ``stats``, ``audit`` or
``report`` found games not derived (their rules-layer statistics and checks say so instead of a value; the report
is written all the same); 70 an internal error (a bug: reported in one line, never as a traceback); 130
interrupted (Ctrl-C): what was published stays, the next run finishes the job.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, NoReturn

import duckdb
import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from typer.core import TyperGroup

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
    render_stats_wide,
    render_stats_wide_csv,
)
from pipeline.compact import DEFAULT_MAX_GAMES, compact
from pipeline.db import connect
from pipeline.derive.run import derive, stale_parts
from pipeline.errors import PaipuError, WarehouseError
from pipeline.executors import default_workers, scheduler_problem
from pipeline.ingest import PARSERS, IngestReport, discover_paths, ingest
from pipeline.limits import DEFAULT_LIMITS, Limits, MiB
from pipeline.schema import ALL_TABLES, schema_text
from pipeline.statistics import (
    GROUPINGS,
    NOT_DERIVED,
    Stat,
    all_stats,
    has_player,
    parse_by,
    run_checks,
    underived_parts,
)  # fmt: skip
from pipeline.store.lock import Holder, warehouse_lock
from pipeline.store.published import reading
from pipeline.store.warehouse import DEFAULT_WAREHOUSE, Warehouse

EXIT_VIOLATIONS, EXIT_USAGE, EXIT_QUARANTINED, EXIT_WAREHOUSE, EXIT_INTERNAL = 1, 2, 3, 4, 70
EXIT_NOT_DERIVED = 5
"""``stats`` and ``audit``: the warehouse holds games without derived tables; what needs them says NOT_DERIVED."""
EXIT_INTERRUPTED = 130
"""Ctrl-C (128 + SIGINT), as shells report it."""

INTERRUPTED = "rerun to finish"
"""Said on Ctrl-C: what was published stays, and the next run finishes (or throws away) what was staged."""

_UsageError: type[Exception] = typer.BadParameter.__bases__[0]
"""click's UsageError (typer's own copy of click, or click): every mistake in the command line is one."""

out = Console(soft_wrap=True)  # lines are never broken at the width (a file gets them whole); tables fit it
err = Console(stderr=True)


def _error(message: object, label: str = "error") -> None:
    """Print one line on stderr: the message with its line breaks folded (DuckDB's span several)."""
    text = escape(" ".join(str(message).split()))
    err.print(f"[red]{label}:[/red] {text}", highlight=False, soft_wrap=True)


def _usage(message: str) -> NoReturn:
    """Report a mistake in the command line in one line and exit 2."""
    _error(message)
    raise typer.Exit(EXIT_USAGE)


def _interrupted() -> NoReturn:
    """Report Ctrl-C in one line and exit 130."""
    _error(INTERRUPTED, "interrupted")
    raise typer.Exit(EXIT_INTERRUPTED)


class PaipuGroup(TyperGroup):
    """The command group: a mistake in the command line (missing argument, unknown option, bad value) is one line
    and exit 2, and Ctrl-C while the command line is read is exit 130, as in the commands."""

    def invoke(self, ctx: Any) -> Any:
        """Run the command named in ``ctx`` (typer's and click's own errors turned into one line each)."""
        try:
            return super().invoke(ctx)
        except _UsageError as exc:
            command = getattr(getattr(exc, "ctx", None), "command_path", None) or "paipu"
            message = exc.format_message().rstrip(".")  # type: ignore[attr-defined]
            _usage(f"{message} (see `{command} --help`)")
        except KeyboardInterrupt:
            _interrupted()


app = typer.Typer(
    help="paipu: Riichi Mahjong game logs into a Parquet warehouse, queried with DuckDB.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    cls=PaipuGroup,
)


def _path(value: str | Path) -> Path:
    """Parse a path argument or option; an empty one (which would mean the current folder) is a usage error."""
    if isinstance(value, Path):  # a default
        return value
    if not value:
        raise typer.BadParameter("an empty path (write . for the current folder)")
    return Path(value)


WarehouseOption = Annotated[
    Path,
    typer.Option("--warehouse", "-w", help="Warehouse folder.", show_default=True, parser=_path, metavar="DIR"),
]
WaitOption = Annotated[
    bool,
    typer.Option(
        "--wait",
        help="When another ingest, derive or compact is writing to the warehouse, wait for it to finish "
        "(default: exit 4 at once, naming it).",
    ),
]
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
        except KeyboardInterrupt:  # Ctrl-C: the transactions in flight were thrown away on the way out
            _interrupted()
        except (typer.Exit, typer.Abort):
            raise
        except BrokenPipeError:  # the reader went away (`paipu sql ... | head`): stop quietly
            _silence_stdout()
            raise typer.Exit(0) from None
        except Exception as exc:  # a bug in paipu: one clear line, never a traceback
            _error(f"{type(exc).__name__}: {exc} (please report this)", "internal error")
            raise typer.Exit(EXIT_INTERNAL) from None

    return wrapper


def _reads_warehouse(command: Callable[..., Any]) -> Callable[..., Any]:
    """Run a command that reads the warehouse (its ``warehouse`` option) under the shared publishing lock: it
    sees whole published batches only, even while an ingest publishes one (pipeline.store.published)."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with reading(kwargs.get("warehouse", DEFAULT_WAREHOUSE)):
            return command(*args, **kwargs)

    return wrapper


def _waiting(holder: Holder | None) -> None:
    """Say on stderr whom ``--wait`` waits for."""
    who = holder.describe() if holder else "another process"
    err.print(f"[yellow]waiting:[/yellow] {escape(who)} is writing to the warehouse", highlight=False, soft_wrap=True)


def _writer(warehouse: Path, wait: bool) -> AbstractContextManager[None]:
    """The writer's lock of a warehouse for a command (see pipeline.store.lock), waiting for another writer when
    ``wait``, else raising WarehouseLockedError (exit 4) naming it."""
    return warehouse_lock(warehouse, wait=wait, on_wait=_waiting)


def _check_scheduler(scheduler: str | None) -> None:
    """Exit 2 when ``--scheduler`` is neither 'local' nor a scheduler address."""
    problem = scheduler_problem(scheduler) if scheduler is not None else None
    if problem:
        _usage(problem)


@app.command("ingest")
@_domain_errors
def ingest_command(
    paths: Annotated[
        list[Path], typer.Argument(help="Log files or folders (read recursively).", parser=_path, metavar="PATH")
    ],
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
    max_file_mb: Annotated[
        float,
        typer.Option(
            "--max-file-mb", min=0.001, help="Largest file or member read, decompressed (MiB); larger: quarantined."
        ),
    ] = DEFAULT_LIMITS.max_bytes / MiB,
    follow_links: Annotated[
        bool, typer.Option("--follow-links", help="Follow symbolic links out of the input paths (else: skipped).")
    ] = False,
    wait: WaitOption = False,
) -> None:
    """Read game logs into the warehouse (every file is accounted for in the manifest), then derive."""
    if file_format is not None and file_format not in PARSERS:
        _usage(f"--format must be one of {', '.join(PARSERS)}, not {file_format!r}")
    _check_scheduler(scheduler)
    files = discover_paths(paths, follow_links)  # listed once; containers are opened as their batch comes
    n_workers = workers or default_workers()
    with _writer(warehouse, wait):  # held through the derivation after the ingest
        report = _ingest_with_progress(
            paths, Warehouse(warehouse), files, batch_size=batch_size, file_format=file_format, derive=run_derive,
            workers=n_workers, scheduler=scheduler, rehash=rehash, limits=Limits.of_file_mb(max_file_mb),
            follow_links=follow_links,
        )  # fmt: skip
        if run_derive:
            stale = stale_parts(Warehouse(warehouse))  # derived by another paipu version, or never
            if stale:
                _derive_with_progress(Warehouse(warehouse), stale, n_workers, scheduler)
    if not report.all_read:
        raise typer.Exit(EXIT_QUARANTINED)


def _ingest_with_progress(paths: list[Path], warehouse: Warehouse, files: list[str], **options: Any) -> IngestReport:
    """Ingest ``files`` (found in ``paths``) into ``warehouse`` with a progress bar (files, games, games/s) and
    print the summary; ``options`` are pipeline.ingest.ingest's. Returns the IngestReport."""
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

        report = ingest(paths, warehouse, on_file=on_file, files=files, **options)
    render_ingest(out, report, time.perf_counter() - start)
    return report


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
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    wait: WaitOption = False,
) -> None:
    """Run the rules layer again over the whole warehouse (hand states, waits, draw outcomes)."""
    _check_scheduler(scheduler)
    _require_warehouse(warehouse)
    with _writer(warehouse, wait):
        _derive_with_progress(Warehouse(warehouse), None, workers or default_workers(), scheduler)


def _require_warehouse(warehouse: Path) -> None:
    """Raise WarehouseError (exit 4) when nothing was ever ingested at ``warehouse``."""
    if not Warehouse(warehouse).exists():
        raise WarehouseError(f"no warehouse at {warehouse} (run `paipu ingest` first)")


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
    wait: WaitOption = False,
) -> None:
    """Merge each partition's small part files into fewer, larger ones (same rows, faster queries); run it
    after a large ingest (it waits for, or refuses to run beside, another ingest, derive or compact)."""
    _require_warehouse(warehouse)
    start = time.perf_counter()
    columns = (TextColumn("[bold]compact"), BarColumn(), MofNCompleteColumn(), TextColumn("parts"), TimeElapsedColumn())
    with _writer(warehouse, wait), Progress(*columns, console=err, transient=True) as progress:
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
@_reads_warehouse
def audit_command(
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print the truth table (Markdown) instead.")] = False,
) -> None:
    """Compare every derived value with the server's label; exit 1 on any disagreement, 5 when the warehouse
    holds games not derived (no check is then run: each says so)."""
    con = connect(Warehouse(warehouse))
    derived = _derived(Warehouse(warehouse))
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


def _derived(warehouse: Warehouse) -> bool:
    """Whether every games part of the warehouse has its derived tables; when not, say so on stderr (one line)."""
    missing = len(underived_parts(warehouse))
    if missing:
        total = len(warehouse.table_files("games"))
        _error(f"{missing} of {total} games parts have no derived tables: run `paipu derive`", "not derived")
    return not missing


@app.command("sql")
@_domain_errors
@_reads_warehouse
def sql_command(
    query: Annotated[str, typer.Argument(help="A SQL query, or the path of a .sql file (QUERY ending in .sql).")],
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    fmt: Annotated[str, typer.Option("--format", "-f", help="table, csv or json.")] = "table",
    limit: Annotated[
        int | None, typer.Option("--limit", help="Rows shown at most (default: all).", min=0, show_default=False)
    ] = None,
) -> None:
    """Run a query over the warehouse views (games, players, rounds, events, wins, draws, manifest)."""
    if fmt not in ("table", "csv", "json"):
        _usage(f"--format must be table, csv or json, not {fmt!r}")
    sql = _query_text(query)
    con = connect(Warehouse(warehouse))
    result = con.execute(sql)
    if result is None:  # only comments or semicolons: DuckDB runs nothing
        _usage("the query holds no SQL statement")
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
            _usage(f"no such .sql file: {query}" if not path.exists() else f"not a file: {query}")
        try:
            query = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            _usage(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}")
        if not query.strip():
            _usage(f"empty query: {path} holds no SQL")
    elif not query.strip():
        _usage("empty query")
    return query


EXIT_NO_PLAYER = 1
"""``paipu stats --player NAME``: no stored game has a seat of that name."""


@app.command("stats")
@_domain_errors
@_reads_warehouse
def stats_command(
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    by: Annotated[
        str,
        typer.Option(
            "--by",
            help="Group by: " + ", ".join(GROUPINGS) + "; several comma-separated (e.g. room,year) group by "
            "every combination of them.",
        ),
    ] = "all",
    where: Annotated[
        str | None,
        typer.Option(
            "--where",
            metavar="SQL",
            help="Count only the games for which this SQL expression over the games view holds, in every mart "
            "(e.g. \"n_players = 4 and is_hanchan and room = 'houou'\").",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV, one row per statistic.")] = False,
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            help="A player's profile: that player's rows of --by player; repeat to compare players side by side "
            "(one column each).",
            show_default=False,
        ),
    ] = None,
    wide: Annotated[
        bool,
        typer.Option("--wide", help="One row per statistic, one column per group (the table, or with --csv)."),
    ] = False,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            parser=_path,
            metavar="PATH",
            help="Also write the charts of the whole warehouse (not --where's games): draw rates by room and year "
            "(and by --by source, length or mode), fu and han histograms, tenpai at exhaustive draws. PATH is a "
            "folder (PNG files NAME.png in it) or a file name ending in .png, .svg or .pdf (one file per chart: "
            "STEM_NAME.SUFFIX). Charts of the rules layer are left out of a warehouse not derived.",
        ),
    ] = None,
    dpi: Annotated[
        int | None,
        typer.Option(
            "--dpi", min=10, max=2400, help="Resolution of --plot's PNG charts (default 100).", show_default=False
        ),
    ] = None,
) -> None:
    """Print the statistics of every mart (round outcomes, seats, placements, tenpai, furiten, kyuushu, scoring),
    each with its numerator, denominator, 95% interval (a mean: its standard error) and definition."""
    try:
        keys = parse_by(by)
    except ValueError as exc:
        _error(exc)
        raise typer.Exit(EXIT_USAGE) from None
    if as_json and as_csv:
        _error("--json and --csv cannot be used together")
        raise typer.Exit(EXIT_USAGE)
    _check_plot_options(plot, dpi)
    players = player or []
    _check_stats_options(by, keys, players, wide, as_json)
    con = connect(Warehouse(warehouse))
    for name in players:
        if not has_player(con, name):
            _error(f"no player named {name!r} in the warehouse at {warehouse}")
            raise typer.Exit(EXIT_NO_PLAYER)
    derived = _derived(Warehouse(warehouse))
    try:
        if players:
            stats = [s for name in players for s in all_stats(con, "player", group=name, derived=derived, where=where)]
        else:
            stats = all_stats(con, by, derived=derived, where=where)
    except ValueError as exc:  # a --where that is not an expression over the games view
        _error(exc)
        raise typer.Exit(EXIT_USAGE) from None
    _render_stats(stats, as_json, as_csv, wide or len(players) > 1)
    if plot is not None:
        _write_charts(con, plot, keys, dpi, derived)
    if not derived:
        raise typer.Exit(EXIT_NOT_DERIVED)


def _check_stats_options(by: str, keys: tuple[str, ...], players: list[str], wide: bool, as_json: bool) -> None:
    """Exit 2 for --player with another grouping than player, or --wide with --json (one object per statistic)."""
    if players and keys not in ((), ("player",)):
        _usage(f"--player prints players' rows; it cannot be grouped by {by!r}")
    if wide and as_json:
        _usage("--wide lays the statistics out in columns: --json gives one object per statistic")


def _render_stats(stats: list[Stat], as_json: bool, as_csv: bool, wide: bool) -> None:
    """Print the statistics as JSON, CSV (wide: a column per group) or tables (wide: a column per group)."""
    if as_json:
        render_stats_json(stats)
    elif as_csv:
        (render_stats_wide_csv if wide else render_stats_csv)(stats)
    elif wide:
        render_stats_wide(out, stats)
    else:
        render_stats(out, stats)


def _check_plot_options(plot: Path | None, dpi: int | None) -> None:
    """Exit 2 for a --plot PATH of another suffix than .png, .svg or .pdf, or --dpi without --plot."""
    if plot is None:
        if dpi is not None:
            _usage("--dpi sets the resolution of --plot's charts: give --plot too")
        return
    from pipeline.plots import plot_format  # noqa: PLC0415 - matplotlib loads in ~1 s

    try:
        plot_format(plot)
    except ValueError as exc:
        _usage(f"--plot: {exc}")


def _write_charts(
    con: duckdb.DuckDBPyConnection, plot: Path, keys: tuple[str, ...], dpi: int | None, derived: bool
) -> None:
    """Write ``stats --plot``'s charts; say on stderr what was written and which charts were left out (the rules
    layer's, of a warehouse not derived: never drawn as zeros)."""
    from pipeline.plots import DPI, left_out_charts, plot_format, plot_groupings, write_plots  # noqa: PLC0415

    groupings = dict.fromkeys(g for key in keys or ("all",) for g in plot_groupings(key))
    paths = write_plots(con, plot, tuple(groupings), dpi=dpi or DPI, derived=derived)
    fmt = (plot_format(plot) or "png").upper()
    where = f"into {plot}" if plot_format(plot) is None else f"beside {plot} ({plot.stem}_NAME{plot.suffix})"
    err.print(f"charts: {len(paths)} {fmt} files written {where}", highlight=False)
    left_out = left_out_charts(derived)
    if left_out:
        _error(f"{', '.join(left_out)} not drawn: {NOT_DERIVED}", "charts")


@app.command("report")
@_domain_errors
@_reads_warehouse
def report_command(
    out_file: Annotated[
        Path,
        typer.Option(
            "--out", "-o", help="The HTML file to write (its folder is created).", parser=_path, metavar="FILE"
        ),
    ],
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    by: Annotated[
        list[str] | None,
        typer.Option(
            "--by",
            metavar="KEY[,KEY...]",
            help="A table of every statistic per group of KEY (room, year, source, length, mode; several "
            "comma-separated group by each combination); repeat for several tables (default: room, then year).",
            show_default=False,
        ),
    ] = None,
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player", help="Add a page of this player's statistics; repeat for several.", show_default=False
        ),
    ] = None,
) -> None:
    """Write one self-contained HTML page: a table of contents, the provenance (paipu version, input files by
    status, dates, games by source), the invariant checks and the audit, every chart, every statistic with its
    definition and 95% interval (all games, then by each --by), and a page per --player."""
    from pipeline.report import report_groupings, write_report  # noqa: PLC0415 - matplotlib loads in ~1 s

    groupings = _report_groupings(report_groupings, by)
    store = Warehouse(warehouse)
    con = connect(store)
    for name in player or ():
        if not has_player(con, name):
            _error(f"no player named {name!r} in the warehouse at {warehouse}")
            raise typer.Exit(EXIT_NO_PLAYER)
    derived = _derived(store)  # says on stderr when games are not derived (the report says so too)
    path = write_report(con, out_file, groupings, warehouse=store, players=player or ())
    out.print(f"report: {path}", highlight=False)
    if not derived:  # written, its rules-layer parts saying "not derived": exit as stats does
        raise typer.Exit(EXIT_NOT_DERIVED)


def _report_groupings(normalise: Callable[[list[str]], tuple[str, ...]], by: list[str] | None) -> tuple[str, ...]:
    """The report's --by values, normalised by ``normalise`` (report.report_groupings); exit 2 for a bad one."""
    try:
        return normalise(by if by is not None else ["room", "year"])
    except ValueError as exc:
        _usage(str(exc))


@app.command("schema")
@_domain_errors
def schema_command(
    table: Annotated[str | None, typer.Argument(help="A table or view; every one when left out.")] = None,
) -> None:
    """Print every table and view (or one) with its columns, their types and what they mean."""
    if table is not None and table not in ALL_TABLES:
        _usage(f"no table or view {table!r}; they are {', '.join(ALL_TABLES)}")
    sys.stdout.write(schema_text([table] if table else list(ALL_TABLES)))


@app.command("check")
@_domain_errors
@_reads_warehouse
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
