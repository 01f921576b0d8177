"""The HTML report's parts (pipeline.report): table of contents, provenance, the check and audit results, the
tables by each grouping asked and a page per player asked, over real logs; and `paipu report`'s options.

Every number is compared with what the CLI's own functions give (run_checks, run_audit, mart_stats, SQL over the
manifest and games), so a section that drifts from `paipu check`, `paipu audit` or `paipu stats` fails here.
The page as a browser renders it: tests/test_report_browser.py.
"""

from __future__ import annotations

import re
from html import escape, unescape
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from pipeline.audit import run_audit
from pipeline.cli import app
from pipeline.db import connect, sql_names
from pipeline.ingest import IngestReport, ingest
from pipeline.report import render_report, report_groupings
from pipeline.report_browser import dom_ids, missing_parts
from pipeline.report_data import provenance
from pipeline.report_html import format_interval, format_value
from pipeline.statistics import NOT_DERIVED, mart_stats, run_checks
from pipeline.store.warehouse import Warehouse

PLAYERS = ("CLS", "NoName")
"""Two players of ../shared/logs/tenhou-xml (21 and 31 games)."""


@pytest.fixture(scope="module")
def real(tenhou_warehouse: tuple[Warehouse, IngestReport]) -> tuple[duckdb.DuckDBPyConnection, str]:
    """The real-log warehouse and its report grouped by room and by room and year, with two players' pages."""
    warehouse = tenhou_warehouse[0]
    con = connect(warehouse)
    return con, render_report(con, ["room", "room, year"], warehouse, PLAYERS)


@pytest.fixture(scope="module")
def underived(
    shared_logs: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[duckdb.DuckDBPyConnection, str, Path]:
    """A warehouse of real logs ingested with --no-derive, its report, and its folder."""
    warehouse = Warehouse(tmp_path_factory.mktemp("underived") / "warehouse")
    ingest([shared_logs / "tenhou-xml" / "pantheon"], warehouse, derive=False)
    con = connect(warehouse)
    return con, render_report(con, ["room"]), warehouse.root


def section(page: str, anchor: str) -> str:
    """The HTML of one <section id=anchor>."""
    found = re.search(rf'<section id="{re.escape(anchor)}"[^>]*>(.*?)</section>', page, re.DOTALL)
    assert found, f"no section {anchor}"
    return found.group(1)


def row(html: str, first_cell: str) -> str:
    """The cells of the table row whose first cell's text is ``first_cell``."""
    found = re.search(rf"<tr><t[dh][^>]*>{re.escape(escape(first_cell))}</t[dh]>(.*?)</tr>", html)
    assert found, f"no row {first_cell}"
    return found.group(1)


def stat_row(html: str, name: str) -> str:
    """The cells after a statistic's name cell (the first row that has it)."""
    found = re.search(rf'<td class="name">{re.escape(name)}</td>(.*?)</tr>', html)
    assert found, f"no statistic {name}"
    return found.group(1)


def cells(html: str) -> list[str]:
    """The text of each cell of a row (tags inside a cell, e.g. the interval's span, kept apart by a space)."""
    return [unescape(re.sub(r"<[^>]+>", " ", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", html)]


# --- table of contents -----------------------------------------------------------------------------
def test_the_contents_link_every_section_in_order(real: tuple[duckdb.DuckDBPyConnection, str]) -> None:
    _, page = real
    toc = re.search(r'<nav id="toc" class="toc">(.*?)</nav>', page, re.DOTALL).group(1)
    top = re.findall(r'<section id="([^"]+)"', page)
    assert top == [
        "provenance", "checks", "audit", "charts", "statistics", "by-room", "by-room-year", "player-1", "player-2",
    ]  # fmt: skip
    linked = re.findall(r'href="#([^"]+)"', toc)
    assert [a for a in linked if a in top] == top
    ids, headings = dom_ids(page)
    assert not [a for a in linked if a not in ids], "every link of the contents has its target"
    assert {f"mart-{m}" for m in sql_names("marts")} <= set(linked)
    assert headings[:3] == ["Contents", "Provenance", "Invariant checks"]
    assert headings[-2:] == [f"Player: {p}" for p in PLAYERS]
    assert missing_parts(page, n_players=len(PLAYERS)) == []


# --- provenance ------------------------------------------------------------------------------------
def test_provenance_gives_version_inputs_dates_and_games_by_source(
    real: tuple[duckdb.DuckDBPyConnection, str],
) -> None:
    con, page = real
    html = section(page, "provenance")
    assert cells(row(html, "written by")) == ["paipu 0.1.0"]
    n_games, first, last = con.execute("select count(*), min(started_at), max(started_at) from games").fetchone()
    assert cells(row(html, "games played"))[0].startswith(f"{first:%Y-%m-%d} to {last:%Y-%m-%d}")
    by_source = con.execute("select source, count(*) from games group by source").fetchall()
    for source, games in by_source:
        assert cells(row(html, source))[0] == f"{games:,}"
    assert sum(g for _, g in by_source) == n_games and f"{n_games:,} games" in html
    statuses = con.execute("select status, count(*) from manifest group by status").fetchall()
    assert len(statuses) >= 3  # ok, duplicate, quarantined, not_a_log
    for status, n in statuses:
        assert f"<summary>{status}: {n:,} file" in html
    quarantined = con.execute("select path, reason from manifest where status = 'quarantined'").fetchall()
    assert quarantined
    for path, reason in quarantined:
        assert f'<td class="name">{escape(path)}</td>' in html and f"<td>{reason}</td>" in html
    assert provenance(con).n_files == sum(n for _, n in statuses)


# --- checks and audit ------------------------------------------------------------------------------
def test_the_checks_section_gives_paipu_checks_results(real: tuple[duckdb.DuckDBPyConnection, str]) -> None:
    con, page = real
    html = section(page, "checks")
    results = run_checks(con)
    assert set(results) == set(sql_names("checks"))
    for name, violations in results.items():
        real_ones = sum(v.is_server_log for v in violations)
        result, others = cells(row(html, name))
        assert result == ("ok" if not real_ones else f"{real_ones:,} violations"), name
        assert others == (f"{len(violations) - real_ones:,}" if len(violations) > real_ones else ""), name
    assert any(not v.is_server_log for vs in results.values() for v in vs), "the tool-written logs' violations"


def test_the_audit_section_gives_paipu_audits_results(real: tuple[duckdb.DuckDBPyConnection, str]) -> None:
    con, page = real
    html = section(page, "audit")
    results = run_audit(con)
    assert set(results) == set(sql_names("audit"))
    for name, r in results.items():
        agree, share, custom, *_ = cells(row(html, name))
        assert agree == f"{r.agree:,} / {r.total:,}", name
        assert share == (f"{r.agree / r.total:.2%}" if r.total else "n/a"), name
        a, t = r.other_by_class.get("custom_rule", (0, 0))
        assert custom == (f"{a:,} / {t:,}" if t else "-"), name
    assert sum(r.total for r in results.values()) > 1000


def test_an_underived_warehouse_has_checks_and_says_the_audit_is_not_derived(
    underived: tuple[duckdb.DuckDBPyConnection, str, Path],
) -> None:
    con, page, _ = underived
    audit = section(page, "audit")
    for name in sql_names("audit"):
        assert cells(row(audit, name)) == [NOT_DERIVED], name
    checks = section(page, "checks")
    for name in run_checks(con):
        assert cells(row(checks, name))[0] in ("ok",) or "violations" in cells(row(checks, name))[0]
    by_room = section(page, "by-room")
    assert cells(row(by_room, "fu_share_*")) == [NOT_DERIVED]  # one note for the row, never zeros
    assert re.search(r'<td class="not-derived-value" colspan="\d+">', by_room)


# --- tables by grouping ----------------------------------------------------------------------------
def test_each_grouping_asked_gets_every_marts_table(real: tuple[duckdb.DuckDBPyConnection, str]) -> None:
    con, page = real
    html = section(page, "by-room")
    header = re.search(r"<thead><tr>(.*?)</tr></thead>", html).group(1)
    rooms = [unescape(h) for h in re.findall(r"<th>(.*?)</th>", header)][1:]
    assert rooms == ["ippan", "joukyuu", "tokujou", "houou", "private"]  # low to high, as the charts
    for mart in sql_names("marts"):
        assert f'<h3 id="by-room-{mart}">' in html
    stats = {s.name: s for s in mart_stats(con, "round_outcomes", "room") if s.group["room"] == "houou"}
    values = cells(row(html, "exhaustive_draw_rate"))
    houou = stats["exhaustive_draw_rate"]
    assert values[rooms.index("houou")] == f"{format_value(houou)} {format_interval(houou)}"
    placements = cells(row(html, "average_rank (4p_hanchan)"))  # placements: split by mode besides the room
    assert any(v for v in placements)
    both = section(page, "by-room-year")
    assert "houou · 2017" in both and "<h2>Statistics by room, year</h2>" in page


def test_report_groupings_normalise_and_refuse_player() -> None:
    assert report_groupings(["room", "year, room", "all", "room"]) == ("room", "year,room")
    for bad in (["player"], ["room,player"], ["colour"]):
        with pytest.raises(ValueError):
            report_groupings(bad)


# --- players -----------------------------------------------------------------------------------------
def test_each_player_asked_gets_a_page_of_their_statistics(real: tuple[duckdb.DuckDBPyConnection, str]) -> None:
    con, page = real
    for i, name in enumerate(PLAYERS, 1):
        assert f'<section id="player-{i}" class="page">' in page
        html = section(page, f"player-{i}")
        (games,) = con.execute("select count(distinct game_id) from players where name = $n", {"n": name}).fetchone()
        assert cells(row(html, "games")) == [f"{games:,}"]
        for s in mart_stats(con, "round_outcomes", "player", group=name):
            assert f'<td class="name">{s.name}</td><td class="num">{escape(format_value(s))}</td>' in html
        win = next(s for s in mart_stats(con, "seat_outcomes", "player", group=name) if s.name == "seat_win_rate")
        assert cells(stat_row(html, "seat_win_rate"))[:4] == [
            format_value(win), format_interval(win), f"{win.numerator:,} / {win.denominator:,}", "seats",
        ]  # fmt: skip
    with pytest.raises(KeyError, match="nobody"):
        render_report(con, [], players=["nobody"])


# --- the command -------------------------------------------------------------------------------------
def test_paipu_report_takes_groupings_and_players(
    tenhou_warehouse: tuple[Warehouse, IngestReport], tmp_path: Path
) -> None:
    root = str(tenhou_warehouse[0].root)
    out = tmp_path / "r.html"
    result = CliRunner().invoke(app, ["report", "-w", root, "-o", str(out), "--by", "length", "--player", "CLS"])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert re.findall(r'<section id="([^"]+)"', page)[-2:] == ["by-length", "player-1"]
    assert "Player: CLS" in page and 'id="by-room"' not in page
    for args, code, message in [
        (["--player", "nobody"], 1, "no player named 'nobody'"),
        (["--by", "player"], 2, "name players with --player"),
        (["--by", "colour"], 2, "colour"),
    ]:
        result = CliRunner().invoke(app, ["report", "-w", root, "-o", str(tmp_path / "x.html"), *args])
        assert result.exit_code == code and message in result.output, (args, result.output)
        assert not (tmp_path / "x.html").exists()


def test_paipu_report_of_an_underived_warehouse_writes_the_page_and_exits_5(
    underived: tuple[duckdb.DuckDBPyConnection, str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "r.html"
    result = CliRunner().invoke(app, ["report", "-w", str(underived[2]), "-o", str(out)])
    assert result.exit_code == 5, result.output
    assert "not derived: " in result.output and NOT_DERIVED in out.read_text(encoding="utf-8")
