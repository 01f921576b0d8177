"""Scale benchmark: `paipu ingest` (with derive) end to end at 10k, 100k and 1M games, a statistics query over the
result, and, in the same run on the same files, a plain ElementTree walk and the `mahjong` package's scoring.

Run by hand from the repository root (never a test)::

    python benchmarks/scale.py                                  # 10k, 100k, 1M games (1M: ~15 GB of XML, hours)
    python benchmarks/scale.py --games 500 2000 --workers 0     # a quick check; 0 = do not pass --workers

For each N it builds (or reuses, under --workdir) a corpus of N distinct games with benchmarks/ingest.py's
builder, then measures:

- ``paipu ingest CORPUS --warehouse WH [--workers W]`` (ingest + derive) as a subprocess on an empty warehouse:
  wall time, CPU time of the whole process tree (the kernel's rusage of the child and its waited-for descendants,
  user + sys), the peak of the summed RSS of the process and all its descendants (VmRSS of /proc/<pid>/status,
  sampled every 0.2 s) and the largest single process's peak (ru_maxrss);
- ``paipu stats --warehouse WH --json`` as a subprocess (wall), and in this process ``pipeline.db.connect`` then
  ``pipeline.statistics.all_stats`` (what `paipu stats` runs) and ``round_outcome_stats(con, "room")`` (the
  exhaustive draw rate and the other round outcomes by room);
- on an evenly spaced sample of the corpus files: benchmarks/ingest.py's ``etree walk`` and ``parse only``
  children (single process, games per CPU second), and benchmarks/scoring.py's comparison of
  ``rules.scoring.score_wins`` with ``HandCalculator.estimate_hand_value`` on the wins of a smaller sample.

Results go to --out as JSON (written after every N) and are printed as Markdown tables for benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_WORKDIR = Path("/tmp/paipu-scale")
SAMPLE_SECONDS = 0.2
"""Interval of the process-tree RSS sampler."""
CURVE_SECONDS = 5.0
"""Interval of the RSS-over-time curve kept in the JSON."""
TARGET_PER_CORE = 1000
TARGET_PEAK_MB = 2048
TARGET_QUERY_S = 2.0


def load_sibling(name: str) -> ModuleType:
    """Import benchmarks/<name>.py (benchmarks/ is not a package) under the module name ``bench_<name>``."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


BUILDER = load_sibling("ingest")
"""benchmarks/ingest.py: the corpus builder and the etree / parse-only children."""
SCORING = load_sibling("scoring")
"""benchmarks/scoring.py: paipu's scoring against the mahjong package on prepared wins."""


# --- the process tree ----------------------------------------------------------------------------


def parent_map() -> dict[int, int]:
    """pid -> ppid of every process in /proc (processes that vanish while being read are left out)."""
    parents = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                data = stat.read()
        except OSError:
            continue
        parents[int(entry.name)] = int(data[data.rindex(b")") + 2 :].split()[1])  # fields after "(comm)": state ppid
    return parents


def descendants(root: int, parents: dict[int, int]) -> list[int]:
    """``root`` and every process below it."""
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    tree, stack = [], [root]
    while stack:
        pid = stack.pop()
        tree.append(pid)
        stack.extend(children.get(pid, ()))
    return tree


def rss_kb(pid: int) -> int:
    """VmRSS of one process in kB (0 for a zombie or a process that is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class TreeSampler(threading.Thread):
    """Samples the summed RSS of a process and its descendants until stopped; keeps the peak and a coarse curve."""

    def __init__(self, root: int) -> None:
        """Sample the tree below ``root``."""
        super().__init__(daemon=True)
        self.root = root
        self.start_time = time.perf_counter()
        self.peak_kb = self.peak_processes = self.samples = 0
        self.curve: list[tuple[float, float, int]] = []
        self._stop_event = threading.Event()

    def sample(self) -> None:
        """Take one sample."""
        tree = descendants(self.root, parent_map())
        total = sum(rss_kb(pid) for pid in tree)
        self.samples += 1
        self.peak_kb = max(self.peak_kb, total)
        self.peak_processes = max(self.peak_processes, len(tree))
        elapsed = time.perf_counter() - self.start_time
        if not self.curve or elapsed - self.curve[-1][0] >= CURVE_SECONDS:
            self.curve.append((round(elapsed, 1), round(total / 1024, 1), len(tree)))

    def run(self) -> None:
        """Sample every SAMPLE_SECONDS until stop()."""
        while not self._stop_event.is_set():
            self.sample()
            self._stop_event.wait(SAMPLE_SECONDS)

    def stop(self) -> None:
        """Stop sampling and wait for the thread."""
        self._stop_event.set()
        self.join()


def run_measured(command: list[str], log: Path) -> dict[str, Any]:
    """Run ``command`` (stdout and stderr to ``log``); return its wall s, CPU s, peak RSS and output.

    CPU seconds (user + sys) and ``largest_process_mb`` (ru_maxrss: the peak of the largest single process) are
    the kernel's figures for the child and every descendant it waited for (``os.wait4``, the same accounting as
    RUSAGE_CHILDREN); ``peak_tree_rss_mb`` is the largest sampled sum of the tree's RSS (it can miss spikes
    shorter than the sampling interval).
    """
    env = {**os.environ, "COLUMNS": "200"}  # rich wraps at 80 columns when not on a terminal
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env=env)
        sampler = TreeSampler(process.pid)
        sampler.start()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        sampler.stop()
    return {
        "command": command,
        "returncode": process.returncode,
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_tree_rss_mb": sampler.peak_kb / 1024,
        "largest_process_mb": usage.ru_maxrss / 1024,
        "peak_processes": sampler.peak_processes,
        "rss_samples": sampler.samples,
        "rss_curve": sampler.curve,
        "output": log.read_text(errors="replace"),
    }


# --- end to end -------------------------------------------------------------------------------------


def paipu_executable() -> str:
    """The `paipu` script of this interpreter (no pyenv shim in between), else the one on PATH."""
    beside = Path(sys.executable).with_name("paipu")
    found = str(beside) if beside.is_file() else shutil.which("paipu")
    if found is None:
        sys.exit("no `paipu` command found (pip install -e . first)")
    return found


def cores_used(workers: int) -> int:
    """The cores a run may use: --workers when passed, else all of them (the CLI's default)."""
    return workers if workers > 0 else os.cpu_count() or 1


def cli_timings(output: str) -> dict[str, float | int | None]:
    """The ingest and derive seconds and game counts `paipu ingest` printed (None when not found)."""
    ingested = re.search(r"games: (\d+) new, rounds: (\d+) \(([\d.]+) s", output)
    derived = re.search(r"derived: (\d+) games in (\d+) parts \(([\d.]+) s\)", output)
    return {
        "games_new": int(ingested[1]) if ingested else None,
        "rounds_new": int(ingested[2]) if ingested else None,
        "ingest_s": float(ingested[3]) if ingested else None,
        "derived_games": int(derived[1]) if derived else None,
        "derive_s": float(derived[3]) if derived else None,
    }


def run_end_to_end(work: Path, n_games: int, corpus: Path, args: argparse.Namespace) -> dict[str, Any]:
    """`paipu ingest` (ingest + derive) of ``corpus`` into an empty warehouse, measured from outside."""
    warehouse = work / f"warehouse-{n_games}"
    shutil.rmtree(warehouse, ignore_errors=True)
    (work / f"warehouse-{n_games}.done").unlink(missing_ok=True)
    command = [paipu_executable(), "ingest", str(corpus), "--warehouse", str(warehouse)]
    if args.workers > 0:
        command += ["--workers", str(args.workers)]
    if args.batch_size:
        command += ["--batch-size", str(args.batch_size)]
    print(f"N={n_games:,}: {' '.join(command)}", flush=True)
    result = run_measured(command, work / "logs" / f"ingest-{n_games}.log")
    result.update(cli_timings(result["output"]), games=n_games, cores=cores_used(args.workers))
    if result["returncode"] != 0:
        sys.exit(f"paipu ingest failed ({result['returncode']}):\n{result['output'][-3000:]}")
    (work / f"warehouse-{n_games}.done").write_text(json.dumps({k: v for k, v in result.items() if k != "output"}))
    return result


def previous_end_to_end(work: Path, n_games: int) -> dict[str, Any] | None:
    """The measurements of an earlier finished ingest of this N (kept beside its warehouse), if any."""
    done = work / f"warehouse-{n_games}.done"
    return {**json.loads(done.read_text()), "reused": True} if done.is_file() else None


# --- statistics query -------------------------------------------------------------------------------


def time_calls(fn: Callable[[], object], repeats: int) -> dict[str, float]:
    """Wall seconds of the first of ``repeats`` calls of ``fn()`` and of the fastest."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return {"first_s": times[0], "best_s": min(times)}


def stats_subprocess(work: Path, n_games: int, warehouse: Path, repeats: int) -> dict[str, Any]:
    """`paipu stats --warehouse WH --json` as a subprocess, ``repeats`` times: wall seconds and peak tree RSS."""
    command = [paipu_executable(), "stats", "--warehouse", str(warehouse), "--json"]
    runs = [run_measured(command, work / "logs" / f"stats-{n_games}.log") for _ in range(repeats)]
    if runs[0]["returncode"] != 0:
        sys.exit(f"paipu stats failed:\n{runs[0]['output'][-3000:]}")
    return {
        "first_s": runs[0]["wall_s"],
        "best_s": min(r["wall_s"] for r in runs),
        "peak_mb": max(peak_mb(r) for r in runs),
        "stats": count_stats(runs[0]["output"]),
    }


def count_stats(output: str) -> int | None:
    """The number of statistics in `paipu stats --json` output (its first line), None when it is not that JSON."""
    try:
        return len(json.loads(output.splitlines()[0])["stats"])
    except (IndexError, KeyError, TypeError, ValueError):
        return None


def stats_in_process(warehouse: Path, repeats: int) -> dict[str, Any]:
    """In this process: connect, all_stats (what `paipu stats` runs), the round outcomes by room, each mart by
    room; wall seconds."""
    from pipeline.db import connect
    from pipeline.statistics import MARTS, all_stats, mart_stats, round_outcome_stats
    from pipeline.store.warehouse import Warehouse

    connecting = time_calls(lambda: connect(Warehouse(warehouse)), repeats)
    con = connect(Warehouse(warehouse))
    games, rounds = con.execute("select (select count(*) from games), (select count(*) from rounds)").fetchone()
    by_room = round_outcome_stats(con, "room")
    return {
        "games": games,
        "rounds": rounds,
        "connect": connecting,
        "all_stats": time_calls(lambda: all_stats(con), repeats),
        "round_outcomes_by_room": time_calls(lambda: round_outcome_stats(con, "room"), repeats),
        "marts_by_room": {m: time_calls(lambda m=m: mart_stats(con, m, "room"), repeats) for m in MARTS},
        "exhaustive_draw_rate_by_room": {
            s.group["room"]: s.value for s in by_room if s.name == "exhaustive_draw_rate" and s.group
        },
    }


# --- baselines on samples of the same files ---------------------------------------------------------


def evenly_spaced(files: list[Path], k: int) -> list[Path]:
    """``k`` files spread evenly over ``files`` (all of them when k >= len(files))."""
    if k >= len(files):
        return files
    return [files[i * len(files) // k] for i in range(k)]


def sample_folder(work: Path, n_games: int, files: list[Path], k: int) -> Path:
    """A folder of symlinks to ``k`` evenly spaced corpus files (built once, reused), for the file-walking children."""
    folder = work / f"sample-{k}-of-{n_games}"
    done = work / f"sample-{k}-of-{n_games}.done"
    if not done.is_file():
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for i, path in enumerate(evenly_spaced(files, k)):
            (folder / f"{i:08d}-{path.name}").symlink_to(path)
        done.write_text(f"{k}\n")
    return folder


def parse_baselines(sample: Path) -> dict[str, Any]:
    """benchmarks/ingest.py's `etree walk` and `parse only` children over the sample, each in its own process."""
    return {
        "etree walk": BUILDER.measure("--run-baseline", "etree", str(sample)),
        "parse only": BUILDER.measure("--run-baseline", "parse", str(sample)),
    }


def scoring_baseline(work: Path, n_games: int, files: list[Path], repeats: int) -> dict[str, Any]:
    """Ingest ``files`` into a scratch warehouse; time paipu's scoring and the mahjong package on their wins."""
    from pipeline.ingest import ingest
    from pipeline.store.warehouse import Warehouse
    from rules.scoring import score_wins

    root = work / f"scoring-warehouse-{n_games}"
    shutil.rmtree(root, ignore_errors=True)
    ingest(files, Warehouse(root))
    hands, context, calls, logged = SCORING.prepared_wins(root)
    shutil.rmtree(root, ignore_errors=True)
    scores = score_wins(hands, context)  # builds the scoring tables once, outside the timing
    results = [call.run() for call in calls]
    agree_oracle = sum((r.fu, r.han) == (f, h) for r, f, h in zip(results, scores.fu, scores.han, strict=True))
    agree_log = int(((scores.fu == logged[:, 0]) & (scores.han == logged[:, 1])).sum()) if len(calls) else 0
    ours = SCORING.best_time(lambda: score_wins(hands, context), repeats)
    theirs = SCORING.best_time(lambda: [call.run() for call in calls], max(1, repeats // 2))
    return {
        "sample_games": len(files),
        "wins": len(calls),
        "paipu_s": ours,
        "mahjong_s": theirs,
        "agree_with_log": agree_log,
        "agree_with_mahjong": agree_oracle,
    }


def run_baselines(work: Path, n_games: int, corpus: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The ElementTree walk, paipu's parse and the scoring comparison on samples of this corpus's files."""
    files = BUILDER._files(corpus)  # sorted, as the ingest reads them
    sample = sample_folder(work, n_games, files, min(args.sample, len(files)))
    print(f"N={n_games:,}: baselines on {sample}", flush=True)
    out = parse_baselines(sample)
    out["scoring"] = scoring_baseline(work, n_games, evenly_spaced(files, args.scoring_sample), args.repeats)
    return out


# --- one size, the whole run ------------------------------------------------------------------------


def run_size(work: Path, n_games: int, templates: list, args: argparse.Namespace) -> dict[str, Any]:
    """Build or reuse the corpus of ``n_games``; measure end to end, the statistics query and the baselines."""
    corpus = BUILDER.corpus_for(work, n_games, templates)
    previous = previous_end_to_end(work, n_games) if args.reuse_warehouse else None
    end_to_end = previous or run_end_to_end(work, n_games, corpus, args)
    end_to_end.pop("output", None)
    warehouse = work / f"warehouse-{n_games}"
    result = {
        "end_to_end": end_to_end,
        "stats_cli": stats_subprocess(work, n_games, warehouse, args.repeats),
        "stats_in_process": stats_in_process(warehouse, args.repeats),
    }
    if not args.no_baselines:
        result["baselines"] = run_baselines(work, n_games, corpus, args)
    print_problems(n_games, result)
    return result


def print_problems(n_games: int, result: dict[str, Any]) -> None:
    """Say when the warehouse or the CLI's counts do not hold the N games the corpus has."""
    stored = result["stats_in_process"]["games"]
    reported = result["end_to_end"].get("games_new")
    derived = result["end_to_end"].get("derived_games")
    for label, value in (("games table rows", stored), ("ingest reported", reported), ("derived", derived)):
        if value is not None and value != n_games:
            print(f"  ! N={n_games:,}: {label} {value:,}, expected {n_games:,}")


# --- report -----------------------------------------------------------------------------------------


def markdown(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    """A Markdown table, numbers right-aligned."""
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    lines = ["| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |"]
    lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    lines += ["| " + " | ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) + " |" for row in rows]
    return "\n".join(lines)


def opt(value: float | None, fmt: str) -> str:
    """``value`` formatted, or a dash when it is unknown."""
    return "-" if value is None else format(value, fmt)


def end_to_end_row(n_games: int, e: dict[str, Any]) -> tuple[str, ...]:
    """One row of the end-to-end table."""
    rate = n_games / e["wall_s"]
    return (
        f"{n_games:,}" + (" (earlier run)" if e.get("reused") else ""),
        str(e["cores"]),
        f"{e['wall_s']:,.1f}",
        opt(e.get("ingest_s"), ",.1f"),
        opt(e.get("derive_s"), ",.1f"),
        f"{e['cpu_s']:,.1f}",
        f"{rate:,.0f}",
        f"{rate / e['cores']:,.0f}",
        f"{n_games / e['cpu_s']:,.0f}",
        f"{e['peak_tree_rss_mb']:,.0f}",
        f"{e['largest_process_mb']:,.0f}",
        str(e["peak_processes"]),
    )


END_TO_END = ("N", "cores", "wall s", "ingest s", "derive s", "CPU s", "games/s", "games/s per core",
              "games per CPU-s", "peak tree RSS MB", "largest process MB", "max procs")  # fmt: skip


def query_row(n_games: int, r: dict[str, Any]) -> tuple[str, ...]:
    """One row of the statistics-query table (first / best of the repeats)."""
    cli, mine = r["stats_cli"], r["stats_in_process"]
    pair = lambda t: f"{t['first_s']:.2f} / {t['best_s']:.2f}"  # noqa: E731
    return (
        f"{n_games:,}",
        f"{mine['rounds']:,}",
        f"{cli['first_s']:.2f} / {cli['best_s']:.2f}",
        f"{cli['peak_mb']:,.0f}",
        pair(mine["connect"]),
        pair(mine["all_stats"]),
        pair(mine["round_outcomes_by_room"]),
    )


QUERIES = ("N", "rounds", "`paipu stats --json` s", "its peak MB", "connect s", "all_stats s",
           "round outcomes by room s")  # fmt: skip


def mart_table(results: dict[int, dict[str, Any]]) -> list[str]:
    """The per-mart table (each mart by room, first / best of the repeats) as lines, with a blank line before;
    none when no run kept per-mart timings."""
    kept = {n: r["stats_in_process"] for n, r in results.items()}
    timed = {n: stats["marts_by_room"] for n, stats in kept.items() if "marts_by_room" in stats}
    if not timed:
        return []
    names = list(next(iter(timed.values())))
    rows = [(f"{n:,}", *(f"{t[m]['first_s']:.2f} / {t[m]['best_s']:.2f}" for m in names)) for n, t in timed.items()]
    return ["", markdown(("N", *(f"{m} by room s" for m in names)), rows)]


def baseline_row(n_games: int, r: dict[str, Any]) -> tuple[str, ...]:
    """One row of the baselines table: games per CPU second of each walk, wins/s of each scorer."""
    b, e = r["baselines"], r["end_to_end"]
    walk, parse, score = b["etree walk"], b["parse only"], b["scoring"]
    return (
        f"{n_games:,}",
        f"{walk['games']:,}",
        f"{walk['games'] / walk['cpu_s']:,.0f}",
        f"{parse['games'] / parse['cpu_s']:,.0f}",
        f"{n_games / e['cpu_s']:,.0f}",
        f"{score['wins']:,} ({score['sample_games']:,} games)",
        f"{score['wins'] / score['paipu_s']:,.0f}",
        f"{score['wins'] / score['mahjong_s']:,.0f}",
        f"{score['mahjong_s'] / score['paipu_s']:.1f}x",
        f"{score['agree_with_mahjong']:,}",
    )


BASELINES = ("N", "sample games", "etree walk games per CPU-s", "paipu parse only", "paipu ingest+derive",
             "wins", "paipu scoring wins/s", "mahjong wins/s", "speed-up", "same fu+han")  # fmt: skip


def peak_mb(result: dict[str, Any]) -> float:
    """The memory figure judged against the target: the larger of the sampled tree sum and the largest process."""
    return max(result["peak_tree_rss_mb"], result["largest_process_mb"])


def target_lines(results: dict[int, dict[str, Any]]) -> list[str]:
    """Each N against the issue's targets."""
    lines = []
    for n_games, r in results.items():
        e = r["end_to_end"]
        per_core = n_games / e["wall_s"] / e["cores"]
        per_cpu = n_games / e["cpu_s"]
        query, peak = r["stats_cli"]["first_s"], peak_mb(e)
        lines.append(
            f"- N={n_games:,}: {TARGET_PER_CORE:,}+ games/s per core "
            f"{'met' if per_core >= TARGET_PER_CORE else 'NOT met'} ({per_core:,.0f} per core of wall, "
            f"{per_cpu:,.0f} per CPU-s); peak memory under {TARGET_PEAK_MB / 1024:.0f} GB "
            f"{'met' if peak < TARGET_PEAK_MB else 'NOT met'} ({peak:,.0f} MB); "
            f"statistics query under {TARGET_QUERY_S:.0f} s {'met' if query < TARGET_QUERY_S else 'NOT met'} "
            f"(`paipu stats --json` {query:.2f} s first run, "
            f"all_stats in process {r['stats_in_process']['all_stats']['first_s']:.2f} s)"
        )
    return lines


def report(results: dict[int, dict[str, Any]], meta: dict[str, Any]) -> str:
    """The Markdown for benchmarks/README.md: the machine line, three tables and the targets."""
    parts = [
        f"{meta['date']}, {meta['cores']} cores, Python {meta['python']}, load average at the end "
        f"{meta['load_end']}, `--workers {meta['workers']}`",
        "",
        markdown(END_TO_END, [end_to_end_row(n, r["end_to_end"]) for n, r in results.items()]),
        "",
        markdown(QUERIES, [query_row(n, r) for n, r in results.items()]),
        *mart_table(results),
    ]
    with_baselines = [(n, r) for n, r in results.items() if "baselines" in r]
    if with_baselines:
        parts += ["", markdown(BASELINES, [baseline_row(n, r) for n, r in with_baselines])]
    return "\n".join([*parts, "", *target_lines(results)])


def meta_data(args: argparse.Namespace, templates: int) -> dict[str, Any]:
    """The run's context: date, machine, options."""
    return {
        "date": f"{datetime.now():%Y-%m-%d %H:%M}",
        "cores": os.cpu_count(),
        "python": sys.version.split()[0],
        "workers": args.workers,
        "batch_size": args.batch_size,
        "templates": templates,
        "load_start": ", ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 100_000, 1_000_000], help="corpus sizes N")
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR, help="corpora, warehouses, logs (kept)")
    parser.add_argument("--out", type=Path, help="results JSON (default WORKDIR/scale-results.json)")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="passed to `paipu ingest`; 0 = do not pass the flag"
    )
    parser.add_argument("--batch-size", type=int, help="passed to `paipu ingest` when given")
    parser.add_argument("--sample", type=int, default=10_000, help="files of the etree / parse-only baselines")
    parser.add_argument("--scoring-sample", type=int, default=2000, help="games whose wins both scorers score")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each query and of paipu's scoring")
    parser.add_argument("--no-baselines", action="store_true", help="end to end and the statistics query only")
    parser.add_argument(
        "--reuse-warehouse", action="store_true", help="skip the ingest of an N whose warehouse a previous run finished"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Measure every N, writing the JSON after each; print the Markdown report."""
    args = parse_args(argv)
    work = args.workdir
    work.mkdir(parents=True, exist_ok=True)
    out = args.out or work / "scale-results.json"
    templates = BUILDER.load_templates()
    if not templates:
        sys.exit(f"no template games found in {BUILDER.SOURCE_LOGS}")
    meta = meta_data(args, len(templates))
    results: dict[int, dict[str, Any]] = {}
    for n_games in sorted(args.games):
        results[n_games] = run_size(work, n_games, templates, args)
        meta["load_end"] = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        out.write_text(json.dumps({"meta": meta, "results": results}, indent=1, default=str))
    print(f"\nresults: {out}\n")
    print(report(results, meta))


if __name__ == "__main__":
    main()
