"""Every format's ingest path per game against the Tenhou XML one, on the same games (issue 19: "every format's path
costs at most 2x the XML path per game").

The same games in three formats: benchmarks/ingest.py's corpus v3 (Tenhou XML), its mjai copy (benchmarks/peers.py)
and its tenhou.net/6 copy (benchmarks/tjson_corpus.py), each built under --workdir unless found there. Each is
ingested by ``pipeline.ingest.ingest`` in this process, one worker, into a new warehouse, with deriving (the path a
user runs) and without (reading, checking and writing only), the formats alternated, ``--repeat`` times after one
warm-up round (kernels loaded, imports done). CPU time (time.process_time): other work on the machine inflates every
format alike. Prints each format's CPU ms per game (every run and the best) and its ratio to the XML path, and,
beside it, the parse alone is what benchmarks/parse_formats.py --converted and tjson_corpus.py measure.

    python benchmarks/format_paths.py [--games 1000] [--repeat 3] [--workdir /tmp/paipu-floor]

Run by hand (never a test). The converted corpora hold the XML games' events as those formats can say them (mjai
and tenhou.net/6 carry no disconnections; tenhou.net/6 no closed hands at a draw), so the work per game is alike.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # benchmarks/ is not a package: load the corpus builders beside this file
import peers  # noqa: E402
import scale  # noqa: E402
import tjson_corpus  # noqa: E402

DEFAULT_WORKDIR = Path("/tmp/paipu-floor")


def corpora(workdir: Path, n_games: int) -> dict[str, Path]:
    """The XML corpus of ``n_games`` and its mjai and tenhou.net/6 copies (built unless found), by format: the XML
    and mjai ones under ``workdir``, the tenhou.net/6 one where tjson_corpus.py keeps it."""
    builder = scale.BUILDER
    xml = builder.corpus_for(workdir, n_games, builder.load_templates())
    mjai, _ = peers.mjai_corpus_for(workdir, n_games, xml)
    tjson = tjson_corpus.build(n_games)  # kept in tjson_corpus.WORK (/tmp/paipu-floor), whatever --workdir says
    return {"tenhou_xml": xml, "mjai": mjai, "tenhou_json": tjson}


def ingest_cpu(corpus: Path, warehouse: Path, derive: bool) -> float:
    """CPU seconds of one ingest of ``corpus`` into the new folder ``warehouse`` (one worker, in this process)."""
    from pipeline.ingest import ingest
    from pipeline.store.warehouse import Warehouse

    gc.collect()
    start = time.process_time()
    ingest([corpus], Warehouse(warehouse), derive=derive, workers=1)
    return time.process_time() - start


def measure(paths: dict[str, Path], repeat: int) -> dict[tuple[str, bool], list[float]]:
    """CPU seconds of every (format, derive) ingest, ``repeat`` runs each after a warm-up round, alternated."""
    runs: dict[tuple[str, bool], list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="paipu-paths-") as tmp:
        for run in range(repeat + 1):
            for derive in (True, False):
                for name, corpus in paths.items():
                    seconds = ingest_cpu(corpus, Path(tmp) / f"{name}-{derive}-{run}", derive)
                    if run:  # the first round loads the kernels and imports: left out
                        runs.setdefault((name, derive), []).append(seconds)
    return runs


def report(runs: dict[tuple[str, bool], list[float]], n_games: int) -> str:
    """A Markdown table: CPU ms per game of each format's path (best run, every run), its ratio to the XML one
    (best to best), and the median of the rounds' ratios (each run to the XML run of its round, measured minutes
    apart at most: the machine's drift over the invocation, ~15% on the 2-vCPU machine, cancels)."""
    lines = ["| format | path | ms/game (best) | runs (ms/game) | x XML (best) | x XML (median of rounds) |",
             "|---|---|---|---|---|---|"]  # fmt: skip
    for (name, derive), seconds in runs.items():
        best = 1000 * min(seconds) / n_games
        xml_runs = runs[("tenhou_xml", derive)]
        xml = 1000 * min(xml_runs) / n_games
        shown = ", ".join(f"{1000 * s / n_games:.3f}" for s in seconds)
        per_round = statistics.median(s / x for s, x in zip(seconds, xml_runs, strict=True))
        path = "ingest + derive" if derive else "ingest, no derive"
        lines.append(f"| {name} | {path} | {best:.3f} | {shown} | {best / xml:.2f} | {per_round:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Build (or reuse) the three corpora, measure, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="distinct games in each format")
    parser.add_argument("--repeat", type=int, default=3, help="measured runs of each (after one warm-up round)")
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR, help="where the corpora are built and kept")
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    paths = corpora(args.workdir, args.games)
    runs = measure(paths, args.repeat)
    print(f"{args.games:,} games in each format, {args.repeat} run(s) each, CPU time of one process\n")
    print(report(runs, args.games))


if __name__ == "__main__":
    main()
