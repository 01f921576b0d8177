"""One self-contained HTML page about a warehouse: its counts, every chart and every statistic.

The page has no external assets: the charts are embedded as base64 PNG, the style is inline, so the file
can be mailed or archived as it is. The numbers come from the same mart SQL files as ``paipu stats``.

    from pipeline.report import write_report
    write_report(con, Path("report.html"))
"""

from __future__ import annotations

import base64
import datetime as dt
from collections.abc import Sequence
from html import escape
from pathlib import Path

import duckdb

from pipeline import __version__
from pipeline.db import load_sql, sql_names
from pipeline.errors import PaipuError
from pipeline.plots import PLOT_GROUPINGS, figures, png_bytes
from pipeline.statistics import NOT_PROPORTIONS, Stat, mart_stats

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
"""


def write_report(con: duckdb.DuckDBPyConnection, out: Path, by: Sequence[str] = PLOT_GROUPINGS) -> Path:
    """Write the HTML report of the warehouse behind ``con`` to ``out`` (its folder is created): the counts
    (files by status, games and rounds by source), every chart (draw rates per grouping in ``by``), every
    mart's statistics with definitions and 95% intervals (all games; round outcomes also per grouping).
    Return ``out``; raise PaipuError when it cannot be written."""
    out = Path(out)
    page = render_report(con, by)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise PaipuError(f"cannot write the report to {out}: {exc}") from exc
    return out


def render_report(con: duckdb.DuckDBPyConnection, by: Sequence[str] = PLOT_GROUPINGS) -> str:
    """Return the report's HTML text (see write_report)."""
    generated = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    sections = [_counts_section(con), _charts_section(con, by), _stats_section(con, by)]
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


def _charts_section(con: duckdb.DuckDBPyConnection, by: Sequence[str]) -> str:
    parts = ["<h2>Charts</h2>"]
    for name, figure in figures(con, by).items():
        data = base64.b64encode(png_bytes(figure)).decode("ascii")
        title = figure.axes[0].get_title()
        parts.append(
            f'<figure id="chart-{escape(name)}"><img alt="{escape(title)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{escape(name)}.png: {escape(title)}</figcaption></figure>"
        )
    return "\n".join(parts)


def _stats_section(con: duckdb.DuckDBPyConnection, by: Sequence[str]) -> str:
    parts = [
        "<h2>Statistics</h2>",
        "<p>Each statistic is one mart SQL file (<code>pipeline/sql/marts/</code>), the same that "
        "<code>paipu stats</code> runs; the 95% interval is the Wilson score interval of a proportion "
        "(none for ratios that are not proportions).</p>",
    ]
    for mart in sql_names("marts"):
        parts.append(f'<h3 id="mart-{escape(mart)}">{escape(mart)}</h3>')
        parts.append(f'<p class="mart-header">{escape(_mart_summary(mart))}</p>')
        parts.append(_stats_table(mart_stats(con, mart)))
    for grouping in by:
        parts.append(f"<h3>round_outcomes by {escape(grouping)}</h3>")
        parts.append(_stats_table(mart_stats(con, "round_outcomes", grouping), grouping))
    return "\n".join(parts)


# --- helpers ---------------------------------------------------------------------------------------
def _stats_table(stats: list[Stat], grouping: str | None = None) -> str:
    header = ["statistic", "value", "95% interval", "numerator / denominator", "definition"]
    rows = []
    for s in stats:
        row = [
            (s.name, "name"),
            (format_value(s), "num"),
            (format_interval(s), "num"),
            (f"{s.numerator:,} / {s.denominator:,}", "num"),
            (s.definition, "definition"),
        ]
        if grouping is not None:
            row.insert(0, (str((s.group or {}).get(grouping, "")), ""))
        rows.append(row)
    return _table(([grouping] if grouping else []) + header, rows)


def format_value(stat: Stat) -> str:
    """A statistic's value as people read it: per 100 rounds for the ``*_per_round`` ratios, a plain number for
    the other ratios that are not proportions (rounds per game), a percentage for proportions."""
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
