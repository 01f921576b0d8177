"""Benchmark: shanten and waits over every hand state of the real logs, the start-up they cost, and the oracle.

Hand states are the ``hand_states`` table of a warehouse of ../shared/logs (all sources): built by ``paipu ingest``
into a temporary folder (about 10 s), or read from ``--states-from`` (a warehouse folder, or a ``hand_states.parquet``
such as benchmarks/golden.py saves). The run times, as ``rules.analysis`` asks them:

- **start-up**: a fresh ``python`` that imports rules.shanten and rules.waits and computes one hand's shanten and
  waits: wall and CPU seconds to import and of that first call (lookup tables loaded or built, numba imported,
  kernels compiled or loaded from numba's cache), the medians of ``--startup-runs`` processes; with ``--cold``
  also one process whose numba cache is empty (a user's very first run);
- **throughput**: shanten of every state and waits of the states between turns (13 - 3 x calls closed tiles),
  the best of ``--repeat`` passes, repeated to ``--states`` when given;
- **oracle**: the mahjong package's Shanten.calculate_shanten on ``--oracle-sample`` of the states (about 100x
  slower, scaled), and the agreement of both shanten there (0 skips it).

``--code DIR`` times the rules package of another folder (an earlier version: ``git archive REV rules | tar -x
-C DIR``) on the same states. Run by hand:

    python benchmarks/waits.py --states-from /tmp/paipu-golden --cold
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
LOGS = REPO.parent / "shared" / "logs"

STARTUP = """
import json, time
start, start_cpu = time.perf_counter(), time.process_time()
import numpy as np
from rules.shanten import shanten
from rules.waits import waits_mask
imported, imported_cpu = time.perf_counter(), time.process_time()
counts = np.zeros((1, 34), dtype=np.int8)
counts[0, [0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 28, 28]] += 1
counts[0, 27] = 2
counts[0, 28] = 2
assert shanten(counts)[0] == 0 and waits_mask(counts)[0] == (1 << 27) | (1 << 28)
done, done_cpu = time.perf_counter(), time.process_time()
print(json.dumps({
    "import": imported - start, "first_call": done - imported,
    "import_cpu": imported_cpu - start_cpu, "first_call_cpu": done_cpu - imported_cpu,
}))
"""
"""One hand's shanten and waits in a fresh process (123m 123p 123s 11z 22z: shanpon on East and South)."""


def startup(env: dict[str, str]) -> dict[str, float]:
    """Import and first-call seconds of one fresh process run with ``env``."""
    command = [sys.executable, "-c", STARTUP]
    done = subprocess.run(command, env=env, cwd=REPO, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def read_states(source: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(N, 34) int8 closed counts, (N,) calls and (N,) whether waits are asked, of every hand state in ``source``
    (a warehouse folder, a golden set folder or a hand_states Parquet file)."""
    import duckdb

    path = source if source.suffix == ".parquet" else source / "hand_states.parquet"  # a golden set
    if not path.exists():  # a warehouse: its partitioned part files
        path = source / "hand_states" / "**" / "*.parquet"
    query = f"SELECT counts, n_calls, waits_mask IS NOT NULL AS asked FROM read_parquet('{path}')"
    table = duckdb.sql(query).fetchnumpy()
    # counts: 37 digits per state, the first 34 the per-kind counts
    digits = np.frombuffer("".join(table["counts"]).encode("ascii"), dtype=np.uint8).reshape(-1, 37)
    counts = (digits[:, :34] - ord("0")).astype(np.int8)
    return counts, np.asarray(table["n_calls"], dtype=np.int8), np.asarray(table["asked"], dtype=bool)


def real_states(source: Path | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The hand states of ``source``, or of a fresh ingest of ../shared/logs when None."""
    if source is not None:
        return read_states(source)
    with tempfile.TemporaryDirectory(prefix="paipu-waits-") as tmp:
        paipu = Path(sys.executable).parent / "paipu"
        subprocess.run([str(paipu), "ingest", str(LOGS), "-w", tmp, "-j", "1"], capture_output=True, check=False)
        return read_states(Path(tmp))


def throughput(counts: np.ndarray, calls: np.ndarray, asked: np.ndarray, repeat: int) -> tuple[float, np.ndarray]:
    """Best seconds of ``repeat`` passes of shanten (all states) + waits (the asked ones); the last pass's shanten."""
    from rules.shanten import shanten
    from rules.waits import waits_mask

    rows = np.flatnonzero(asked)
    shanten(counts[:1000], calls[:1000])  # tables loaded, kernels compiled: not timed here
    waits_mask(counts[:1000], calls[:1000])
    best, ours = float("inf"), np.empty(0)
    for _ in range(repeat):
        start = time.perf_counter()
        ours = shanten(counts, calls)
        waits_mask(counts, calls, rows=rows)
        best = min(best, time.perf_counter() - start)
    return best, ours


def oracle(counts: np.ndarray, calls: np.ndarray, ours: np.ndarray, sample: int) -> tuple[float, float]:
    """Scaled seconds of the mahjong package's shanten over all states, and its agreement with ``ours``."""
    from mahjong.shanten import Shanten

    picked = np.random.default_rng(0).choice(len(counts), min(sample, len(counts)), replace=False)
    engine = Shanten()
    start = time.perf_counter()
    reference = [
        engine.calculate_shanten(list(counts[i]), use_chiitoitsu=calls[i] == 0, use_kokushi=calls[i] == 0)
        for i in picked
    ]
    seconds = (time.perf_counter() - start) * len(counts) / len(picked)
    return seconds, float(np.mean(ours[picked] == np.array(reference)))


def main() -> None:
    """Print the start-up, throughput and oracle figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--states-from", type=Path, help="warehouse folder or hand_states.parquet")
    parser.add_argument("--states", type=int, help="repeat the real states to this many")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes (best kept)")
    parser.add_argument("--startup-runs", type=int, default=3)
    parser.add_argument("--cold", action="store_true", help="also time one process with an empty numba cache")
    parser.add_argument("--oracle-sample", type=int, default=20_000)
    parser.add_argument(
        "--code", type=Path, default=REPO, help="folder whose rules/ is timed, e.g. `git archive HEAD rules` unpacked"
    )
    args = parser.parse_args()

    code = args.code.resolve()
    sys.path.insert(0, str(code))  # the rules package timed in this process too
    env = {**os.environ, "PYTHONPATH": str(code)}
    runs = [startup(env) for _ in range(args.startup_runs)]
    for name in ("import", "first_call"):
        wall, cpu = (statistics.median(r[key] for r in runs) for key in (name, f"{name}_cpu"))
        print(f"start-up {name:10}: {wall:.3f} s wall, {cpu:.3f} s CPU (medians of {len(runs)} processes)")
    if args.cold:
        with tempfile.TemporaryDirectory(prefix="paipu-numba-") as cache:
            cold = startup({**env, "NUMBA_CACHE_DIR": cache})
        print(
            f"start-up, empty numba cache: import {cold['import']:.3f} s, first call {cold['first_call']:.3f} s wall, "
            f"{cold['first_call_cpu']:.3f} s CPU"
        )

    counts, calls, asked = real_states(args.states_from)
    n_real = len(counts)
    if args.states:
        reps = -(-args.states // n_real)
        tiled = (np.tile(a, (reps, 1) if a.ndim == 2 else reps)[: args.states] for a in (counts, calls, asked))
        counts, calls, asked = tiled
    seconds, ours = throughput(counts, calls, asked, args.repeat)
    print(f"states: {len(counts):,} ({n_real:,} real), waits asked of {asked.sum():,}")
    print(f"paipu shanten + waits: {seconds:.3f} s ({len(counts) / seconds:,.0f} states/s, best of {args.repeat})")
    if args.oracle_sample:
        oracle_seconds, agree = oracle(counts, calls, ours, args.oracle_sample)
        print(
            f"mahjong shanten only:  {oracle_seconds:.1f} s, scaled from {args.oracle_sample:,} states "
            f"({len(counts) / oracle_seconds:,.0f} states/s); speed-up {oracle_seconds / seconds:.0f}x, "
            f"shanten agreement on the sample {agree:.2%}"
        )


if __name__ == "__main__":
    main()
