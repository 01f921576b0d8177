"""Charts (pipeline.plots) and the HTML report (pipeline.report), over the real logs and the bundled sample.

Each chart must be a real picture (a valid PNG of the expected size, several KB, many colours); the report one
self-contained page holding every chart and every statistic of every mart.
"""

from __future__ import annotations

import base64
import io
import re
from html import escape
from pathlib import Path

import duckdb
import pytest
from PIL import Image

from pipeline.db import connect, sql_names
from pipeline.derive.run import derive
from pipeline.errors import PaipuError
from pipeline.ingest import ingest
from pipeline.plots import DPI, FIGSIZE, figures, plot_groupings, write_plots
from pipeline.report import CHART_MARTS, derived_state, write_report
from pipeline.statistics import (
    DERIVED_MARTS,
    GROUPINGS,
    NOT_DERIVED,
    mart_stats,
    not_derived_stats,
    round_outcome_stats,
    underived_parts,
)
from pipeline.store.warehouse import Warehouse

REPO = Path(__file__).resolve().parents[1]
README_CHART = REPO / "notebooks" / "figures" / "draw_rates_by_room.png"
CHARTS = ["draw_rates_by_room", "draw_rates_by_year", "fu_histogram", "han_histogram", "tenpai_at_draw"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MIN_PNG_BYTES = 5_000
MIN_COLOURS = 16
"""A chart with bars, whiskers, anti-aliased text and captions has hundreds; a blank or broken one a handful."""


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    """data/sample ingested and derived once, as `paipu ingest data/sample` does."""
    warehouse = Warehouse(tmp_path_factory.mktemp("sample") / "warehouse")
    ingest([REPO / "data" / "sample"], warehouse)
    derive(warehouse)
    return connect(warehouse)


@pytest.fixture(params=["tenhou_db", "sample_db"])
def db(request: pytest.FixtureRequest) -> duckdb.DuckDBPyConnection:
    """The real-log warehouse (skipped without ../shared/logs) and the sample's."""
    return request.getfixturevalue(request.param)


def assert_is_a_real_chart(data: bytes, what: str) -> None:
    assert data[:8] == PNG_SIGNATURE, what
    assert len(data) > MIN_PNG_BYTES, (what, len(data))
    image = Image.open(io.BytesIO(data))
    image.verify()  # a truncated or corrupt file raises
    image = Image.open(io.BytesIO(data)).convert("RGB")
    assert image.size == (int(FIGSIZE[0] * DPI), int(FIGSIZE[1] * DPI)), what
    colours = image.getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > MIN_COLOURS, (what, len(colours or []))


# --- charts --------------------------------------------------------------------------------------
def test_write_plots_writes_every_chart_as_a_real_png(db: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    paths = write_plots(db, tmp_path / "charts")
    assert [p.name for p in paths] == [f"{name}.png" for name in CHARTS]
    for path in paths:
        assert path.is_file()
        assert_is_a_real_chart(path.read_bytes(), path.name)


def test_charts_carry_title_axes_n_and_definition(db: duckdb.DuckDBPyConnection) -> None:
    for name, figure in figures(db).items():
        ax = figure.axes[0]
        assert "n = " in ax.get_title(), name
        assert ax.get_xlabel() and "%" in ax.get_ylabel(), name
        caption = "\n".join(text.get_text() for text in figure.texts)
        assert " = " in caption and "/" in caption and "95%" in caption, (name, caption)
        assert len(ax.patches) > 0, f"{name} draws bars"


def test_draw_rate_bars_and_whiskers_are_the_marts_numbers(tenhou_db: duckdb.DuckDBPyConnection) -> None:
    stats = {(s.name, s.group["room"]): s for s in round_outcome_stats(tenhou_db, "room")}
    figure = figures(tenhou_db, "room")["draw_rates_by_room"]
    ax = figure.axes[0]
    rooms = [label.get_text().split("\n")[0] for label in ax.get_xticklabels()]
    assert rooms == ["ippan", "joukyuu", "tokujou", "houou", "private"]  # low to high, then the private lobbies
    heights = [bar.get_height() for bar in ax.patches]
    expected = [
        100 * stats[(name, room)].value for name in ("exhaustive_draw_rate", "abortive_draw_rate") for room in rooms
    ]
    assert heights == pytest.approx(expected)
    houou = stats[("exhaustive_draw_rate", "houou")]
    whiskers = [segment for collection in ax.collections for segment in collection.get_segments()]
    spans = {(round(s[0][1], 6), round(s[1][1], 6)) for s in whiskers}
    assert (round(100 * houou.ci_low, 6), round(100 * houou.ci_high, 6)) in spans


def test_plots_accept_every_chartable_grouping(sample_db: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    assert plot_groupings("all") == ("room", "year")
    assert plot_groupings("year") == ("room", "year")
    assert plot_groupings("source") == ("room", "year", "source")
    if "player" in GROUPINGS:
        assert plot_groupings("player") == ("room", "year")
    with pytest.raises(ValueError):
        plot_groupings("colour")
    paths = write_plots(sample_db, tmp_path, by="source")
    assert paths[0].name == "draw_rates_by_source.png"
    with pytest.raises(ValueError):
        write_plots(sample_db, tmp_path, by=["room", "colour"])


def test_an_unwritable_destination_is_a_clear_error(sample_db: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    a_file = tmp_path / "charts.png"
    a_file.write_bytes(b"")
    with pytest.raises(PaipuError, match="cannot write the charts"):
        write_plots(sample_db, a_file)
    with pytest.raises(PaipuError, match="cannot write the report"):
        write_report(sample_db, a_file / "report.html")


def test_a_warehouse_without_games_still_gets_labelled_charts(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "readme.txt").write_text("not a log", encoding="utf-8")
    warehouse = Warehouse(tmp_path / "warehouse")
    ingest([notes], warehouse)
    con = connect(warehouse)
    paths = write_plots(con, tmp_path / "charts")
    assert len(paths) == len(CHARTS) and all(p.stat().st_size > MIN_PNG_BYTES for p in paths)
    page = write_report(con, tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<td>not_a_log</td>" in page and "0 games, 0 rounds" in page


# --- the tenpai_at_draw mart behind the tenpai chart ---------------------------------------------
def test_tenpai_shares_count_every_exhaustive_draw_once(tenhou_db: duckdb.DuckDBPyConnection) -> None:
    shares = [s for s in mart_stats(tenhou_db, "tenpai_at_draw") if s.name.startswith("tenpai_share_")]
    exhaustive = {s.name: s for s in round_outcome_stats(tenhou_db)}["exhaustive_draw_rate"].numerator
    by_players: dict[str, list] = {}
    for s in shares:
        by_players.setdefault(s.name.split("_")[2], []).append(s)
    assert set(by_players) <= {"4p", "3p"}
    assert sum(group[0].denominator for group in by_players.values()) == exhaustive
    for players, group in by_players.items():
        assert [s.name for s in group] == [f"tenpai_share_{players}_{n}" for n in range(int(players[0]) + 1)]
        assert sum(s.numerator for s in group) == group[0].denominator
    direct = tenhou_db.execute(
        """
        select count(*) from (
            select game_id, round_idx from draw_outcomes join games using (game_id)
            where kind = 'exhaustive' and n_players = 4 group by all having count(*) filter (where is_tenpai) = 2
        )
        """
    ).fetchone()[0]
    assert {s.name: s.numerator for s in shares}["tenpai_share_4p_2"] == direct


# --- the report ----------------------------------------------------------------------------------
def test_report_is_one_self_contained_page_with_every_chart_and_statistic(
    db: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    out = write_report(db, tmp_path / "out" / "report.html")
    assert out == tmp_path / "out" / "report.html"
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.IGNORECASE), "no external assets"
    assert "<link" not in page and "<script" not in page and "@import" not in page
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(images) == len(CHARTS)
    for name, data in zip(CHARTS, images, strict=True):
        assert f'id="chart-{name}"' in page
        assert_is_a_real_chart(base64.b64decode(data), name)
    for mart in sql_names("marts"):
        assert f'id="mart-{mart}"' in page
        for stat in mart_stats(db, mart):
            assert f'<td class="name">{stat.name}</td>' in page, (mart, stat.name)
            assert escape(stat.definition) in page, (mart, stat.name)
    assert "Files by status" in page and "Games and rounds by source" in page
    (n_games,) = db.execute("select count(*) from games").fetchone()
    assert f"{n_games:,} games" in page
    assert 'id="not-derived"' not in page and escape(NOT_DERIVED) not in page  # derived: no banner


def test_report_shows_intervals_and_values_as_people_read_them(
    tenhou_db: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    page = write_report(tenhou_db, tmp_path / "report.html").read_text(encoding="utf-8")
    exhaustive = {s.name: s for s in round_outcome_stats(tenhou_db)}["exhaustive_draw_rate"]
    row = re.search(r'<td class="name">exhaustive_draw_rate</td>(.*?)</tr>', page).group(1)
    assert f"{100 * exhaustive.value:.2f}%" in row
    assert f"{100 * exhaustive.ci_low:.2f}-{100 * exhaustive.ci_high:.2f}%" in row
    assert f"{exhaustive.numerator:,} / {exhaustive.denominator:,}" in row
    assert re.search(r'<td class="name">furiten_passes_per_round</td><td class="num">[\d.]+ per 100 rounds</td>', page)


@pytest.mark.parametrize("pass_warehouse", [False, True])
def test_report_of_an_underived_warehouse_says_not_derived_instead_of_zeros(
    shared_logs: Path, tmp_path: Path, pass_warehouse: bool
) -> None:
    warehouse = Warehouse(tmp_path / "warehouse")
    ingest([shared_logs / "tenhou-xml" / "pantheon"], warehouse, derive=False)  # as `paipu ingest --no-derive`
    con = connect(warehouse)
    n_parts = len(warehouse.table_files("games"))
    assert len(underived_parts(warehouse)) == n_parts > 0
    assert tuple(derived_state(con)) == (n_parts, n_parts)  # read from the connection, as `paipu report` calls it
    out = write_report(con, tmp_path / "report.html", warehouse=warehouse if pass_warehouse else None)
    page = out.read_text(encoding="utf-8")
    banner = re.search(r'<div class="not-derived" id="not-derived">(.*?)</div>', page).group(1)
    assert f"{n_parts} of {n_parts} games parts have no derived tables" in banner
    for mart in DERIVED_MARTS:
        assert mart in banner
        for stat in not_derived_stats(mart):
            row = re.search(rf'<td class="name">{re.escape(stat.name)}</td>(.*?)</tr>', page).group(1)
            assert row.startswith(f'<td class="not-derived-value">{escape(NOT_DERIVED)}</td>'), stat.name
            assert '<td class="num"></td><td class="num"></td>' in row  # no interval, no counts
        for stat in mart_stats(con, mart):  # the zeros the empty derived tables give are not shown
            assert f'<td class="name">{stat.name}</td>' not in page or stat.name in DERIVED_MARTS[mart]
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(images) == len(CHARTS) - len(CHART_MARTS)
    for chart in CHART_MARTS:
        assert re.search(rf'<figure id="chart-{chart}" class="not-derived"><figcaption>[^<]*not derived', page)
    exhaustive = {s.name: s for s in round_outcome_stats(con)}["exhaustive_draw_rate"]
    row = re.search(r'<td class="name">exhaustive_draw_rate</td>(.*?)</tr>', page).group(1)
    assert exhaustive.denominator > 0 and f"{exhaustive.numerator:,} / {exhaustive.denominator:,}" in row
    derive(warehouse)
    page = write_report(connect(warehouse), tmp_path / "derived.html").read_text(encoding="utf-8")
    assert 'id="not-derived"' not in page and len(re.findall("data:image/png", page)) == len(CHARTS)


# --- the README's chart ----------------------------------------------------------------------------
def test_readme_chart_is_a_small_real_png() -> None:
    data = README_CHART.read_bytes()
    assert len(data) < 100_000
    assert_is_a_real_chart(data, README_CHART.name)
