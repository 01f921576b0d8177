"""One self-contained HTML page about a warehouse, for people and papers: a table of contents, the provenance
(paipu version, input files by status, dates of the games, games by source), the invariant checks and the audit,
every chart, every statistic over all games and by each grouping asked, and a page per player asked.

The page has no external assets: the charts are embedded as base64 PNG, the style is inline, so the file
can be mailed or archived as it is. The numbers come from the functions the CLI uses (the mart SQL files of
``paipu stats``, ``paipu check``'s run_checks, ``paipu audit``'s run_audit): see pipeline.report_sections.

A warehouse holding games without their derived tables (ingested with ``--no-derive``, or a derive cut short:
see pipeline.statistics.underived_parts) gets a banner at the top naming the marts and charts that need the
rules layer; their statistics and audit checks say ``not derived: run `paipu derive``` in place of a value and
their charts are left out, as ``paipu stats`` prints them, never the zeros their empty inputs would give.

    from pipeline.report import write_report
    write_report(con, Path("report.html"), by=["room", "year"], players=["ASAPIN"])
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from html import escape
from pathlib import Path

import duckdb

from pipeline import __version__
from pipeline.errors import PaipuError
from pipeline.plots import CHART_MARTS, PLOT_GROUPINGS, UNCHARTED_GROUPINGS
from pipeline.report_data import DerivedState, derived_state, provenance
from pipeline.report_html import STYLE, format_interval, format_value
from pipeline.report_sections import (
    Section,
    audit_section,
    charts_section,
    checks_section,
    grouping_section,
    player_sections,
    provenance_section,
    stats_section,
)
from pipeline.statistics import DERIVED_MARTS, NOT_DERIVED, parse_by
from pipeline.store.warehouse import Warehouse

__all__ = [
    "CHART_MARTS",
    "DerivedState",
    "derived_state",
    "format_interval",
    "format_value",
    "render_report",
    "report_groupings",
    "write_report",
]


def report_groupings(by: Sequence[str]) -> tuple[str, ...]:
    """The groupings of a report's tables: each a ``--by`` value (one key of statistics.GROUPINGS, or several
    comma-separated), normalised ('year, room' -> 'year,room'), repeats and 'all' (always there) dropped.
    Raises ValueError for a bad value or for 'player' (a row per name: ask for players one by one)."""
    out: dict[str, None] = {}
    for value in by:
        keys = parse_by(value)
        if "player" in keys:
            raise ValueError("the report is not grouped by player (a table per name): name players with --player")
        if keys:
            out[",".join(keys)] = None
    return tuple(out)


def write_report(
    con: duckdb.DuckDBPyConnection,
    out: Path,
    by: Sequence[str] = PLOT_GROUPINGS,
    warehouse: Warehouse | None = None,
    players: Sequence[str] = (),
) -> Path:
    """Write the HTML report of the warehouse behind ``con`` to ``out`` (its folder is created): see
    render_report. Return ``out``; raise PaipuError when it cannot be written, ValueError for a bad grouping,
    KeyError for a player no seat has."""
    out = Path(out)
    page = render_report(con, by, warehouse, players)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise PaipuError(f"cannot write the report to {out}: {exc}") from exc
    return out


def render_report(
    con: duckdb.DuckDBPyConnection,
    by: Sequence[str] = PLOT_GROUPINGS,
    warehouse: Warehouse | None = None,
    players: Sequence[str] = (),
) -> str:
    """Return the report's HTML text: the table of contents; the provenance; the invariant checks and the audit;
    every chart (draw rates per single grouping of ``by``); every mart's statistics over all games, then by each
    grouping of ``by`` (report_groupings); a section per name of ``players``. What is derived is read from
    ``warehouse`` when given, else from ``con`` (derived_state); the marts of DERIVED_MARTS and the audit say
    NOT_DERIVED when some games are not."""
    groupings = report_groupings(by)
    state = derived_state(con, warehouse)
    prov = provenance(con)
    charted = [g for g in groupings if "," not in g and g not in UNCHARTED_GROUPINGS]
    sections = [
        provenance_section(con, prov, str(warehouse.root) if warehouse else None),
        checks_section(con),
        audit_section(con, state.is_derived),
        charts_section(con, charted, state.is_derived),
        stats_section(con, state.is_derived),
        *(grouping_section(con, g, state.is_derived) for g in groupings),
        *player_sections(con, players, state.is_derived),
    ]
    banner = [] if state.is_derived else [_not_derived_banner(state)]
    return _page([*banner, _contents(sections), *(s.html() for s in sections)])


def _page(body: Sequence[str]) -> str:
    generated = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            '<head><meta charset="utf-8"><title>paipu warehouse report</title>',
            f"<style>{STYLE}</style></head>",
            "<body>",
            "<h1>paipu warehouse report</h1>",
            f'<p class="meta">paipu {escape(__version__)} · generated {generated}</p>',
            *body,
            "</body></html>",
        ]
    )


def _contents(sections: Sequence[Section]) -> str:
    """The table of contents: a link per section, and per subsection below it."""
    items = []
    for s in sections:
        sub = "".join(f'<li><a href="#{escape(a)}">{escape(t)}</a></li>' for a, t in s.children)
        items.append(f'<li><a href="#{escape(s.anchor)}">{escape(s.title)}</a>{f"<ol>{sub}</ol>" if sub else ""}</li>')
    return f'<nav id="toc" class="toc"><h2>Contents</h2><ol>{"".join(items)}</ol></nav>'


def _not_derived_banner(state: DerivedState) -> str:
    marts = ", ".join(DERIVED_MARTS)
    charts = ", ".join(CHART_MARTS)
    return (
        '<div class="not-derived" id="not-derived"><strong>Not derived.</strong> '
        f"{state.missing:,} of {state.total:,} games parts have no derived tables (ingested with "
        "<code>--no-derive</code>, or a derive cut short). The statistics of the rules layer (marts "
        f"{escape(marts)}) and the audit say <em>{escape(NOT_DERIVED)}</em> instead of a value, and the charts "
        f"drawn from them ({escape(charts)}) are left out. The statistics of the facts (the other marts) and the "
        "invariant checks are complete. Run <code>paipu derive</code> and write the report again.</div>"
    )
