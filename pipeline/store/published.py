"""What readers see: only whole published batches, also while a batch is being published and after a writer was
killed while publishing one.

A batch is published by a journal of renames (pipeline.store.transaction): one rename at a time, so a reader
listing the part files in the middle would see half a batch. Publishing therefore holds an exclusive
``fcntl.flock`` on ``<root>/_commit.lock`` (``publishing``), and a reader holds a shared one while it lists the
part files and queries them (``reading``): a commit waits for the readers of the moment (their queries), readers
wait for a commit (its renames: milliseconds to a second). A writer killed while publishing leaves its journal
behind with no lock held: the next reader (or writer) finishes it before reading, since a journal is applied
idempotently, and a batch whose journal was never written is invisible (its files are still staged).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pipeline.errors import WarehouseError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no cross-process guarantee
    fcntl = None  # type: ignore[assignment]

COMMIT_LOCK_FILE = "_commit.lock"
"""The publishing lock's file, in the warehouse root (no table folder: no reader looks at it as data)."""


@contextmanager
def publishing(root: Path | str) -> Iterator[None]:
    """Hold the exclusive publishing lock of the warehouse at ``root`` (created when missing) for the ``with``
    block: no reader lists or reads part files meanwhile. Yields nothing; raises WarehouseError when the lock
    file cannot be made."""
    with _flocked(Path(root), exclusive=True, create=True):
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                os.utime(Path(root) / COMMIT_LOCK_FILE)  # a new generation (see generation)


def generation(root: Path | str) -> int:
    """A number that changes whenever something is published in the warehouse at ``root`` (the publishing lock
    file's modification time, ns; 0 before the first publication): a reader holding a connection opens a new
    one when it changed, to see the new part files."""
    try:
        return os.stat(Path(root) / COMMIT_LOCK_FILE).st_mtime_ns
    except OSError:
        return 0


@contextmanager
def reading(root: Path | str) -> Iterator[None]:
    """Hold the shared publishing lock of the warehouse at ``root`` for the ``with`` block (list its part files
    and query them inside it), after finishing any publication a killed writer left half done. Yields nothing;
    a warehouse that cannot hold the lock file (read-only) is read without it."""
    root = Path(root)
    if _pending_journals(root):
        with _flocked(root, exclusive=True, create=False):
            from pipeline.store.transaction import finish_committed  # the transaction module imports this one

            finish_committed(root)
    with _flocked(root, exclusive=False, create=False):
        yield


def _pending_journals(root: Path) -> bool:
    from pipeline.store.transaction import JOURNAL, STAGING

    staging = root / STAGING
    return staging.is_dir() and any((folder / JOURNAL).is_file() for folder in staging.iterdir())


@contextmanager
def _flocked(root: Path, exclusive: bool, create: bool) -> Iterator[None]:
    """flock ``root/_commit.lock`` (exclusive or shared, waiting) for the block. A reader (``create`` false) of a
    warehouse where the lock file cannot be made or opened reads without it."""
    path = root / COMMIT_LOCK_FILE
    try:
        if create:
            root.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if not create:
            yield
            return
        raise WarehouseError(f"cannot write the warehouse {root}: {exc.strerror or exc}") from None
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)
