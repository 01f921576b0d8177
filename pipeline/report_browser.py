"""The report as a real browser renders it: headless Chromium's screenshot and DOM of a report file.

Used by tests/test_report_browser.py and benchmarks/report_screenshot.py to check that what a reader sees holds
the report's parts (REQUIRED_PARTS); never by the CLI. Chromium runs with no network, no profile of its own
(a temporary one), no GPU, no sandbox (containers run as root):

    from pipeline.report_browser import find_chromium, render_in_browser
    rendered = render_in_browser(find_chromium(), Path("report.html"), Path("shot.png"))
    missing_parts(rendered.dom)     # [] when the TOC, provenance, checks, audit... are in the rendered page
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import NamedTuple

CHROMIUM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
"""Where Debian's chromium (apt-get install chromium) and its cousins live."""

CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
)  # fmt: skip
"""Headless, offline and quiet: no sandbox (root in a container), no GPU, no background network traffic."""

WINDOW = (1280, 2000)
"""The screenshot's size in CSS pixels."""

TIMEOUT_S = 120
"""Seconds one Chromium run may take before it is killed."""

REQUIRED_PARTS = {
    "toc": "table of contents",
    "provenance": "provenance",
    "checks": "invariant checks",
    "audit": "audit",
    "charts": "charts",
    "statistics": "statistics",
}
"""Element ids every report has, with what they hold; a report asked for players also has player-1, ..."""


class Rendered(NamedTuple):
    """What Chromium made of a report: the screenshot's path and the DOM after rendering (serialised)."""

    screenshot: Path
    dom: str


def find_chromium() -> Path | None:
    """The Chromium executable: $PAIPU_CHROMIUM, else the first of CHROMIUM_PATHS or ``chromium`` on PATH that
    exists; None when there is none."""
    candidates = [os.environ.get("PAIPU_CHROMIUM", ""), *CHROMIUM_PATHS, shutil.which("chromium") or ""]
    return next((Path(c) for c in candidates if c and Path(c).is_file()), None)


def render_in_browser(chromium: Path, report: Path, screenshot: Path, window: tuple[int, int] = WINDOW) -> Rendered:
    """Open ``report`` in headless Chromium: write its screenshot (``window`` CSS pixels) to ``screenshot`` and
    return it with the rendered DOM. Raises RuntimeError when Chromium fails or writes no screenshot."""
    url = Path(report).resolve().as_uri()
    screenshot = Path(screenshot).resolve()
    screenshot.parent.mkdir(parents=True, exist_ok=True)
    size = f"--window-size={window[0]},{window[1]}"
    _run_chromium(chromium, [f"--screenshot={screenshot}", size, url])
    if not screenshot.is_file() or screenshot.stat().st_size == 0:
        raise RuntimeError(f"chromium wrote no screenshot to {screenshot}")
    dom = _run_chromium(chromium, ["--dump-dom", size, url])
    return Rendered(screenshot, dom)


def _run_chromium(chromium: Path, args: list[str]) -> str:
    """Run Chromium once with a fresh temporary profile; return its stdout. Raises RuntimeError on failure."""
    with tempfile.TemporaryDirectory(prefix="paipu-chromium-") as profile:
        command = [str(chromium), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired as exc:
            raise RuntimeError(f"chromium took more than {TIMEOUT_S} s: {' '.join(command)}") from exc
    if done.returncode != 0:
        tail = (done.stderr or "").strip().splitlines()[-3:]
        raise RuntimeError(f"chromium exited {done.returncode}: {' | '.join(tail)}")
    return done.stdout


class _Ids(HTMLParser):
    """Collects the id of every element, and the text of each h2."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.headings: list[str] = []
        self._in_h2 = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.update(value for name, value in attrs if name == "id" and value)
        self._in_h2 = self._in_h2 or tag == "h2"
        if tag == "h2":
            self.headings.append("")

    def handle_endtag(self, tag: str) -> None:
        self._in_h2 = self._in_h2 and tag != "h2"

    def handle_data(self, data: str) -> None:
        if self._in_h2:
            self.headings[-1] += data


def dom_ids(dom: str) -> tuple[set[str], list[str]]:
    """The ids of the elements of a serialised DOM, and the text of its h2 headings in order."""
    parser = _Ids()
    parser.feed(dom)
    return parser.ids, [h.strip() for h in parser.headings]


def missing_parts(dom: str, n_players: int = 0) -> list[str]:
    """The ids of REQUIRED_PARTS (and player-1 ... player-N) the rendered DOM lacks; [] when it has them all."""
    ids, _ = dom_ids(dom)
    wanted = [*REQUIRED_PARTS, *(f"player-{i}" for i in range(1, n_players + 1))]
    return [part for part in wanted if part not in ids]


def blankness(screenshot: Path) -> tuple[int, float]:
    """How blank a screenshot is: its number of distinct colours and the share of its pixels that are not
    white. Needs Pillow (a test dependency)."""
    from PIL import Image  # noqa: PLC0415 - Pillow is not a runtime dependency

    with Image.open(screenshot) as image:
        rgb = image.convert("RGB")
        colours = rgb.getcolors(maxcolors=1 << 20) or []
        white = sum(n for n, colour in colours if colour == (255, 255, 255))
        return len(colours), 1 - white / (rgb.width * rgb.height)
