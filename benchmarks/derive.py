"""Benchmark: the derivation's time per game against the ingest's own, end to end, with a stage breakdown.

Ingests a corpus (default: ../shared/logs/tenhou-xml; or a folder of logs, e.g. a corpus kept by
benchmarks/ingest.py) into a temporary warehouse without deriving, then runs ``pipeline.derive.derive``
over it (reading the parts back, every rule, writing the derived tables), then ingests the corpus again
into another warehouse deriving each batch as it goes (``paipu ingest``'s default: the batch's tables are
derived from memory), each timed in CPU seconds; "deriving adds" is the last minus the first. The
lookup tables the rules build once per process (suit distance classes, scoring decompositions) are
built first and reported on their own: they do not grow with the archive. The stage breakdown comes
from a second, profiled derivation (cProfile's cumulative times of the functions ``derive_part``
calls, of reading the parts and of writing them; profiling inflates them, the end-to-end figure is
the unprofiled one). Run by hand:

    python benchmarks/derive.py [FOLDER] [--repeat N]

With ``--repeat N`` each measurement runs N times, alternating (ingest, derive, ingest deriving, ingest...),
and the medians are printed beside every run's figures: on a shared machine single runs vary by 20-30%.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pipeline.derive.run import derive
from pipeline.ingest import ingest
from pipeline.store.warehouse import Warehouse

REPO = Path(__file__).resolve().parents[1]
T = TypeVar("T")

STAGES = {
    "read the part's fact tables": ("inputs.py", "part_tables"),
    "read inputs (rounds, events, wins)": ("inputs.py", "read_inputs"),
    "hand states": ("hands.py", "hand_states"),
    "visibility": ("visibility.py", "visibility"),
    "shanten, waits, karaten": ("analysis.py", "analyse_states"),
    "draw outcomes": ("draws.py", "draw_outcomes"),
    "seat history (discards, riichi)": ("furiten.py", "seat_history"),
    "own-discard furiten": ("furiten.py", "own_discard_furiten"),
    "hand_states columns": ("hand_table.py", "hand_state_columns"),
    "payments, next round": ("transitions.py", "transition_columns"),
    "current waits": ("furiten.py", "current_waits"),
    "passes (found, classified)": ("furiten.py", ("find_passes", "classify_passes")),
    "furiten_passes columns (has_yaku)": ("furiten.py", "pass_columns"),
    "furiten intervals": ("furiten.py", "interval_columns"),
    "win checks": ("furiten.py", "win_check_columns"),
    "aborts (could ron, abort checks)": ("aborts.py", ("could_ron_last", "abort_columns")),
    "scoring": ("scoring.py", "scoring_columns"),
    "to Arrow": ("__init__.py", "to_arrow"),
    "write Parquet": ("parquet.py", "write"),
}
"""Stage label -> (file name, function name or names) whose cumulative profile time is the stage's (the
derivations of pipeline.derive.registry.CHAIN, grouped)."""


def build_tables() -> float:
    """Build the once-per-process lookup tables; return the CPU seconds it took."""
    from rules.scoring.tables import tables as decomposition_tables  # noqa: PLC0415 - timed here on purpose
    from rules.suit_classes import suit_classes  # noqa: PLC0415

    start = time.process_time()
    suit_classes()
    decomposition_tables()
    return time.process_time() - start


def stage_seconds(profile: cProfile.Profile) -> dict[str, float]:
    """Cumulative seconds of each STAGES function in a profile."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    out = dict.fromkeys(STAGES, 0.0)
    for (file, _, function), (_, _, _, cumulative, _) in stats.items():
        for label, (stage_file, stage_function) in STAGES.items():
            names = (stage_function,) if isinstance(stage_function, str) else stage_function
            if function in names and file.endswith(stage_file):
                out[label] += cumulative
    return out


def timed(function: Callable[[], T]) -> tuple[float, T]:
    """CPU seconds of one call of ``function`` (after a garbage collection), and what it returned."""
    gc.collect()
    start = time.process_time()
    result = function()
    return time.process_time() - start, result


def main() -> None:
    """Ingest without deriving, derive, ingest deriving (``--repeat`` times, alternating); print the medians in
    ms per game, every run's figures, and the stages of one profiled derivation."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", nargs="?", type=Path, default=REPO.parent / "shared" / "logs" / "tenhou-xml")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each measurement (medians are printed)")
    args = parser.parse_args()
    runs: dict[str, list[float]] = {"ingest": [], "derive": [], "both": []}
    with tempfile.TemporaryDirectory() as tmp:
        tables_seconds = build_tables()
        for run in range(args.repeat):
            warehouse = Warehouse(Path(tmp) / f"w{run}")
            seconds, report = timed(lambda w=warehouse: ingest([args.folder], w))
            runs["ingest"].append(seconds)
            runs["derive"].append(timed(lambda w=warehouse: derive(w))[0])
            both = Warehouse(Path(tmp) / f"with-derive{run}")
            runs["both"].append(timed(lambda w=both: ingest([args.folder], w, derive=True))[0])
            shutil.rmtree(both.root)
        profile = cProfile.Profile()
        profile.runcall(derive, warehouse)
    games = report.games
    per_game = lambda seconds: 1000 * seconds / games  # noqa: E731
    ingest_s, derive_s, both_s = (statistics.median(runs[k]) for k in ("ingest", "derive", "both"))
    added = [b - i for b, i in zip(runs["both"], runs["ingest"], strict=True)]
    added_s = statistics.median(added)
    print(f"{games} games, {report.rounds} rounds from {args.folder}; medians of {args.repeat} run(s)")
    print(f"ingest (read, parse, write; no derive): {per_game(ingest_s):6.2f} ms/game")
    print(f"derive (read parts, rules, write):      {per_game(derive_s):6.2f} ms/game"
          f" = {derive_s / ingest_s:.2f}x the ingest")
    print(f"ingest deriving its batches:            {per_game(both_s):6.2f} ms/game: deriving adds"
          f" {per_game(added_s):.2f} ms/game = {added_s / ingest_s:.2f}x the ingest")
    if args.repeat > 1:
        print("every run, ms/game (ingest / derive / deriving adds):")
        for i, d, a in zip(runs["ingest"], runs["derive"], added, strict=True):
            print(f"  {per_game(i):6.2f} / {per_game(d):6.2f} ({d / i:.2f}x) / {per_game(a):6.2f} ({a / i:.2f}x)")
    print(f"lookup tables, once per process:         {tables_seconds:6.2f} s")
    print("\nstage (profiled run; cumulative)      ms/game")
    for label, seconds in stage_seconds(profile).items():
        print(f"  {label:36} {per_game(seconds):6.2f}")


if __name__ == "__main__":
    main()
