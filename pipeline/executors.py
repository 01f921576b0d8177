"""Where batches run: inline, in a local process pool, or on a Dask cluster, behind one interface.

Every backend is a ``concurrent.futures.Executor`` (Dask's ``Client.get_executor()`` is one), so the ingest
and the derivation submit the same picklable jobs to any of them and take the results back in submission
order (``ordered``), a bounded number in flight.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import re
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from functools import partial
from typing import Any, TypeVar

from pipeline import exit_without_collecting, without_pandas
from pipeline.allocator import keep_freed_memory
from pipeline.errors import WarehouseError

Job = TypeVar("Job")
Result = TypeVar("Result")

LOCAL_CLUSTER = "local"
"""``--scheduler local``: start a Dask LocalCluster with ``workers`` single-threaded worker processes."""

_SCHEDULER_ADDRESS = re.compile(r"((tcp|tls|ucx|ws|wss)://)?(\[[0-9A-Fa-f:.]+\]|[\w.-]+):\d{1,5}")
"""A Dask scheduler address: an optional protocol, a host (or a bracketed IPv6 address) and a port."""

PR_SET_PDEATHSIG = 1
"""Linux prctl option: the signal a process gets when its parent dies."""

PARENT_POLL_SECONDS = 0.5
"""Where prctl is missing, how often a worker checks that the process that started it is alive."""


def default_workers() -> int:
    """All cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def scheduler_problem(scheduler: str) -> str | None:
    """Return what is wrong with a ``--scheduler`` value ('local' or a Dask address like tcp://host:8786), None
    when it is well formed (whether a scheduler answers there is only known on connecting)."""
    if scheduler == LOCAL_CLUSTER or _SCHEDULER_ADDRESS.fullmatch(scheduler):
        return None
    return f"--scheduler must be {LOCAL_CLUSTER!r} or a scheduler address like tcp://host:8786, not {scheduler!r}"


@contextmanager
def executor(workers: int, scheduler: str | None = None, n_jobs: int = 2) -> Iterator[Executor | None]:
    """The executor to run ``n_jobs`` jobs with: None (run inline) for one worker or a single job, a
    process pool of ``workers`` processes, or, with ``scheduler`` (a Dask scheduler address, or 'local'
    for a LocalCluster of ``workers`` processes), a Dask client's executor.

    Raises WarehouseError when Dask is asked for but not installed or the scheduler cannot be reached.
    """
    if scheduler is not None:
        with _dask_executor(scheduler, workers) as dask_executor:
            yield dask_executor
    elif workers <= 1 or n_jobs <= 1:
        yield None
    else:
        # spawned (not forked) workers: the parent may hold DuckDB or Arrow threads, which fork would copy mid-lock
        pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=worker_init,
            initargs=(os.getpid(),),
        )
        try:
            yield pool
        except BaseException:  # an error or Ctrl-C: the batches in flight are thrown away, do not wait for them
            _stop_workers(pool)
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def worker_init(parent_pid: int) -> None:
    """Set up a pool worker process: it dies with ``parent_pid`` (the process that started it), leaves Ctrl-C
    to it (a terminal sends SIGINT to the whole process group; the parent stops the workers itself), and runs
    without pandas (pipeline.without_pandas: a batch never uses it, and pyarrow would import it, ~0.2-0.4 CPU s) and
    exits without the collector's last pass (pipeline.exit_without_collecting: the pool waits for its workers' exit)."""
    without_pandas()
    exit_without_collecting()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not _die_on_parent_death():
        threading.Thread(target=_watch_parent, args=(parent_pid,), name="paipu-parent-watch", daemon=True).start()
    if os.getppid() != parent_pid:  # the parent died before the worker could ask to die with it
        os._exit(1)


def _die_on_parent_death() -> bool:
    """Ask the kernel to SIGKILL this process when its parent dies (Linux prctl); False where that is missing.
    The parent is the thread that started the process: the pool's workers are started by the thread submitting
    the jobs, which outlives the pool (``executor`` shuts it down before returning)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent_pid: int) -> None:
    """Exit this process as soon as its parent is gone (it is then adopted by another process)."""
    while os.getppid() == parent_pid:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate a pool's worker processes now (``shutdown`` would let each finish its job first)."""
    processes = getattr(pool, "_processes", None) or {}  # the pool's own map (no public API before 3.14)
    for process in list(processes.values()):
        if process.is_alive():
            process.terminate()


@contextmanager
def _dask_executor(scheduler: str, workers: int) -> Iterator[Executor]:
    try:
        from dask.distributed import Client, LocalCluster  # noqa: PLC0415 - an optional dependency
    except ImportError:
        raise WarehouseError("--scheduler needs Dask: pip install 'paipu[dask]'") from None
    cluster = None
    try:
        if scheduler == LOCAL_CLUSTER:
            cluster = LocalCluster(n_workers=max(workers, 1), threads_per_worker=1, dashboard_address=None)
            client = Client(cluster)
        else:
            client = Client(scheduler, timeout=30)
    except (OSError, ValueError) as exc:  # unreachable, or an address Dask cannot parse
        if cluster is not None:
            cluster.close()
        raise WarehouseError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
    try:
        yield client.get_executor(pure=False)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def ordered(
    pool: Executor | None, function: Callable[[Job], Result], jobs: Iterable[Job], window: int = 4
) -> Iterator[Result]:
    """Yield ``function(job)`` for every job in order; with a pool, at most ``window`` jobs in flight
    (bounding the staged data and memory). The first job's exception is raised when its turn comes, and
    the jobs in flight are then cancelled or finished. Whatever process runs a job keeps the memory a job
    frees for the next one (pipeline.allocator)."""
    if pool is None:
        keep_freed_memory()
        yield from map(function, jobs)
        return
    pending: deque[Future[Any]] = deque()
    try:
        for job in jobs:
            pending.append(pool.submit(partial(_run_keeping_memory, function), job))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()


def _run_keeping_memory(function: Callable[[Job], Result], job: Job) -> Result:
    """Run one job in a worker process, its allocator set to keep freed memory (once per process)."""
    keep_freed_memory()
    return function(job)
