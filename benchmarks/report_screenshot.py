"""Render a paipu report in headless Chromium by hand: a screenshot to look at, and the parts the DOM holds.

Run from the repository root (never a test; tests/test_report_browser.py is the automatic check)::

    python benchmarks/report_screenshot.py                                  # a small warehouse of real logs
    python benchmarks/report_screenshot.py -w data/warehouse --player NAME  # your own warehouse
    python benchmarks/report_screenshot.py --height 12000 --out /tmp/tall.png

Without ``-w`` it ingests and derives ../shared/logs/tenhou-xml/pantheon into a temporary folder. It writes the
report and the screenshot (default /tmp/paipu-report/report.html and report.png: outside the repository),
prints one JSON object (the parts found and missing, the screenshot's colours and ink) and exits 1 when a part is
missing or the screenshot is blank. Needs Chromium (apt-get install chromium, or PAIPU_CHROMIUM) and Pillow.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pipeline.db import connect  # noqa: E402 - after the repository is on the path
from pipeline.derive.run import derive  # noqa: E402
from pipeline.ingest import ingest  # noqa: E402
from pipeline.report import write_report  # noqa: E402
from pipeline.report_browser import blankness, dom_ids, find_chromium, missing_parts, render_in_browser  # noqa: E402
from pipeline.store.warehouse import Warehouse  # noqa: E402

SMALL_LOGS = REPO.parent / "shared" / "logs" / "tenhou-xml" / "pantheon"
"""The real logs of the default warehouse: 23 files of odd cases, a few seconds to ingest and derive."""


def small_warehouse(folder: Path) -> Warehouse:
    """Ingest and derive SMALL_LOGS into ``folder``."""
    warehouse = Warehouse(folder)
    ingest([SMALL_LOGS], warehouse)
    derive(warehouse)
    return warehouse


def main(argv: list[str] | None = None) -> int:
    """Write the report, render it, print what was found; return 1 when a part is missing or the shot is blank."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-w", "--warehouse", type=Path, help="a warehouse (default: a small one of real logs)")
    parser.add_argument("--player", action="append", default=None, help="a player's page (default: the busiest)")
    parser.add_argument("--by", action="append", default=None, help="a grouping's tables (default: room)")
    parser.add_argument("--out", type=Path, default=Path("/tmp/paipu-report/report.png"), help="the screenshot")
    parser.add_argument("--height", type=int, default=2000, help="the window's height in CSS pixels")
    options = parser.parse_args(argv)
    chromium = find_chromium()
    if chromium is None:
        print("chromium not found: apt-get install chromium, or set PAIPU_CHROMIUM", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="paipu-report-") as tmp:
        warehouse = Warehouse(options.warehouse) if options.warehouse else small_warehouse(Path(tmp) / "warehouse")
        con = connect(warehouse)
        players = options.player or [
            con.execute("select name from players group by name order by count(*) desc, name limit 1").fetchone()[0]
        ]
        report = write_report(con, options.out.with_suffix(".html"), options.by or ["room"], warehouse, players)
        rendered = render_in_browser(chromium, report, options.out, (1280, options.height))
    colours, ink = blankness(rendered.screenshot)
    missing = missing_parts(rendered.dom, n_players=len(players))
    result = {
        "report": str(report),
        "screenshot": str(rendered.screenshot),
        "headings": dom_ids(rendered.dom)[1],
        "missing": missing,
        "colours": colours,
        "ink": round(ink, 3),
    }
    print(json.dumps(result, indent=1, ensure_ascii=False))
    return 1 if missing or colours < 64 or ink < 0.05 else 0


if __name__ == "__main__":
    sys.exit(main())
