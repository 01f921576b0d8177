"""A run killed (SIGKILL) at any point leaves no partial Parquet visible, and the next run finishes the job
with the same warehouse as an uninterrupted run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from warehouse_contents import contents, differences

from pipeline.ingest import ingest
from pipeline.store.warehouse import Warehouse

pytestmark = pytest.mark.e2e  # real runs killed at many points

BATCH = 6
REPO = Path(__file__).resolve().parents[1]

# Runs the ingest in a child process that kills itself (and its workers: one process group) at the N-th
# file rename: every staged write, journal and publish step ends in one, so N walks through all of them.
DRIVER = """
import os, signal, sys
from pathlib import Path

calls = 0
real_replace = os.replace

def replace_then_die(src, dst):
    global calls
    calls += 1
    if calls == KILL_AT:
        os.killpg(os.getpgid(0), signal.SIGKILL)
    real_replace(src, dst)

KILL_AT = int(sys.argv[3])
os.replace = replace_then_die
from pipeline.ingest import ingest
from pipeline.store.warehouse import Warehouse

if __name__ == "__main__":
    report = ingest([Path(sys.argv[1])], Warehouse(sys.argv[2]), batch_size=BATCH, derive=True, workers=WORKERS)
    print("renames", calls)
"""


@pytest.fixture(scope="module")
def inputs(shared_logs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """24 Tenhou logs with copies of the same games in different batches."""
    folder = tmp_path_factory.mktemp("inputs")
    mjlogs = sorted((shared_logs / "tenhou-xml" / "mjx").rglob("*.mjlog"))[:24]
    for path in mjlogs:
        shutil.copy(path, folder / f"{path.parent.name}-{path.name}")
    return folder


@pytest.fixture(scope="module")
def uninterrupted(inputs: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The warehouse of a run that was not killed."""
    warehouse = Warehouse(tmp_path_factory.mktemp("whole") / "w")
    ingest([inputs], warehouse, batch_size=BATCH, derive=True)
    return contents(warehouse)


def run_killed(inputs: Path, root: Path, kill_at: int, workers: int = 1) -> subprocess.CompletedProcess:
    """Run the driver in its own process group; returns the finished (or killed) process."""
    script = DRIVER.replace("BATCH", str(BATCH)).replace("WORKERS", str(workers))
    return subprocess.run(
        [sys.executable, "-c", script, str(inputs), str(root), str(kill_at)],
        cwd=REPO, capture_output=True, text=True, start_new_session=True, timeout=600,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip


def assert_only_whole_parts(root: Path) -> None:
    """Every Parquet file a reader can see (below a table folder) has a valid footer."""
    for path in root.rglob("*.parquet"):
        if "_staging" not in path.parts:
            pq.read_metadata(path)


@pytest.fixture(scope="module")
def renames(inputs: Path, tmp_path_factory: pytest.TempPathFactory) -> int:
    """How many renames a whole run makes (the driver never reaching its kill point)."""
    done = run_killed(inputs, tmp_path_factory.mktemp("count") / "w", kill_at=10**9)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


@pytest.mark.parametrize("fraction", [0.03, 0.35, 0.5, 0.74, 0.98])
def test_a_killed_run_resumes_to_the_uninterrupted_result(
    inputs: Path, tmp_path: Path, uninterrupted: dict, renames: int, fraction: float
) -> None:
    root = tmp_path / "w"
    killed = run_killed(inputs, root, kill_at=max(1, int(renames * fraction)))
    assert killed.returncode == -9, killed.stderr
    assert_only_whole_parts(root)

    report = ingest([inputs], Warehouse(root), batch_size=BATCH, derive=True)

    assert sum(report.files.values()) == 24  # every file accounted for: read again, or unchanged
    assert differences(uninterrupted, contents(Warehouse(root))) == []
    assert not (root / "_staging").exists()
    assert not list(root.rglob("*.tmp"))


def test_a_killed_pool_resumes_to_the_uninterrupted_result(
    inputs: Path, tmp_path: Path, uninterrupted: dict, renames: int
) -> None:
    root = tmp_path / "w"
    killed = run_killed(inputs, root, kill_at=max(1, renames // 2), workers=2)
    assert killed.returncode == -9, killed.stderr
    assert_only_whole_parts(root)
    ingest([inputs], Warehouse(root), batch_size=BATCH, derive=True)
    assert differences(uninterrupted, contents(Warehouse(root))) == []
