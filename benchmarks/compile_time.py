"""What the compiled core's numba kernels cost a process: compiled with an empty cache, loaded from a full one.

Run by hand from the repository root (never a test; about a minute, most of it the cold compile; ``--isolated``
adds several minutes)::

    python benchmarks/compile_time.py [--warm-runs 3] [--jobs 1] [--isolated] [--startup-runs 5] [--startup-only]
                                      [--json PATH] [--write-signatures]

Every measurement is a fresh child process (``python benchmarks/compile_time.py --child ...``) with its own
temporary ``NUMBA_CACHE_DIR``, so its CPU time and peak memory are its own:

* **cold**: ``paipu ingest -j JOBS`` (the CLI, in the child's own process: one batch, no worker processes) of one
  small real file of each format under ../shared/logs (``SAMPLES``: Tenhou XML, tenhou.net/6 JSON, Mahjong Soul,
  mjai), with deriving, into an empty warehouse, the numba cache empty: every kernel the ingest calls is compiled.
  ``--jobs 1`` (the default) compiles them in the child, one at its first call; ``--jobs 2`` (the default of
  ``paipu ingest`` on two cores) lets pipeline.precompile compile them before the ingest in two processes, the
  child and a process it spawns: the table then has the spawned process's CPU beside the child's own, and the
  per-kernel table holds the child's share only. ``--write-signatures`` writes pipeline/kernel_signatures.txt
  from the cold run (the kernels called from Python, with their types and costs: run it with ``--jobs 1``).
* **warm**: the same ingest into a new warehouse, the cache now full (``--warm-runs`` processes): the start-up a
  later process pays (importing numba, loading the kernels). The wall time is the whole child process's, as the
  parent sees it (interpreter start, imports, the ingest of the four files), beside its parts.
* **per kernel**: while the cold child runs, a numba event listener (``numba:compile``, ``numba:llvm_lock``) times
  each compile on its thread's CPU clock: per kernel (every one declared through ``rules.compiled.njit``), the
  argument-type signatures compiled, the CPU seconds of its own compiles (callees' compiles subtracted; the callees'
  code it links in and optimises again stays in: numba re-optimises a caller's module with its callees), of which
  in LLVM, and including its callees. ``--isolated`` adds each kernel compiled alone in a fresh process with an
  empty cache, for the signatures the ingest compiled (callees included: what that kernel costs by itself).

* **start-up** (``--startup-runs``, default 5; ``--startup-only`` measures nothing else): what a later process
  costs before it does anything, the kernels in the cache: ``paipu --help``, ``paipu version``, ``paipu schema``,
  ``paipu sql 'select 1'`` on a one-game warehouse, and ``paipu ingest`` of the Tenhou XML sample with deriving into
  a new warehouse (``-j 1``), each run as its console script runs it (``python -m pipeline``), the commands
  alternated, medians printed. For the ingest also the part before its first file is read: a child that runs the
  command line in its own process and notes, at the first ``open`` of the input (an audit hook), its CPU so far
  and the wall time since the parent started it. And the ingest of two copies of the sample with
  ``--batch-size 1``, ``-j 1`` against ``-j 2``: what worker processes add (each is spawned, and pays the imports
  and the kernel loads again).

Process CPU is user + system of the child from its start (``resource.getrusage``, all threads); peak memory is the
child's ``VmHWM`` (/proc/self/status). Other people's jobs on the machine inflate wall times, much less CPU times:
run twice to see the noise. Prints markdown tables; ``--json`` writes every measurement.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import pickle
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

START = time.perf_counter()
REPO = Path(__file__).resolve().parents[1]
LOGS = REPO.parent / "shared" / "logs"
SAMPLES = {
    "tenhou_xml": "tenhou-xml/mjlog2json/data/2019103023gm-00a9-0000-f90e0fe9.xml",
    "tenhou_json": "tenhou-json/mjlog2json/data/2019021004gm-00a9-0000-e2f6516d.json",
    "majsoul": "majsoul/smly-RiichiEnv/tests/data/mjsoul_corpus_validation.json",
    "mjai": "mjai/akochan/match_result/haifu_log_1000_0.json",
}
"""One small real file of each format (a whole game where the folder has one), below ../shared/logs."""


# ---------------------------------------------------------------------------------------------------------- child


@dataclass
class Compile:
    """One numba compile of one kernel for one signature, timed on its thread's CPU clock."""

    kernel: str
    signature: str
    types: str  # the argument types, pickled and base64-encoded (for --isolated)
    start: float
    inclusive: float = 0.0
    children: float = 0.0
    llvm: float = 0.0
    llvm_children: float = 0.0
    parent: str = ""


@dataclass
class CompileRecorder:
    """A numba event listener: every ``numba:compile`` with its own and its callees' CPU time and LLVM time."""

    done: list[Compile] = field(default_factory=list)
    local: threading.local = field(default_factory=threading.local)

    def stack(self) -> list[Compile]:
        """This thread's open compiles (innermost last)."""
        if not hasattr(self.local, "stack"):
            self.local.stack = []
        return self.local.stack

    def install(self) -> None:
        """Register for numba's compile and LLVM-lock events (imports numba)."""
        from numba.core import event

        recorder = self

        class Listener(event.Listener):
            def on_start(self, ev: Any) -> None:
                recorder.on_start(ev)

            def on_end(self, ev: Any) -> None:
                recorder.on_end(ev)

        listener = Listener()
        event.register("numba:compile", listener)
        event.register("numba:llvm_lock", listener)

    def on_start(self, ev: Any) -> None:
        """A compile or an LLVM-lock hold begins on this thread."""
        now = time.thread_time()
        if ev.kind == "numba:compile":
            dispatcher, args = ev.data["dispatcher"], ev.data["args"]
            name = f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"
            try:
                types = base64.b64encode(pickle.dumps(tuple(args))).decode()
            except Exception:  # noqa: BLE001 - some types do not pickle: such a compile is not redone alone
                types = ""
            stack = self.stack()
            parent = stack[-1].kernel if stack else ""
            stack.append(Compile(name, str(tuple(args)), types, now, parent=parent))
            return
        depth = getattr(self.local, "llvm_depth", 0)  # the LLVM lock is re-entrant: the outermost hold counts
        if depth == 0:
            self.local.llvm_start = now
        self.local.llvm_depth = depth + 1

    def on_end(self, ev: Any) -> None:
        """A compile or an LLVM-lock hold ends: its time goes to it and is subtracted from its caller's own."""
        now = time.thread_time()
        stack = self.stack()
        if ev.kind == "numba:compile":
            top = stack.pop()
            top.inclusive = now - top.start
            self.done.append(top)
            if stack:
                stack[-1].children += top.inclusive
                stack[-1].llvm_children += top.llvm + top.llvm_children
            return
        self.local.llvm_depth -= 1
        if self.local.llvm_depth == 0 and stack:
            stack[-1].llvm += now - self.local.llvm_start


def time_cache_loads() -> list[float]:
    """Time every load of a compiled kernel from numba's cache from now on (wall seconds, appended to the list):
    numba's own reading of the cache (``_load_overload``), which rules.compiled's loader calls too, without the
    target context's refresh numba's ``load_overload`` does first (that loader skips it)."""
    from numba.core import caching

    seconds: list[float] = []
    load = caching.Cache._load_overload

    def timed(self: Any, sig: Any, target_context: Any) -> Any:
        start = time.perf_counter()
        try:
            return load(self, sig, target_context)
        finally:
            seconds.append(time.perf_counter() - start)

    caching.Cache._load_overload = timed  # type: ignore[method-assign]
    return seconds


def vm_hwm_mb() -> float:
    """This process's peak resident memory (VmHWM of /proc/self/status), MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def process_cpu() -> float:
    """User + system CPU seconds of this process so far (all threads)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def child_ingest(input_folder: Path, warehouse: Path, out: Path, jobs: int = 1) -> None:
    """Run ``paipu ingest INPUT -w WAREHOUSE -j JOBS`` in this process, recording compiles; write the results."""
    recorder = CompileRecorder()
    recorder.install()
    loads = time_cache_loads()
    imported_numba = time.perf_counter()
    from pipeline.cli import app

    imported = time.perf_counter()
    cpu_imported = process_cpu()
    sys.argv = ["paipu", "ingest", str(input_folder), "-w", str(warehouse), "-j", str(jobs)]
    code: Any = 0
    try:
        app()
    except SystemExit as exit_:
        code = exit_.code
    end = time.perf_counter()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    from rules import compiled

    kernels = [f"{k.function.__module__}.{k.function.__qualname__}" for k in compiled._KERNELS]
    result = {
        "exit_code": code,
        "cpu_s": process_cpu(),
        "children_cpu_s": children.ru_utime + children.ru_stime,
        "kernel_ids": {name: compiled.kernel_name(k) for name, k in zip(kernels, compiled._KERNELS, strict=True)},
        "cpu_imports_s": cpu_imported,
        "peak_mb": vm_hwm_mb(),
        "wall_import_numba_s": imported_numba - START,
        "wall_imports_s": imported - START,
        "wall_ingest_s": end - imported,
        "wall_s": end - START,
        "kernels": kernels,
        "compiles": [vars(c) for c in recorder.done],
        "cache_loads": len(loads),
        "cache_load_wall_s": sum(loads),
    }
    out.write_text(json.dumps(result))


def child_first_read(input_file: Path, warehouse: Path, out: Path) -> None:
    """Run ``paipu ingest INPUT_FILE -w WAREHOUSE -j 1`` in this process as the console script does; write the
    process CPU and the wall clock (time.time) at the first open of INPUT_FILE, and at the end."""
    import sys as system

    seen: dict[str, float] = {}
    target = str(input_file)

    def on_open(event: str, args: tuple) -> None:
        if event == "open" and not seen and str(args[0]) == target:
            seen.update(cpu=process_cpu(), clock=time.time())

    system.addaudithook(on_open)
    from pipeline.cli import app

    system.argv = ["paipu", "ingest", target, "-w", str(warehouse), "-j", "1"]
    code: Any = 0
    try:
        app()
    except SystemExit as exit_:
        code = exit_.code
    out.write_text(json.dumps({"exit_code": code, "first_read": seen, "cpu_s": process_cpu(), "clock": time.time()}))


def child_isolated(name: str, types: list[str], out: Path) -> None:
    """Compile one kernel for the given pickled signatures in this process (empty cache); write its CPU time."""
    import importlib

    from rules import compiled

    module, _, qualname = name.rpartition(".")
    importlib.import_module(module)
    kernel = next(
        k for k in compiled._KERNELS if (k.function.__module__, k.function.__qualname__) == (module, qualname)
    )
    compiled.compile_all()
    dispatcher = kernel.dispatcher
    assert dispatcher is not None
    start = time.thread_time()
    for encoded in types:
        dispatcher.compile(pickle.loads(base64.b64decode(encoded)))
    out.write_text(json.dumps({"cpu_s": time.thread_time() - start, "peak_mb": vm_hwm_mb()}))


# --------------------------------------------------------------------------------------------------------- parent


def run_child(args: list[str], cache: Path, out: Path) -> dict[str, Any]:
    """Run this script as a child with ``args`` and numba's cache in ``cache``; its results plus its wall time."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(REPO)}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *args, "--out", str(out)],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"child {args} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    result = json.loads(out.read_text())
    if result.get("exit_code") not in (0, None):
        output = f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        raise RuntimeError(f"the ingest of child {args} exited with {result['exit_code']}:\n{output}")
    result["process_wall_s"] = wall
    return result


def sample_folder(root: Path) -> Path:
    """A folder holding a copy of each sample file (copies: discovery does not follow links)."""
    folder = root / "input"
    for fmt, relative in SAMPLES.items():
        source = LOGS / relative
        if not source.is_file():
            sys.exit(f"sample of {fmt} not found: {source}")
        target = folder / fmt / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    return folder


@dataclass
class KernelCost:
    """One kernel's compiles in the cold run, summed over its signatures."""

    name: str
    signatures: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    own: float = 0.0
    llvm: float = 0.0
    inclusive: float = 0.0
    isolated: float | None = None
    declared: bool = True


def kernel_costs(cold: dict[str, Any]) -> list[KernelCost]:
    """Every declared kernel with its compiles in the cold run, costliest (own CPU) first."""
    costs = {name: KernelCost(name) for name in cold["kernels"]}
    for c in cold["compiles"]:
        cost = costs.setdefault(c["kernel"], KernelCost(c["kernel"], declared=False))
        cost.signatures.append(c["signature"])
        cost.types.append(c["types"])
        cost.own += c["inclusive"] - c["children"]
        cost.llvm += c["llvm"]
        cost.inclusive += c["inclusive"]
    return sorted(costs.values(), key=lambda k: (-k.own, k.name))


def short(name: str) -> str:
    """A kernel's name without the package prefixes."""
    return name.removeprefix("pipeline.sources.").removeprefix("rules.")


def print_tables(cold: dict[str, Any], warm: list[dict[str, Any]], costs: list[KernelCost]) -> None:
    """The totals and the per-kernel table, as markdown."""
    print(
        "| run | CPU s | + child processes' CPU s | of which imports | compiles (own, this process) | peak MB | "
        "process wall s | ingest wall s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    compile_total = sum(c["inclusive"] - c["children"] for c in cold["compiles"])
    print(
        f"| cold (empty cache) | {cold['cpu_s']:.2f} | {cold.get('children_cpu_s', 0.0):.2f} | "
        f"{cold['cpu_imports_s']:.2f} | {compile_total:.2f} | {cold['peak_mb']:.0f} | {cold['process_wall_s']:.2f} | "
        f"{cold['wall_ingest_s']:.2f} |"
    )
    for i, w in enumerate(warm):
        print(
            f"| warm {i + 1} (cache full) | {w['cpu_s']:.2f} | {w.get('children_cpu_s', 0.0):.2f} | "
            f"{w['cpu_imports_s']:.2f} | {sum(c['inclusive'] - c['children'] for c in w['compiles']):.2f} | "
            f"{w['peak_mb']:.0f} | {w['process_wall_s']:.2f} | {w['wall_ingest_s']:.2f} |"
        )
    if warm:
        median = {key: statistics.median(w[key] for w in warm) for key in ("cpu_s", "process_wall_s", "peak_mb")}
        print(
            f"\nwarm medians: {median['cpu_s']:.2f} CPU s, {median['process_wall_s']:.2f} s wall for the whole "
            f"process, peak {median['peak_mb']:.0f} MB; of the wall: imports "
            f"{statistics.median(w['wall_imports_s'] for w in warm):.2f} s (numba's event module first: "
            f"{statistics.median(w['wall_import_numba_s'] for w in warm):.2f} s), the ingest with its kernel loads "
            f"{statistics.median(w['wall_ingest_s'] for w in warm):.2f} s, of which loading "
            f"{statistics.median(w['cache_loads'] for w in warm):.0f} kernels from the cache "
            f"{statistics.median(w['cache_load_wall_s'] for w in warm):.2f} s"
        )
    declared = [k for k in costs if k.declared]
    library = [k for k in costs if not k.declared]
    n_compiled = sum(1 for k in declared if k.signatures)
    print(
        f"\n{len(declared)} kernels declared, {n_compiled} compiled by the cold ingest "
        f"({sum(len(k.signatures) for k in declared)} signatures, {sum(k.own for k in declared):.2f} CPU s own); "
        f"numba's library functions compiled for them: {sum(len(k.signatures) for k in library)} compiles of "
        f"{len(library)} functions, {sum(k.own for k in library):.2f} CPU s own\n"
    )
    isolated = any(k.isolated is not None for k in costs)
    header = "| kernel | signatures | own CPU s | of which LLVM | with callees |" + (" alone s |" if isolated else "")
    print(header)
    print("|---|---|---|---|---|" + ("---|" if isolated else ""))
    for k in declared:
        alone = (f" {k.isolated:.2f} |" if k.isolated is not None else " |") if isolated else ""
        if k.signatures:
            print(f"| {short(k.name)} | {len(k.signatures)} | {k.own:.3f} | {k.llvm:.3f} | {k.inclusive:.3f} |{alone}")
        else:
            print(f"| {short(k.name)} | 0 | not compiled | | |{alone}")
    print("\nnumba's own functions, the ten costliest:\n")
    print("| function | compiles | own CPU s |")
    print("|---|---|---|")
    for k in library[:10]:
        print(f"| {k.name} | {len(k.signatures)} | {k.own:.3f} |")
    multiple = [k for k in declared if len(k.signatures) > 1]
    if multiple:
        print("\nkernels compiled for several signatures:")
        for k in multiple:
            print(f"- {short(k.name)}:")
            for signature in k.signatures:
                print(f"  - {signature}")


@dataclass
class Timed:
    """CPU (user + system, the process and every child it waited for) and wall seconds of runs of one command."""

    name: str
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)

    def row(self) -> str:
        """A markdown row: medians and the range of CPU."""
        return (
            f"| {self.name} | {statistics.median(self.cpu):.3f} | {min(self.cpu):.3f}-{max(self.cpu):.3f} | "
            f"{statistics.median(self.wall):.3f} |"
        )


def timed_run(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Run ``command`` (exit 0 asserted); its CPU seconds (its process tree's, from RUSAGE_CHILDREN) and wall."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=REPO, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{command} exited with {done.returncode}:\n{done.stderr[-3000:]}")
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def measure_startup(root: Path, cache: Path, runs: int) -> dict[str, Any]:
    """The start-up of later processes (see the module docstring), the kernels in ``cache`` (filled here first by
    an ingest of the samples, not counted); returns the Timed of every command and the first-read figures."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(REPO)}
    paipu = [sys.executable, "-m", "pipeline"]
    xml = sample_folder(root) / "tenhou_xml" / Path(SAMPLES["tenhou_xml"]).name
    timed_run([*paipu, "ingest", str(root / "input"), "-w", str(root / "startup-fill"), "-j", "1"], env)
    small = root / "startup-small"
    timed_run([*paipu, "ingest", str(xml), "-w", str(small), "-j", "1"], env)
    pair = root / "startup-pair"
    for k in range(2):  # two files: two batches of one, so that -j 2 starts two workers
        pair.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(xml, pair / f"copy{k}.xml")
    commands = {
        "paipu --help": lambda i: ["--help"],
        "paipu version": lambda i: ["version"],
        "paipu schema": lambda i: ["schema"],
        "paipu sql 'select 1' (one-game warehouse)": lambda i: ["sql", "select 1", "-w", str(small)],
        "paipu ingest (one XML file, deriving, -j 1)": lambda i: [
            "ingest", str(xml), "-w", str(root / f"s{i}"), "-j", "1"],
        "paipu ingest (two files, --batch-size 1, -j 1)": lambda i: [
            "ingest", str(pair), "-w", str(root / f"p1-{i}"), "-j", "1", "--batch-size", "1"],
        "paipu ingest (two files, --batch-size 1, -j 2)": lambda i: [
            "ingest", str(pair), "-w", str(root / f"p2-{i}"), "-j", "2", "--batch-size", "1"],
    }  # fmt: skip
    results = {name: Timed(name) for name in commands}
    first_read: list[dict[str, float]] = []
    for i in range(runs):
        for name, args in commands.items():
            cpu, wall = timed_run([*paipu, *args(i)], env)
            results[name].cpu.append(cpu)
            results[name].wall.append(wall)
        out = root / "first-read.json"
        start = time.time()
        args = ["--child", "first-read", "--input", str(xml), "--warehouse", str(root / f"f{i}"), "--out", str(out)]
        timed_run([sys.executable, str(Path(__file__).resolve()), *args], env)
        child = json.loads(out.read_text())
        first_read.append({"cpu_s": child["first_read"]["cpu"], "wall_s": child["first_read"]["clock"] - start,
                           "total_cpu_s": child["cpu_s"], "total_wall_s": child["clock"] - start})  # fmt: skip
    return {"commands": results, "first_read": first_read}


def print_startup(startup: dict[str, Any]) -> None:
    """The start-up table, as markdown."""
    print("| command (a fresh process, kernels cached) | CPU s (median) | CPU s range | wall s (median) |")
    print("|---|---|---|---|")
    for timed in startup["commands"].values():
        print(timed.row())
    first = startup["first_read"]
    median = {key: statistics.median(f[key] for f in first) for key in first[0]}
    print(
        f"\nthe one-file ingest in-process, until its file is first opened: {median['cpu_s']:.3f} CPU s, "
        f"{median['wall_s']:.3f} s wall (whole: {median['total_cpu_s']:.3f} CPU s, {median['total_wall_s']:.3f} s)"
    )
    one, two = (startup["commands"][f"paipu ingest (two files, --batch-size 1, -j {j})"] for j in (1, 2))
    print(
        f"-j 2 against -j 1 on the same two files: {statistics.median(two.cpu) - statistics.median(one.cpu):+.3f} "
        "CPU s (the workers' own start-up: spawned processes import and load the kernels again)\n"
    )


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments; as the parent, run the children and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warm-runs", type=int, default=3, help="warm processes (medians printed)")
    parser.add_argument("--isolated", action="store_true", help="also compile each kernel alone (a process each)")
    parser.add_argument("--startup-runs", type=int, default=5, help="runs of each start-up command (0: none)")
    parser.add_argument("--startup-only", action="store_true", help="measure the start-up only (a warm cache)")
    parser.add_argument("--json", type=Path, help="write every measurement here")
    parser.add_argument("--jobs", type=int, default=1, help="the cold and warm ingests' -j (2: compile on both cores)")
    parser.add_argument(
        "--write-signatures", action="store_true",
        help="write pipeline/kernel_signatures.txt from the cold run (with --jobs 1: every compile is seen)",
    )  # fmt: skip
    parser.add_argument("--child", choices=("ingest", "isolated", "first-read"), help=argparse.SUPPRESS)
    parser.add_argument("--input", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--warehouse", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--kernel", help=argparse.SUPPRESS)
    parser.add_argument("--types", nargs="*", default=[], help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.child == "ingest":
        child_ingest(options.input, options.warehouse, options.out, options.jobs)
        return
    if options.child == "isolated":
        child_isolated(options.kernel, options.types, options.out)
        return
    if options.child == "first-read":
        child_first_read(options.input, options.warehouse, options.out)
        return
    if options.startup_only:
        with tempfile.TemporaryDirectory(prefix="paipu-startup-") as temporary:
            startup = measure_startup(Path(temporary), Path(temporary) / "numba", options.startup_runs)
        print_startup(startup)
        if options.json:
            options.json.write_text(json.dumps(_startup_json(startup)))
        return

    with tempfile.TemporaryDirectory(prefix="paipu-compile-") as temporary:
        root = Path(temporary)
        folder = sample_folder(root)
        cache = root / "numba"
        jobs = ["--jobs", str(options.jobs)]
        cold = run_child(["--child", "ingest", "--input", str(folder), "--warehouse", str(root / "wh0"), *jobs],
                         cache, root / "cold.json")  # fmt: skip
        if options.write_signatures:
            write_signatures(cold)
        warm = [
            run_child(
                ["--child", "ingest", "--input", str(folder), "--warehouse", str(root / f"wh{i + 1}"), *jobs],
                cache,
                root / f"warm{i}.json",
            )  # fmt: skip
            for i in range(options.warm_runs)
        ]
        costs = kernel_costs(cold)
        if options.isolated:
            for k in costs:
                if not k.declared or not k.types or not all(k.types):
                    continue
                alone = root / f"alone-{len(k.name)}"
                shutil.rmtree(alone, ignore_errors=True)
                args = ["--child", "isolated", "--kernel", k.name, "--types", *k.types]
                k.isolated = run_child(args, alone, root / "alone.json")["cpu_s"]
        startup = measure_startup(root, cache, options.startup_runs) if options.startup_runs else None
        print_tables(cold, warm, costs)
        if startup:
            print_startup(startup)
        if options.json:
            measured = {"cold": cold, "warm": warm, "kernels": [vars(k) for k in costs]}
            options.json.write_text(json.dumps({**measured, "startup": _startup_json(startup) if startup else None}))


def write_signatures(cold: dict[str, Any]) -> None:
    """Write pipeline/kernel_signatures.txt: every kernel the cold ingest called from Python (a compile no other
    compile was under), with its argument types and its compile's CPU seconds, callees included."""
    sys.path.insert(0, str(REPO))  # this repository's pipeline, whatever is installed
    from numba.core import types  # noqa: F401 - the pickled types need numba's classes

    from pipeline.precompile import Entry, group_of
    from pipeline.precompile import write_signatures as write
    from rules.compiled import types_text

    entries = []
    for c in cold["compiles"]:
        kernel = cold["kernel_ids"].get(c["kernel"])
        if kernel is None or c["parent"] or not c["types"]:
            continue
        argument_types = pickle.loads(base64.b64decode(c["types"]))
        entries.append(Entry(group_of(kernel), kernel, round(c["inclusive"], 2), types_text(argument_types)))
    write(entries)
    print(f"wrote {len(entries)} kernel signatures")


def _startup_json(startup: dict[str, Any]) -> dict[str, Any]:
    """The start-up measurements as JSON values."""
    return {"commands": [vars(t) for t in startup["commands"].values()], "first_read": startup["first_read"]}


if __name__ == "__main__":
    main()
