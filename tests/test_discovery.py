"""Discovering the files to read: folders walked recursively, hidden entries skipped, links, order, sizes."""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pytest

from pipeline import __version__
from pipeline.ingest.containers import SEPARATOR, Entry, SkippedError
from pipeline.ingest.discovery import discover_files, discover_paths
from pipeline.ingest.known_files import KnownFiles
from pipeline.ingest.reading import KnownFile, read_file
from pipeline.ingest.run import _batches


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
    inner = write(tmp_path / "in" / "sub" / "log.xml", b"y")
    write(tmp_path / "in" / ".hidden.xml", b"x")
    write(tmp_path / "in" / ".cache" / "log.xml", b"x")
    given_twice = [tmp_path / "in", kept, tmp_path / "in" / "." / "log.xml"]
    for paths in (given_twice, [tmp_path / "in" / "sub", tmp_path / "in"]):
        found = discover_files(paths)
        assert [e.name for e in found] == [str(kept), str(inner)]  # a folder inside another is walked once


def skip_reasons(found: list[Entry]) -> dict[str, str]:
    """Entry name -> the reason of each entry that is not read (its reading raises SkippedError)."""
    reasons = {}
    for entry in found:
        try:
            entry.read()
        except SkippedError as exc:
            reasons[entry.name] = str(exc)
    return reasons


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links on this system")
def test_links_out_of_the_inputs_and_to_folders_are_skipped_rows_and_links_inside_are_followed(tmp_path: Path) -> None:
    target = write(tmp_path / "elsewhere" / "log.xml", b"abc")
    inside = write(tmp_path / "in" / "sub" / "real.xml", b"12")
    links = {
        "linked.xml": target,  # out of the inputs
        "folder": target.parent,  # out of the inputs
        "inner.xml": inside,  # inside: followed
        "inner-folder": inside.parent,  # inside: its files are read where they are
        "broken.xml": tmp_path / "missing.xml",
    }
    for name, to in links.items():
        (tmp_path / "in" / name).symlink_to(to, target_is_directory=to.is_dir())
    found = discover_files([tmp_path / "in"])
    named = {Path(e.name).name: e for e in found}
    assert sorted(named) == sorted([*links, "real.xml"])  # every input is an entry
    assert named["inner.xml"].read() == b"12" and named["real.xml"].read() == b"12"
    reasons = {Path(name).name: why for name, why in skip_reasons(found).items()}
    assert sorted(reasons) == ["broken.xml", "folder", "inner-folder", "linked.xml"]
    assert "a link out of the inputs" in reasons["linked.xml"] and str(target) in reasons["linked.xml"]
    assert "a link out of the inputs" in reasons["folder"]
    assert "a link to a folder inside the inputs" in reasons["inner-folder"]
    assert "a dangling link" in reasons["broken.xml"]
    for name, why in skip_reasons(found).items():
        assert why.startswith(name + ": "), why


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links on this system")
def test_links_are_followed_out_of_the_inputs_when_asked_and_a_loop_ends(tmp_path: Path) -> None:
    write(tmp_path / "elsewhere" / "log.xml", b"abc")
    write(tmp_path / "in" / "a.xml", b"1")
    (tmp_path / "in" / "out").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (tmp_path / "in" / "up").symlink_to(tmp_path, target_is_directory=True)  # the inputs' parent: a loop
    (tmp_path / "in" / "self.xml").symlink_to(tmp_path / "in" / "self.xml")  # a link to itself
    found = discover_files([tmp_path / "in"], follow_links=True)
    readable = {e.name: e.read() for e in found if e.name not in skip_reasons(found)}
    assert readable[str(tmp_path / "in" / "out" / "log.xml")] == b"abc"
    assert readable[str(tmp_path / "in" / "a.xml")] == b"1"
    reasons = skip_reasons(found)
    assert "a link loop" in reasons[str(tmp_path / "in" / "self.xml")]
    assert sorted(readable.values()) == [b"1", b"abc"]  # the loop back into the inputs ends: each file once
    assert len(found) == len(readable) + len(reasons) == 3
    unfollowed = skip_reasons(discover_files([tmp_path / "in"]))
    assert {Path(name).name for name in unfollowed} == {"out", "up", "self.xml"}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_a_skipped_entry_and_never_opened_for_reading(tmp_path: Path) -> None:
    kept = write(tmp_path / "in" / "log.xml", b"x")
    os.mkfifo(tmp_path / "in" / "pipe.mjlog")  # opening it to read would block until a writer comes
    found = discover_files([tmp_path / "in"])
    assert [e.name for e in found] == [str(kept), str(tmp_path / "in" / "pipe.mjlog")]
    assert skip_reasons(found) == {str(tmp_path / "in" / "pipe.mjlog"): f"{tmp_path / 'in' / 'pipe.mjlog'}: a FIFO, "
                                   "not a regular file: not read"}  # fmt: skip
    (given,) = discover_files([tmp_path / "in" / "pipe.mjlog"])  # named on the command line
    assert "a FIFO" in skip_reasons([given])[given.name]


def test_a_folder_that_cannot_be_listed_is_a_skipped_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "in" / "a.xml", b"1")
    locked = tmp_path / "in" / "locked"
    write(locked / "b.xml", b"2")
    listing = os.scandir

    def scandir(path: str) -> Iterator[os.DirEntry]:  # what chmod 000 does, even when running as root
        if path == str(locked):
            raise PermissionError(13, "Permission denied", path)
        return listing(path)

    monkeypatch.setattr(os, "scandir", scandir)
    found = discover_files([tmp_path / "in"])
    assert [e.name for e in found] == [str(tmp_path / "in" / "a.xml"), str(locked)]
    assert skip_reasons(found) == {str(locked): f"{locked}: the folder cannot be listed (Permission denied): "
                                   "its files are not read"}  # fmt: skip


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


def test_a_file_named_like_a_container_member_is_skipped_so_no_two_rows_share_a_path(tmp_path: Path) -> None:
    archive = tmp_path / "x.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("b", b"1")
    impostor = write(tmp_path / "x.zip!" / "b", b"2")  # its path is the member's entry name
    found = discover_files([tmp_path])
    assert [e.name for e in found] == [f"{archive}{SEPARATOR}b", str(impostor)]  # sorted folder by folder
    assert skip_reasons(found) == {str(impostor): f"{impostor}: its path holds '!/', which names container "
                                   "members: not read (rename the folder or file)"}  # fmt: skip


def test_a_name_with_a_line_break_gets_a_one_line_message(tmp_path: Path) -> None:
    result = read_file(write(tmp_path / "two\nlines.txt", b"not a log"))
    assert result.status == "not_a_log" and "\n" not in (result.error or "") and "two\\nlines" in result.error


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
