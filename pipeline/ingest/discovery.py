"""Discovery: the inputs of an ingest as the files and members to read.

Folders are walked recursively (hidden files and folders left out), files sorted folder by folder; what is not
read by design (a FIFO, a dangling link, a link loop, a folder that cannot be listed, a link out of the inputs
unless asked) is listed too, as a Skipped path whose entry says why, so that every input gets its manifest row.
A container (zip, tar, a log database: pipeline.ingest.containers) is one entry per member.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from pipeline.ingest import containers
from pipeline.ingest.containers import Entry
from pipeline.limits import DEFAULT_LIMITS, Limits


class Skipped(str):
    """A path discovery found but does not read: the string is its absolute path, ``why`` the one-line
    message (naming it) that its manifest row carries."""

    why: str

    def __new__(cls, path: str, why: str) -> Skipped:
        """The path, carrying ``why``."""
        skipped = super().__new__(cls, path)
        skipped.why = why
        return skipped

    def __reduce__(self) -> tuple:
        """Pickled with its message."""
        return Skipped, (str(self), self.why)


def discover_files(paths: Iterable[Path], limits: Limits = DEFAULT_LIMITS, follow_links: bool = False) -> list[Entry]:
    """Expand files and folders (recursively) into the entries to read, files sorted by absolute path: a plain
    file is one entry, a container (detected by content) one entry per member, in the container's order, each
    to be read within ``limits``; an input not read (see discover_paths) is an entry whose reading says why.

    Hidden files and folders are skipped. Raises FileNotFoundError for a path that does not exist.
    """
    return list(expand_entries(discover_paths(paths, follow_links), limits))


def discover_paths(paths: Iterable[Path], follow_links: bool = False) -> list[str]:
    """The files below ``paths`` (folders recursively, hidden ones skipped) as absolute paths sorted folder by
    folder, not looked into: expand_entries turns them into entries as they are needed.

    Inputs not read are listed too, as Skipped paths saying why: what is not a regular file (a FIFO, a
    socket, a device), a dangling link, a link loop, a folder that cannot be listed, a link to a folder inside
    the inputs (its files are read where they are), a link out of the inputs unless ``follow_links`` (then
    each folder is walked once, so a loop of links ends), and a file whose path holds containers.SEPARATOR
    ('!/', a folder named 'x.zip!'): its name could be a container member's. Raises FileNotFoundError for a path
    that does not exist."""
    paths = list(paths)
    walk = _Walk([os.path.realpath(path) for path in paths], follow_links)
    found: set[str] = set()
    for path in paths:
        if path.is_dir():
            found.update(walk.below(str(path.resolve()), os.path.realpath(path)))
        elif path.is_file():
            found.add(str(path.resolve()))
        elif os.path.lexists(path):  # a FIFO or a dangling link given by name
            found.add(_not_read(os.path.abspath(path)))
        else:
            raise FileNotFoundError(f"no such file or folder: {path}")
    # kept as strings: Path objects for 100k files cost seconds
    return sorted((_member_like(name) for name in found), key=_path_order)


def _member_like(path: str) -> str:
    """The path, or a Skipped path when it holds the separator of a container's members ('!/'): its manifest row
    could not be told from a member's (a folder 'x.zip!' beside an archive 'x.zip')."""
    if containers.SEPARATOR not in path or isinstance(path, Skipped):
        return path
    return Skipped(path, f"{path}: its path holds {containers.SEPARATOR!r}, which names container members: not read "
                         "(rename the folder or file)")


def expand_entries(names: Iterable[str], limits: Limits = DEFAULT_LIMITS) -> Iterator[Entry]:
    """The entries of files (as discover_paths gives them), lazily, to be read within ``limits``: a plain file
    is one entry, a container (detected by its first bytes) one entry per member, in the container's order, a
    Skipped path one entry whose reading raises containers.SkippedError with its reason."""
    for name in names:
        if isinstance(name, Skipped):
            yield containers.skipped_entry(str(name), name.why)
        else:
            yield from containers.entries(name, limits)


def _path_order(name: str) -> str:
    """Sort key of a path, folder by folder: the separator made the lowest character (one string per path,
    not a list of its parts: a million paths' keys take ~100 MB instead of ~450 MB)."""
    return name.replace(os.sep, "\0")


class _Walk:
    """Walks input folders: which links are followed, which folders were walked (by real path)."""

    def __init__(self, roots: list[str], follow_links: bool) -> None:
        self.roots = roots
        self.follow_links = follow_links
        self.walked: set[str] = set()

    def below(self, folder: str, real: str) -> Iterator[str]:
        """Yield the files below a folder (absolute paths under the name given; ``real``: its real path), hidden
        files and folders left out; what is not read is a Skipped path (see discover_paths). A folder walked
        already (an input given twice, or inside another) yields nothing more: its files are listed."""
        if real in self.walked:
            return
        self.walked.add(real)
        try:
            with os.scandir(folder) as listing:  # sorted: a folder reached twice is walked by its first name
                children = sorted((entry for entry in listing if not entry.name.startswith(".")), key=_name)
        except OSError as exc:
            yield Skipped(folder, f"{folder}: the folder cannot be listed ({exc.strerror}): its files are not read")
            return
        for entry in children:
            if entry.is_symlink():
                yield from self._link(entry.path)
            elif entry.is_dir(follow_symlinks=False):
                yield from self.below(entry.path, os.path.join(real, entry.name))
            elif entry.is_file(follow_symlinks=False):
                yield entry.path
            else:
                yield _not_read(entry.path)

    def _link(self, path: str) -> Iterator[str]:
        """A symbolic link: its target's files when it is followed, else a Skipped path saying why not."""
        try:
            target = os.path.realpath(path, strict=True)
        except OSError:
            yield _not_read(path)
            return
        inside = any(target == root or target.startswith(root.rstrip(os.sep) + os.sep) for root in self.roots)
        is_folder = os.path.isdir(target)
        if is_folder and inside:
            yield Skipped(path, f"{path}: a link to a folder inside the inputs ({target}): its files are read there")
        elif not inside and not self.follow_links:
            yield Skipped(path, f"{path}: a link out of the inputs (to {target}): not followed unless asked")
        elif is_folder and target in self.walked:
            yield Skipped(path, f"{path}: a link to a folder walked already ({target}): its files are read there")
        elif is_folder:
            yield from self.below(path, target)
        elif os.path.isfile(target):
            yield path
        else:
            yield _not_read(path)


def _name(entry: os.DirEntry) -> str:
    """A folder entry's name (its sort key)."""
    return entry.name


def _not_read(path: str) -> Skipped:
    """The Skipped path of what is not a regular file, nor a folder, nor a link that can be followed."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if not os.path.islink(path):
            return Skipped(path, f"{path}: cannot be looked at ({exc.strerror}): not read")
        why = "a link loop" if exc.errno == errno.ELOOP else f"a dangling link (to {os.readlink(path)})"
        return Skipped(path, f"{path}: {why}: not read")
    return Skipped(path, f"{path}: {containers.file_kind(mode)}, not a regular file: not read")
