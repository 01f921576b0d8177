"""One self-contained HTML page about a warehouse: its counts, every chart and every statistic.

The page has no external assets: the charts are embedded as base64 PNG, the style is inline, so the file
can be mailed or archived as it is. The numbers come from the same mart SQL files as ``paipu stats``.

A warehouse holding games without their derived tables (ingested with ``--no-derive``, or a derive cut short:
see pipeline.statistics.underived_parts) gets a banner at the top naming the marts and charts that need the
rules layer; their statistics say ``not derived: run `paipu derive``` in place of a value and their charts are
left out, as ``paipu stats`` prints them, never the zeros their empty inputs would give.

    from pipeline.report import write_report
    write_report(con, Path("report.html"))
"""

from __future__ import annotations

import base64
import datetime as dt
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import NamedTuple

import duckdb

from pipeline import __version__
from pipeline.db import load_sql, sql_names
from pipeline.errors import PaipuError
from pipeline.plots import PLOT_GROUPINGS, figures, png_bytes
from pipeline.statistics import (
    DERIVED_MARTS,
    NOT_DERIVED,
    NOT_PROPORTIONS,
    Stat,
    mart_stats,
    not_derived_stats,
    underived_parts,
)
from pipeline.store.warehouse import Warehouse

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2rem auto; max-width: 1100px;
       color: #222; line-height: 1.4; padding: 0 1rem; }
h1 { margin-bottom: 0.2rem; }
.meta { color: #666; margin-top: 0; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.9rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.name { font-family: ui-monospace, Menlo, Consolas, monospace; white-space: nowrap; }
td.definition { color: #444; }
figure { margin: 1rem 0 2rem; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { color: #666; font-size: 0.85rem; }
.mart-header { color: #555; font-size: 0.9rem; margin: 0; }
.not-derived { background: #fff4e5; border: 1px solid #f0b45a; padding: 0.6rem 1rem; border-radius: 4px; }
td.not-derived-value { color: #a05a00; font-style: italic; white-space: nowrap; }
"""

CHART_MARTS = {"fu_histogram": "score_distributions", "han_histogram": "score_distributions",
               "tenpai_at_draw": "tenpai_at_draw"}  # fmt: skip
"""Charts (pipeline.plots.figures) drawn from a mart of DERIVED_MARTS: chart name -> mart."""


class DerivedState(NamedTuple):
    """How much of a warehouse is derived: games parts without derived tables, of all games parts."""

    missing: int
    total: int

    @property
    def is_derived(self) -> bool:
        """Whether every games part has its derived tables (an empty warehouse counts as derived)."""
        return self.missing == 0


def derived_state(con: duckdb.DuckDBPyConnection, warehouse: Warehouse | None = None) -> DerivedState:
    """Return how much of the warehouse is derived: from ``warehouse`` when given (statistics.underived_parts),
    else from the part files ``con`` reads (pipeline.db.connect: a games part is derived when a hand_states part
    of the same partition and name exists, the rule of underived_parts). A connection over tables held in
    memory (no part files) counts as one part, underived when it has games and no hand states."""
    if warehouse is not None:
        return DerivedState(len(underived_parts(warehouse)), len(warehouse.table_files("games")))
    games, hands = _part_files(con, "games"), _part_files(con, "hand_states")
    if games is None:
        has_games = con.execute("select count(*) > 0 from games").fetchone()[0]
        has_hands = con.execute("select count(*) > 0 from hand_states").fetchone()[0]
        return DerivedState(int(has_games and not has_hands), int(has_games))
    derived = set(hands or ())
    return DerivedState(sum(part not in derived for part in games), len(games))


def _part_files(con: duckdb.DuckDBPyConnection, table: str) -> list[Path] | None:
    """The part files the connection's view of ``table`` reads, each relative to the table's folder; None when
    the connection reads no part file of it."""
    files = con.execute(f"select getvariable('{table}_files')").fetchone()[0]
    if not files:
        return None
    out = []
    for file in map(Path, files):
        folder = next(p for p in file.parents if p.name == table)  # the deepest: partitions are key=value
        out.append(file.relative_to(folder))
    return out


def write_report(
    con: duckdb.DuckDBPyConnection,
    out: Path,
    by: Sequence[str] = PLOT_GROUPINGS,
    warehouse: Warehouse | None = None,
) -> Path:
    """Write the HTML report of the warehouse behind ``con`` to ``out`` (its folder is created): the counts
    (files by status, games and rounds by source), every chart (draw rates per grouping in ``by``), every
    mart's statistics with definitions and 95% intervals (all games; round outcomes also per grouping).
    What is derived is read from ``warehouse`` when given, else from ``con`` (derived_state); the marts of
    DERIVED_MARTS say NOT_DERIVED when some games are not. Return ``out``; raise PaipuError when it cannot be
    written."""
    out = Path(out)
    page = render_report(con, by, warehouse)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise PaipuError(f"cannot write the report to {out}: {exc}") from exc
    return out


def render_report(
    con: duckdb.DuckDBPyConnection, by: Sequence[str] = PLOT_GROUPINGS, warehouse: Warehouse | None = None
) -> str:
    """Return the report's HTML text (see write_report)."""
    generated = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    state = derived_state(con, warehouse)
    sections = [
        *([] if state.is_derived else [_not_derived_banner(state)]),
        _counts_section(con),
        _charts_section(con, by, state.is_derived),
        _stats_section(con, by, state.is_derived),
    ]
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            '<head><meta charset="utf-8"><title>paipu warehouse report</title>',
            f"<style>{STYLE}</style></head>",
            "<body>",
            "<h1>paipu warehouse report</h1>",
            f'<p class="meta">paipu {escape(__version__)} · generated {generated}</p>',
            *sections,
            "</body></html>",
        ]
    )


# --- sections --------------------------------------------------------------------------------------
def _not_derived_banner(state: DerivedState) -> str:
    marts = ", ".join(DERIVED_MARTS)
    charts = ", ".join(CHART_MARTS)
    return (
        '<div class="not-derived" id="not-derived"><strong>Not derived.</strong> '
        f"{state.missing:,} of {state.total:,} games parts have no derived tables (ingested with "
        "<code>--no-derive</code>, or a derive cut short). The statistics of the rules layer (marts "
        f"{escape(marts)}) say <em>{escape(NOT_DERIVED)}</em> instead of a value, and the charts drawn from them "
        f"({escape(charts)}) are left out. The statistics of the facts (the other marts) are complete. Run "
        "<code>paipu derive</code> and write the report again.</div>"
    )


def _counts_section(con: duckdb.DuckDBPyConnection) -> str:
    files = con.execute("select status, count(*) from manifest group by status order by count(*) desc").fetchall()
    sources = con.execute(
        "select g.source, count(distinct g.game_id), count(r.round_idx) "
        "from games as g left join rounds as r using (game_id) group by g.source order by g.source"
    ).fetchall()
    n_games = sum(row[1] for row in sources)
    n_rounds = sum(row[2] for row in sources)
    return "\n".join(
        [
            "<h2>The warehouse</h2>",
            f"<p>{n_games:,} games, {n_rounds:,} rounds, {sum(n for _, n in files):,} files read.</p>",
            "<h3>Files by status</h3>",
            _table(["status", "files"], [[(status, ""), (f"{n:,}", "num")] for status, n in files]),
            "<h3>Games and rounds by source</h3>",
            _table(
                ["source", "games", "rounds"],
                [[(source, ""), (f"{g:,}", "num"), (f"{r:,}", "num")] for source, g, r in sources],
            ),
        ]
    )


def _charts_section(con: duckdb.DuckDBPyConnection, by: Sequence[str], derived: bool) -> str:
    parts = ["<h2>Charts</h2>"]
    for name, figure in figures(con, by).items():
        if not derived and name in CHART_MARTS:
            parts.append(
                f'<figure id="chart-{escape(name)}" class="not-derived"><figcaption>{escape(name)}.png '
                f"({escape(CHART_MARTS[name])}): {escape(NOT_DERIVED)}</figcaption></figure>"
            )
            continue
        data = base64.b64encode(png_bytes(figure)).decode("ascii")
        title = figure.axes[0].get_title()
        parts.append(
            f'<figure id="chart-{escape(name)}"><img alt="{escape(title)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{escape(name)}.png: {escape(title)}</figcaption></figure>"
        )
    return "\n".join(parts)


def _stats_section(con: duckdb.DuckDBPyConnection, by: Sequence[str], derived: bool) -> str:
    parts = [
        "<h2>Statistics</h2>",
        "<p>Each statistic is one mart SQL file (<code>pipeline/sql/marts/</code>), the same that "
        "<code>paipu stats</code> runs; the 95% interval is the Wilson score interval of a proportion "
        "(none for ratios that are not proportions).</p>",
    ]
    for mart in sql_names("marts"):
        parts.append(f'<h3 id="mart-{escape(mart)}">{escape(mart)}</h3>')
        parts.append(f'<p class="mart-header">{escape(_mart_summary(mart))}</p>')
        underived = not derived and mart in DERIVED_MARTS
        parts.append(_stats_table(not_derived_stats(mart) if underived else mart_stats(con, mart)))
    for grouping in by:
        parts.append(f"<h3>round_outcomes by {escape(grouping)}</h3>")
        parts.append(_stats_table(mart_stats(con, "round_outcomes", grouping), grouping))
    return "\n".join(parts)


# --- helpers ---------------------------------------------------------------------------------------
def _stats_table(stats: list[Stat], grouping: str | None = None) -> str:
    header = ["statistic", "value", "95% interval", "numerator / denominator", "definition"]
    rows = []
    for s in stats:
        counts = "" if s.numerator is None or s.denominator is None else f"{s.numerator:,} / {s.denominator:,}"
        row = [
            (s.name, "name"),
            (format_value(s), "not-derived-value" if s.note == NOT_DERIVED else "num"),
            (format_interval(s), "num"),
            (counts, "num"),
            (s.definition, "definition"),
        ]
        if grouping is not None:
            row.insert(0, (str((s.group or {}).get(grouping, "")), ""))
        rows.append(row)
    return _table(([grouping] if grouping else []) + header, rows)


def format_value(stat: Stat) -> str:
    """A statistic's value as people read it: per 100 rounds for the ``*_per_round`` ratios, a plain number for
    the other ratios that are not proportions (rounds per game), a percentage for proportions; the note (e.g.
    NOT_DERIVED) of a statistic that has one instead of a value."""
    if stat.note is not None:
        return stat.note
    if stat.value is None:
        return "n/a"
    if stat.name.endswith("_per_round"):
        return f"{100 * stat.value:.2f} per 100 rounds"
    if stat.name in NOT_PROPORTIONS:
        return f"{stat.value:,.2f}"
    return f"{100 * stat.value:.2f}%"


def format_interval(stat: Stat) -> str:
    """The 95% Wilson interval in percent, or an empty string when there is none."""
    if stat.ci_low is None or stat.ci_high is None or stat.name in NOT_PROPORTIONS:
        return ""
    return f"{100 * stat.ci_low:.2f}-{100 * stat.ci_high:.2f}%"


def _mart_summary(mart: str) -> str:
    """The first line of the mart's SQL header, without the leading ``-- name:``."""
    first = load_sql("marts", mart).splitlines()[0]
    return first.removeprefix("--").strip().removeprefix(f"{mart}:").strip()


def _table(header: list[str], rows: list[list[tuple[str, str]]]) -> str:
    """An HTML table; each cell is (text, css class)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "\n".join(
        "<tr>"
        + "".join(f'<td class="{cls}">{escape(text)}</td>' if cls else f"<td>{escape(text)}</td>" for text, cls in row)
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>"
