"""One writer at a time: an exclusive lock on a warehouse, taken by ingest, derive and compact.

The lock is an ``fcntl.flock`` on ``<root>/_writer.lock``. The kernel releases it when the process holding it ends,
however it ends (``kill -9`` included), so a dead writer never leaves a stale lock behind. The file records the
holder (pid, command, start time) so that another writer can say who holds it; the record of a holder that is gone
stays in the file, unread, until the next writer replaces it.

The lock is reentrant within a thread: a command holding it around ``ingest`` and then ``derive`` (or the CLI
holding it to wait with ``--wait`` before the library takes it again) takes it once. Another thread of the same
process is refused like another process. Readers (queries, stats) never take it: they take the publishing lock
(pipeline.store.published), shared, so that they never see half a batch.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pipeline.errors import WarehouseError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: the lock is then only within this process
    fcntl = None  # type: ignore[assignment]

LOCK_FILE = "_writer.lock"
"""The lock file, in the warehouse root (beside ``_staging``: no table folder, so no reader ever looks at it)."""

HOLDER_READ_TRIES = 10
"""Reads of the holder's record before settling for 'unknown' (a writer writes it just after taking the lock)."""


class WarehouseLockedError(WarehouseError):
    """Another writer holds the warehouse's lock; ``holder`` says who (None when it could not be read)."""

    def __init__(self, root: Path, holder: Holder | None) -> None:
        self.root = root
        self.holder = holder
        who = holder.describe() if holder else "another process"
        super().__init__(f"the warehouse {root} is being written by {who}: wait for it to finish, or rerun with --wait")


@dataclass(frozen=True)
class Holder:
    """Who holds a warehouse's lock: process id, command line and start time (seconds since the epoch)."""

    pid: int
    command: str
    started: float

    def describe(self) -> str:
        """Return a short description for a message: 'pid 123 (paipu ingest logs) since 12:00:01'."""
        since = datetime.fromtimestamp(self.started).strftime("%Y-%m-%d %H:%M:%S")
        return f"pid {self.pid} ({self.command}) since {since}"

    def to_bytes(self) -> bytes:
        """Return the record written in the lock file (JSON)."""
        return json.dumps({"pid": self.pid, "command": self.command, "started": self.started}).encode()

    @staticmethod
    def from_bytes(data: bytes) -> Holder | None:
        """Return the holder recorded in ``data`` (a lock file's content), None when it holds no whole record."""
        try:
            record = json.loads(data)
            return Holder(int(record["pid"]), str(record["command"]), float(record["started"]))
        except (ValueError, KeyError, TypeError):
            return None


def command_line() -> str:
    """Return this process's command line as a shell would show it (the program by its file name)."""
    argv = sys.argv or ["python"]
    return shlex.join([Path(argv[0]).name, *argv[1:]])


@dataclass
class _Held:
    """A lock this process holds: its open lock file and how many nested ``warehouse_lock`` hold it."""

    fd: int
    depth: int = 0


_held: dict[Path, _Held] = {}
"""Warehouse root (resolved) -> the lock this process holds on it."""

_thread_locks: dict[Path, threading.RLock] = {}
"""Warehouse root (resolved) -> the lock that keeps the other threads of this process out while one holds it."""

_registry = threading.Lock()
"""Guards _thread_locks."""


def lock_path(root: Path | str) -> Path:
    """Return the path of a warehouse's lock file."""
    return Path(root) / LOCK_FILE


def read_holder(root: Path | str) -> Holder | None:
    """Return the holder recorded in a warehouse's lock file (None when none is recorded); says nothing about
    whether the lock is held now."""
    try:
        return Holder.from_bytes(lock_path(root).read_bytes())
    except OSError:
        return None


@contextmanager
def warehouse_lock(
    root: Path | str,
    command: str | None = None,
    wait: bool = False,
    on_wait: Callable[[Holder | None], None] | None = None,
) -> Iterator[None]:
    """Hold the exclusive writer's lock of the warehouse at ``root`` for the ``with`` block.

    Takes the warehouse root (created when missing), what is writing (``command``, recorded with the process's
    command line), whether to ``wait`` for another writer to finish, and ``on_wait(holder)``, called once before
    waiting. Yields nothing. Raises WarehouseLockedError naming the holder when another writer holds the lock and
    ``wait`` is false, WarehouseError when the lock file cannot be made. Reentrant within a thread.
    """
    key = Path(root).resolve()
    thread_lock = _thread_lock(key)
    if not thread_lock.acquire(blocking=False):  # another thread of this process writes
        if not wait:
            raise WarehouseLockedError(Path(root), _current_holder(key))
        if on_wait:
            on_wait(_current_holder(key))
        thread_lock.acquire()
    try:
        held = _held.get(key)
        if held is None:
            held = _held[key] = _Held(_lock_file(key, command, wait, on_wait, Path(root)))
        held.depth += 1
        try:
            yield
        finally:
            held.depth -= 1
            if not held.depth:
                del _held[key]
                os.close(held.fd)  # the kernel drops the flock with the last descriptor
    finally:
        thread_lock.release()


def _thread_lock(key: Path) -> threading.RLock:
    """Return the per-process lock of a warehouse root, made on first use."""
    with _registry:
        return _thread_locks.setdefault(key, threading.RLock())


def _lock_file(
    key: Path, command: str | None, wait: bool, on_wait: Callable[[Holder | None], None] | None, root: Path
) -> int:
    """Open and flock the lock file below ``key`` (waiting when asked), record this process as its holder, and
    return the open descriptor; raises WarehouseLockedError or WarehouseError (see warehouse_lock)."""
    try:
        key.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock_path(key), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise WarehouseError(f"cannot write the warehouse {root}: {exc.strerror or exc}") from None
    try:
        if fcntl is not None:
            _flock(fd, key, wait, on_wait, root)
        _record(fd, command)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _flock(fd: int, key: Path, wait: bool, on_wait: Callable[[Holder | None], None] | None, root: Path) -> None:
    """Take the exclusive flock on ``fd``: at once, or after waiting when ``wait`` (Ctrl-C interrupts the wait)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        if not wait:
            raise WarehouseLockedError(root, _current_holder(key)) from None
    if on_wait:
        on_wait(_current_holder(key))
    fcntl.flock(fd, fcntl.LOCK_EX)


def _record(fd: int, command: str | None) -> None:
    """Write this process as the lock's holder (pid, command, now) over the previous record."""
    line = command_line()
    described = line if command is None or command == line else f"{command}: {line}"
    data = Holder(os.getpid(), described, time.time()).to_bytes()
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, data, 0)
    except OSError:
        pass  # the lock is held all the same; only the message naming the holder would be poorer


def _current_holder(key: Path) -> Holder | None:
    """The holder recorded in the lock file, read again for a moment while it names no live process (a new holder
    writes its record just after taking the lock)."""
    holder = None
    for _ in range(HOLDER_READ_TRIES):
        holder = read_holder(key)
        if holder is not None and _alive(holder.pid):
            return holder
        time.sleep(0.02)
    return holder if holder is not None and _alive(holder.pid) else None


def _alive(pid: int) -> bool:
    """Whether a process of this id exists (it may be another user's)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
