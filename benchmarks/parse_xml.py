"""Parse time of the Tenhou XML parser over every XML file of ../shared/logs, with a bare ElementTree walk of
the same bytes as the floor (issue 19: the parse in compiled kernels).

Every file is read into memory first; then ``tenhou_xml.parse(data, name)`` is timed over all of them, several
repeats, the best repeat reported as ms per game and games per second. The first call in the process (a numba
kernel's compile or cache load) is timed apart. Files that are not logs or do not parse are left out of both.

    python benchmarks/parse_xml.py [--repeats 5]

benchmarks/parse_formats.py measures every format the same way (files found by content, not by folder).
"""

from __future__ import annotations

import argparse
import gzip
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from pipeline.errors import NotALogError, ParseError

REPO = Path(__file__).resolve().parents[1]
LOGS = REPO.parent / "shared" / "logs"
FOLDERS = ("tenhou-xml", "corpus/tenhou-xml")


def read_logs(logs: Path = LOGS) -> list[tuple[str, bytes]]:
    """(path, bytes) of every file below the Tenhou XML folders of ``logs``, in path order."""
    paths = sorted(p for folder in FOLDERS for p in (logs / folder).rglob("*") if p.is_file())
    return [(str(p), p.read_bytes()) for p in paths]


def first_call_seconds(files: list[tuple[str, bytes]]) -> float:
    """Time of the first parse in this process (imports, and a kernel's compile or cache load, included)."""
    start = time.perf_counter()
    from pipeline.sources import tenhou_xml

    for name, data in files:
        try:
            tenhou_xml.parse(data, name)
            break
        except (NotALogError, ParseError):
            continue
    return time.perf_counter() - start


def parseable(files: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """The files that parse (the others are left out of the timings)."""
    from pipeline.sources import tenhou_xml

    out = []
    for name, data in files:
        try:
            tenhou_xml.parse(data, name)
        except (NotALogError, ParseError):
            continue
        out.append((name, data))
    return out


def time_parse(files: list[tuple[str, bytes]], repeats: int) -> float:
    """Best time (s) over ``repeats`` of parsing every file."""
    from pipeline.sources import tenhou_xml

    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for name, data in files:
            tenhou_xml.parse(data, name)
        best = min(best, time.perf_counter() - start)
    return best


def _walk(data: bytes) -> int:
    """Parse with ElementTree and touch every element's tag and attributes (the DOM floor)."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    root = ET.fromstring(data)
    return sum(len(element.attrib) + len(element.tag) for element in root.iter())


def time_etree(files: list[tuple[str, bytes]], repeats: int) -> float:
    """Best time (s) over ``repeats`` of an ElementTree walk of every file (files it cannot read skipped)."""
    readable = []
    for name, data in files:
        try:
            _walk(data)
        except ET.ParseError:
            continue
        readable.append((name, data))
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _, data in readable:
            _walk(data)
        best = min(best, time.perf_counter() - start)
    return best


def report(what: str, seconds: float, n_games: int) -> None:
    """Print one line: ms per game and games per second."""
    print(f"{what:<28} {1000 * seconds / n_games:8.3f} ms/game {n_games / seconds:10.0f} games/s")


def main() -> None:
    """Run the benchmark and print its lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    files = read_logs()
    first = first_call_seconds(files)
    games = parseable(files)
    megabytes = sum(len(d) for _, d in games) / 1e6
    print(f"{len(games)} games of {len(files)} files ({megabytes:.1f} MB), best of {args.repeats}")
    print(f"first parse in the process    {1000 * first:8.1f} ms (imports and kernel compile or cache load)")
    report("tenhou_xml.parse", time_parse(games, args.repeats), len(games))
    report("ElementTree walk (floor)", time_etree(games, args.repeats), len(games))


if __name__ == "__main__":
    main()
