"""One writer at a time: the warehouse lock (pipeline.store.lock) in one process, across processes, and around two
real ``paipu ingest`` runs at once; and a pool's workers dying with the main process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner
from warehouse_contents import contents, differences

from pipeline.cli import app
from pipeline.compact import compact
from pipeline.derive.run import derive
from pipeline.ingest import ingest
from pipeline.store.lock import LOCK_FILE, WarehouseLockedError, read_holder, warehouse_lock
from pipeline.store.warehouse import Warehouse

REPO = Path(__file__).resolve().parents[1]
PLAIN = "mjx/tests_py/resources/mjlog/2020052700gm-00a9-0000-75a4695c.mjlog"
"""A plain mjlog: one complete game of 9 rounds."""

HOLDER = """
import sys
from pipeline.store.lock import warehouse_lock

with warehouse_lock(sys.argv[1], "test holder"):
    print("held", flush=True)
    sys.stdin.read()  # until the test closes stdin (or kills this process)
"""
"""A process that holds a warehouse's lock until its stdin is closed."""


def python(*args: str, **options: object) -> subprocess.Popen:
    """Start ``python args`` in the repository (pipeline importable), its own session, pipes for its streams."""
    return subprocess.Popen(
        [sys.executable, *args], cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, **options,
    )  # fmt: skip


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[subprocess.Popen]:
    """Another process holding the lock of the warehouse at tmp_path / 'w' (stopped after the test)."""
    process = python("-c", HOLDER, str(tmp_path / "w"))
    assert process.stdout.readline().strip() == "held", process.stderr.read()
    yield process
    if process.poll() is None:
        process.kill()
    process.wait(timeout=30)
    for stream in (process.stdin, process.stdout, process.stderr):
        stream.close()


# --- in one process ------------------------------------------------------------------------------------------
def test_the_lock_is_reentrant_in_a_thread_and_records_its_holder(tmp_path: Path) -> None:
    root = tmp_path / "w"
    with warehouse_lock(root, "outer"), warehouse_lock(root, "inner"):  # the same thread takes it again
        holder = read_holder(root)
        assert holder is not None and holder.pid == os.getpid() and holder.command.startswith("outer")
    with warehouse_lock(root):  # released: taken again at once
        pass
    assert (root / LOCK_FILE).is_file()


def test_another_thread_of_the_process_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "w"
    raised: list[BaseException] = []

    def second_writer() -> None:
        try:
            with warehouse_lock(root):
                pass
        except WarehouseLockedError as exc:
            raised.append(exc)

    with warehouse_lock(root, "first"):
        thread = threading.Thread(target=second_writer)
        thread.start()
        thread.join()
    assert len(raised) == 1 and f"pid {os.getpid()}" in str(raised[0])


def test_ingest_then_derive_under_one_lock_do_not_deadlock(shared_logs: Path, tmp_path: Path) -> None:
    warehouse = Warehouse(tmp_path / "w")
    with warehouse_lock(warehouse.root, "notebook"):
        report = ingest([shared_logs / "tenhou-xml" / PLAIN], warehouse)
        derived = derive(warehouse)
    assert report.games == 1 and derived.parts == 1


# --- across processes ----------------------------------------------------------------------------------------
def test_another_process_is_refused_with_the_holder_named(tmp_path: Path, holder: subprocess.Popen) -> None:
    with pytest.raises(WarehouseLockedError) as caught, warehouse_lock(tmp_path / "w"):
        pass
    assert caught.value.holder is not None and caught.value.holder.pid == holder.pid
    assert f"pid {holder.pid}" in str(caught.value) and "test holder" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_library_writers_take_the_lock(tmp_path: Path, holder: subprocess.Popen) -> None:
    warehouse = Warehouse(tmp_path / "w")
    (tmp_path / "in").mkdir()
    for write in (lambda: ingest([tmp_path / "in"], warehouse), lambda: derive(warehouse), lambda: compact(warehouse)):
        with pytest.raises(WarehouseLockedError, match=f"pid {holder.pid}"):
            write()


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path, holder: subprocess.Popen) -> None:
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=30)
    with warehouse_lock(tmp_path / "w"):  # the kernel dropped the dead process's lock
        assert read_holder(tmp_path / "w").pid == os.getpid()


def test_wait_takes_the_lock_once_the_holder_lets_go(tmp_path: Path, holder: subprocess.Popen) -> None:
    waited_for = []
    threading.Timer(0.5, holder.stdin.close).start()  # the holder lets go in half a second
    start = time.monotonic()
    with warehouse_lock(tmp_path / "w", wait=True, on_wait=waited_for.append):
        assert holder.wait(timeout=30) == 0
    assert time.monotonic() - start >= 0.4
    assert [h.pid for h in waited_for] == [holder.pid]


@pytest.fixture
def small_warehouse(shared_logs: Path, tmp_path: Path) -> Path:
    """A warehouse of one real game at tmp_path / 'w' (where ``holder`` holds the lock)."""
    ingest([shared_logs / "tenhou-xml" / PLAIN], Warehouse(tmp_path / "w"), derive=True)
    return tmp_path / "w"


@pytest.mark.parametrize("command", [["derive"], ["compact"], ["ingest", "EMPTY"]])
def test_a_writing_command_exits_4_naming_the_holder_or_waits(
    small_warehouse: Path, holder: subprocess.Popen, tmp_path: Path, command: list[str]
) -> None:
    (tmp_path / "empty").mkdir()
    command = [str(tmp_path / "empty") if arg == "EMPTY" else arg for arg in command]
    runner = CliRunner()
    refused = runner.invoke(app, [*command, "-w", str(small_warehouse)])
    assert refused.exit_code == 4, refused.output
    assert len(refused.output.strip().splitlines()) == 1 and f"pid {holder.pid}" in refused.output, refused.output
    threading.Timer(0.5, holder.stdin.close).start()  # the holder lets go in half a second
    waited = runner.invoke(app, [*command, "-w", str(small_warehouse), "--wait"])
    assert waited.exit_code == 0, waited.output
    assert f"waiting: pid {holder.pid}" in " ".join(waited.output.split())


# --- two real writers at once --------------------------------------------------------------------------------
QUARANTINED = 3
"""A run of ../shared/logs/tenhou-xml exits 3: pantheon's hand-edited hanchan_with_noname.xml (a round without a
draw) is quarantined by the invariant checks; every other file is read."""

SLOW_INGEST = ("--no-derive", "--batch-size", "2", "-j", "1")
"""A slow run of the real logs (two files a batch: seconds), so that the second writer comes while it writes."""


def paipu(*args: str | Path) -> subprocess.Popen:
    """Start a real ``paipu`` command (``python -m pipeline``)."""
    return python("-m", "pipeline", *(str(a) for a in args))


def words(text: str) -> str:
    """``text`` with its line breaks and runs of spaces as single spaces (rich wraps lines at 80 into a pipe)."""
    return " ".join(text.split())


def wait_until_holding(process: subprocess.Popen, root: Path, timeout: float = 60) -> None:
    """Wait until ``process`` is recorded as the holder of the warehouse's lock."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        holder = read_holder(root)
        if holder is not None and holder.pid == process.pid:
            return
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    raise AssertionError(f"{process.pid} never took the lock of {root}")


@pytest.fixture(scope="module")
def clean(shared_logs: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The warehouse of one uninterrupted ingest of the real Tenhou logs, not derived."""
    warehouse = Warehouse(tmp_path_factory.mktemp("clean") / "w")
    ingest([shared_logs / "tenhou-xml"], warehouse)
    return contents(warehouse)


def assert_one_clean_run(root: Path, clean: dict) -> None:
    """The warehouse at ``root`` holds what one uninterrupted run writes: no game lost or doubled, every file once
    in the manifest."""
    found = contents(Warehouse(root))
    assert differences(clean, found) == []
    paths = found["manifest"]["path"].to_pylist()
    assert len(paths) == len(set(paths))
    game_ids = found["games"]["game_id"].to_pylist()
    assert len(game_ids) == len(set(game_ids))


@pytest.mark.e2e
def test_a_second_writer_exits_4_naming_the_first(shared_logs: Path, tmp_path: Path, clean: dict) -> None:
    root = tmp_path / "w"
    first = paipu("ingest", shared_logs / "tenhou-xml", "-w", root, *SLOW_INGEST)
    wait_until_holding(first, root)
    second = paipu("ingest", shared_logs / "tenhou-xml", "-w", root, "--no-derive")
    _, second_err = second.communicate(timeout=300)
    first_out, first_err = first.communicate(timeout=600)
    assert second.returncode == 4, second_err
    assert len(second_err.strip().splitlines()) == 1, second_err
    assert f"pid {first.pid}" in second_err and "--wait" in second_err and "Traceback" not in second_err
    assert first.returncode == QUARANTINED, first_err
    assert "127 ok" in words(first_out), first_out
    assert_one_clean_run(root, clean)


@pytest.mark.e2e
def test_with_wait_both_writers_finish_as_one_clean_run(shared_logs: Path, tmp_path: Path, clean: dict) -> None:
    root = tmp_path / "w"
    first = paipu("ingest", shared_logs / "tenhou-xml", "-w", root, *SLOW_INGEST, "--wait")
    wait_until_holding(first, root)
    second = paipu("ingest", shared_logs / "tenhou-xml", "-w", root, "--no-derive", "--wait")
    second_out, second_err = second.communicate(timeout=600)
    first_out, first_err = first.communicate(timeout=600)
    assert (first.returncode, second.returncode) == (QUARANTINED, 0), (first_err, second_err)
    assert f"waiting: pid {first.pid}" in words(second_err)
    assert "127 ok" in words(first_out) and "0 ok" in words(second_out), (first_out, second_out)
    assert "218 unchanged" in words(second_out), second_out
    assert_one_clean_run(root, clean)


# --- workers die with the main process -----------------------------------------------------------------------
def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and _parent_and_state(int(entry))[0] == pid:
            found.append(int(entry))
    return found


def _parent_and_state(pid: int) -> tuple[int | None, str | None]:
    """A process's parent id and state letter ('Z': a zombie, dead but not yet reaped); (None, None) when gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None, None
    state, parent = stat[stat.rindex(")") + 2 :].split()[:2]
    return int(parent), state


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie has ended)."""
    return _parent_and_state(pid)[1] not in (None, "Z")


@pytest.mark.e2e
@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="reads the process table from /proc")
def test_workers_die_with_a_killed_main_process(shared_logs: Path, tmp_path: Path) -> None:
    main = paipu("ingest", shared_logs / "tenhou-xml", "-w", tmp_path / "w", "-j", "2", "--batch-size", "2")
    deadline = time.monotonic() + 60
    while len(children(main.pid)) < 3 and time.monotonic() < deadline:  # two workers and the resource tracker
        assert main.poll() is None, main.communicate()
        time.sleep(0.05)
    workers = children(main.pid)
    assert len(workers) >= 3, workers
    time.sleep(0.5)  # the workers are reading their batches
    main.send_signal(signal.SIGKILL)  # to the main process alone, not to its group
    main.communicate(timeout=30)
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = [pid for pid in workers if alive(pid)]
    for pid in survivors:  # a failure leaves no process behind
        os.kill(pid, signal.SIGKILL)
    assert survivors == []
