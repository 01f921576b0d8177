"""The statistics commands: ``stats`` (every mart's statistics as tables, CSV or JSON, grouped, filtered, players
side by side, charts) and ``report`` (the self-contained HTML page). Each imports what it uses when it runs
(pipeline.cli: start-up)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pipeline.cli.frame import (
    EXIT_NOT_DERIVED,
    EXIT_USAGE,
    JsonOption,
    WarehouseOption,
    app,
    domain_errors,
    err,
    error,
    out,
    path_argument,
    reads_warehouse,
    report_derived,
    usage,
)  # fmt: skip
from pipeline.store import DEFAULT_WAREHOUSE

if TYPE_CHECKING:
    import duckdb

    from pipeline.statistics import Stat

GROUPINGS = ("all", "room", "year", "source", "length", "mode", "player")
"""The keys of ``--by``: pipeline.statistics.GROUPINGS (a test pins them equal), written here so that the
option's help does not import the statistics (duckdb, pyarrow)."""

EXIT_NO_PLAYER = 1
"""``paipu stats --player NAME``: no stored game has a seat of that name."""


@app.command("stats")
@domain_errors
@reads_warehouse
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
    as_json: JsonOption = False,
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
            parser=path_argument,
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
    from pipeline.db.connection import ensure_views
    from pipeline.db.rollups import connect_with_rollups
    from pipeline.statistics import all_stats, has_player, parse_by
    from pipeline.store.warehouse import Warehouse

    try:
        keys = parse_by(by)
    except ValueError as exc:
        error(exc)
        raise typer.Exit(EXIT_USAGE) from None
    if as_json and as_csv:
        error("--json and --csv cannot be used together")
        raise typer.Exit(EXIT_USAGE)
    _check_plot_options(plot, dpi)
    players = player or []
    _check_stats_options(by, keys, players, wide, as_json)
    con = connect_with_rollups(Warehouse(warehouse), lazy=True)  # the views only when something reads them
    for name in players:
        if not has_player(con, name):
            error(f"no player named {name!r} in the warehouse at {warehouse}")
            raise typer.Exit(EXIT_NO_PLAYER)
    derived = report_derived(Warehouse(warehouse))
    try:
        if players:
            stats = [s for name in players for s in all_stats(con, "player", group=name, derived=derived, where=where)]
        else:
            stats = all_stats(con, by, derived=derived, where=where)
    except ValueError as exc:  # a --where that is not an expression over the games view
        error(exc)
        raise typer.Exit(EXIT_USAGE) from None
    _render_stats(stats, as_json, as_csv, wide or len(players) > 1)
    if plot is not None:
        ensure_views(con)
        _write_charts(con, plot, keys, dpi, derived)
    if not derived:
        raise typer.Exit(EXIT_NOT_DERIVED)


def _check_stats_options(by: str, keys: tuple[str, ...], players: list[str], wide: bool, as_json: bool) -> None:
    """Exit 2 for --player with another grouping than player, or --wide with --json (one object per statistic)."""
    if players and keys not in ((), ("player",)):
        usage(f"--player prints players' rows; it cannot be grouped by {by!r}")
    if wide and as_json:
        usage("--wide lays the statistics out in columns: --json gives one object per statistic")


def _render_stats(stats: list[Stat], as_json: bool, as_csv: bool, wide: bool) -> None:
    """Print the statistics as JSON, CSV (wide: a column per group) or tables (wide: a column per group)."""
    from pipeline.cli.render import (
        render_stats,
        render_stats_csv,
        render_stats_json,
        render_stats_wide,
        render_stats_wide_csv,
    )  # fmt: skip

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
            usage("--dpi sets the resolution of --plot's charts: give --plot too")
        return
    from pipeline.plots import plot_format  # noqa: PLC0415 - matplotlib loads in ~1 s

    try:
        plot_format(plot)
    except ValueError as exc:
        usage(f"--plot: {exc}")


def _write_charts(
    con: duckdb.DuckDBPyConnection, plot: Path, keys: tuple[str, ...], dpi: int | None, derived: bool
) -> None:
    """Write ``stats --plot``'s charts; say on stderr what was written and which charts were left out (the rules
    layer's, of a warehouse not derived: never drawn as zeros)."""
    from pipeline.plots import DPI, left_out_charts, plot_format, plot_groupings, write_plots  # noqa: PLC0415
    from pipeline.statistics import NOT_DERIVED

    groupings = dict.fromkeys(g for key in keys or ("all",) for g in plot_groupings(key))
    paths = write_plots(con, plot, tuple(groupings), dpi=dpi or DPI, derived=derived)
    fmt = (plot_format(plot) or "png").upper()
    where = f"into {plot}" if plot_format(plot) is None else f"beside {plot} ({plot.stem}_NAME{plot.suffix})"
    err.print(f"charts: {len(paths)} {fmt} files written {where}", highlight=False)
    left_out = left_out_charts(derived)
    if left_out:
        error(f"{', '.join(left_out)} not drawn: {NOT_DERIVED}", "charts")


@app.command("report")
@domain_errors
@reads_warehouse
def report_command(
    out_file: Annotated[
        Path,
        typer.Option(
            "--out", "-o", help="The HTML file to write (its folder is created).", parser=path_argument, metavar="FILE"
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
    from pipeline.db.rollups import connect_with_rollups
    from pipeline.report import report_groupings, write_report  # noqa: PLC0415 - matplotlib loads in ~1 s
    from pipeline.statistics import has_player
    from pipeline.store.warehouse import Warehouse

    groupings = _report_groupings(report_groupings, by)
    store = Warehouse(warehouse)
    con = connect_with_rollups(store)
    for name in player or ():
        if not has_player(con, name):
            error(f"no player named {name!r} in the warehouse at {warehouse}")
            raise typer.Exit(EXIT_NO_PLAYER)
    derived = report_derived(store)  # says on stderr when games are not derived (the report says so too)
    path = write_report(con, out_file, groupings, warehouse=store, players=player or ())
    out.print(f"report: {path}", highlight=False)
    if not derived:  # written, its rules-layer parts saying "not derived": exit as stats does
        raise typer.Exit(EXIT_NOT_DERIVED)


def _report_groupings(normalise: Callable[[list[str]], tuple[str, ...]], by: list[str] | None) -> tuple[str, ...]:
    """The report's --by values, normalised by ``normalise`` (report.report_groupings); exit 2 for a bad one."""
    try:
        return normalise(by if by is not None else ["room", "year"])
    except ValueError as exc:
        usage(str(exc))
