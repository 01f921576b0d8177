"""The sections of the HTML report (pipeline.report), each a Section: its anchor, title, HTML body and the
entries it adds to the table of contents.

The numbers come from the functions the CLI uses: statistics.mart_stats (``paipu stats``),
statistics.run_checks (``paipu check``), audit.run_audit (``paipu audit``), report_data.provenance; no SQL of a
check, audit or mart is repeated here.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from html import escape
from typing import NamedTuple

import duckdb

from pipeline.audit import LOG_CLASSES, CheckResult, run_audit
from pipeline.db import load_sql, sql_names
from pipeline.plots import CHART_MARTS, figures, group_sort_key, png_bytes
from pipeline.report_data import MAX_FILES_LISTED, Provenance, date_range, input_files
from pipeline.report_html import Cell, details, facts, pivot_table, stats_table, table
from pipeline.statistics import (
    DERIVED_MARTS,
    NOT_DERIVED,
    Stat,
    Violation,
    mart_stats,
    not_derived_stats,
    parse_by,
    run_checks,
)

PROBLEMS_LISTED = 20
"""Violations and disagreements listed per check (the first ones); the counts cover them all."""


class Section(NamedTuple):
    """One section of the report: ``<section id=anchor>`` with its title as h2, and its table-of-contents entry
    with ``children`` ((anchor, title) of its subsections)."""

    anchor: str
    title: str
    body: str
    children: tuple[tuple[str, str], ...] = ()
    page: bool = False
    """Printed on a page of its own (a player's section)."""

    def html(self) -> str:
        """The section as HTML."""
        cls = ' class="page"' if self.page else ""
        return f'<section id="{escape(self.anchor)}"{cls}>\n<h2>{escape(self.title)}</h2>\n{self.body}\n</section>'


# --- provenance ------------------------------------------------------------------------------------
def provenance_section(con: duckdb.DuckDBPyConnection, prov: Provenance, warehouse: str | None) -> Section:
    """Where the numbers come from: paipu's version, the warehouse, the dates of the games, the games and rounds
    by source, the input files by status and format, and the files of each status (folded)."""
    dates = date_range(prov.first_game, prov.last_game)
    undated = f" ({prov.undated:,} games without a date)" if prov.undated else ""
    details_of_run = [
        ("written by", f"paipu {prov.version}"),
        ("files read by", ", ".join(f"paipu {v}" for v in prov.reader_versions) or "none"),
        ("warehouse", warehouse or "(a connection)"),
        ("games played", dates + undated),
    ]
    parts = [
        f"<p>{prov.n_games:,} games, {prov.n_rounds:,} rounds, {prov.n_files:,} files read.</p>",
        facts(details_of_run),
        "<h3>Games and rounds by source</h3>",
        table(["source", "games", "rounds", "first game", "last game", "undated"], _source_rows(prov)),
        "<h3>Files by status</h3>",
        table(["status", "files"], [[Cell(status), Cell(f"{n:,}", "num")] for status, n in prov.files_by_status]),
        "<h3>Files by format and status</h3>",
        table(
            ["format", "status", "files"],
            [[Cell(f), Cell(s), Cell(f"{n:,}", "num")] for f, s, n in prov.files_by_format],
        ),
        "<h3>Input files</h3>",
        *(_files_of_status(con, status, n) for status, n in prov.files_by_status),
    ]
    return Section("provenance", "Provenance", "\n".join(parts))


def _source_rows(prov: Provenance) -> list[list[Cell]]:
    def day(value: object) -> str:
        return value.date().isoformat() if value is not None else ""  # type: ignore[attr-defined]

    return [
        [Cell(s.source), Cell(f"{s.games:,}", "num"), Cell(f"{s.rounds:,}", "num"), Cell(day(s.first), "num"),
         Cell(day(s.last), "num"), Cell(f"{s.undated:,}", "num")]
        for s in prov.sources
    ]  # fmt: skip


def _files_of_status(con: duckdb.DuckDBPyConnection, status: str, n: int) -> str:
    files = input_files(con, status)
    more = f" (the first {len(files):,} by path)" if n > MAX_FILES_LISTED else ""
    rows = [
        [Cell(path, "name"), Cell(fmt or ""), Cell(reason or ""), Cell(error or ""), Cell(f"{games:,}", "num")]
        for path, fmt, reason, error, games in files
    ]
    listing = table(["path", "format", "reason", "error", "games"], rows)
    return details(f"{status}: {n:,} file{'' if n == 1 else 's'}{more}", listing)


# --- checks and audit ------------------------------------------------------------------------------
def checks_section(con: duckdb.DuckDBPyConnection) -> Section:
    """The invariant checks of ``paipu check`` (statistics.run_checks): each check's outcome, the violations in
    server-written logs (the first PROBLEMS_LISTED) and those in logs written by other tools apart."""
    results = run_checks(con)
    failing = sum(any(v.is_server_log for v in vs) for vs in results.values())
    summary = (
        f"<p>{len(results)} invariant checks (<code>paipu check</code>, <code>pipeline/sql/checks/</code>): "
        f"{len(results) - failing} pass, {failing} fail on server-written logs.</p>"
    )
    rows = [_check_row(name, violations) for name, violations in results.items()]
    examples = [_violations(name, vs) for name, vs in results.items() if any(v.is_server_log for v in vs)]
    body = "\n".join([summary, table(["check", "result", "in logs written by other tools"], rows), *examples])
    return Section("checks", "Invariant checks", body)


def _check_row(name: str, violations: list[Violation]) -> list[Cell]:
    real = sum(v.is_server_log for v in violations)
    known = len(violations) - real
    result = Cell("ok", "ok") if not real else Cell(f"{real:,} violations", "bad")
    return [Cell(name, "name"), result, Cell(f"{known:,}" if known else "", "num")]


def _violations(name: str, violations: list[Violation]) -> str:
    real = [v for v in violations if v.is_server_log][:PROBLEMS_LISTED]
    rows = [[Cell(v.game_id, "name"), Cell(str(v.round_idx), "num"), Cell(str(v.detail))] for v in real]
    return details(f"{name}: the first {len(real)} violations", table(["game", "round", "detail"], rows))


def audit_section(con: duckdb.DuckDBPyConnection, derived: bool) -> Section:
    """The checks of ``paipu audit`` (audit.run_audit): each derived value against the server's label, agreement
    over server-written standard-rule logs and per other log class, the first disagreements; NOT_DERIVED for
    every check of a warehouse not derived."""
    results = run_audit(con, derived=derived)
    header = ["check", "server-written, standard rules", "share", *(c.replace("_", " ") for c in LOG_CLASSES)]
    rows = [_audit_row(name, r, len(header)) for name, r in results.items()]
    examples = [_disagreements(name, r) for name, r in results.items() if r.disagreements]
    intro = (
        f"<p>{len(results)} audit checks (<code>paipu audit</code>, <code>pipeline/sql/audit/</code>): every "
        "derived value against the label the server wrote, over server-written logs under standard rules; the "
        "other classes of log are counted apart (agree / compared).</p>"
    )
    return Section("audit", "Audit", "\n".join([intro, table(header, rows), *examples]))


def _audit_row(name: str, r: CheckResult, width: int) -> list[Cell]:
    if r.note is not None:
        return [Cell(name, "name"), Cell(r.note, "not-derived-value", span=width - 1)]
    share = f"{r.agree / r.total:.2%}" if r.total else "n/a"
    status = "ok" if not r.disagreements else "bad"
    others = [r.other_by_class.get(c, (0, 0)) for c in LOG_CLASSES]
    return [
        Cell(name, "name"),
        Cell(f"{r.agree:,} / {r.total:,}", f"num {status}"),
        Cell(share, "num"),
        *(Cell(f"{a:,} / {t:,}" if t else "-", "num") for a, t in others),
    ]


def _disagreements(name: str, r: CheckResult) -> str:
    shown = r.disagreements[:PROBLEMS_LISTED]
    rows = [
        [Cell(str(d.get("game_id")), "name"), Cell(str(d.get("round_idx")), "num"), Cell(str(d.get("seat")), "num"),
         Cell(str(d.get("derived"))), Cell(str(d.get("logged")))]
        for d in shown
    ]  # fmt: skip
    title = f"{name}: {len(r.disagreements):,} disagreements (the first {len(shown)})"
    return details(title, table(["game", "round", "seat", "derived", "logged"], rows))


# --- charts and statistics -------------------------------------------------------------------------
def charts_section(con: duckdb.DuckDBPyConnection, groupings: Sequence[str], derived: bool) -> Section:
    """Every chart (plots.figures) as an inline PNG; those of CHART_MARTS say NOT_DERIVED when not derived."""
    parts, children = [], []
    charts = figures(con, groupings, derived)
    for name in [*(f"draw_rates_by_{g}" for g in groupings), *CHART_MARTS]:
        children.append((f"chart-{name}", name))
        if name not in charts:
            parts.append(
                f'<figure id="chart-{escape(name)}" class="not-derived"><figcaption>{escape(name)}.png '
                f"({escape(CHART_MARTS[name])}): {escape(NOT_DERIVED)}</figcaption></figure>"
            )
            continue
        title = charts[name].axes[0].get_title()
        data = base64.b64encode(png_bytes(charts[name])).decode("ascii")
        parts.append(
            f'<figure id="chart-{escape(name)}"><img alt="{escape(title)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{escape(name)}.png: {escape(title)}</figcaption></figure>"
        )
    return Section("charts", "Charts", "\n".join(parts), tuple(children))


def stats_section(con: duckdb.DuckDBPyConnection, derived: bool) -> Section:
    """Every mart's statistics over all games, with definitions, 95% intervals and counts."""
    parts = [
        "<p>Each statistic is one mart SQL file (<code>pipeline/sql/marts/</code>), the same that "
        "<code>paipu stats</code> runs; the 95% interval is the Wilson score interval of a proportion "
        "(none for ratios that are not proportions).</p>"
    ]
    children = []
    for mart in sql_names("marts"):
        children.append((f"mart-{mart}", mart))
        parts.append(f'<h3 id="mart-{escape(mart)}">{escape(mart)}</h3>')
        parts.append(f'<p class="mart-header">{escape(mart_summary(mart))}</p>')
        parts.append(stats_table(_mart_stats(con, mart, "all", derived)))
    return Section("statistics", "Statistics", "\n".join(parts), tuple(children))


def grouping_section(con: duckdb.DuckDBPyConnection, by: str, derived: bool) -> Section:
    """Every mart's statistics by ``by`` (one grouping of statistics.GROUPINGS, or several comma-separated):
    a grid per mart, a column per group."""
    keys = parse_by(by)
    per_mart = {mart: _mart_stats(con, mart, by, derived) for mart in sql_names("marts")}
    columns = _columns([s for stats in per_mart.values() for s in stats], keys)
    anchor = "by-" + "-".join(keys)
    parts = [
        f"<p>The statistics of every mart by {escape(', '.join(keys))} ({len(columns)} groups): the value, its 95% "
        "interval under it; the counts show when pointing at a value, the definition at a name (they are in "
        '<a href="#statistics">Statistics</a>).</p>'
    ]
    for mart, stats in per_mart.items():
        parts.append(f'<h3 id="{anchor}-{escape(mart)}">{escape(mart)}</h3>')
        parts.append(pivot_table(stats, keys, columns))
    return Section(anchor, f"Statistics by {', '.join(keys)}", "\n".join(parts))


def _columns(stats: Sequence[Stat], keys: Sequence[str]) -> list[tuple]:
    groups = {tuple(str(s.group.get(k)) for k in keys) for s in stats if s.group}
    return sorted(groups, key=lambda group: [group_sort_key(v, k) for v, k in zip(group, keys, strict=True)])


def _mart_stats(con: duckdb.DuckDBPyConnection, mart: str, by: str, derived: bool) -> list[Stat]:
    return not_derived_stats(mart) if not derived and mart in DERIVED_MARTS else mart_stats(con, mart, by)


def mart_summary(mart: str) -> str:
    """The first line of the mart's SQL header, without the leading ``-- name:``."""
    first = load_sql("marts", mart).splitlines()[0]
    return first.removeprefix("--").strip().removeprefix(f"{mart}:").strip()


# --- players ---------------------------------------------------------------------------------------
PLAYER_SQL = """
select count(distinct p.game_id), min(g.started_at), max(g.started_at),
       string_agg(distinct g.source, ', ' order by g.source), string_agg(distinct g.room, ', ' order by g.room)
from players as p join games as g using (game_id)
where coalesce(p.name, 'unknown') = $name
"""
"""One player's games: how many, first and last start time, sources, rooms (the marts' name rule)."""


def player_sections(con: duckdb.DuckDBPyConnection, names: Sequence[str], derived: bool) -> list[Section]:
    """A section per player (printed as a page each; a name asked twice once): the player's games and every
    statistic of that player (as ``paipu stats --player``: every mart's rows of grouping 'player'). Raises
    KeyError for a name no seat has, before any statistic is computed."""
    summaries = {name: _player_summary(con, name) for name in dict.fromkeys(names)}
    if not summaries:
        return []
    stats = [s for mart in sql_names("marts") for s in _mart_stats(con, mart, "player", derived)]
    sections = []
    for i, (name, summary) in enumerate(summaries.items(), 1):
        own = [s for s in stats if s.group is None or s.group.get("player") == name]
        body = "\n".join(
            [
                facts(summary),
                "<p>A statistic that counts <em>rounds</em> counts every round of the player's games (players' "
                "rows overlap); one that counts <em>seats</em> only the seats this player held.</p>",
                stats_table(own, ("player",), mark_round_level=True),
            ]
        )
        sections.append(Section(f"player-{i}", f"Player: {name}", body, page=True))
    return sections


def _player_summary(con: duckdb.DuckDBPyConnection, name: str) -> list[tuple[str, str]]:
    games, first, last, sources, rooms = con.execute(PLAYER_SQL, {"name": name}).fetchone()
    if not games:
        raise KeyError(f"no player named {name!r} in the warehouse")
    dates = date_range(first, last)
    return [("games", f"{games:,}"), ("played", dates), ("sources", sources or ""), ("rooms", rooms or "")]
