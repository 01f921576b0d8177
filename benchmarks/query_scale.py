"""Statistics queries over a warehouse replicated to a million games, and a dump of every statistic to compare.

Run by hand from the repository root (never a test). The million-game warehouse is made without a 25-minute
ingest: ~10k distinct games are ingested and derived once, compacted, and every table's parts copied::

    python benchmarks/query_scale.py build --games 10000 --copies 100 --workdir /tmp/qs

How the 1M is made, exactly: benchmarks/ingest.py's builder writes corpus v3 of ``--games`` distinct Tenhou XML
games (``<workdir>/corpus-v3-<games>``, reused when done), ``paipu ingest -j 1`` (ingest and derive, one worker)
stores them in ``<workdir>/wh-<games>`` and ``paipu compact`` leaves one part per (source, year) partition
(5 partitions of 2,000 games at 10k). Then ``replicate`` writes ``--copies`` copies of every part of every table
(facts and derived, hand_states and events included, so that `paipu stats` sees a derived warehouse), copy k with
``game_id || '-c' || k`` so that every copy is a game of its own, laid out as `paipu compact` would leave
the copies: per partition, consecutive copies (k = 0, 1, ...) merged into parts of at most ``--max-games`` games
(default 5,000, as `paipu compact`: 2 copies of a 2,000-game part per part, 50 parts per partition at 100
copies), each part the copies' rows one after the other in their stored order, written by the writer `paipu
compact` uses and named as it names a merged part (pipeline.compact.compacted_name of the copies' names).
The manifest is copied once (it names files read, not games). ``<workdir>/wh-<games>-x<copies>`` is then a normal
warehouse for ``paipu stats -w``: 10k x 100 = 1,000,000 games, 10k x 10 = 100,000.

    python benchmarks/query_scale.py time --warehouse /tmp/qs/wh-10000-x100

times every mart (this process, one DuckDB connection) and ``paipu stats --json`` as a subprocess (wall and the
child's CPU). ``dump`` writes every statistic of every mart under every grouping (GROUPINGS and 'room,year') as
JSON lines; ``compare`` says how two dumps differ (numerators, denominators and values exactly, standard errors
to 12 significant digits, as `paipu stats --json` prints them, and their largest relative difference).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.compact import DEFAULT_MAX_GAMES, ROW_GROUP_ROWS, compacted_name  # noqa: E402
from pipeline.db import connect  # noqa: E402
from pipeline.db.rollups import connect_with_rollups, has_stored_rollups  # noqa: E402
from pipeline.schema import DERIVED_TABLES, TABLES, arrow_schema  # noqa: E402
from pipeline.statistics import GROUPINGS, MARTS, mart_stats  # noqa: E402
from pipeline.store.parquet import AtomicParquetWriter  # noqa: E402
from pipeline.store.warehouse import Warehouse  # noqa: E402

DUMP_GROUPINGS = (*GROUPINGS, "room,year")
"""The groupings ``dump`` runs every mart under."""


def copies_per_part(n_games: int, copies: int, max_games: int) -> int:
    """How many consecutive copies of an ``n_games`` part `paipu compact` would merge into one part: as many as
    stay within ``max_games``, 1 when the part is already large (at least half of ``max_games``)."""
    if 2 * n_games >= max_games:
        return 1
    return max(1, min(copies, max_games // n_games))


def replicate(source: Path, out: Path, copies: int, max_games: int = DEFAULT_MAX_GAMES) -> None:
    """Write ``copies`` copies of every part of every table of the compacted warehouse ``source`` into ``out``
    (see the module docstring: copy k's game ids suffixed ``-c<k>``, copies merged as `paipu compact` would);
    the manifest is copied once. A part already written (an interrupted earlier run) is kept."""
    for games_part in sorted((source / "games").rglob("*.parquet")):
        relative = games_part.relative_to(source / "games")
        per_part = copies_per_part(pq.read_metadata(games_part).num_rows, copies, max_games)
        runs = [list(range(k, min(k + per_part, copies))) for k in range(0, copies, per_part)]
        for table in (*TABLES, *DERIVED_TABLES):
            part = source / table / relative
            if not part.is_file():
                continue
            rows = pq.read_table(part, partitioning=None)
            column = rows.schema.get_field_index("game_id")
            for run in runs:
                names = [f"{part.stem}-c{k}.parquet" for k in run]
                target = out / table / relative.parent / compacted_name(names)
                if target.is_file():
                    continue
                with AtomicParquetWriter(target, arrow_schema(table), row_group_rows=ROW_GROUP_ROWS) as writer:
                    for k in run:
                        ids = pc.binary_join_element_wise(rows["game_id"], pa.scalar(f"-c{k}"), "")
                        writer.write(rows.set_column(column, rows.schema.field(column), ids))
    (out / "manifest").mkdir(parents=True, exist_ok=True)
    for part in (source / "manifest").rglob("*.parquet"):
        target = out / "manifest" / part.relative_to(source / "manifest")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(part, target)


def paipu(*args: str) -> None:
    """Run the paipu command line (this checkout's, PYTHONPATH set to it) and fail when it fails."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "pipeline", *args], check=True, cwd=ROOT, env=env)


def build(workdir: Path, n_games: int, copies: int, max_games: int) -> Path:
    """Build (or reuse) the corpus, its compacted warehouse and the replica; return the replica's folder."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import ingest as builder  # noqa: PLC0415 - benchmarks/ is not a package

    corpus = builder.corpus_for(workdir, n_games, builder.load_templates())
    base = workdir / f"wh-{n_games}"
    if not (base / ".compacted").is_file():
        shutil.rmtree(base, ignore_errors=True)
        paipu("ingest", str(corpus), "--warehouse", str(base), "--workers", "1")
        paipu("compact", "--warehouse", str(base))
        (base / ".compacted").write_text("done\n")
    out = workdir / f"wh-{n_games}-x{copies}"
    start = time.perf_counter()
    replicate(base, out, copies, max_games)
    print(f"replicated {base} x{copies} into {out} in {time.perf_counter() - start:.0f} s", flush=True)
    return out


def child_cpu() -> float:
    """User + system CPU seconds of the waited-for children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def evict(warehouse: Path) -> None:
    """Drop the warehouse's files from the page cache (posix_fadvise DONTNEED on each; other files untouched), so
    that the next read is cold."""
    for path in warehouse.rglob("*"):
        if path.is_file():
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def open_warehouse(warehouse: Path, stored: bool) -> duckdb.DuckDBPyConnection:
    """Return a connection to the warehouse: with ``stored``, its stored rollups refreshed (made when absent; the
    time it took printed) and attached, as `paipu stats` reads it; else every mart computed from the Parquet."""
    if not stored:
        return connect(Warehouse(warehouse))
    wall, cpu = time.perf_counter(), time.process_time()
    con = connect_with_rollups(Warehouse(warehouse))
    print(f"rollups refreshed and attached ({has_stored_rollups(con)}) in {time.perf_counter() - wall:.2f} s wall, "
          f"{time.process_time() - cpu:.2f} s CPU", file=sys.stderr)  # fmt: skip
    return con


def time_marts(warehouse: Path, repeats: int, stored: bool = False) -> None:
    """Print a Markdown table: each mart by 'all' (wall and CPU of this process, first and best of ``repeats``;
    with ``stored``, from the stored rollups: see open_warehouse), then ``paipu stats --json`` as a subprocess
    (wall and CPU; it refreshes and reads the stored rollups): once cold (the warehouse's files evicted from the
    page cache first), then ``repeats`` times warm."""
    con = open_warehouse(warehouse, stored)
    games = con.execute("select count(*) from games").fetchone()[0]
    seat_rounds = con.execute("select count(*) from seat_rounds").fetchone()[0]
    print(f"{warehouse}: {games:,} games, {seat_rounds:,} seat-rounds\n")
    print("| query | first wall s | best wall s | best CPU s |\n|---|---|---|---|")
    for mart in MARTS:
        walls, cpus = [], []
        for _ in range(repeats):
            wall, cpu = time.perf_counter(), time.process_time()
            mart_stats(con, mart, "all")
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        print(f"| mart {mart} (all) | {walls[0]:.2f} | {min(walls):.2f} | {min(cpus):.2f} |", flush=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for run in range(repeats + 1):
        if run == 0:
            evict(warehouse)
        wall, cpu = time.perf_counter(), child_cpu()
        command = [sys.executable, "-m", "pipeline", "stats", "-w", str(warehouse), "--json"]
        subprocess.run(command, check=True, capture_output=True, cwd=ROOT, env=env)
        print(f"| `paipu stats --json` {'cold' if run == 0 else f'warm {run}'} (subprocess, start-up included) | "
              f"{time.perf_counter() - wall:.2f} | | {child_cpu() - cpu:.2f} |", flush=True)  # fmt: skip


def dump(
    warehouse: Path, out: Path, marts: tuple[str, ...] = MARTS, stored: bool = False, where: str | None = None
) -> int:
    """Write every statistic of the ``marts`` (default: every mart) under every grouping of DUMP_GROUPINGS as
    JSON lines to ``out``, over the games for which ``where`` holds when it is given, from the stored rollups with
    ``stored`` (see open_warehouse); return how many."""
    con = open_warehouse(warehouse, stored)
    n = 0
    with out.open("w", encoding="utf-8") as sink:
        for by in DUMP_GROUPINGS:
            for mart in marts:
                for stat in mart_stats(con, mart, by, where=where):
                    sink.write(json.dumps({"mart": mart, "by": by, **stat.to_json()}, sort_keys=True) + "\n")
                    n += 1
    return n


def compare(before: Path, after: Path) -> bool:
    """Print how two dumps differ; return True when every statistic is the same (standard errors to 12
    significant digits)."""

    def keyed(path: Path) -> dict[str, dict]:
        rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
        return {json.dumps([r["mart"], r["by"], r["name"], r["group"]], sort_keys=True): r for r in rows}

    old, new = keyed(before), keyed(after)
    differ = [key for key in old.keys() & new.keys() if _without_se(old[key]) != _without_se(new[key])]
    se_differ, worst = 0, 0.0
    for key in old.keys() & new.keys():
        a, b = old[key]["std_error"], new[key]["std_error"]
        if a != b:
            se_differ += 1
            worst = math.inf if a is None or b is None else max(worst, abs(a - b) / max(abs(a), abs(b)))
    print(f"{len(old):,} statistics before, {len(new):,} after; only before {len(old.keys() - new.keys())}, "
          f"only after {len(new.keys() - old.keys())}; other fields differ {len(differ)}; standard errors differ "
          f"at 12 significant digits {se_differ} (largest relative difference {worst:.2e})")  # fmt: skip
    for key in sorted(differ)[:10]:
        print("  differs:", key, _without_se(old[key]), _without_se(new[key]))
    return old.keys() == new.keys() and not differ and not se_differ


def _without_se(row: dict) -> dict:
    return {k: v for k, v in row.items() if k != "std_error"}


def main() -> None:
    """Build the replica, time the statistics over a warehouse, dump or compare every statistic."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    build_parser = commands.add_parser("build", help="corpus, ingest, compact, replicate")
    build_parser.add_argument("--workdir", type=Path, default=Path("/tmp/qs"))
    build_parser.add_argument("--games", type=int, default=10_000)
    build_parser.add_argument("--copies", type=int, default=100)
    build_parser.add_argument("--max-games", type=int, default=DEFAULT_MAX_GAMES)
    time_parser = commands.add_parser("time", help="time every mart and `paipu stats --json`")
    time_parser.add_argument("--warehouse", type=Path, required=True)
    time_parser.add_argument("--repeats", type=int, default=3)
    time_parser.add_argument("--stored", action="store_true", help="the marts from the stored rollups")
    dump_parser = commands.add_parser("dump", help="every statistic of every mart under every grouping")
    dump_parser.add_argument("--warehouse", type=Path, required=True)
    dump_parser.add_argument("--out", type=Path, required=True)
    dump_parser.add_argument("--marts", default=",".join(MARTS), help="comma-separated (default: every mart)")
    dump_parser.add_argument("--stored", action="store_true", help="the marts from the stored rollups")
    dump_parser.add_argument("--where", help="only the games for which this predicate over games holds")
    compare_parser = commands.add_parser("compare", help="two dumps")
    compare_parser.add_argument("before", type=Path)
    compare_parser.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "build":
        build(args.workdir, args.games, args.copies, args.max_games)
    elif args.command == "time":
        time_marts(args.warehouse, args.repeats, args.stored)
    elif args.command == "dump":
        start = time.perf_counter()
        n = dump(args.warehouse, args.out, tuple(args.marts.split(",")), args.stored, args.where)
        print(f"{n:,} statistics written to {args.out} in {time.perf_counter() - start:.0f} s")
    elif not compare(args.before, args.after):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
