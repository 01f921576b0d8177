"""Floor benchmark: what one game costs in each piece of the ingest, against the per-core target, on the same files.

Run by hand from the repository root (never a test)::

    python benchmarks/floor.py                      # 4,000 games of benchmarks/ingest.py's corpus
    python benchmarks/floor.py --games 10000 --repeat 3

The target of issue 8 is 1,000 games/s per core end to end, i.e. 1 ms of CPU per game for reading, parsing,
deriving and writing. This script measures, on one corpus (benchmarks/ingest.py's builder, kept under
--workdir), the CPU milliseconds per game of:

- ``etree walk``: read, gunzip, ``xml.etree.ElementTree.fromstring`` and every element's attributes (the
  yardstick the issue names), and ``parse only``: paipu's Tenhou XML parser over the same files; both are
  benchmarks/ingest.py's children, each in its own process;
- ``ingest, no derive`` and ``ingest + derive``: ``pipeline.ingest.ingest`` in this process, one worker, the
  rules layer's once-per-process lookup tables built beforehand (they do not grow with the archive);
- ``Parquet writing``: every table of the derived warehouse (fact and derived, the manifest aside) read back
  into memory and written again with paipu's writer options (``pipeline.store.parquet.writer_options``: zstd,
  dictionaries and statistics where they pay), and once uncompressed: Arrow's C++ encoder alone, no Python.

It prints them with the ceiling each floor sets: a pipeline that spent nothing but a piece's time per game
could do at most 1,000 / (ms per game) games per CPU second.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # benchmarks/ is not a package: scale.py loads its siblings
import scale  # noqa: E402

DEFAULT_WORKDIR = Path("/tmp/paipu-floor")
TARGET_MS_PER_GAME = 1.0
"""1,000 games/s per core: one CPU millisecond per game, end to end."""


BUILDER = scale.BUILDER
"""benchmarks/ingest.py: the corpus builder and the etree / parse-only children."""
DERIVE = scale.load_sibling("derive")
"""benchmarks/derive.py: the once-per-process lookup tables."""


def cpu_seconds(function: Callable[[], object]) -> float:
    """CPU seconds (this process, user + system) of one call of ``function``, after a garbage collection."""
    gc.collect()
    start = time.process_time()
    function()
    return time.process_time() - start


def ingest_seconds(corpus: Path, warehouse: Path, derive: bool) -> float:
    """CPU seconds of ``pipeline.ingest.ingest`` of ``corpus`` into the empty folder ``warehouse`` (one worker)."""
    from pipeline.ingest import ingest
    from pipeline.store.warehouse import Warehouse

    return cpu_seconds(lambda: ingest([corpus], Warehouse(warehouse), derive=derive, workers=1))


def stored_tables(warehouse: Path) -> dict[str, pa.Table]:
    """Every table of a warehouse (the manifest aside) read back whole, by table name."""
    from pipeline.store.parquet import read_part

    tables = {}
    for folder in sorted(p for p in warehouse.iterdir() if p.is_dir() and p.name != "manifest"):
        parts = sorted(folder.rglob("*.parquet"))
        if parts:
            tables[folder.name] = pa.concat_tables([read_part(part) for part in parts])
    return tables


def writing_seconds(tables: dict[str, pa.Table], scratch: Path, compressed: bool) -> float:
    """CPU seconds of writing every table once with paipu's writer options (or the same, uncompressed)."""
    from pipeline.store.parquet import writer_options

    def write_all() -> None:
        for name, table in tables.items():
            options = writer_options(table.schema)
            if not compressed:
                options["compression"] = "none"
            pq.write_table(table, scratch / f"{name}.parquet", **options)

    return cpu_seconds(write_all)


def measure(corpus: Path, repeat: int) -> dict[str, list[float]]:
    """Every measurement ``repeat`` times, alternating; CPU seconds per run, by measurement."""
    runs: dict[str, list[float]] = {}

    def add(name: str, seconds: float) -> None:
        runs.setdefault(name, []).append(seconds)

    DERIVE.build_tables()
    with tempfile.TemporaryDirectory(prefix="paipu-floor-") as tmp:
        for run in range(repeat):
            for kind, name in (("etree", "etree walk"), ("parse", "parse only")):
                add(name, BUILDER.measure("--run-baseline", kind, str(corpus))["cpu_s"])
            add("ingest, no derive", ingest_seconds(corpus, Path(tmp) / f"plain{run}", derive=False))
            derived = Path(tmp) / f"derived{run}"
            add("ingest + derive", ingest_seconds(corpus, derived, derive=True))
            tables = stored_tables(derived)
            scratch = Path(tmp) / "scratch"
            scratch.mkdir(exist_ok=True)
            add("Parquet writing (zstd)", writing_seconds(tables, scratch, compressed=True))
            add("Parquet writing (uncompressed)", writing_seconds(tables, scratch, compressed=False))
            del tables
    return runs


def report(runs: dict[str, list[float]], games: int) -> str:
    """A Markdown table: median ms per game, every run's, and the ceiling (games per CPU-s) of each floor."""
    lines = ["| piece | ms/game (median) | runs (ms/game) | at most games per CPU-s |", "|---|---|---|---|"]
    for name, seconds in runs.items():
        per_game = [1000 * s / games for s in seconds]
        median = statistics.median(per_game)
        shown = ", ".join(f"{v:.3f}" for v in per_game)
        lines.append(f"| {name} | {median:.3f} | {shown} | {1000 / median:,.0f} |")
    medians = {name: 1000 * statistics.median(s) / games for name, s in runs.items()}
    floor = medians["etree walk"] + medians["Parquet writing (zstd)"]
    lines += [
        "",
        f"An ElementTree-speed parse plus the Parquet writing alone: {floor:.3f} ms/game "
        f"(at most {1000 / floor:,.0f} games per CPU-s, before reading, deriving or converting); "
        f"the target is {TARGET_MS_PER_GAME:.3f} ms/game. paipu end to end: {medians['ingest + derive']:.3f} "
        f"ms/game ({1000 / medians['ingest + derive']:,.0f} games per CPU-s).",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Build (or reuse) the corpus, measure every piece ``--repeat`` times, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4000, help="corpus size (distinct games)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each measurement, alternating")
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR, help="where the corpus is built and kept")
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    corpus = BUILDER.corpus_for(args.workdir, args.games, BUILDER.load_templates())
    runs = measure(corpus, args.repeat)
    print(f"{args.games:,} games of {corpus}, {args.repeat} run(s) of each, CPU time of one process\n")
    print(report(runs, args.games))


if __name__ == "__main__":
    main()
