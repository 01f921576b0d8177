"""The notebooks run top to bottom on the bundled sample: in a Jupyter kernel (jupytext + nbclient), and as plain
Python scripts. They need no real logs, so these tests never skip.

Each notebook prints what it shows: every table and chart cell prints a ``## title`` and, run as a script, the
table (or the numbers the chart draws); no cell ends in a bare expression a script would drop. The script test
checks the printed titles and, against direct queries of the same warehouse, some of the printed numbers."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import jupytext
import pytest
from nbclient import NotebookClient

from pipeline.db import connect
from pipeline.store.warehouse import Warehouse

pytestmark = pytest.mark.e2e  # every notebook executed

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.py"))
SHOWING_CHARTS = {"02_draws.py", "04_fu_and_scoring.py", "05_placements_and_styles.py"}
CELL_TIMEOUT = 120
"""Seconds one cell may take (the slowest, an ingest of the sample, takes a few)."""
MIN_GAMES = 5
"""PAIPU_MIN_GAMES for notebook 05 (its default): the sample's players have 1 to 9 games in a mode."""
MARKER = "==== notebook "
"""What the script runner prints before each notebook's output."""

PRINTED = {
    "01_ingest_and_tour.py": [
        "Ingest and derive", "Rows per table", "Files by status (manifest)", "The first games", "How rounds end",
        "Events by action", "Draws by kind", "Five wins", "Seats at the first draws (draw_outcomes)",
        "The top of marts/round_outcomes.sql", "The round_outcomes mart",
    ],
    "02_draws.py": [
        "Three definitions of the exhaustive-draw rate", "Direct count of the draws table", "Abortive draws by kind",
        "Draw rates by room (the chart's bars)", "Draw rates by year (the chart's bars)",
        "The three definitions by year", "Tenpai seats at exhaustive draws (the chart's bars)",
    ],
    "03_furiten_and_karaten.py": [
        "The rules layer's rates", "Furiten intervals by kind", "Winning tiles let go",
        "Rons and furiten (win_checks)", "Karaten at exhaustive draws", "The audit: derived against recorded",
    ],
    "04_fu_and_scoring.py": [
        "fu of wins (the histogram's bars)", "han of wins (the histogram's bars)", "Fu by component",
        "Components add up to the fu", "Derived against recorded", "Fu and points by wait", "Wins by limit",
    ],
    "05_placements_and_styles.py": [
        "Placements per player and mode", "The field's style per mode (every seat)", "Style per player and mode",
        "Rank distribution by room and mode", "Win and deal-in rates per player and mode (the chart's points)",
    ],
}  # fmt: skip
"""The titles (or their beginnings) each notebook prints, in order."""


def test_the_numbered_notebooks_are_there_as_percent_scripts() -> None:
    assert [p.name for p in NOTEBOOKS] == [*PRINTED]
    for path in NOTEBOOKS:
        text = path.read_text(encoding="utf-8")
        assert "format_name: percent" in text and text.count("# %%") >= 5, path.name
        assert "from pipeline" in text, f"{path.name} uses the library"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_executes_in_a_kernel(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PAIPU_WAREHOUSE", "PAIPU_MIN_GAMES"):  # the kernel inherits the environment: use the sample
        monkeypatch.delenv(name, raising=False)
    notebook = jupytext.read(path)
    client = NotebookClient(
        notebook, timeout=CELL_TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(REPO)}}
    )
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    outputs = [o for cell in cells for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert not [o for o in outputs if o.get("output_type") == "execute_result"], "a bare expression: not printed"
    assert any("text/html" in o.get("data", {}) for o in outputs), "tables are displayed"
    for cell in cells:  # whatever a cell shows, it prints a title for
        shown = [o for o in cell.get("outputs", []) if o.get("output_type") == "display_data"]
        printed = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")
        assert not shown or "## " in printed, f"a cell of {path.name} shows without printing: {cell.source[:80]}"
    printed = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert titles(printed) == titles_expected(path.name, printed)
    if path.name in SHOWING_CHARTS:
        assert any("image/png" in o.get("data", {}) for o in outputs), "charts are shown inline"


def test_notebooks_run_as_plain_python_on_a_given_warehouse(script_output: dict[str, str]) -> None:
    """As scripts, from another folder, reading PAIPU_WAREHOUSE: each prints its titles, each with a table."""
    assert [*script_output] == [*PRINTED]
    for name, output in script_output.items():
        assert titles(output) == titles_expected(name, output)
        for title, body in sections(output).items():
            assert body.strip(), f"{name}: nothing printed under {title!r}"
            assert "Empty DataFrame" not in body, f"{name}: {title!r} is empty on the sample"


def test_the_printed_draws_are_the_warehouse_counts(script_output: dict[str, str], sample_warehouse: Path) -> None:
    con = connect(Warehouse(sample_warehouse))
    games, rounds = con.execute("select (select count(*) from games), (select count(*) from rounds)").fetchall()[0]
    assert f"games: {games}, rounds: {rounds}" in script_output["01_ingest_and_tour.py"]
    exhaustive = con.execute("select count(*) from draws where kind = 'exhaustive'").fetchall()[0][0]
    three = section(script_output["02_draws.py"], "Three definitions of the exhaustive-draw rate")
    assert re.search(rf"^exhaustive_draw_rate\s+{exhaustive}\s+{rounds}\s", three, re.M), three
    seats = con.execute("select count(*) from draw_outcomes where kind = 'exhaustive'").fetchall()[0][0]
    karaten = section(script_output["03_furiten_and_karaten.py"], "Karaten at exhaustive draws")
    assert karaten.strip().splitlines()[1].split()[0] == str(seats), karaten


def test_the_printed_placements_and_styles_are_the_players(
    script_output: dict[str, str], sample_warehouse: Path
) -> None:
    """Every player and mode with MIN_GAMES games is printed with its average rank and its win and deal-in rates
    as counted here from players and seat_rounds, not from the marts; the rank rates by room are 1/n."""
    output = script_output["05_placements_and_styles.py"]
    con = connect(Warehouse(sample_warehouse))
    expected = player_rows(con)
    assert len(expected) >= 3, "the sample has players with MIN_GAMES games in a mode"
    placements, styles = section(output, "Placements per player and mode"), section(output, "Style per player")
    points = section(output, "Win and deal-in rates per player and mode")
    assert len(points.strip().splitlines()) == 1 + len(expected), points
    for player, mode, games, avg_rank, win_rate, deal_in_rate in expected:
        assert numbers(placements, player, mode)[:2] == pytest.approx([games, avg_rank], abs=0.0006)
        for table in (styles, points):  # games, seat-rounds, win %, deal-in %, ...
            got = numbers(table, player, mode)
            assert got[0] == games and got[2:4] == pytest.approx([100 * win_rate, 100 * deal_in_rate], abs=0.051)
    by_room = section(output, "Rank distribution by room and mode")
    for mode, seats in con.execute(
        "select n_players || 'p_' || if(is_hanchan, 'hanchan', 'tonpuu'), count(*) from players join games "
        "using (game_id) where final_rank is not null and n_players = 4 group by all"
    ).fetchall():
        assert re.search(rf"{mode}\s+{seats}\s+25\.0\s+25\.0\s+25\.0\s+25\.0\s", by_room), (mode, by_room)


def player_rows(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str, int, float, float, float]]:
    """(player, mode, games, average rank, win rate, deal-in rate) of every named player with MIN_GAMES finished games
    in a mode, counted from the players and seat_rounds views."""
    return con.execute(
        """
        with seats as (
            select p.game_id, p.seat, p.name, p.final_rank,
                   g.n_players || 'p_' || if(g.is_hanchan, 'hanchan', 'tonpuu') as mode
            from players as p join games as g using (game_id)
            where p.name not in ('NoName', 'unknown')
        ),
        ranks as (
            select name, mode, count(*) as games, avg(final_rank) as avg_rank
            from seats where final_rank is not null group by all having count(*) >= $min_games
        ),
        rates as (
            select name, mode, avg(r.is_win::int) as win_rate, avg(r.is_deal_in::int) as deal_in_rate
            from seats join seat_rounds as r using (game_id, seat) group by all
        )
        select name, mode, games, avg_rank, win_rate, deal_in_rate from ranks join rates using (name, mode)
        """,
        {"min_games": MIN_GAMES},
    ).fetchall()


def numbers(table: str, player: str, mode: str) -> list[float]:
    """The numbers printed after ``player`` and ``mode`` on their row of a printed table."""
    for line in table.splitlines():
        words = line.split()
        for i in range(len(words) - 1):
            if words[i : i + 2] == [player, mode]:
                return [float(word) for word in words[i + 2 :]]
    raise AssertionError(f"no row of {player} in {mode}:\n{table}")


def titles(output: str) -> list[str]:
    """The ``## title`` lines printed, in order."""
    return re.findall(r"^## (.+)$", output, re.M)


def titles_expected(name: str, output: str) -> list[str]:
    """PRINTED[name] with each title as printed (a printed title may go on after the expected beginning)."""
    printed = titles(output)
    return [next((t for t in printed if t.startswith(prefix)), prefix) for prefix in PRINTED[name]]


def sections(output: str) -> dict[str, str]:
    """What is printed under each ``## title``, up to the next title."""
    parts = re.split(r"^## (.+)$", output, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def section(output: str, prefix: str) -> str:
    """What is printed under the first title beginning with ``prefix``."""
    return next(body for title, body in sections(output).items() if title.startswith(prefix))


@pytest.fixture(scope="module")
def script_output(sample_warehouse: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every notebook run as a script (one interpreter for all: runpy), from another folder, with PAIPU_WAREHOUSE
    the sample warehouse (01 ingests the sample itself): what each printed."""
    runner = (
        "import runpy, sys\nfor path in sys.argv[1:]:\n"
        f"    print({MARKER!r} + path.rsplit('/', 1)[-1], flush=True)\n    runpy.run_path(path, run_name='__main__')\n"
    )
    env = {**os.environ, "PAIPU_WAREHOUSE": str(sample_warehouse), "PAIPU_MIN_GAMES": str(MIN_GAMES)}
    result = subprocess.run(
        [sys.executable, "-c", runner, *map(str, NOTEBOOKS)],
        cwd=tmp_path_factory.mktemp("elsewhere"),
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    parts = result.stdout.split(MARKER)[1:]
    return {part.split("\n", 1)[0]: part.split("\n", 1)[1] for part in parts}


@pytest.fixture(scope="module")
def sample_warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """data/sample ingested and derived once."""
    from pipeline.derive.run import derive
    from pipeline.ingest import ingest

    root = tmp_path_factory.mktemp("sample") / "warehouse"
    ingest([REPO / "data" / "sample"], Warehouse(root))
    derive(Warehouse(root))
    return root
