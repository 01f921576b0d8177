"""Benchmark: time of each derivation against the ingest's own time, per game.

Ingests a corpus (default: ../shared/logs/tenhou-xml; or a folder of logs, e.g. a corpus kept by
benchmarks/ingest.py) into a temporary warehouse without deriving, then runs every derivation stage
of ``pipeline.derive`` on each part with CPU timers around it. Run by hand:

    python benchmarks/derive.py [FOLDER]
"""

from __future__ import annotations

import argparse
import gc
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from pipeline.derive.furiten import furiten_columns
from pipeline.derive.inputs import part_connection, read_inputs, split_inputs
from pipeline.derive.tables import draw_outcome_columns, hand_state_columns, own_discard_furiten
from pipeline.derive.transitions import transition_columns
from pipeline.ingest import ingest
from pipeline.schema import to_arrow
from pipeline.store.warehouse import Warehouse
from rules.analysis import analyse_states
from rules.furiten import first_discards
from rules.hands import hand_states
from rules.visibility import visibility

REPO = Path(__file__).resolve().parents[1]


class Timer:
    """Accumulates CPU seconds per stage name."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def run(self, stage: str, fn, *args):  # noqa: ANN001, ANN202 - any stage function
        """Call ``fn(*args)`` and add its CPU time to ``stage``."""
        start = time.process_time()
        result = fn(*args)
        self.seconds[stage] += time.process_time() - start
        return result


def derive_timed(inputs, timer: Timer) -> dict:  # noqa: ANN001 - a RoundInputs
    """pipeline.derive.tables.derive_part, stage by stage, with timers."""
    states = timer.run("hand states", hand_states, inputs.arrays)
    vis = timer.run("visibility", visibility, inputs.arrays, inputs.rounds["dora_indicator"].to_numpy())
    analysis = timer.run("shanten, waits, karaten", analyse_states, states, vis)
    outcomes = timer.run("draw outcomes", draw_outcome_columns, inputs, states, analysis, vis)
    tenpai = np.zeros((inputs.rounds.num_rows, 4), dtype=bool)
    nagashi = np.zeros_like(tenpai)
    tenpai[outcomes["_round_id"], outcomes["seat"]] = outcomes["is_tenpai"]
    nagashi[outcomes["_round_id"], outcomes["seat"]] = outcomes["is_nagashi"]
    del outcomes["_round_id"]
    first = timer.run("furiten and passes", first_discards, inputs.arrays)
    own = timer.run("furiten and passes", own_discard_furiten, states, analysis["waits_mask"], first, inputs.arrays)
    tables = {
        "hand_states": timer.run("hand states", hand_state_columns, inputs, states, analysis, own),
        "draw_outcomes": outcomes,
        "round_transitions": timer.run("payments, next round", transition_columns, inputs, tenpai, nagashi),
        **timer.run("furiten and passes, aborts", furiten_columns, inputs, states, analysis, first, own),
    }
    for table, columns in tables.items():
        timer.run("to Arrow", to_arrow, table, columns)
    return tables


def main() -> None:
    """Ingest without deriving, then time every derivation stage; print ms per game."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", nargs="?", type=Path, default=REPO.parent / "shared" / "logs" / "tenhou-xml")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        warehouse = Warehouse(Path(tmp) / "w")
        start = time.process_time()
        report = ingest([args.folder], warehouse)
        ingest_seconds = time.process_time() - start
        gc.collect()
        timer = Timer()
        for part in warehouse.table_files("games"):
            con = timer.run("read inputs", part_connection, warehouse.root, part.relative_to(warehouse.root / "games"))
            for chunk in split_inputs(timer.run("read inputs", read_inputs, con)):
                derive_timed(chunk, timer)
    games = report.games
    print(f"{games} games, {report.rounds} rounds from {args.folder}")
    print(f"{'stage':32} {'ms/game':>8}")
    print(f"{'ingest (whole)':32} {1000 * ingest_seconds / games:8.2f}")
    for stage, seconds in timer.seconds.items():
        print(f"{stage:32} {1000 * seconds / games:8.2f}")
    total = sum(timer.seconds.values())
    print(f"{'derive (all stages, no writing)':32} {1000 * total / games:8.2f}  ({total / ingest_seconds:.2f}x ingest)")


if __name__ == "__main__":
    main()
