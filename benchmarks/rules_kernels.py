"""Benchmark: the rules layer's array passes, one by one, over every part of a real-log warehouse.

The warehouse is ``--warehouse`` (default /tmp/rk-wh), ingested from ../shared/logs (every source) with ``paipu
ingest`` when the folder does not exist yet. Its parts are read as ``paipu derive`` reads them
(pipeline.derive.inputs.part_tables, read_inputs, split_inputs: chunks of at most 250 games), and every rules
function the derivation calls is run over all chunks, its inputs built once beforehand. It prints the CPU time of
reading the chunks and running the rules over them once (numba compiling the kernels of rules/kernels_*.py, or
loading them from its cache, falls there: run with ``NUMBA_CACHE_DIR`` an empty folder to see the compile cost),
then each step's best of ``--repeat`` passes (CPU seconds over all chunks). ``--profile`` adds the functions that
dominate a cProfile of the steps (by own time). Run by hand:

    python benchmarks/rules_kernels.py [--warehouse DIR] [--repeat N] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.compute as pc

from pipeline.derive.inputs import RoundInputs, part_tables, read_inputs, split_inputs
from pipeline.store.warehouse import Warehouse
from rules.aborts import derive_aborts
from rules.analysis import analyse_states, state_live_waits
from rules.furiten import (
    Passes,
    SeatHistory,
    classify_passes,
    current_waits,
    find_passes,
    furiten_before,
    furiten_intervals,
    own_discard_furiten,
    seat_history,
)
from rules.hands import EventArrays, HandStates, hand_states
from rules.nagashi import nagashi_eligible
from rules.visibility import Visibility, closed_all_at, visibility

REPO = Path(__file__).resolve().parents[1]
LOGS = REPO.parent / "shared" / "logs"


@dataclass
class Chunk:
    """One chunk's derivation inputs and the numpy results later steps take as inputs."""

    inputs: RoundInputs
    events: EventArrays
    dora: np.ndarray
    declared: np.ndarray
    states: HandStates
    vis: Visibility
    analysis: dict[str, np.ndarray]
    history: SeatHistory
    own: np.ndarray
    waits: np.ndarray
    passes: tuple[np.ndarray, np.ndarray]
    classified: Passes
    tenpai: np.ndarray


def declared_rons(inputs: RoundInputs) -> np.ndarray:
    """(n_rounds, 4) seats that declared ron on the round's last release (as pipeline.derive.furiten finds them)."""
    rounds, n = inputs.rounds, inputs.rounds.num_rows
    sanchahou = pc.equal(rounds["draw_kind"], "sanchahou").fill_null(False).to_numpy(zero_copy_only=False)
    # is_shown: a list of 4 flags per round (null: none shown)
    shown_lists = rounds["is_shown"].combine_chunks()
    shown = np.zeros((n, 4), dtype=bool)
    flags = pc.list_flatten(shown_lists).fill_null(False).to_numpy(zero_copy_only=False).astype(bool)
    shown[shown_lists.is_valid().to_numpy(zero_copy_only=False)] = flags.reshape(-1, 4)
    # ron_seats: a list of seats per round (null: none)
    lengths = pc.list_value_length(rounds["ron_seats"]).fill_null(0).to_numpy(zero_copy_only=False)
    declared = np.zeros((n, 4), dtype=bool)
    declared[np.repeat(np.arange(n), lengths), pc.list_flatten(rounds["ron_seats"]).to_numpy()] = True
    return declared | (sanchahou[:, None] & shown)


def build_chunk(inputs: RoundInputs) -> Chunk:
    """Run the rules once over a chunk, keeping what the timed steps take."""
    events = inputs.arrays
    dora = inputs.rounds["dora_indicator"].to_numpy()
    states = hand_states(events)
    vis = visibility(events, dora)
    analysis = analyse_states(states, vis)
    history = seat_history(events)
    own = own_discard_furiten(states, analysis["waits_mask"], history, events)
    waits = current_waits(states, analysis["waits_mask"], events)
    declared = declared_rons(inputs)
    passes = find_passes(events, waits, declared, history)
    classified = classify_passes(events, passes, waits, history)
    tenpai = np.flatnonzero(analysis["waits_mask"] > 0)
    return Chunk(inputs, events, dora, declared, states, vis, analysis, history, own, waits, passes, classified,
                 tenpai)  # fmt: skip


@dataclass
class Step:
    """A rules function timed over every chunk: ``run`` runs it on a chunk."""

    label: str
    run: Callable[[Chunk], Any]


STEPS = [
    Step("hand_states (compiled)", lambda c: hand_states(c.events)),
    Step("visibility (compiled)", lambda c: visibility(c.events, c.dora)),
    Step("analyse_states (live counts compiled)", lambda c: analyse_states(c.states, c.vis)),
    Step(
        "closed_all_at (tenpai states; compiled)",
        lambda c: closed_all_at(c.states, c.states.round_id[c.tenpai], c.states.event_row[c.tenpai]),
    ),
    Step(
        "live counts of the tenpai states (compiled)",
        lambda c: state_live_waits(c.states, c.vis, c.analysis["waits_mask"], c.tenpai),
    ),
    Step("seat_history (compiled)", lambda c: seat_history(c.events)),
    Step(
        "own_discard_furiten (compiled)",
        lambda c: own_discard_furiten(c.states, c.analysis["waits_mask"], c.history, c.events),
    ),
    Step("current_waits (compiled)", lambda c: current_waits(c.states, c.analysis["waits_mask"], c.events)),
    Step("find_passes", lambda c: find_passes(c.events, c.waits, c.declared, c.history)),
    Step("classify_passes", lambda c: classify_passes(c.events, c.passes, c.waits, c.history)),
    Step("furiten_before (the passes)", lambda c: furiten_before(c.events, c.passes, c.waits, c.history, *c.passes)),
    Step("furiten_intervals", lambda c: furiten_intervals(c.events, c.states, c.own, c.classified, c.history)),
    Step("derive_aborts", lambda c: derive_aborts(c.events, c.inputs.rounds["n_winners"].to_numpy())),
    Step("nagashi_eligible", lambda c: nagashi_eligible(c.events, c.inputs.rounds.num_rows)),
]
"""The steps timed, in derivation order."""


def best_time(function: Callable[[Chunk], Any], chunks: list[Chunk], repeat: int) -> float:
    """The best of ``repeat`` passes of ``function`` over every chunk, CPU seconds."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        for chunk in chunks:
            function(chunk)
        best = min(best, time.process_time() - start)
    return best


def load_chunks(warehouse_dir: Path) -> list[Chunk]:
    """Every chunk of every games part of the warehouse (ingested from ../shared/logs first when missing)."""
    if not warehouse_dir.exists():
        paipu = Path(sys.executable).with_name("paipu")
        subprocess.run([str(paipu), "ingest", str(LOGS), "-w", str(warehouse_dir)], check=True, capture_output=True)
    warehouse = Warehouse(warehouse_dir)
    games = warehouse.root / "games"
    chunks = []
    for part in warehouse.table_files("games"):
        inputs = read_inputs(part_tables(warehouse.root, part.relative_to(games)))
        chunks.extend(build_chunk(chunk) for chunk in split_inputs(inputs))
    return chunks


def main() -> None:
    """Time every step (its first pass, then the best of --repeat); optionally profile them."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--warehouse", type=Path, default=Path("/tmp/rk-wh"))
    parser.add_argument("--repeat", type=int, default=5, help="passes per step (the best is printed)")
    parser.add_argument("--profile", action="store_true", help="also print the functions that dominate")
    parser.add_argument("--only", default="", help="time only the steps whose label contains this")
    args = parser.parse_args()
    start = time.process_time()
    chunks = load_chunks(args.warehouse)  # the first calls of the kernels (compiled or loaded) fall here
    print(f"reading the chunks and running the rules once: {time.process_time() - start:.2f} s CPU")
    n_events = sum(len(c.events.action) for c in chunks)
    n_states = sum(len(c.states.round_id) for c in chunks)
    print(f"{len(chunks)} chunks, {n_events} events, {n_states} hand states from {args.warehouse}")
    print(f"{'step':54} {'best ms':>9}")
    steps = [s for s in STEPS if args.only in s.label]
    for step in steps:
        print(f"{step.label:54} {1000 * best_time(step.run, chunks, args.repeat):9.2f}")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for step in steps:
            for chunk in chunks:
                step.run(chunk)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
