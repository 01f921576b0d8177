"""Statistics queries over a warehouse replicated to a million games.

Run by hand from the repository root (never a test), after benchmarks/scale.py built a warehouse::

    python benchmarks/query_scale.py --source /tmp/paipu-scale/warehouse-100000 --copies 10

Ingesting a million games takes hours on two cores; the query side does not need the ingest, only the
tables. This writes ``--copies`` copies of every part of ``--source`` (every table the statistics read,
facts and derived), each copy's game ids suffixed ``-c<k>`` so that every copy is a distinct game, into
``--out`` (default: <source>-x<copies>), then times in one DuckDB connection: the typical query (the round
outcomes by room: exhaustive-draw rate, win rate, abortive rates; marts/round_outcomes.sql), every mart
``paipu stats`` runs, and ``paipu stats --json`` as a subprocess. Prints a Markdown table.

With ``--compact`` the replica (default: <source>-x<copies>-compact) also holds hand_states (compaction
merges only parts derived by this version, judged by their hand_states part) and is compacted by
``pipeline.compact.compact`` (``--max-games``, default as ``paipu compact``) before the queries are timed::

    python benchmarks/query_scale.py --source /tmp/paipu-scale/warehouse-100000 --copies 10 --compact
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.compact import DEFAULT_MAX_GAMES, compact  # noqa: E402
from pipeline.db import connect  # noqa: E402
from pipeline.schema import DERIVED_TABLES, TABLES  # noqa: E402
from pipeline.statistics import MARTS, mart_stats  # noqa: E402
from pipeline.store.parquet import write_parquet_atomic  # noqa: E402
from pipeline.store.warehouse import Warehouse  # noqa: E402

SKIPPED = ("hand_states",)
"""Tables no statistic reads (the largest): not copied."""


def replicate(source: Path, out: Path, copies: int, skipped: tuple[str, ...] = SKIPPED) -> None:
    """Write ``copies`` copies of every part of every table of ``source`` (``skipped`` tables aside) into
    ``out``, game ids suffixed per copy; the manifest is copied once."""
    for table in (*TABLES, *DERIVED_TABLES):
        if table in skipped:
            continue
        for part in sorted((source / table).rglob("*.parquet")):
            targets = [out / part.relative_to(source).with_name(f"{part.stem}-c{k}.parquet") for k in range(copies)]
            if all(target.is_file() for target in targets):  # written by an interrupted earlier run
                continue
            rows = pq.read_table(part, partitioning=None)
            column = rows.schema.get_field_index("game_id")
            for k, target in enumerate(targets):
                ids = pc.binary_join_element_wise(rows["game_id"], pa.scalar(f"-c{k}"), "")
                write_parquet_atomic(rows.set_column(column, rows.schema.field(column), ids), target)
    (out / "manifest").mkdir(parents=True, exist_ok=True)
    for part in (source / "manifest").glob("*.parquet"):
        shutil.copy(part, out / "manifest" / part.name)


def timed(function, repeats: int = 3) -> tuple[float, float]:  # noqa: ANN001
    """(first, best) seconds of ``repeats`` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times[0], min(times)


def main() -> None:
    """Replicate (unless already done) and time the statistics."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, required=True)
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--compact", action="store_true", help="compact the replica before timing")
    parser.add_argument("--max-games", type=int, default=DEFAULT_MAX_GAMES)
    args = parser.parse_args()
    suffix = "-compact" if args.compact else ""
    out = args.out or args.source.with_name(f"{args.source.name}-x{args.copies}{suffix}")
    if not (out / "manifest").is_dir():
        start = time.perf_counter()
        replicate(args.source, out, args.copies, () if args.compact else SKIPPED)
        print(f"replicated {args.source} x{args.copies} into {out} in {time.perf_counter() - start:.0f} s")
    if args.compact:
        start = time.perf_counter()
        report = compact(Warehouse(out), args.max_games)
        print(f"compacted in {time.perf_counter() - start:.0f} s: {report.runs} merged parts, "
              f"games parts {report.parts_before['games']} -> {report.parts_after['games']}")  # fmt: skip
    con = connect(Warehouse(out))
    games = con.execute("select count(*) from games").fetchone()[0]
    rounds = con.execute("select count(*) from rounds").fetchone()[0]
    events = con.execute("select count(*) from events").fetchone()[0]
    print(f"{games:,} games, {rounds:,} rounds, {events:,} events\n")
    print("| query | first s | best s |\n|---|---|---|")
    first, best = timed(lambda: mart_stats(con, "round_outcomes", "room"))
    print(f"| typical: round outcomes by room (exhaustive-draw rate etc.) | {first:.2f} | {best:.2f} |")
    for mart in MARTS:
        first, best = timed(lambda mart=mart: mart_stats(con, mart, "all"), repeats=2)
        print(f"| mart {mart} (all) | {first:.2f} | {best:.2f} |")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pipeline", "stats", "-w", str(out), "--json"], check=True,
                   capture_output=True, cwd=ROOT)  # fmt: skip
    print(f"| `paipu stats --json` (subprocess, all marts, start-up included) | {time.perf_counter() - start:.2f} | |")


if __name__ == "__main__":
    main()
