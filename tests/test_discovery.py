"""Discovering the files to read: folders walked recursively, hidden entries skipped, links, order, sizes."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pyarrow as pa
import pytest

from pipeline import __version__
from pipeline.containers import SEPARATOR
from pipeline.ingest import _batches
from pipeline.known_files import KnownFiles
from pipeline.reading import KnownFile, discover_files, discover_paths


def write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_files_come_sorted_folder_by_folder_with_their_sizes(tmp_path: Path) -> None:
    # as strings 'a-b/...' sorts before 'a/...' ('-' < '/'); as paths, folder 'a' comes before folder 'a-b'
    inner = write(tmp_path / "a" / "z.txt", b"12345")
    dashed = write(tmp_path / "a-b" / "a.txt", b"1")
    top = write(tmp_path / "b.txt", b"")
    found = discover_files([tmp_path])
    assert [(e.name, e.size) for e in found] == [(str(inner), 5), (str(dashed), 1), (str(top), 0)]
    assert found[0].read() == b"12345"


def test_hidden_entries_are_skipped_and_a_file_given_twice_is_listed_once(tmp_path: Path) -> None:
    kept = write(tmp_path / "in" / "log.xml", b"x")
    write(tmp_path / "in" / ".hidden.xml", b"x")
    write(tmp_path / "in" / ".cache" / "log.xml", b"x")
    found = discover_files([tmp_path / "in", kept, tmp_path / "in" / "." / "log.xml"])
    assert [e.name for e in found] == [str(kept)]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links on this system")
def test_a_link_to_a_file_is_a_file_and_a_link_to_a_folder_is_not_walked(tmp_path: Path) -> None:
    target = write(tmp_path / "elsewhere" / "log.xml", b"abc")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "linked.xml").symlink_to(target)
    (tmp_path / "in" / "folder").symlink_to(target.parent, target_is_directory=True)
    (tmp_path / "in" / "broken.xml").symlink_to(tmp_path / "missing.xml")
    found = discover_files([tmp_path / "in"])
    assert [(e.name, e.size) for e in found] == [(str(tmp_path / "in" / "linked.xml"), 3)]
    assert found[0].read() == b"abc"


def test_a_container_is_listed_member_by_member(tmp_path: Path) -> None:
    archive = tmp_path / "logs.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("one.xml", b"1")
        zipped.writestr("two.xml", b"22")
    found = discover_files([tmp_path])
    assert [(e.name, e.size) for e in found] == [
        (f"{archive}{SEPARATOR}one.xml", 1),
        (f"{archive}{SEPARATOR}two.xml", 2),
    ]


def test_a_missing_path_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="missing"):
        discover_files([tmp_path / "missing"])


def test_batches_open_containers_as_they_come_and_release_the_names(tmp_path: Path) -> None:
    first = write(tmp_path / "a.xml", b"1")
    archive = tmp_path / "b.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for i in range(4):
            zipped.writestr(f"{i}.xml", b"x")
    last = write(tmp_path / "c.xml", b"3")
    names = discover_paths([tmp_path])
    assert names == [str(first), str(archive), str(last)]  # not looked into yet
    batches = _batches(names, 4, KnownFiles.empty())
    entries, unread = next(batches)
    assert [e.name for e in entries] == [str(first), *(f"{archive}{SEPARATOR}{i}.xml" for i in range(3))]
    assert unread == 0
    assert names[:2] == [None, None] and names[2] == str(last)  # the files not reached yet are still listed
    assert [([e.name for e in b], n) for b, n in batches] == [([f"{archive}{SEPARATOR}3.xml", str(last)], 0)]
    assert names == [None, None, None]
    members = [f"{archive}{SEPARATOR}{i}.xml" for i in range(4)]
    assert [e.name for e in discover_files([tmp_path])] == [str(first), *members, str(last)]


def test_batches_skip_files_of_unchanged_size_and_time_counting_them(tmp_path: Path) -> None:
    files = [write(tmp_path / f"{i}.xml", b"x" * (i + 1)) for i in range(7)]
    stamp = {str(f): (f.stat().st_size, f.stat().st_mtime_ns) for f in files}
    known = {
        name: KnownFile("hash", __version__, size, mtime + (name == str(files[5])))  # 5: another time recorded
        for name, (size, mtime) in stamp.items()
        if name != str(files[1])  # 1: never read
    }
    known[str(files[6])] = known[str(files[6])]._replace(paipu_version="0.0.0")  # 6: read by another version
    rows = {"path": list(known), **{name: [getattr(k, name) for k in known.values()] for name in KnownFile._fields}}
    batches = list(_batches(discover_paths([tmp_path]), 3, KnownFiles(pa.table(rows))))
    # 0 and 2 skipped before 1 fill the first batch of three; 3 and 4 before 5 the second; 6 is read
    assert [([Path(e.name).name for e in b], n) for b, n in batches] == [(["1.xml"], 2), (["5.xml"], 2), (["6.xml"], 0)]
