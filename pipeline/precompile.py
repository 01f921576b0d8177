"""The first run's compile, shared out between processes: both cores compile the kernels a command needs.

A kernel (rules.compiled) is compiled at its first call in a process and kept in numba's on-disk cache; a later
process loads it. The first process therefore compiles every kernel it calls, one after another on one core (~40
CPU s for all four formats with deriving). Before an ingest or a derivation starts, ``prepare`` looks whether the
kernels it will call are in the cache and, when they are not, compiles them at once: this process one share, a
child process (spawned, like the pool's workers) the other, shares balanced by what each kernel cost to compile;
then the command runs and loads the child's share from the cache.

What a command calls is listed in ``kernel_signatures.txt`` beside this module: per kernel called from Python,
its group (a format's parser, ``parse`` for what every format's ingest calls, ``derive``), its compile cost in CPU
seconds and its argument types as numba writes them (``benchmarks/compile_time.py --write-signatures`` writes the
file; a test checks that the ingest of every format calls nothing it does not list). The callees of a kernel are
compiled with it.

Once a group's kernels are all in the cache, a stamp file in the cache folder says so (named by a digest of the
group's kernel sources, numba's install and Python's version): a later process looks for the stamps of the groups
every ingest calls and, finding them, does nothing else (no numba import, no file looked at). Nothing here can make
a command fail or change a result: a child that fails or dies, a cache that cannot be written, a list out of date,
each only leaves kernels to be compiled at their first call as before.
"""

from __future__ import annotations

import hashlib
import importlib
import multiprocessing
import os
import stat
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from rules import compiled

SIGNATURES = Path(__file__).with_name("kernel_signatures.txt")
"""The kernels called from Python, with their groups, compile costs and argument types (see the docstring)."""

PARSE = "parse"
"""The group of kernels every format's ingest calls (the events' flags, the invariant checks)."""

DERIVE = "derive"
"""The group of the derivation's kernels (hand states, shanten, waits, visibility, furiten)."""

FORMAT_GROUPS: dict[str, tuple[str, ...]] = {
    "tenhou_xml": ("tenhou_xml",),
    "tenhou_json": ("tenhou_json",),
    "majsoul": ("majsoul",),
    "mjai": ("mjai",),
}
"""The groups of each input format's parser."""

MIN_SHARED_SECONDS = 4.0
"""Below this much compiling (estimated CPU s) a child process is not worth its start (~0.7 CPU s)."""

SNIFF_FILES = 64
"""At most this many input files are looked at (their first bytes) to learn the formats of a cold first run."""

SNIFF_BYTES = 65536
"""How much of each such file is read."""


@dataclass(frozen=True)
class Entry:
    """One kernel called from Python, for one set of argument types."""

    group: str
    kernel: str  # module:qualname
    cost: float  # CPU seconds its compile took, callees included (to balance the shares)
    types: str  # its argument types, as rules.compiled.types_text writes them


def read_signatures(path: Path = SIGNATURES) -> list[Entry]:
    """The entries of a signature list (tab-separated: group, kernel, cost, types; '#' starts a comment). Raises
    OSError when it cannot be read, ValueError when a line is malformed."""
    entries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            group, kernel, cost, types = line.split("\t")
            entries.append(Entry(group, kernel, float(cost), types))
    return entries


def _signatures() -> list[Entry]:
    """The shipped signature list, or none when it cannot be read (the kernels are then compiled at their first
    call, as before)."""
    try:
        return read_signatures()
    except (OSError, ValueError):
        return []


def write_signatures(entries: Iterable[Entry], path: Path = SIGNATURES) -> None:
    """Write a signature list (groups in order, each kernel's entries costliest first)."""
    lines = [
        "# Kernels called from Python, compiled ahead by pipeline.precompile on a first run. Written by",
        "# benchmarks/compile_time.py --write-signatures; group, module:qualname, compile CPU s, argument types.",
    ]
    for e in sorted(entries, key=lambda e: (e.group, -e.cost, e.kernel, e.types)):
        lines.append(f"{e.group}\t{e.kernel}\t{e.cost:.2f}\t{e.types}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def group_of(kernel: str) -> str:
    """The group a kernel called from Python belongs to, by its module."""
    module = kernel.partition(":")[0]
    for fmt in FORMAT_GROUPS:
        if module.startswith(f"pipeline.sources.{fmt}."):
            return fmt
    if module.startswith(("pipeline.sources.", "pipeline.invariants.")):
        return PARSE
    return DERIVE


def ingest_groups(formats: Iterable[str], derive: bool) -> list[str]:
    """The groups an ingest of files of ``formats`` calls (with the derivation when ``derive``)."""
    groups = [PARSE]
    for fmt in formats:
        groups += [g for g in FORMAT_GROUPS.get(fmt, ()) if g not in groups]
    return [*groups, DERIVE] if derive else groups


def all_groups() -> list[str]:
    """Every group."""
    return ingest_groups(FORMAT_GROUPS, derive=True)


# ------------------------------------------------------------------------------------------------------- stamps


def _module_file(module: str) -> Path:
    """The source file of a kernel's module, found without importing it (its top package is imported)."""
    top, *rest = module.split(".")
    package = importlib.import_module(top)
    return Path(package.__file__).parent.joinpath(*rest).with_suffix(".py")  # type: ignore[arg-type]


def _numba_version() -> str:
    """Which numba is installed: the path, size and time of its ``__init__.py`` (found, not imported; reading its
    metadata costs ~10 ms), which an upgrade or a reinstall changes."""
    from importlib.util import find_spec

    spec = find_spec("numba")
    if spec is None or spec.origin is None:
        return ""
    stat = os.stat(spec.origin)
    return f"{spec.origin}|{stat.st_size}|{stat.st_mtime_ns}"


def stamp_path(group: str, entries: list[Entry], cache_dir: str) -> Path:
    """The stamp that says every kernel of ``group`` is in the cache: named by a digest of the group's entries, the
    size and time of every source file of the kernels' packages, numba's install and Python's version (numba keys
    its cache on a kernel's source file's time; a callee's may be in another file of the package)."""
    digest = hashlib.sha256(f"{sys.version}|{_numba_version()}".encode())
    folders: set[Path] = set()
    for e in entries:
        if e.group == group:
            digest.update(f"{e.kernel}|{e.types}".encode())
            folders.add(_module_file(e.kernel.partition(":")[0]).parent)
    for folder in sorted(folders):
        for source in sorted(folder.glob("*.py")):
            stat = source.stat()
            digest.update(f"{source}|{stat.st_size}|{stat.st_mtime_ns}".encode())
    return Path(cache_dir) / f"paipu-kernels-{group}-{digest.hexdigest()[:20]}.ok"


def stamped(groups: Iterable[str], entries: list[Entry], cache_dir: str) -> bool:
    """Whether the stamps of all ``groups`` are there (their kernels were all in the cache when written)."""
    return all(stamp_path(group, entries, cache_dir).exists() for group in groups)


# ------------------------------------------------------------------------------------------------------ prepare


@dataclass
class Prepared:
    """What prepare did: the kernels it found missing from the cache, the shares compiled (this process's first),
    whether every child succeeded, and the stamps written."""

    missing: list[Entry]
    shares: list[list[Entry]]
    children_ok: bool = True
    stamps: int = 0


def prepare(
    groups: Iterable[str],
    processes: int,
    entries: list[Entry] | None = None,
    on_compile: Callable[[int, int], None] | None = None,
    idle: bool = False,
) -> Prepared | None:
    """Make sure the kernels of ``groups`` are in the cache before a command calls them: when some are missing,
    compile them now in up to ``processes`` processes (this one and children), calling ``on_compile(kernels,
    processes)`` first; with ``idle``, in as many as there are idle cores (compile_processes), none ahead when
    that is one. Returns None when ``processes`` is 1 (the kernels are then compiled at their first call, one
    process's work either way) or the stamps said the kernels are there (nothing imported), else what was done
    (no shares: left to their first call). Never raises for a child's failure."""
    if processes < 2:
        return None
    groups = list(dict.fromkeys(groups))
    entries = _signatures() if entries is None else entries
    if not entries:
        return None
    cache_dir = compiled.configure_cache()
    if stamped(groups, entries, cache_dir):
        return None
    wanted = [e for e in entries if e.group in groups]
    missing = [e for e in wanted if not _cached(e)]
    if missing and idle:
        processes = compile_processes(processes, idle_cores())
        if processes < 2:
            return Prepared(missing, [])
    shares = split(missing, processes if sum(e.cost for e in missing) >= MIN_SHARED_SECONDS else 1)
    prepared = Prepared(missing, shares)
    if shares and on_compile is not None:
        on_compile(len(missing), len(shares))
    children = [_start_child(share) for share in shares[1:]]
    try:
        for e in shares[0] if shares else []:
            _compile(e)
        for child in children:
            child.join()
            prepared.children_ok &= child.exitcode == 0
    except BaseException:  # Ctrl-C or an error here: the children stop now (they ignore Ctrl-C, like the workers)
        for child in children:
            child.terminate()
            child.join()
        raise
    for group in groups:
        if all(_cached(e) for e in wanted if e.group == group):
            prepared.stamps += _write_stamp(stamp_path(group, entries, cache_dir))
    return prepared


def split(entries: list[Entry], processes: int) -> list[list[Entry]]:
    """``entries`` in at most ``processes`` shares of about equal cost (costliest first, each to the lightest
    share); no empty share."""
    shares: list[list[Entry]] = [[] for _ in range(max(1, min(processes, len(entries))))]
    costs = [0.0] * len(shares)
    for e in sorted(entries, key=lambda e: -e.cost):
        lightest = costs.index(min(costs))
        shares[lightest].append(e)
        costs[lightest] += e.cost
    return [share for share in shares if share]


def _cached(entry: Entry) -> bool:
    """Whether an entry's kernel is in the cache for its types (False when the kernel is gone or unreadable)."""
    try:
        kernel = compiled.kernel_named(entry.kernel)
        return compiled.is_cached(kernel, compiled.argument_types(entry.types))
    except Exception:  # noqa: BLE001 - a list out of date or an unreadable cache: compiled at its first call
        return False


def _compile(entry: Entry) -> bool:
    """Compile one entry into the cache; False when that fails (the kernel is then compiled at its first call,
    where its error, if it has one, is raised as usual)."""
    try:
        compiled.compile_for(compiled.kernel_named(entry.kernel), compiled.argument_types(entry.types))
    except Exception:  # noqa: BLE001 - see the docstring
        return False
    return True


def _write_stamp(path: Path) -> int:
    """Write a stamp file; 1, or 0 when the cache folder cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    except OSError:
        return 0
    return 1


def _start_child(share: list[Entry]) -> multiprocessing.process.BaseProcess:
    """Start a spawned process compiling ``share`` into the cache (it dies with this process)."""
    context = multiprocessing.get_context("spawn")
    child = context.Process(target=compile_share, args=(share, os.getpid()), name="paipu-compile", daemon=True)
    child.start()
    return child


def compile_share(share: list[Entry], parent_pid: int) -> None:
    """A child process's work: compile each entry of ``share`` into the cache; exit status 1 when one failed."""
    from pipeline.executors import worker_init

    worker_init(parent_pid)
    failed = [e for e in share if not _compile(e)]
    if failed:
        sys.exit(1)


# ------------------------------------------------------------------------------------------------- idle cores


IDLE_WINDOW = 0.2
"""Seconds over which a first run measures how busy the cores are (/proc/stat) before it starts a child."""


def idle_cores(window: float = IDLE_WINDOW, stat: Path = Path("/proc/stat")) -> float | None:
    """How many cores were idle over the next ``window`` seconds (this process sleeps meanwhile): from the
    machine's CPU counters (/proc/stat's first line: idle and iowait against the total); None where they cannot
    be read."""

    def counters() -> tuple[int, int]:
        fields = [int(v) for v in stat.read_text().split("\n", 1)[0].split()[1:]]
        return fields[3] + fields[4], sum(fields[:8])  # idle + iowait; user..steal (guests are inside user)

    try:
        idle0, total0 = counters()
        time.sleep(window)
        idle1, total1 = counters()
    except (OSError, ValueError, IndexError):
        return None
    if total1 <= total0:
        return None
    return (idle1 - idle0) / (total1 - total0) * (os.cpu_count() or 1)


def compile_processes(requested: int, idle: float | None) -> int:
    """How many processes a first run compiles in: ``requested`` (the command's workers, at most the cores), but
    a child only for each core idle beside the one this process uses (measured: two compiling processes beside
    other busy ones cost ~25% more CPU and did not finish sooner). ``idle``: idle_cores(); None counts as all idle."""
    if requested < 2 or idle is None:
        return requested
    return max(1, min(requested, int(idle + 0.5)))


# -------------------------------------------------------------------------------------------------- the ingest


def sniff_formats(files: list[str], limit: int = SNIFF_FILES) -> set[str]:
    """The formats of up to ``limit`` of ``files`` (spread over the list, which is sorted folder by folder), each
    detected from its first SNIFF_BYTES bytes; unreadable files and containers' members are not looked at."""
    from pipeline.ingest.reading import detect_format

    step = max(1, len(files) // limit)
    formats: set[str] = set()
    for path in files[::step][:limit]:
        head = _regular_file_head(path)
        fmt = detect_format(head) if head is not None else None
        if fmt is not None:
            formats.add(fmt)
    return formats


def _regular_file_head(path: str) -> bytes | None:
    """The first SNIFF_BYTES of a regular file; None for anything else or an unreadable file. Opened without
    blocking and its kind checked before reading: a FIFO among the inputs (the ingest skips it) never waits for a
    writer here."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, TypeError, ValueError):
        return None
    with os.fdopen(fd, "rb") as f:
        try:
            return f.read(SNIFF_BYTES) if stat.S_ISREG(os.fstat(f.fileno()).st_mode) else None
        except OSError:
            return None


def prepare_ingest(
    files: list[str],
    file_format: str | None,
    derive: bool,
    processes: int,
    on_compile: Callable[[int, int], None] | None = None,
    idle: bool = False,
) -> Prepared | None:
    """prepare for an ingest of ``files`` (``idle``: see prepare). A first run is told by the stamps of the groups
    every ingest calls (``parse``, and ``derive`` when deriving): when they are there, nothing else is looked at (a
    format met for the first time later is compiled at its first call, in one process, as before); else the
    formats come from ``file_format`` or a look at some of the files (sniff_formats)."""
    if processes < 2:
        return None
    entries = _signatures()
    if not entries:
        return None
    if stamped(ingest_groups((), derive), entries, compiled.configure_cache()):
        return None
    formats = {file_format} if file_format else sniff_formats(files)
    return prepare(ingest_groups(sorted(formats), derive), processes, entries, on_compile, idle)
