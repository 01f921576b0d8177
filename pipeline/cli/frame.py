"""The command line's frame: the typer app, its consoles, exit codes, shared options, and the wrappers every
command runs in (paipu's errors as one line and an exit code, never a traceback; readers under the shared
publishing lock). The commands are in pipeline.cli.writers, .queries and .stats."""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from pipeline import exit_without_collecting, without_pandas
from pipeline.errors import PaipuError
from pipeline.store import DEFAULT_WAREHOUSE
from pipeline.store.published import reading

if TYPE_CHECKING:
    from pipeline.store.warehouse import Warehouse

EXIT_VIOLATIONS, EXIT_USAGE, EXIT_QUARANTINED, EXIT_WAREHOUSE, EXIT_INTERNAL = 1, 2, 3, 4, 70
EXIT_NOT_DERIVED = 5
"""``stats`` and ``audit``: the warehouse holds games without derived tables; what needs them says NOT_DERIVED."""
EXIT_INTERRUPTED = 130
"""Ctrl-C (128 + SIGINT), as shells report it."""

INTERRUPTED = "rerun to finish"
"""Said on Ctrl-C: what was published stays, and the next run finishes (or throws away) what was staged."""

MAX_PROBLEMS_SHOWN = 20
"""Files (or findings) listed after an ingest, a check or an audit; the manifest view holds them all."""

_UsageError: type[Exception] = typer.BadParameter.__bases__[0]
"""click's UsageError (typer's own copy of click, or click): every mistake in the command line is one."""

out = Console(soft_wrap=True)  # lines are never broken at the width (a file gets them whole); tables fit it
err = Console(stderr=True)


def error(message: object, label: str = "error") -> None:
    """Print one line on stderr: the message with its line breaks folded (DuckDB's span several)."""
    text = escape(" ".join(str(message).split()))
    err.print(f"[red]{label}:[/red] {text}", highlight=False, soft_wrap=True)


def usage(message: str) -> NoReturn:
    """Report a mistake in the command line in one line and exit 2."""
    error(message)
    raise typer.Exit(EXIT_USAGE)


def interrupted() -> NoReturn:
    """Report Ctrl-C in one line and exit 130."""
    error(INTERRUPTED, "interrupted")
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
            usage(f"{message} (see `{command} --help`)")
        except KeyboardInterrupt:
            interrupted()


class PaipuApp(typer.Typer):
    """The typer app that runs as the ``paipu`` process (its console script, ``python -m pipeline``): that process
    first declares pandas absent (without_pandas) and skips the collector's pass at its exit
    (exit_without_collecting). Tests run its commands in their own process through typer's
    CliRunner, which does not call the app, so they keep pandas."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command line as the ``paipu`` process (arguments: typer's; by default sys.argv)."""
        without_pandas()
        exit_without_collecting()
        return super().__call__(*args, **kwargs)


app = PaipuApp(
    help="paipu: Riichi Mahjong game logs into a Parquet warehouse, queried with DuckDB.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    cls=PaipuGroup,
)


def path_argument(value: str | Path) -> Path:
    """Parse a path argument or option; an empty one (which would mean the current folder) is a usage error."""
    if isinstance(value, Path):  # a default
        return value
    if not value:
        raise typer.BadParameter("an empty path (write . for the current folder)")
    return Path(value)


WarehouseOption = Annotated[
    Path,
    typer.Option("--warehouse", "-w", help="Warehouse folder.", show_default=True, parser=path_argument, metavar="DIR"),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]
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


class _CtrlC:
    """Whether Ctrl-C came during the command: its SIGINT raises KeyboardInterrupt as Python's own handler does,
    and is remembered, so that an error it causes on the way out (a worker pool broken by the interruption, a pipe
    closed under a thread) still ends the command as interrupted, exit 130, never as an internal error."""

    def __init__(self) -> None:
        self.seen = False

    def __call__(self, signum: int, frame: Any) -> None:
        self.seen = True
        signal.default_int_handler(signum, frame)

    @contextmanager
    def watching(self) -> Iterator[_CtrlC]:
        """Watch for SIGINT while the block runs (only from the main thread: signals go there); yields self."""
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = signal.signal(signal.SIGINT, self)
        try:
            yield self
        finally:
            signal.signal(signal.SIGINT, previous)


def domain_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Turn paipu's errors into a one-line message and exit code 4, never a traceback; after Ctrl-C, whatever
    the interruption raised on its way out ends the command as interrupted (exit 130)."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with _CtrlC().watching() as ctrl_c:
            return _run(command, args, kwargs, ctrl_c)

    return wrapper


def _run(command: Callable[..., Any], args: tuple, kwargs: dict[str, Any], ctrl_c: _CtrlC) -> Any:
    """Run a command, its errors as one line and an exit code (see domain_errors)."""
    try:
        return command(*args, **kwargs)
    except FileNotFoundError as exc:
        error(exc)
        raise typer.Exit(EXIT_USAGE) from None
    except KeyboardInterrupt:  # Ctrl-C: the transactions in flight were thrown away on the way out
        interrupted()
    except (typer.Exit, typer.Abort):
        raise
    except BrokenPipeError:  # the reader went away (`paipu sql ... | head`): stop quietly
        _silence_stdout()
        raise typer.Exit(0) from None
    except Exception as exc:
        if ctrl_c.seen:  # raised by the interruption on its way out (a broken worker pool...)
            interrupted()
        if isinstance(exc, PaipuError) or _is_database_error(exc):
            error(exc)
            raise typer.Exit(EXIT_WAREHOUSE) from None
        error(f"{type(exc).__name__}: {exc} (please report this)", "internal error")  # a bug in paipu: one line
        raise typer.Exit(EXIT_INTERNAL) from None


def _is_database_error(exc: Exception) -> bool:
    """Whether ``exc`` is DuckDB's error (a command that never imported duckdb cannot have raised one)."""
    duckdb = sys.modules.get("duckdb")
    return duckdb is not None and isinstance(exc, duckdb.Error)


def reads_warehouse(command: Callable[..., Any]) -> Callable[..., Any]:
    """Run a command that reads the warehouse (its ``warehouse`` option) under the shared publishing lock: it
    sees whole published batches only, even while an ingest publishes one (pipeline.store.published)."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with reading(kwargs.get("warehouse", DEFAULT_WAREHOUSE)):
            return command(*args, **kwargs)

    return wrapper


def report_derived(warehouse: Warehouse) -> bool:
    """Whether every games part of the warehouse has its derived tables; when not, say so on stderr (one line)."""
    from pipeline.statistics import underived_parts

    missing = len(underived_parts(warehouse))
    if missing:
        total = len(warehouse.table_files("games"))
        error(f"{missing} of {total} games parts have no derived tables: run `paipu derive`", "not derived")
    return not missing
