"""The report as a real browser renders it: headless Chromium's screenshot of a report of real logs is not blank,
and the DOM Chromium built holds the table of contents, provenance, checks, audit, charts, statistics and the
player's page (pipeline.report_browser).

Needs Chromium (Debian: ``apt-get install chromium``; or $PAIPU_CHROMIUM). Without it the test skips, also under
CI: the browser is not a CI requirement, the HTML itself is tested by tests/test_report.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.db import connect
from pipeline.derive.run import derive
from pipeline.ingest import ingest
from pipeline.plots import CHART_MARTS
from pipeline.report import write_report
from pipeline.report_browser import REQUIRED_PARTS, WINDOW, blankness, dom_ids, find_chromium, render_in_browser
from pipeline.store.warehouse import Warehouse

pytestmark = pytest.mark.e2e

MIN_COLOURS = 64
"""Text, links, table rules and the contents box give hundreds of colours; a blank or error page a handful."""
MIN_INK = 0.05
"""Share of the screenshot's pixels that are not white: the top of the report is text and tables."""


@pytest.fixture(scope="module")
def chromium() -> Path:
    """The Chromium executable, or skip (also under CI, which need not install a browser)."""
    found = find_chromium()
    if found is None:
        pytest.skip(
            "chromium not found (apt-get install chromium, or set PAIPU_CHROMIUM); skipped under CI too: the "
            "browser check is optional, tests/test_report.py checks the HTML"
        )
    return found


def test_chromium_renders_every_part_of_the_report(chromium: Path, shared_logs: Path, tmp_path: Path) -> None:
    warehouse = Warehouse(tmp_path / "warehouse")
    ingest([shared_logs / "tenhou-xml" / "pantheon"], warehouse)
    derive(warehouse)
    con = connect(warehouse)
    (player,) = con.execute("select name from players group by name order by count(*) desc, name limit 1").fetchone()
    report = write_report(con, tmp_path / "report.html", ["room"], warehouse, [player])
    rendered = render_in_browser(chromium, report, tmp_path / "report.png")
    from PIL import Image

    with Image.open(rendered.screenshot) as image:
        assert image.size == WINDOW
    colours, ink = blankness(rendered.screenshot)
    assert colours >= MIN_COLOURS and ink >= MIN_INK, (colours, ink)
    ids, headings = dom_ids(rendered.dom)
    assert set(REQUIRED_PARTS) | {"player-1", "by-room"} <= ids, sorted(set(REQUIRED_PARTS) - ids)
    assert headings[:4] == ["Contents", "Provenance", "Invariant checks", "Audit"]
    assert headings[-1] == f"Player: {player}"
    assert rendered.dom.count('<img alt="') == 1 + len(CHART_MARTS)  # draw rates by room, fu, han, tenpai: inline
