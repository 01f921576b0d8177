"""Benchmark: paipu's scoring (fu and han of every win) against the `mahjong` package on the same real wins.

Ingests ../shared/logs/tenhou-xml into a temporary warehouse, prepares every win of the standard-rule server
games for both engines (paipu: rules.scoring.Hands and Context arrays; the oracle: one
HandCalculator.estimate_hand_value call per win, as tests/test_scoring_real.py builds them), replicates them to a
few thousand wins, and times only the scoring: ``rules.scoring.score_wins`` once over all wins, and the oracle's
calls one by one. Run by hand:

    python benchmarks/scoring.py [--copies 5] [--repeats 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from types import ModuleType

import numpy as np

from pipeline.derive.inputs import connect_part, part_tables, read_inputs
from pipeline.derive.scoring import win_inputs
from pipeline.ingest import ingest
from pipeline.store.warehouse import Warehouse
from rules.scoring import Context, Hands, score_wins
from rules.scoring.inputs import stack_hands

REPO = Path(__file__).resolve().parents[1]
LOGS = REPO.parent / "shared" / "logs" / "tenhou-xml"


def oracle_module() -> ModuleType:
    """tests/test_scoring_real.py, whose oracle adapter (LOGGED_SQL, oracle_calls) the benchmark reuses."""
    spec = importlib.util.spec_from_file_location("scoring_real", REPO / "tests" / "test_scoring_real.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def prepared_wins(root: Path) -> tuple[Hands, Context, list, np.ndarray]:
    """Every standard-rule win of the warehouse: paipu's inputs, the oracle's calls, and the logged (fu, han)."""
    oracle = oracle_module()
    warehouse = Warehouse(root)
    all_hands, contexts, calls, logged_values = [], [], [], []
    for part in warehouse.table_files("games"):
        tables = part_tables(warehouse.root, part.relative_to(warehouse.root / "games"))
        inputs = read_inputs(tables)
        logged = connect_part(tables).sql(oracle.LOGGED_SQL).to_arrow_table().to_pylist()
        standard = np.array([row["is_standard"] for row in logged], dtype=bool)
        hands, context, _ = win_inputs(inputs)
        rows = np.flatnonzero(standard)
        all_hands.append(Hands(**{f.name: getattr(hands, f.name)[rows] for f in fields(Hands)}))
        contexts.append(context.take(rows))
        calls += [call for call, keep in zip(oracle.oracle_calls(inputs, logged), standard, strict=True) if keep]
        logged_values += [(row["fu"], row["han"]) for row in logged if row["is_standard"]]
    context = Context(**{f.name: np.concatenate([getattr(c, f.name) for c in contexts]) for f in fields(Context)})
    return stack_hands(all_hands), context, calls, np.array(logged_values)


def replicate(hands: Hands, context: Context, copies: int) -> tuple[Hands, Context]:
    """The same wins ``copies`` times over."""
    tiled = Context(**{f.name: np.tile(np.asarray(getattr(context, f.name)), copies) for f in fields(Context)})
    return stack_hands([hands] * copies), tiled


def best_time(fn: Callable[[], object], repeats: int) -> float:
    """The fastest of ``repeats`` wall-clock runs of ``fn()``, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    """Prepare, check agreement, time both engines and print a small table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=5, help="replicate the real wins this many times")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per engine (the best is kept)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ingest([LOGS], Warehouse(Path(tmp) / "warehouse"))
        hands, context, calls, logged = prepared_wins(Path(tmp) / "warehouse")
    many_hands, many_context = replicate(hands, context, args.copies)
    many_calls = calls * args.copies
    scores = score_wins(many_hands, many_context)
    results = [call.run() for call in calls]
    agree_log = int(((scores.fu[: len(calls)] == logged[:, 0]) & (scores.han[: len(calls)] == logged[:, 1])).sum())
    agree_oracle = sum(
        (r.fu, r.han) == (f, h) for r, f, h in zip(results, scores.fu.tolist(), scores.han.tolist(), strict=False)
    )
    ours = best_time(lambda: score_wins(many_hands, many_context), args.repeats)
    theirs = best_time(lambda: [call.run() for call in many_calls], max(1, args.repeats // 2))
    n = len(many_calls)
    print(f"{len(calls)} standard-rule real wins x {args.copies} = {n} wins (inputs prepared; scoring timed only)")
    print(f"fu and han agree with the log on {agree_log}/{len(calls)}, with the mahjong package on {agree_oracle}")
    print(f"{'engine':<34}{'seconds':>10}{'wins/s':>12}{'speed':>8}")
    print(f"{'paipu rules.scoring.score_wins':<34}{ours:>10.4f}{n / ours:>12,.0f}{theirs / ours:>7.1f}x")
    print(f"{'mahjong estimate_hand_value':<34}{theirs:>10.4f}{n / theirs:>12,.0f}{1:>7.1f}x")


if __name__ == "__main__":
    main()
