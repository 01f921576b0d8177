"""Ingest benchmark: games/s and peak memory of `paipu ingest` on a replicated Tenhou XML corpus.

Run by hand from the repository root (not a timed test)::

    python benchmarks/ingest.py --games 10000 50000

For each N it builds a corpus of N distinct games by replicating the complete server-written Tenhou
games of ../shared/logs/tenhou-xml: each copy gets a new log id in its file name, a new SHUFFLE seed, and
every score of the game (each round's starting scores, the scores before each result, the final ones) raised
by the same 100 points per copy of its template (``shifted``), so that its first round, and with it its content
fingerprint, is its own: a new game to paipu, played as the original (copies differing by log id and seed only
are one game since identity is content-based). Every 10th copy is gzip-compressed. It then measures, each in a
fresh subprocess so that peak memory is that run's own:

- ``ingest``: ``pipeline.ingest.ingest`` into an empty warehouse (read, parse, deduplicate, write);
- ``parse only``: ``pipeline.sources.tenhou_xml.parse`` over every file, nothing written;
- ``etree walk``: read, gunzip, ``xml.etree.ElementTree.fromstring``, touch every element's attributes.

All three read the same files from disk (hot in the page cache: they were just written).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE_LOGS = ROOT.parent / "shared" / "logs" / "tenhou-xml"
SEED_PREFIX = b"mt19937ar-sha512-n288-base64,"
LOBBY = "00a9-0000"
GZIP_EVERY = 10
"""Every 10th copy (10%) is written gzip-compressed."""
CORPUS_VERSION = "v3"
"""Part of a kept corpus's folder name: from v3 copies are distinct by content (``shifted``, one template per game)."""

_MJLOGGM = re.compile(rb"<mjloggm[^>]*>")
_SHUFFLE_SEED = re.compile(rb"<SHUFFLE\s[^>]*?\bseed=\"([^\"]*)\"")
_OWARI = re.compile(rb"\bowari=\"[^\"]+\"")
_SCORES = re.compile(rb"(<INIT\b[^>]*?\bten|\bsc|\bowari)=\"([^\"]*)\"")
"""INIT's starting scores (every value a score; AGARI's ``ten`` is the hand's fu and value, not matched), the sc of
AGARI and RYUUKYOKU and the owari (scores at even places), in hundreds of points."""


# --- corpus -----------------------------------------------------------------------------------


def load_templates(folder: Path = SOURCE_LOGS) -> list[tuple[bytes, bytes, bytes]]:
    """Return (head, seed rest, tail) of every complete server-written game below ``folder``.

    A copy is ``head + SEED_PREFIX + unique tag + seed rest + tail``. Kept: an mjlog with an ``owari``
    that has values and a SHUFFLE seed that starts with mt19937ar or is empty or absent (an absent
    SHUFFLE element is inserted right after the ``<mjloggm ...>`` tag).
    """
    templates = []
    seen: set[str] = set()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        root = _MJLOGGM.search(data)
        if root is None or not _OWARI.search(data) or not _first_copy(data, path, seen):
            continue
        seed = _SHUFFLE_SEED.search(data)
        if seed is None:
            head, rest, tail = data[: root.end()] + b'<SHUFFLE seed="', b"", b'" ref=""/>' + data[root.end() :]
        elif seed.group(1) == b"" or seed.group(1).startswith(b"mt19937ar"):
            value = seed.group(1)
            rest = value[len(SEED_PREFIX) :] if value.startswith(SEED_PREFIX) else b""
            head, tail = data[: seed.start(1)], data[seed.end(1) :]
        else:
            continue
        templates.append((head, rest, tail))
    return templates


def _first_copy(data: bytes, path: Path, seen: set[str]) -> bool:
    """Whether the log is the first copy of its game met (its content fingerprint added to ``seen``): the folder
    holds some games twice (re-indented, anonymised), whose copies would be duplicates of each other."""
    from pipeline.identity import identify  # noqa: PLC0415 - the builder alone needs paipu
    from pipeline.sources import tenhou_xml  # noqa: PLC0415

    try:
        fingerprints = {identify(game).fingerprint for game in tenhou_xml.parse(data, str(path))}
    except Exception:  # noqa: BLE001 - a log paipu cannot read is no template
        return False
    if not fingerprints or fingerprints & seen:
        return False
    seen.update(fingerprints)
    return True


def log_id(i: int) -> str:
    """Return a unique Tenhou log id for copy ``i``; years 2030-2034 in turn, hours spread in the year."""
    year = 2030 + i % 5
    start = datetime(year, 1, 1) + timedelta(hours=(i // 5) % 8760)
    return f"{start:%Y%m%d%H}gm-{LOBBY}-{i:08x}"


def shifted(document: bytes, hundreds: int) -> bytes:
    """The mjlog document with every score raised by ``hundreds`` x 100 points: INIT's ``ten``, the scores before
    each result in ``sc`` and the final scores of ``owari`` (the changes and the owari's game points as they
    are). The play is the same; the first round's scores, part of the content fingerprint, are not."""

    def shift(match: re.Match[bytes]) -> bytes:
        values = match.group(2).split(b",")
        step = 1 if match.group(1).endswith(b"ten") else 2  # sc and owari: score, change (or points), score, ...
        for k in range(0, len(values), step):
            values[k] = str(int(values[k]) + hundreds).encode()
        return match.group(1) + b'="' + b",".join(values) + b'"'

    return _SCORES.sub(shift, document) if hundreds else document


def build_corpus(folder: Path, n_games: int, templates: list[tuple[bytes, bytes, bytes]]) -> int:
    """Write ``n_games`` distinct games below ``folder`` (one subfolder per year); return bytes written."""
    written = 0
    made: set[Path] = set()
    for i in range(n_games):
        head, rest, tail = templates[i % len(templates)]
        name = log_id(i)
        data = b"".join((head, SEED_PREFIX, b"paipubench", f"{i:08x}".encode(), rest, tail))
        data = shifted(data, i // len(templates))  # the k-th copy of a template: every score + k x 100
        if i % GZIP_EVERY == GZIP_EVERY - 1:
            data = gzip.compress(data, compresslevel=6, mtime=0)
        sub = folder / name[:4]
        if sub not in made:
            sub.mkdir(parents=True, exist_ok=True)
            made.add(sub)
        (sub / f"{name}.mjlog").write_bytes(data)
        written += len(data)
    return written


def corpus_for(work: Path, n_games: int, templates: list[tuple[bytes, bytes, bytes]]) -> Path:
    """Return the corpus folder of ``n_games`` below ``work``, building it unless a finished one is there."""
    folder = work / f"corpus-{CORPUS_VERSION}-{n_games}"
    done = work / f"corpus-{CORPUS_VERSION}-{n_games}.done"
    if done.is_file():
        print(f"N={n_games}: reusing the corpus in {folder}", flush=True)
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    start = time.perf_counter()
    size = build_corpus(folder, n_games, templates)
    done.write_text(f"{n_games}\n")
    print(
        f"N={n_games}: built {n_games} files ({size / 2**20:.0f} MB) in {time.perf_counter() - start:.1f} s",
        flush=True,
    )
    return folder


# --- measured children (each runs in its own process) ---------------------------------------------


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _peak_rss_mb() -> float:
    """Peak RSS of this process (and of any process it waited for), in MB; ru_maxrss is kB on Linux."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 1024


def _files(corpus: Path) -> list[Path]:
    return sorted(p for p in corpus.rglob("*") if p.is_file())


def run_ingest(corpus: Path, warehouse: Path, batch_size: int) -> dict:
    """Ingest ``corpus`` into an empty ``warehouse``; return the measurements."""
    import pyarrow.parquet as pq

    from pipeline.ingest import ingest
    from pipeline.store.warehouse import Warehouse

    shutil.rmtree(warehouse, ignore_errors=True)
    n_files = sum(1 for _ in _files(corpus))
    every = max(1, n_files // 10)
    curve: list[tuple[int, float, float]] = []
    seen = 0

    def on_file(_: int) -> None:
        nonlocal seen
        seen += 1
        if seen % every == 0:
            curve.append((seen, round(time.perf_counter() - wall, 1), round(_rss_mb(), 1)))

    rss_start = _rss_mb()
    cpu, wall = _cpu_seconds(), time.perf_counter()
    report = ingest([corpus], Warehouse(warehouse), batch_size=batch_size, on_file=on_file)
    wall, cpu = time.perf_counter() - wall, _cpu_seconds() - cpu
    games_rows = sum(pq.ParquetFile(p).metadata.num_rows for p in Warehouse(warehouse).table_files("games"))
    parquet = list(warehouse.rglob("*.parquet"))
    return {
        "games": report.games,
        "rounds": report.rounds,
        "wall_s": wall,
        "cpu_s": cpu,
        "peak_rss_mb": _peak_rss_mb(),
        "start_rss_mb": rss_start,
        "rss_curve": curve,
        "files": report.files,
        "problems": report.problems[:10],
        "games_table_rows": games_rows,
        "parquet_files": len(parquet),
        "warehouse_mb": sum(p.stat().st_size for p in parquet) / 2**20,
    }


def run_parse(corpus: Path) -> dict:
    """Parse every file of ``corpus`` with the Tenhou XML parser, writing nothing."""
    from pipeline.errors import ParseError
    from pipeline.sources.tenhou_xml import parse

    games = rounds = errors = 0
    rss_start = _rss_mb()
    cpu, wall = _cpu_seconds(), time.perf_counter()
    for path in _files(corpus):
        try:
            parsed = parse(path.read_bytes(), str(path))
        except ParseError:
            errors += 1
            continue
        games += len(parsed)
        rounds += sum(g.n_rounds for g in parsed)
    wall, cpu = time.perf_counter() - wall, _cpu_seconds() - cpu
    return {
        "games": games,
        "rounds": rounds,
        "errors": errors,
        "wall_s": wall,
        "cpu_s": cpu,
        "peak_rss_mb": _peak_rss_mb(),
        "start_rss_mb": rss_start,
    }


def run_etree(corpus: Path) -> dict:
    """Read, gunzip and ElementTree-parse every file of ``corpus``, touching every element's attributes."""
    import xml.etree.ElementTree as ET

    games = n_attributes = 0
    rss_start = _rss_mb()
    cpu, wall = _cpu_seconds(), time.perf_counter()
    for path in _files(corpus):
        data = path.read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        for element in ET.fromstring(data).iter():
            n_attributes += len(element.attrib)
        games += 1
    wall, cpu = time.perf_counter() - wall, _cpu_seconds() - cpu
    return {
        "games": games,
        "attributes": n_attributes,
        "wall_s": wall,
        "cpu_s": cpu,
        "peak_rss_mb": _peak_rss_mb(),
        "start_rss_mb": rss_start,
    }


def measure(*args: str) -> dict:
    """Run this script with ``args`` in a fresh interpreter; return the JSON it prints last."""
    command = [sys.executable, str(Path(__file__).resolve()), *args]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- report ---------------------------------------------------------------------------------------

HEADER = ("N", "run", "games", "wall s", "CPU s", "games/s (wall)", "games/s per core", "peak RSS MB")


def table_row(n_games: int, name: str, result: dict) -> tuple[str, ...]:
    games, wall, cpu = result["games"], result["wall_s"], result["cpu_s"]
    return (
        f"{n_games:,}",
        name,
        f"{games:,}",
        f"{wall:.1f}",
        f"{cpu:.1f}",
        f"{games / wall:,.0f}",
        f"{games / cpu:,.0f}",
        f"{result['peak_rss_mb']:,.0f}",
    )


def print_table(rows: list[tuple[str, ...]]) -> None:
    """Print a Markdown table (pastes straight into benchmarks/README.md)."""
    widths = [max(len(r[i]) for r in (HEADER, *rows)) for i in range(len(HEADER))]
    line = "| " + " | ".join(h.ljust(w) for h, w in zip(HEADER, widths, strict=True)) + " |"
    print(line)
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        cells = (c.ljust(w) if i == 1 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
        print("| " + " | ".join(cells) + " |")


def print_ingest_details(n_games: int, result: dict) -> None:
    """Print what the ingest reported besides the timings (statuses, problems, memory over time)."""
    print(
        f"N={n_games:,} ingest: files {result['files']}, rounds {result['rounds']:,}, "
        f"games table rows {result['games_table_rows']:,}, {result['parquet_files']} Parquet files "
        f"({result['warehouse_mb']:.0f} MB); RSS at start {result['start_rss_mb']:.0f} MB"
    )
    print(
        "  while reading (files read: seconds, RSS MB): "
        + ", ".join(f"{n}: {s:.0f} s {mb:.0f} MB" for n, s, mb in result["rss_curve"])
    )
    if result["games"] != n_games:
        print(f"  ! expected {n_games:,} games stored, got {result['games']:,}")
    for path, status, error in result["problems"]:
        print(f"  ! {status}: {path}: {error}")


def print_targets(ingests: dict[int, dict]) -> None:
    """Say whether the issue's targets are met."""
    per_core = {n: r["games"] / r["cpu_s"] for n, r in ingests.items()}
    worst = min(per_core.values())
    print(
        f"target 300+ games/s per core: {'met' if worst >= 300 else 'NOT met'} (lowest {worst:,.0f}); "
        f"aim 1,000: {'met' if worst >= 1000 else 'not met'}"
    )
    peaks = {n: r["peak_rss_mb"] for n, r in sorted(ingests.items())}
    top = max(peaks.values())
    low_n, high_n = min(peaks), max(peaks)
    growth = peaks[high_n] / peaks[low_n] - 1
    flat = growth <= 0.10 and len(peaks) > 1
    print(
        f"target peak memory flat (within 10%) and under 1 GB: {'met' if flat and top < 1024 else 'NOT met'} "
        f"({', '.join(f'N={n:,}: {mb:,.0f} MB' for n, mb in peaks.items())}; {growth:+.0%} "
        f"from N={low_n:,} to N={high_n:,})"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 50_000], help="corpus sizes N")
    parser.add_argument("--batch-size", type=int, default=2000, help="ingest batch size (files)")
    parser.add_argument("--keep", type=Path, help="build corpora and warehouses here and keep them (else a temp dir)")
    parser.add_argument("--no-baselines", action="store_true", help="measure the ingest only")
    parser.add_argument("--json", type=Path, help="also write all measurements to this JSON file")
    parser.add_argument("--run-one", nargs=2, type=Path, metavar=("CORPUS", "WAREHOUSE"), help=argparse.SUPPRESS)
    parser.add_argument("--run-baseline", nargs=2, metavar=("KIND", "CORPUS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run_one:
        print(json.dumps(run_ingest(*args.run_one, args.batch_size)))
        return
    if args.run_baseline:
        kind, corpus = args.run_baseline
        print(json.dumps({"parse": run_parse, "etree": run_etree}[kind](Path(corpus))))
        return
    templates = load_templates()
    print(f"templates: {len(templates)} complete server-written games from {SOURCE_LOGS}", flush=True)
    if not templates:
        sys.exit("no template games found")
    with tempfile.TemporaryDirectory(prefix="paipu-bench-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        run(work, sorted(args.games), templates, args)


def run(work: Path, sizes: list[int], templates: list, args: argparse.Namespace) -> None:
    """Build each corpus, measure ingest and baselines, print the table and the targets."""
    rows, ingests, everything = [], {}, {}
    for n_games in sizes:
        corpus = corpus_for(work, n_games, templates)
        results = {
            "ingest": measure(
                "--run-one", str(corpus), str(work / f"warehouse-{n_games}"), "--batch-size", str(args.batch_size)
            )
        }
        print_ingest_details(n_games, results["ingest"])
        if not args.no_baselines:
            results["parse only"] = measure("--run-baseline", "parse", str(corpus))
            results["etree walk"] = measure("--run-baseline", "etree", str(corpus))
        rows += [table_row(n_games, name, result) for name, result in results.items()]
        ingests[n_games] = results["ingest"]
        everything[n_games] = results
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"\n{datetime.now():%Y-%m-%d}, {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
        f"batch size {args.batch_size}, {len(templates)} templates, load average now {load}\n"
    )
    print_table(rows)
    print()
    print_targets(ingests)
    if args.json:
        args.json.write_text(json.dumps(everything, indent=1))


if __name__ == "__main__":
    main()
