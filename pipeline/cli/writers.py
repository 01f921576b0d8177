"""The commands that write the warehouse: ``ingest``, ``derive`` and ``compact``, each under the writer's lock
(pipeline.store.lock), with a progress bar on stderr. Each imports what it uses when it runs (pipeline.cli:
start-up)."""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from pipeline.cli.frame import (
    EXIT_QUARANTINED,
    MAX_PROBLEMS_SHOWN,
    SchedulerOption,
    WaitOption,
    WarehouseOption,
    WorkersOption,
    app,
    domain_errors,
    err,
    out,
    path_argument,
    usage,
)  # fmt: skip
from pipeline.errors import WarehouseError
from pipeline.executors import default_workers, scheduler_problem
from pipeline.limits import DEFAULT_LIMITS, Limits, MiB
from pipeline.sources import FORMATS
from pipeline.store import DEFAULT_WAREHOUSE
from pipeline.store.lock import Holder, warehouse_lock

if TYPE_CHECKING:
    from pipeline.ingest import IngestReport
    from pipeline.store.warehouse import Warehouse

DEFAULT_MAX_GAMES = 5_000
"""``compact --max-games``'s default: pipeline.compact.DEFAULT_MAX_GAMES (a test pins them equal), written here so
that the option's help does not import the compaction (pyarrow, the rules layer)."""


def _waiting(holder: Holder | None) -> None:
    """Say on stderr whom ``--wait`` waits for."""
    who = holder.describe() if holder else "another process"
    err.print(f"[yellow]waiting:[/yellow] {escape(who)} is writing to the warehouse", highlight=False, soft_wrap=True)


def _writer(warehouse: Path, wait: bool) -> AbstractContextManager[None]:
    """The writer's lock of a warehouse for a command (see pipeline.store.lock), waiting for another writer when
    ``wait``, else raising WarehouseLockedError (exit 4) naming it."""
    return warehouse_lock(warehouse, wait=wait, on_wait=_waiting)


def _compiling(kernels: int, processes: int) -> None:
    """Say on stderr that a first run compiles its kernels (pipeline.precompile), once."""
    err.print(f"[dim]first run: compiling {kernels} kernels in {processes} processes (once, kept in the cache)[/dim]")


def _check_scheduler(scheduler: str | None) -> None:
    """Exit 2 when ``--scheduler`` is neither 'local' nor a scheduler address."""
    problem = scheduler_problem(scheduler) if scheduler is not None else None
    if problem:
        usage(problem)


@app.command("ingest")
@domain_errors
def ingest_command(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Log files or folders (read recursively).", parser=path_argument, metavar="PATH"),
    ],
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    batch_size: Annotated[int, typer.Option(help="Files per batch (bounds memory, per worker).", min=1)] = 1000,
    run_derive: Annotated[bool, typer.Option("--derive/--no-derive", help="Derive the new games.")] = True,
    file_format: Annotated[
        str | None, typer.Option("--format", help=f"Read every file as this format: {', '.join(FORMATS)}.")
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
    from pipeline.ingest.discovery import discover_paths
    from pipeline.store.warehouse import Warehouse

    if file_format is not None and file_format not in FORMATS:
        usage(f"--format must be one of {', '.join(FORMATS)}, not {file_format!r}")
    _check_scheduler(scheduler)
    files = discover_paths(paths, follow_links)  # listed once; containers are opened as their batch comes
    n_workers = workers or default_workers()
    with _writer(warehouse, wait):  # held through the derivation after the ingest
        if scheduler is None:  # a first run compiles the kernels it will call on every core at once
            from pipeline.precompile import prepare_ingest

            prepare_ingest(files, file_format, run_derive, min(n_workers, default_workers()), _compiling, idle=True)
        report = _ingest_with_progress(
            paths, Warehouse(warehouse), files, batch_size=batch_size, file_format=file_format, derive=run_derive,
            workers=n_workers, scheduler=scheduler, rehash=rehash, limits=Limits.of_file_mb(max_file_mb),
            follow_links=follow_links,
        )  # fmt: skip
        if run_derive:
            from pipeline.derive.run import stale_parts  # after the ingest: its first file is read sooner

            stale = stale_parts(Warehouse(warehouse))  # derived by another paipu version, or never
            if stale:
                _derive_with_progress(Warehouse(warehouse), stale, n_workers, scheduler)
    if not report.all_read:
        raise typer.Exit(EXIT_QUARANTINED)


def _ingest_with_progress(paths: list[Path], warehouse: Warehouse, files: list[str], **options: Any) -> IngestReport:
    """Ingest ``files`` (found in ``paths``) into ``warehouse`` with a progress bar (files, games, games/s) and
    print the summary; ``options`` are pipeline.ingest.ingest's. Returns the IngestReport."""
    from pipeline.ingest.run import ingest

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
    render_ingest(report, time.perf_counter() - start)
    return report


def render_ingest(report: IngestReport, seconds: float) -> None:
    """Print an ingest summary: files by status, games and rounds written, files with problems."""
    out.print("files: " + ", ".join(f"{n} {status.replace('_', ' ')}" for status, n in report.files.items()))
    rate = report.games / seconds if seconds > 0 else 0.0
    derived = ", derived with their batches" if report.derived and report.games else ""
    out.print(f"games: {report.games} new, rounds: {report.rounds} ({seconds:.1f} s, {rate:.0f} games/s){derived}")
    problems = [p for p in report.problems if p[1] in ("conflict", "quarantined", "not_a_log", "skipped")]
    for path, status, error in problems[:MAX_PROBLEMS_SHOWN]:
        out.print(f"  [yellow]{status}[/yellow] {escape(error or path)}", highlight=False, soft_wrap=True)
    if len(problems) > MAX_PROBLEMS_SHOWN:
        out.print(f'  ... and {len(problems) - MAX_PROBLEMS_SHOWN} more: paipu sql "from manifest"')


def _derive_with_progress(
    warehouse: Warehouse, parts: list[Path] | None, workers: int, scheduler: str | None = None
) -> None:
    """Derive ``parts`` of ``warehouse`` (None: every part) with a progress bar, and print what was derived."""
    from pipeline.derive.run import derive

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
    if report.upgraded:
        out.print(f"rewrote {report.upgraded} fact parts of an older paipu in the current stored layout")
    rows = ", ".join(f"{table} {n}" for table, n in (report.rows or {}).items())
    out.print(f"derived: {games} games in {report.parts} parts ({seconds:.1f} s): {rows}")


@app.command("derive")
@domain_errors
def derive_command(
    warehouse: WarehouseOption = DEFAULT_WAREHOUSE,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    wait: WaitOption = False,
) -> None:
    """Run the rules layer again over the whole warehouse (hand states, waits, draw outcomes)."""
    from pipeline.store.warehouse import Warehouse

    _check_scheduler(scheduler)
    _require_warehouse(warehouse)
    with _writer(warehouse, wait):
        n_workers = workers or default_workers()
        if scheduler is None:  # a first run compiles the kernels it will call on every core at once
            from pipeline.precompile import DERIVE, prepare

            prepare([DERIVE], min(n_workers, default_workers()), on_compile=_compiling, idle=True)
        _derive_with_progress(Warehouse(warehouse), None, n_workers, scheduler)


def _require_warehouse(warehouse: Path) -> None:
    """Raise WarehouseError (exit 4) when nothing was ever ingested at ``warehouse``."""
    from pipeline.store.warehouse import Warehouse

    if not Warehouse(warehouse).exists():
        raise WarehouseError(f"no warehouse at {warehouse} (run `paipu ingest` first)")


@app.command("compact")
@domain_errors
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
    from pipeline.compact import compact
    from pipeline.store.warehouse import Warehouse

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
