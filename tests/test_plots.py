"""Charts (pipeline.plots) and the HTML report (pipeline.report), over the real logs and the bundled sample.

Each chart must be a real picture (a valid PNG of the expected size, several KB, many colours; SVG and PDF files
of the same charts; PNG at the resolution asked), every chart of one kind labelled alike, and the charts of the
rules layer left out of a warehouse not derived (never drawn as zeros); the report one self-contained page holding
every chart and every statistic of every mart (its other parts: tests/test_report.py).
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
from pipeline.plots import (
    CHART_KINDS,
    CHART_MARTS,
    DPI,
    FIGSIZE,
    WHISKERS,
    figure_bytes,
    figures,
    left_out_charts,
    plot_format,
    plot_groupings,
    plot_paths,
    write_plots,
)
from pipeline.report import derived_state, write_report
from pipeline.report_data import chart_footnote, provenance
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
def sample_warehouse(tmp_path_factory: pytest.TempPathFactory) -> Warehouse:
    """data/sample ingested and derived once, as `paipu ingest data/sample` does."""
    warehouse = Warehouse(tmp_path_factory.mktemp("sample") / "warehouse")
    ingest([REPO / "data" / "sample"], warehouse)
    derive(warehouse)
    return warehouse


@pytest.fixture(scope="module")
def sample_db(sample_warehouse: Warehouse) -> duckdb.DuckDBPyConnection:
    """A connection over the sample's warehouse."""
    return connect(sample_warehouse)


@pytest.fixture(params=["tenhou_db", "sample_db"])
def db(request: pytest.FixtureRequest) -> duckdb.DuckDBPyConnection:
    """The real-log warehouse (skipped without ../shared/logs) and the sample's."""
    return request.getfixturevalue(request.param)


@pytest.fixture(scope="module")
def underived_sample(tmp_path_factory: pytest.TempPathFactory) -> Warehouse:
    """data/sample ingested without its derived tables, as `paipu ingest --no-derive data/sample` does."""
    warehouse = Warehouse(tmp_path_factory.mktemp("underived") / "warehouse")
    ingest([REPO / "data" / "sample"], warehouse, derive=False)
    return warehouse


def assert_is_a_real_chart(data: bytes, what: str, dpi: int = DPI) -> None:
    assert data[:8] == PNG_SIGNATURE, what
    assert len(data) > MIN_PNG_BYTES, (what, len(data))
    image = Image.open(io.BytesIO(data))
    image.verify()  # a truncated or corrupt file raises
    image = Image.open(io.BytesIO(data)).convert("RGB")
    assert image.size == (round(FIGSIZE[0] * dpi), round(FIGSIZE[1] * dpi)), what
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
    for target in (a_file / "charts", a_file / "figure.svg"):  # a folder below a file
        with pytest.raises(PaipuError, match="cannot write the charts"):
            write_plots(sample_db, target)
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


# --- formats and resolution ----------------------------------------------------------------------
def test_the_suffix_of_the_target_chooses_the_format(sample_db: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    svgs = write_plots(sample_db, tmp_path / "paper" / "fig.svg")
    assert [p.name for p in svgs] == [f"fig_{name}.svg" for name in CHARTS]
    pdfs = write_plots(sample_db, tmp_path / "fig.PDF")
    assert [p.name for p in pdfs] == [f"fig_{name}.PDF" for name in CHARTS]
    for svg, pdf in zip(svgs, pdfs, strict=True):
        text = svg.read_text(encoding="utf-8")
        assert text.startswith("<?xml") and "<svg" in text and "</svg>" in text and "<image" not in text  # vector
        data = pdf.read_bytes()
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF") and len(data) > MIN_PNG_BYTES
    folder = tmp_path / "charts.v2"
    folder.mkdir()  # an existing folder is a folder whatever its name
    assert [p.parent for p in write_plots(sample_db, folder)] == [folder] * len(CHARTS)
    assert plot_format(tmp_path / "charts") is None and plot_format(tmp_path / "f.png") == "png"
    for bad in ("fig.jpg", "fig.svgz", "report.html"):
        with pytest.raises(ValueError, match=r"\.png, \.svg or \.pdf"):
            write_plots(sample_db, tmp_path / bad)
        assert not (tmp_path / bad).exists()


def test_png_charts_are_drawn_at_the_dpi_asked(sample_db: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    (low,) = [p for p in write_plots(sample_db, tmp_path / "low.png", by="room", dpi=72) if "room" in p.name]
    (high,) = [p for p in write_plots(sample_db, tmp_path / "high", by="room", dpi=300) if "room" in p.name]
    assert_is_a_real_chart(low.read_bytes(), low.name, dpi=72)
    assert_is_a_real_chart(high.read_bytes(), high.name, dpi=300)
    assert Image.open(high).size == (2400, 1500)
    with pytest.raises(ValueError, match="dpi"):
        figure_bytes(figures(sample_db, "room")["draw_rates_by_room"], "png", dpi=0)


def test_vector_charts_are_the_same_bytes_every_time(sample_db: duckdb.DuckDBPyConnection) -> None:
    figure = figures(sample_db, "room")["draw_rates_by_room"]
    for fmt in ("svg", "pdf", "png"):
        assert figure_bytes(figure, fmt) == figure_bytes(figure, fmt), fmt  # no date, no random ids
    pdf = figure_bytes(figure, "pdf")
    assert b"/FontFile2" in pdf and b"/Type3" not in pdf  # TrueType fonts embedded, as journals want


def test_plot_paths_name_each_chart_after_the_target(tmp_path: Path) -> None:
    assert plot_paths(tmp_path / "out", ["a"]) == {"a": tmp_path / "out" / "a.png"}
    assert plot_paths(tmp_path / "fig.pdf", ["a", "b"]) == {"a": tmp_path / "fig_a.pdf", "b": tmp_path / "fig_b.pdf"}


# --- every chart of one kind labelled alike --------------------------------------------------------
def chart_kind(name: str) -> str:
    return (
        "draw_rates"
        if name.startswith("draw_rates_by_")
        else "tenpai"
        if name == "tenpai_at_draw"
        else "share_histogram"
    )


TITLES = {
    "draw_rates": r"Exhaustive and abortive draws( by (room|year|source|length|mode))? \(n = [\d,]+ rounds?\)",
    "share_histogram": r"(Fu|Han) of wins \(n = [\d,]+ wins?\)",
    "tenpai": r"Tenpai seats at exhaustive draws \(n = [\d,]+ exhaustive draws?\)",
}


def test_every_chart_of_one_kind_is_labelled_alike(db: duckdb.DuckDBPyConnection) -> None:
    charts = figures(db, ["all", "room", "year", "source", "length", "mode"])
    footnote = chart_footnote(provenance(db))
    n_games = db.execute("select count(*) from games").fetchone()[0]
    assert footnote.startswith(f"Data: {n_games:,} games (") and "played " in footnote and "paipu " in footnote
    labels: dict[str, set[str]] = {}
    for name, figure in charts.items():
        kind = chart_kind(name)
        ax = figure.axes[0]
        assert re.fullmatch(TITLES[kind], ax.get_title()), (name, ax.get_title())
        labels.setdefault(kind, set()).add(ax.get_ylabel())
        texts = [t.get_text() for t in figure.texts]
        assert texts[-1] == footnote, name  # the same footnote on every chart: the data it counts
        assert texts[-2].endswith(CHART_KINDS[kind].legend) and WHISKERS in texts[-2], name
        n_bars = sum(1 for bar in ax.patches if bar.get_height() > 0)
        whiskers = [seg for collection in ax.collections for seg in collection.get_segments()]
        assert len(whiskers) >= n_bars > 0, name  # a whisker for every bar
    assert {kind: ylabels for kind, ylabels in labels.items()} == {
        kind: {spec.ylabel} for kind, spec in CHART_KINDS.items()
    }
    xlabels = {charts[f"draw_rates_by_{g}"].axes[0].get_xlabel() for g in ("room", "year", "source")}
    assert xlabels == {"room", "year played", "source format"}


# --- not derived: left out, never zeros ----------------------------------------------------------
def test_an_underived_warehouse_gets_no_chart_of_the_rules_layer(underived_sample: Warehouse, tmp_path: Path) -> None:
    con = connect(underived_sample)
    assert not derived_state(con).is_derived
    assert list(figures(con)) == ["draw_rates_by_room", "draw_rates_by_year"]  # read from the connection
    assert left_out_charts(False) == list(CHART_MARTS) and left_out_charts(True) == []
    paths = write_plots(con, tmp_path / "charts")
    assert sorted(p.name for p in paths) == ["draw_rates_by_room.png", "draw_rates_by_year.png"]
    assert sorted(p.name for p in (tmp_path / "charts").iterdir()) == sorted(p.name for p in paths)
    for path in paths:
        assert_is_a_real_chart(path.read_bytes(), path.name)
    assert list(figures(con, "room", derived=True))[-3:] == list(CHART_MARTS)  # a caller may still ask for them


def test_stats_plot_of_an_underived_warehouse_says_so_and_exits_5(underived_sample: Warehouse, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pipeline.cli import app

    result = CliRunner().invoke(app, ["stats", "-w", str(underived_sample.root), "--plot", str(tmp_path / "f.svg")])
    assert result.exit_code == 5, result.output
    assert "charts: 2 SVG files written" in result.output
    assert f"{', '.join(CHART_MARTS)} not drawn: {NOT_DERIVED}" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f_draw_rates_by_room.svg", "f_draw_rates_by_year.svg"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--plot", "charts.jpg"], "--plot: charts are written as .png, .svg or .pdf"),
        (["--dpi", "300"], "--dpi sets the resolution of --plot's charts"),
        (["--plot", "charts", "--dpi", "5"], "--dpi"),
    ],
)
def test_stats_plot_options_are_checked_first(tmp_path: Path, args: list[str], message: str) -> None:
    from typer.testing import CliRunner

    from pipeline.cli import app

    warehouse = tmp_path / "w"
    ingest([REPO / "data" / "sample" / "README.md"], Warehouse(warehouse))
    result = CliRunner().invoke(
        app, ["stats", "-w", str(warehouse), *[a.replace("charts", str(tmp_path / "c")) for a in args]]
    )
    assert result.exit_code == 2 and message in result.output, result.output
    assert not list(tmp_path.glob("c*"))


def test_stats_plot_writes_pngs_at_the_dpi_asked(sample_warehouse: Warehouse, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pipeline.cli import app

    warehouse = sample_warehouse
    result = CliRunner().invoke(
        app, ["stats", "-w", str(warehouse.root), "--plot", str(tmp_path / "c"), "--dpi", "150"]
    )
    assert result.exit_code == 0, result.output
    assert "charts: 5 PNG files written into" in result.output
    for name in CHARTS:
        assert Image.open(tmp_path / "c" / f"{name}.png").size == (1200, 750)


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
