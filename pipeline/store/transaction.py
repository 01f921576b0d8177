"""All-or-nothing changes to the warehouse: a batch's files are staged aside, then published together.

A transaction owns a folder ``<root>/_staging/<name>/`` laid out like the warehouse itself. Everything a
batch changes (new parts of every table, parts rewritten without some games, the manifest) is written
there first; deletions are recorded. ``commit()`` then writes a journal (``COMMIT.json``: the files to move
into place and the files to delete), applies it with renames on the same file system, and removes the
folder. A run killed at any point leaves either

- a staging folder without a journal: nothing of it was published; ``recover()`` deletes it, or
- a staging folder with a journal: the commit had started; ``recover()`` applies the rest of it (applying
  is idempotent: a file already moved is no longer staged, a file already deleted is gone).

So no part file is ever visible half-written (every file is renamed into place whole), and readers, which list
and read ``<root>/<table>/`` under the shared publishing lock (pipeline.store.published), never see half a batch:
a commit applies its journal under the exclusive one, and a journal a killed writer left is finished first. One
process at a time commits to a warehouse (pipeline.store.lock); workers only write to their own staging folder.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from contextlib import suppress
from pathlib import Path

from pipeline.errors import WarehouseError
from pipeline.store.published import publishing

STAGING = "_staging"
"""Folder below the warehouse root holding the transactions in flight."""

JOURNAL = "COMMIT.json"
"""The journal file: its presence means the transaction is committed (being applied)."""


class Transaction:
    """A set of file changes below ``root``, staged in ``root/_staging/<name>``, published by ``commit()``."""

    def __init__(self, root: Path, name: str | None = None) -> None:
        self.root = Path(root)
        self.name = name or uuid.uuid4().hex
        self.folder = self.root / STAGING / self.name
        self.deletions: set[str] = set()

    def staged(self, relative: Path | str) -> Path:
        """The staging path of a warehouse file (``relative`` to the root); its folder is created."""
        path = self.folder / relative
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WarehouseError(f"cannot write {path.parent}: {exc.strerror or exc}") from None
        return path

    def current(self, relative: Path | str) -> Path | None:
        """The file this transaction would leave at ``relative``: the staged one, else the published one,
        None when neither exists (or it is to be deleted)."""
        staged = self.folder / relative
        if staged.is_file():
            return staged
        if str(relative) in self.deletions:
            return None
        published = self.root / relative
        return published if published.is_file() else None

    def delete(self, relative: Path | str) -> None:
        """Delete the warehouse file ``relative`` on commit (and drop a staged copy of it)."""
        (self.folder / relative).unlink(missing_ok=True)
        self.deletions.add(str(relative))

    def staged_files(self) -> list[str]:
        """Relative paths of the files staged so far, sorted."""
        if not self.folder.is_dir():
            return []
        return sorted(str(p.relative_to(self.folder)) for p in self.folder.rglob("*.parquet"))

    def commit(self) -> None:
        """Publish every staged file and apply every deletion; raises WarehouseError on an I/O failure
        (the journal then stays, and the next run's ``recover()`` finishes the commit)."""
        staged = self.staged_files()
        journal = {"replace": staged, "delete": sorted(self.deletions - set(staged))}
        with publishing(self.root):  # readers see the warehouse before this commit or after it, never between
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                tmp = self.folder / f"{JOURNAL}.tmp"
                tmp.write_text(json.dumps(journal))
                os.replace(tmp, self.folder / JOURNAL)
            except OSError as exc:
                raise WarehouseError(f"cannot write the journal in {self.folder}: {exc.strerror or exc}") from None
            _apply(self.root, self.folder)

    def abort(self) -> None:
        """Throw the staged files away, unless the transaction is committed (its journal written): a commit
        cut short by an error is finished by the next ``recover()``, never thrown away half applied."""
        if (self.folder / JOURNAL).is_file():
            return
        shutil.rmtree(self.folder, ignore_errors=True)


def _apply(root: Path, folder: Path) -> None:
    """Apply a committed transaction's journal (idempotently), then remove its folder."""
    journal = json.loads((folder / JOURNAL).read_text())
    try:
        for relative in journal["replace"]:
            staged = folder / relative
            if staged.is_file():
                target = root / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(staged, target)
        for relative in journal["delete"]:
            (root / relative).unlink(missing_ok=True)
    except OSError as exc:
        raise WarehouseError(f"cannot publish {folder}: {exc.strerror or exc}") from None
    shutil.rmtree(folder, ignore_errors=True)


def recover(root: Path) -> tuple[int, int]:
    """Finish or discard the transactions a killed run left below ``root``.

    Returns (committed transactions finished, uncommitted ones discarded). Call it only when no other
    process is writing to the warehouse.
    """
    staging = Path(root) / STAGING
    if not staging.is_dir():
        return 0, 0
    with publishing(root):
        finished = finish_committed(Path(root))
    discarded = 0
    for folder in sorted(p for p in staging.iterdir() if p.is_dir()):
        shutil.rmtree(folder, ignore_errors=True)  # never committed: nothing of it was published
        discarded += 1
    shutil.rmtree(staging, ignore_errors=True)
    return finished, discarded


def finish_committed(root: Path) -> int:
    """Apply the journals of the commits a killed writer left half applied below ``root`` (hold the publishing
    lock: pipeline.store.published); leaves uncommitted transactions alone. Returns how many were finished."""
    staging = Path(root) / STAGING
    folders = sorted(p for p in staging.iterdir() if p.is_dir() and (p / JOURNAL).is_file()) if staging.is_dir() else []
    for folder in folders:
        _apply(Path(root), folder)
    return len(folders)


def remove_empty_staging(root: Path) -> None:
    """Remove the staging folder once no transaction is left in it (call when no worker is running)."""
    with suppress(OSError):  # absent, or still holding a transaction (kept for recover())
        (Path(root) / STAGING).rmdir()
