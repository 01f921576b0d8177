"""Benchmark: shanten and waits for many hand states, paipu's tables against the mahjong package.

Hand states are sampled from the real logs (the states paipu derives from ../shared/logs/tenhou-xml,
13 - 3 x calls tiles), repeated to N. paipu computes shanten and waits for all N at once; the
mahjong package's Shanten.calculate_shanten runs on a sample of the same states (it is ~100x slower,
so its time is measured on --oracle-sample states and scaled). Run by hand:

    python benchmarks/waits.py --states 1000000
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]


def real_states() -> tuple[np.ndarray, np.ndarray]:
    """Closed counts and calls of every waiting-size state derived from the real logs."""
    import tempfile

    from pipeline.derive.inputs import part_tables, read_inputs
    from pipeline.ingest import ingest
    from pipeline.store.warehouse import Warehouse
    from rules.hands import hand_states

    with tempfile.TemporaryDirectory() as tmp:
        warehouse = Warehouse(Path(tmp) / "w")
        ingest([REPO.parent / "shared" / "logs" / "tenhou-xml"], warehouse)
        counts, calls = [], []
        for part in warehouse.table_files("games"):
            inputs = read_inputs(part_tables(warehouse.root, part.relative_to(warehouse.root / "games")))
            states = hand_states(inputs.arrays)
            waiting = states.n_closed == 13 - 3 * states.n_calls.astype(np.int16)
            counts.append(states.counts[waiting])
            calls.append(states.n_calls[waiting])
    return np.concatenate(counts), np.concatenate(calls)


def main() -> None:
    """Time paipu's shanten + waits on N states and the mahjong package's shanten on a sample."""
    from mahjong.shanten import Shanten

    from rules.shanten import shanten
    from rules.waits import waits_mask

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--states", type=int, default=1_000_000)
    parser.add_argument("--oracle-sample", type=int, default=20_000)
    args = parser.parse_args()
    counts, calls = real_states()
    reps = -(-args.states // len(counts))
    counts = np.tile(counts, (reps, 1))[: args.states]
    calls = np.tile(calls, reps)[: args.states]
    shanten(counts[:1000], calls[:1000])  # load the tables
    start = time.perf_counter()
    ours = shanten(counts, calls)
    masks = waits_mask(counts, calls)
    paipu_seconds = time.perf_counter() - start
    oracle = Shanten()
    sample = np.random.default_rng(0).choice(len(counts), args.oracle_sample, replace=False)
    start = time.perf_counter()
    reference = [
        oracle.calculate_shanten(list(counts[i]), use_chiitoitsu=calls[i] == 0, use_kokushi=calls[i] == 0)
        for i in sample
    ]
    oracle_seconds = (time.perf_counter() - start) * len(counts) / len(sample)
    agree = float(np.mean(ours[sample] == np.array(reference)))
    print(f"states: {len(counts):,} (from {reps}x the real-log states), tenpai: {(masks != 0).mean():.1%}")
    print(f"paipu shanten + waits: {paipu_seconds:.2f} s ({len(counts) / paipu_seconds:,.0f} states/s)")
    print(
        f"mahjong shanten only:  {oracle_seconds:.1f} s, scaled from {len(sample):,} states "
        f"({len(counts) / oracle_seconds:,.0f} states/s)"
    )
    print(f"speed-up: {oracle_seconds / paipu_seconds:.0f}x; shanten agreement on the sample: {agree:.2%}")


if __name__ == "__main__":
    main()
