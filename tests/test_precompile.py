"""The first run's compile shared out between processes (pipeline.precompile): the signature list against what an
ingest calls, the shares, a child's failure, concurrent processes, the stamps."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.precompile import (
    DERIVE,
    FORMAT_GROUPS,
    PARSE,
    Entry,
    all_groups,
    group_of,
    ingest_groups,
    read_signatures,
    split,
    stamp_path,
)
from rules import compiled

REPO = Path(__file__).resolve().parents[1]
SAMPLES = {
    "tenhou_xml": "tenhou-xml/mjlog2json/data/2019103023gm-00a9-0000-f90e0fe9.xml",
    "tenhou_json": "tenhou-json/mjlog2json/data/2019021004gm-00a9-0000-e2f6516d.json",
    "majsoul": "majsoul/smly-RiichiEnv/tests/data/mjsoul_corpus_validation.json",
    "mjai": "mjai/akochan/match_result/haifu_log_1000_0.json",
}
"""One small real file of each format (benchmarks/compile_time.py's samples)."""


def test_every_listed_entry_names_a_kernel_and_its_types() -> None:
    entries = read_signatures()
    assert {e.group for e in entries} == set(all_groups())
    for e in entries:
        kernel = compiled.kernel_named(e.kernel)
        types = compiled.argument_types(e.types)
        assert compiled.types_text(types) == e.types
        assert len(types) == kernel.function.__code__.co_argcount, e.kernel
        assert e.group == group_of(e.kernel) and e.cost > 0


RECORD = """
import json, sys
from pathlib import Path
from pipeline.ingest.run import ingest
from pipeline.store.warehouse import Warehouse
from rules.compiled import recorded_calls
with recorded_calls() as calls:
    report = ingest([Path(sys.argv[1])], Warehouse(Path(sys.argv[2])), workers=1, derive=True)
print(json.dumps({"games": report.games, "calls": sorted(calls)}))
"""


@pytest.mark.parametrize("fmt", sorted(SAMPLES))
def test_an_ingest_calls_only_kernels_the_list_holds_for_its_groups(
    fmt: str, shared_logs: Path, tmp_path: Path
) -> None:
    source = shared_logs / SAMPLES[fmt]
    folder = tmp_path / "input"
    folder.mkdir()
    shutil.copyfile(source, folder / source.name)
    command = [sys.executable, "-c", RECORD, str(folder), str(tmp_path / "wh")]  # a fresh process sees every call
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = json.loads(subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout)
    calls = {tuple(call) for call in done["calls"]}
    assert done["games"] >= 1 and calls
    listed = {(e.kernel, e.types): e.group for e in read_signatures()}
    groups = set(ingest_groups([fmt], derive=True))
    for call in calls:
        assert call in listed, f"{fmt} calls {call[0]} with types not in pipeline/kernel_signatures.txt: {call[1]}"
        assert listed[call] in groups, (fmt, call[0], listed[call])
    own = {entry for entry, group in listed.items() if group in FORMAT_GROUPS[fmt]}
    assert own <= calls  # a format's groups hold nothing its ingest does not call (it would be compiled for nothing)


def test_the_shares_are_balanced_and_hold_every_entry_once() -> None:
    entries = [Entry(DERIVE, f"m:k{i}", cost, "()") for i, cost in enumerate([8.0, 1.0, 3.0, 3.0, 2.0, 0.5])]
    shares = split(entries, 2)
    assert sorted(e.kernel for share in shares for e in share) == sorted(e.kernel for e in entries)
    assert sorted(sum(e.cost for e in share) for share in shares) == [8.5, 9.0]
    assert split(entries, 1) == [sorted(entries, key=lambda e: -e.cost)]
    assert len(split(entries[:1], 2)) == 1 and split([], 2) == []


SMALL = [
    ("rules.shanten:_ingredients_kernel", 5.0),
    ("rules.kernels_furiten:rows_by_seat_kernel", 4.0),
]
"""Two small kernels of the list (their listed types), given costs that make a child worth starting."""

PREPARE = """
import json, sys
from pipeline import precompile
from pipeline.precompile import Entry, prepare, read_signatures
from rules import compiled
listed = {e.kernel: e for e in read_signatures()}
wanted = json.loads(sys.argv[1])
entries = [Entry(listed[k].group, k, cost, types or listed[k].types) for k, cost, types in wanted]
done = prepare([entries[0].group], 2, entries)
kernels = [compiled.kernel_named(e.kernel) for e in entries]
print(json.dumps({
    "shares": [[e.kernel for e in share] for share in done.shares] if done else None,
    "children_ok": done.children_ok if done else None,
    "stamps": done.stamps if done else None,
    "compiled_here": [len(k.dispatcher.overloads) if k.dispatcher else 0 for k in kernels],
    "cached": [precompile._cached(e) for e in entries],
}))
"""


def run_prepare(cache: Path, wanted: list[tuple[str, float, str]]) -> dict:
    """prepare in a fresh interpreter with numba's cache in ``cache``; what it printed."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "NUMBA_CACHE_DIR": str(cache)}
    command = [sys.executable, "-c", PREPARE, json.dumps(wanted)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=REPO)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_a_first_run_compiles_one_share_here_and_the_other_in_a_child(tmp_path: Path) -> None:
    wanted = [(kernel, cost, "") for kernel, cost in SMALL]
    first = run_prepare(tmp_path, wanted)
    assert first["shares"] == [[SMALL[0][0]], [SMALL[1][0]]]
    assert first["children_ok"] is True and first["stamps"] == 1
    assert first["compiled_here"] == [1, 0]  # the second was compiled by the child, into the cache
    assert first["cached"] == [True, True]
    again = run_prepare(tmp_path, wanted)
    assert again["shares"] is None  # the stamp says all is there: nothing looked at
    assert again["compiled_here"] == [0, 0]


@pytest.mark.slow
def test_a_failing_child_leaves_its_kernels_to_their_first_call(tmp_path: Path) -> None:
    wanted = [(SMALL[0][0], 5.0, ""), (SMALL[1][0], 4.0, "(int64,)")]  # types it cannot be compiled for
    done = run_prepare(tmp_path, wanted)
    assert done["shares"] == [[SMALL[0][0]], [SMALL[1][0]]]
    assert done["children_ok"] is False and done["stamps"] == 0  # no stamp: the next run looks again
    assert done["cached"] == [True, False]


@pytest.mark.slow
def test_two_first_runs_at_once_share_the_cache(tmp_path: Path) -> None:
    wanted = [(kernel, cost, "") for kernel, cost in SMALL]
    env = {**os.environ, "PYTHONPATH": str(REPO), "NUMBA_CACHE_DIR": str(tmp_path)}
    command = [sys.executable, "-c", PREPARE, json.dumps(wanted)]
    runs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True, cwd=REPO) for _ in range(2)]
    outputs = [json.loads(run.communicate()[0].strip().splitlines()[-1]) for run in runs]
    assert [run.returncode for run in runs] == [0, 0]
    for output in outputs:
        assert output["cached"] == [True, True]
    assert len(list(tmp_path.glob("paipu-kernels-*.ok"))) == 1


def test_a_stamp_changes_with_a_kernel_source_or_the_list(tmp_path: Path) -> None:
    entries = [Entry(DERIVE, SMALL[0][0], 1.0, "()")]
    before = stamp_path(DERIVE, entries, str(tmp_path))
    assert stamp_path(DERIVE, [Entry(DERIVE, SMALL[0][0], 1.0, "(int64,)")], str(tmp_path)) != before
    source = Path(compiled.kernel_named(SMALL[0][0]).function.__code__.co_filename)
    stat = source.stat()
    try:
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        assert stamp_path(DERIVE, entries, str(tmp_path)) != before
    finally:
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert stamp_path(DERIVE, entries, str(tmp_path)) == before


def test_a_later_run_looks_at_no_file_once_the_common_groups_are_stamped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pipeline import precompile

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    looked: list[list[str]] = []
    monkeypatch.setattr(precompile, "sniff_formats", lambda files: looked.append(files) or set())
    monkeypatch.setattr(precompile, "prepare", lambda groups, *args: sorted(groups))
    assert precompile.prepare_ingest(["a.xml"], None, True, 1) is None  # -j 1: compiled at first call, as before
    assert precompile.prepare_ingest(["a.xml"], None, True, 2) == sorted([PARSE, DERIVE])
    assert precompile.prepare_ingest(["a.xml"], "mjai", False, 2) == sorted([PARSE, "mjai"])
    assert looked == [["a.xml"]]  # --format: nothing looked at
    entries = read_signatures()
    for group in (PARSE, DERIVE):
        stamp_path(group, entries, str(tmp_path)).touch()
    assert precompile.prepare_ingest(["a.xml"], None, True, 2) is None
    assert precompile.prepare_ingest(["a.xml"], None, False, 2) is None
    assert looked == [["a.xml"]]


INTERRUPTED = """
import json, sys
from pipeline import precompile
from pipeline.precompile import Entry, read_signatures
listed = {e.kernel: e for e in read_signatures()}
entries = [Entry(listed[k].group, k, cost, listed[k].types) for k, cost in json.loads(sys.argv[1])]
children = []
start = precompile._start_child
precompile._start_child = lambda share: children.append(start(share)) or children[-1]
def interrupted(entry):
    raise KeyboardInterrupt
precompile._compile = interrupted  # Ctrl-C while this process compiles its share
try:
    precompile.prepare([entries[0].group], 2, entries)
except KeyboardInterrupt:
    print(json.dumps([child.exitcode for child in children]))
"""


@pytest.mark.slow
def test_ctrl_c_while_compiling_stops_the_child_at_once(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "NUMBA_CACHE_DIR": str(tmp_path)}
    command = [sys.executable, "-c", INTERRUPTED, json.dumps(SMALL)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=REPO)
    assert json.loads(done.stdout) == [-15]  # terminated (SIGTERM), not waited for: it ignores Ctrl-C itself


class Counters:
    """/proc/stat's first line, one snapshot per read."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)

    def read_text(self) -> str:
        return self.lines.pop(0) + "\ncpu0 0 0 0 0\n"


def test_idle_cores_are_read_from_the_cpu_counters(monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.precompile import idle_cores

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    # 200 ticks over two cores: 50 idle + 10 iowait -> 0.6 core idle
    stat = Counters("cpu  100 0 20 500 5 0 0 0 0 0", "cpu  220 0 40 550 15 0 0 0 0 0")
    assert idle_cores(0.0, stat) == pytest.approx(0.6)  # type: ignore[arg-type]
    assert idle_cores(0.0, Counters("cpu  1 0 0 0 0 0 0 0", "cpu  1 0 0 0 0 0 0 0")) is None  # type: ignore[arg-type]
    assert idle_cores(0.0, Path("/nonexistent/stat")) is None


def test_a_child_compiles_only_beside_an_idle_core() -> None:
    from pipeline.precompile import compile_processes

    assert [compile_processes(2, idle) for idle in (2.0, 1.6, 1.5, 1.4, 0.3, None)] == [2, 2, 2, 1, 1, 2]
    assert compile_processes(1, 2.0) == 1 and compile_processes(4, 2.6) == 3


def test_a_busy_machine_leaves_the_kernels_to_their_first_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline import precompile

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(precompile, "_cached", lambda entry: False)  # a first run (numba may have its cache elsewhere)
    monkeypatch.setattr(precompile, "idle_cores", lambda: 1.2)
    compiled_here: list[Entry] = []
    monkeypatch.setattr(precompile, "_compile", compiled_here.append)
    done = precompile.prepare([DERIVE], 2, idle=True)
    assert done is not None and done.missing and done.shares == [] and not compiled_here
    assert not list(tmp_path.glob("paipu-kernels-*"))  # no stamp: the next run looks again


def test_without_its_signature_list_a_first_run_compiles_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline import precompile

    def unreadable(path: Path = precompile.SIGNATURES) -> list[Entry]:
        raise OSError("gone")

    monkeypatch.setattr(precompile, "read_signatures", unreadable)
    assert precompile.prepare_ingest(["a.xml"], None, True, 2) is None
    assert precompile.prepare([DERIVE], 2) is None


def test_the_signature_list_ships_with_the_package() -> None:
    import tomllib

    package_data = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "kernel_signatures.txt" in package_data["pipeline"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_first_run_looks_at_regular_files_only(tmp_path: Path, shared_logs: Path) -> None:
    """The look at some inputs before a first run's compile never opens a FIFO for a blocking read (it would wait
    for a writer forever: the ingest itself skips FIFOs); the regular files are still told apart."""
    from pipeline.precompile import sniff_formats

    fifo = tmp_path / "a.fifo"
    os.mkfifo(fifo)
    log = shared_logs / "tenhou-xml/mjx/tests_py/resources/mjlog/2020052700gm-00a9-0000-75a4695c.mjlog"
    code = f"from pipeline.precompile import sniff_formats; print(sorted(sniff_formats({[str(fifo), str(log)]!r})))"
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=REPO)
    assert child.stdout.strip() == "['tenhou_xml']", child.stderr
    assert sniff_formats([str(tmp_path / "missing.xml")]) == set()
