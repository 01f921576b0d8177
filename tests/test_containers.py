"""Containers read in place (pipeline.ingest.containers): zip, tar, compressed tar, gzip single files and the SQLite
databases of the phoenix-logs and houou-logs downloaders; every member listed with its name and bytes, damaged
members and archives reported as OSError naming the container and the member, never aborting the others.

Every container is built in tmp_path from a few real logs of ../shared/logs (no copy is committed).
"""

from __future__ import annotations

import bz2
import gzip
import io
import random
import sqlite3
import struct
import tarfile
import warnings
import zipfile
import zlib
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

import pipeline.ingest as ingest_module
from pipeline.ingest import FileResult, containers, reading
from pipeline.ingest.containers import SEPARATOR, Entry, entries, is_container
from pipeline.sources import tenhou_xml
from pipeline.sources.tenhou_xml.parser import log_id_from_path
from pipeline.store.warehouse import Warehouse

MJX = "mjx/tests_py/resources/mjlog"
REAL_LOGS = {
    "2020052700gm-00a9-0000-75a4695c": f"{MJX}/2020052700gm-00a9-0000-75a4695c.mjlog",
    "2011020613gm-00a9-0000-3774f8d1": f"{MJX}/2011020613gm-00a9-0000-3774f8d1.mjlog",
    "2022060222gm-0001-0000-a87679bc": "Tenhou-Paifu-Logger/test/test_data/2022060222gm-0001-0000-a87679bc&tw=3.mjlog",
}
"""Log id -> real log (the last one is gzip-compressed on disk)."""
NOT_A_LOG = b"notes about this archive, not a game log\n"
NOT_A_LOG_ID = "2099010100gm-0000-0000-00000000"
"""Database row id of a row holding NOT_A_LOG."""
BROKEN_GZIP = b"\x1f\x8b\x08\x00" + bytes(range(64))
"""A member that is a damaged gzip log: read fine from the archive, quarantined by the parser."""
HIDDEN = {".DS_Store": b"\0\0\0\1Bud1", "__MACOSX/2020/._x.mjlog": b"\0\5\26\7", "2020/.partial.mjlog": b"<mjloggm"}
"""Members skipped by name."""


# --- helpers ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def xml(shared_logs: Path) -> dict[str, bytes]:
    """Log id -> plain XML bytes of the real logs."""
    logs = {}
    for log_id, rel in REAL_LOGS.items():
        data = (shared_logs / "tenhou-xml" / rel).read_bytes()
        logs[log_id] = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
    return logs


def archive_members(xml: dict[str, bytes]) -> dict[str, bytes]:
    """Member name -> bytes of the readable members of a test archive (a gzip log stays gzip inside)."""
    first, second, third = xml
    return {
        f"2020/{first}.mjlog": xml[first],
        f"2011/{second}.mjlog": xml[second],
        f"gz/{third}&tw=3.mjlog": gzip.compress(xml[third], mtime=0),
        "notes/readme.txt": NOT_A_LOG,
        "bad/2019010100gm-00a9-0000-00000000.mjlog": BROKEN_GZIP,
    }


def member(entry: Entry, container: Path) -> str:
    """The member name of an entry of a container."""
    prefix = f"{container.resolve()}{SEPARATOR}"
    assert entry.name.startswith(prefix), entry.name
    return entry.name[len(prefix) :]


def read_all(container: Path) -> dict[str, bytes | OSError]:
    """Member name (or '' for the container itself) -> bytes read, or the OSError raised, in listed order."""
    found: dict[str, bytes | OSError] = {}
    for entry in entries(container):
        assert str(Path(entry.name)) == entry.name, "an entry name must survive Path() (it keys the manifest)"
        key = "" if entry.name == str(container.resolve()) else member(entry, container)
        try:
            found[key] = entry.read()
        except OSError as exc:
            found[key] = exc
    return found


def assert_names_error(error: bytes | OSError, container: Path, name: str) -> None:
    """The value is an OSError whose message names the container and the member."""
    assert isinstance(error, OSError), f"{name} should not be readable"
    assert str(container.resolve()) in str(error) and name in str(error), str(error)


def assert_parses(entry_name: str, data: bytes, log_id: str) -> None:
    """The Tenhou XML parser reads the bytes of a log member as the game with this id."""
    games = tenhou_xml.parse(data, entry_name)
    assert [g.game_id for g in games] == [log_id]
    assert games[0].n_rounds > 0


def write_zip(path: Path, members: dict[str, bytes], extra: Callable[[zipfile.ZipFile], None] | None = None) -> Path:
    """A deflated zip archive of the members (plus whatever ``extra`` writes)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
        if extra:
            extra(archive)
    return path


def write_tar(path: Path, members: dict[str, bytes], mode: str = "w") -> Path:
    """A tar archive of the members, with a folder entry and a symlink (both skipped)."""
    with tarfile.open(path, mode) as archive:
        folder = tarfile.TarInfo("2020")
        folder.type = tarfile.DIRTYPE
        archive.addfile(folder)
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("latest.mjlog")
        link.type, link.linkname = tarfile.SYMTYPE, next(iter(members))
        archive.addfile(link)
    return path


def damage_zip_member(path: Path, name: str) -> None:
    """Flip bytes inside one member's compressed data."""
    with zipfile.ZipFile(path) as archive:
        offset = archive.getinfo(name).header_offset
    data = bytearray(path.read_bytes())
    name_len, extra_len = struct.unpack("<HH", data[offset + 26 : offset + 30])
    start = offset + 30 + name_len + extra_len
    data[start + 40 : start + 60] = bytes(b ^ 0xFF for b in data[start + 40 : start + 60])
    path.write_bytes(bytes(data))


# --- archives ---------------------------------------------------------------------------------
def test_zip_members_are_listed_with_their_names_and_bytes(tmp_path: Path, xml: dict[str, bytes]) -> None:
    members = archive_members(xml)
    damaged = f"damaged/{next(iter(xml))}.mjlog"

    def extra(archive: zipfile.ZipFile) -> None:
        archive.writestr("empty.mjlog", b"")
        archive.writestr(zipfile.ZipInfo("2020/sub/"), b"")  # a folder
        for name, data in HIDDEN.items():
            archive.writestr(name, data)
        archive.writestr(damaged, next(iter(xml.values())))

    path = write_zip(tmp_path / "logs.zip", members, extra)
    damage_zip_member(path, damaged)
    assert is_container(path)
    found = read_all(path)
    assert list(found) == [*members, damaged]
    assert {name: found[name] for name in members} == members
    assert_names_error(found[damaged], path, damaged)
    for log_id, name in zip(xml, members, strict=False):
        assert_parses(f"{path}{SEPARATOR}{name}", found[name], log_id)


@pytest.mark.parametrize("mode", ["w", "w:gz", "w:bz2", "w:xz"])
def test_tar_members_are_listed_with_their_names_and_bytes(tmp_path: Path, xml: dict[str, bytes], mode: str) -> None:
    members = archive_members(xml)
    path = write_tar(tmp_path / "logs.archive", {**members, **HIDDEN, "empty.mjlog": b""}, mode)
    assert is_container(path)
    found = read_all(path)
    assert found == members
    for log_id, name in zip(xml, members, strict=False):
        assert_parses(f"{path}{SEPARATOR}{name}", found[name], log_id)


@pytest.mark.parametrize("compressed", [False, True], ids=["tar", "tar.gz"])
def test_a_cut_tar_keeps_the_members_before_the_cut(tmp_path: Path, xml: dict[str, bytes], compressed: bool) -> None:
    members = archive_members(xml)
    cut_member = "zz/cut.mjlog"
    noise = random.Random(0).randbytes(65536)  # incompressible: the cut lands inside it
    tar = write_tar(tmp_path / "whole.tar", {**members, cut_member: noise}).read_bytes()
    if compressed:
        data = gzip.compress(tar, mtime=0)
        data = data[: len(data) - 30000]
    else:
        data = tar[: tar.index(noise) + 30000]
    path = tmp_path / "cut.bin"
    path.write_bytes(data)
    found = read_all(path)
    assert list(found) == [*members, cut_member, ""]
    assert {name: found[name] for name in members} == members
    assert_names_error(found[cut_member], path, cut_member)
    assert_names_error(found[""], path, cut_member)  # the container: cannot be read after the cut member


def test_gzip_single_file_is_a_plain_file_read_by_content(tmp_path: Path, xml: dict[str, bytes]) -> None:
    log_id, data = next(iter(xml.items()))
    path = tmp_path / "no-extension"
    path.write_bytes(gzip.compress(data))
    assert not is_container(path)
    (entry,) = entries(path)
    assert (entry.name, entry.size, entry.read()) == (str(path.resolve()), path.stat().st_size, path.read_bytes())
    assert [g.n_rounds > 0 for g in tenhou_xml.parse(entry.read(), entry.name)] == [True]


def test_duplicate_member_names_get_a_numbered_suffix(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # zipfile warns about the duplicate name
        path = write_zip(tmp_path / "twice.zip", {"a.mjlog": b"first"}, lambda z: z.writestr("./a.mjlog", b"second"))
    assert read_all(path) == {"a.mjlog": b"first", "a.mjlog;2": b"second"}


def test_members_can_be_read_in_any_order_and_after_closing(tmp_path: Path, xml: dict[str, bytes]) -> None:
    members = archive_members(xml)
    listed = list(entries(write_tar(tmp_path / "logs.tgz", members, "w:gz")))
    assert [e.read() for e in reversed(listed)] == list(reversed(members.values()))
    containers.close_all()
    assert listed[1].read() == list(members.values())[1]


def test_a_container_rewritten_in_place_is_read_afresh(tmp_path: Path) -> None:
    path = write_zip(tmp_path / "logs.zip", {"a.mjlog": b"old"})
    assert [e.read() for e in entries(path)] == [b"old"]
    write_zip(path, {"b.mjlog": b"a longer new member"})
    assert read_all(path) == {"b.mjlog": b"a longer new member"}


# --- log databases ----------------------------------------------------------------------------
PHOENIX_TABLE = (
    "CREATE TABLE logs(log_id text primary key, date text, is_tonpusen int, is_sanma int, "
    "is_processed int, was_error int, log_content text, log_hash text)"
)
"""The logs table of phoenix-logs (log_content is bz2-compressed XML; gzip in some copies)."""
HOUOU_TABLE = (
    "CREATE TABLE logs({id} TEXT PRIMARY KEY, date TEXT NOT NULL, num_players INTEGER NOT NULL, "
    "is_tonpu INTEGER NOT NULL, is_processed INTEGER NOT NULL, was_error INTEGER NOT NULL, log BLOB) WITHOUT ROWID"
)
"""The logs table of houou-logs (log is gzip-compressed XML; the id column is 'id', 'log_id' in some copies)."""


def write_database(path: Path, table: str, columns: tuple[str, str], rows: dict[str, object]) -> Path:
    """A SQLite database whose logs table holds (id, content) rows, other columns filled in."""
    with closing(sqlite3.connect(path)) as db:
        db.execute(table)
        id_column, content = columns
        others = [c for c in [r[1] for r in db.execute("PRAGMA table_info(logs)")] if c not in columns]
        sql = f"INSERT INTO logs({id_column}, {content}, {', '.join(others)}) VALUES (?, ?{', 0' * len(others)})"
        db.executemany(sql, list(rows.items()))
        db.commit()
    return path


def check_database(path: Path, xml: dict[str, bytes], stored: dict[str, object], broken: str) -> None:
    """Every row is one member 'logs/<id>', in id order; logs decompressed and parsed; a row without a log (null
    or empty) is pending."""
    assert is_container(path)
    found = read_all(path)
    readable = {k: v for k, v in stored.items() if v and k != broken}
    assert list(found) == [f"logs/{k}" for k in sorted(stored)]
    for log_id in (k for k, v in stored.items() if not v):
        assert isinstance(found[f"logs/{log_id}"], containers.PendingError), found[f"logs/{log_id}"]
        assert_names_error(found[f"logs/{log_id}"], path, f"logs/{log_id}")
    for log_id in readable:
        expected = NOT_A_LOG if log_id == NOT_A_LOG_ID else xml[log_id]
        assert found[f"logs/{log_id}"] == expected
    assert_names_error(found[f"logs/{broken}"], path, f"logs/{broken}")
    for log_id in xml:
        assert_parses(f"{path.resolve()}{SEPARATOR}logs/{log_id}", found[f"logs/{log_id}"], log_id)


def test_phoenix_logs_database(tmp_path: Path, xml: dict[str, bytes]) -> None:
    first, second, third = xml
    rows: dict[str, object] = {
        first: bz2.compress(xml[first]),  # what phoenix-logs writes
        second: gzip.compress(xml[second]),
        third: bz2.compress(xml[third]),
        NOT_A_LOG_ID: bz2.compress(NOT_A_LOG),
        "2019010100gm-00a9-0000-0badbad0": b"BZh91AY&SY" + bytes(40),  # damaged
        "2019010100gm-00a9-0000-0000e770": "",  # was_error: no content
        "2019010100gm-00a9-0000-00000011": None,  # not downloaded yet
    }
    path = write_database(tmp_path / "2019.db", PHOENIX_TABLE, ("log_id", "log_content"), rows)
    check_database(path, xml, rows, "2019010100gm-00a9-0000-0badbad0")


@pytest.mark.parametrize("id_column", ["id", "log_id"])
def test_houou_logs_database(tmp_path: Path, xml: dict[str, bytes], id_column: str) -> None:
    first, second, third = xml
    rows: dict[str, object] = {
        first: gzip.compress(xml[first]),  # what houou-logs writes
        second: zlib.compress(xml[second]),
        third: xml[third],  # plain
        NOT_A_LOG_ID: NOT_A_LOG,
        "2019010100gm-00a9-0000-0badbad0": b"\x78\x9c" + bytes(range(40)),  # damaged zlib
        "2019010100gm-00a9-0000-00000011": None,
    }
    path = write_database(tmp_path / "houou.sqlite", HOUOU_TABLE.format(id=id_column), (id_column, "log"), rows)
    check_database(path, xml, rows, "2019010100gm-00a9-0000-0badbad0")


# --- damaged containers and plain files -------------------------------------------------------
def test_a_damaged_container_is_one_unreadable_entry_named_by_its_path(tmp_path: Path) -> None:
    bad_zip = tmp_path / "bad.zip"
    bad_zip.write_bytes(b"PK\x03\x04" + bytes(range(200)))
    bad_db = tmp_path / "bad.db"
    bad_db.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 20)
    for path in (bad_zip, bad_db):
        assert is_container(path)
        (entry,) = entries(path)
        assert entry.name == str(path.resolve())
        with pytest.raises(OSError, match="cannot be read") as raised:
            entry.read()
        assert str(path.resolve()) in str(raised.value)


def test_plain_files_are_not_containers(tmp_path: Path, xml: dict[str, bytes]) -> None:
    other_db = tmp_path / "other.db"
    with closing(sqlite3.connect(other_db)) as db:
        db.execute("CREATE TABLE games(id text)")
    empty_zip = tmp_path / "empty.zip"
    write_zip(empty_zip, {})
    files = {
        other_db: other_db.read_bytes(),
        empty_zip: empty_zip.read_bytes(),
        tmp_path / "log.mjlog": next(iter(xml.values())),
        tmp_path / "empty": b"",
        tmp_path / "notes.txt": NOT_A_LOG,
    }
    for path, data in files.items():
        path.write_bytes(data)
        assert not is_container(path), path
        assert [(e.name, e.read()) for e in entries(path)] == [(str(path.resolve()), data)]
    (missing,) = entries(tmp_path / "gone.zip")
    with pytest.raises(FileNotFoundError):
        missing.read()


# --- through the ingest -----------------------------------------------------------------------
def build_inputs(folder: Path, xml: dict[str, bytes]) -> dict[str, str]:
    """A folder with one container of each kind plus a plain gzip log; returns entry name -> expected status."""
    folder.mkdir()
    members = archive_members(xml)
    first, second, third = xml
    damaged = f"damaged/{first}.mjlog"
    write_zip(folder / "logs.zip", members, lambda z: z.writestr(damaged, xml[first]))
    damage_zip_member(folder / "logs.zip", damaged)
    write_tar(folder / "logs.tar", members)
    write_tar(folder / "logs.tgz", members, "w:gz")
    write_database(folder / "phoenix.db", PHOENIX_TABLE, ("log_id", "log_content"), {first: bz2.compress(xml[first])})
    houou = {second: gzip.compress(xml[second]), NOT_A_LOG_ID: NOT_A_LOG, "bad": b"\x1f\x8b\x08" + bytes(9)}
    write_database(folder / "houou.db", HOUOU_TABLE.format(id="id"), ("id", "log"), houou)
    (folder / f"{third}.mjlog").write_bytes(gzip.compress(xml[third]))
    status = {"notes/readme.txt": "not_a_log", "bad/2019010100gm-00a9-0000-00000000.mjlog": "quarantined"}
    expected = {}
    for name in ("logs.zip", "logs.tar", "logs.tgz"):
        for member_name in members:
            expected[f"{(folder / name).resolve()}{SEPARATOR}{member_name}"] = status.get(member_name, "ok")
    expected[f"{(folder / 'logs.zip').resolve()}{SEPARATOR}{damaged}"] = "quarantined"
    expected[f"{(folder / 'phoenix.db').resolve()}{SEPARATOR}logs/{first}"] = "ok"
    for log_id, state in ((second, "ok"), (NOT_A_LOG_ID, "not_a_log"), ("bad", "quarantined")):
        expected[f"{(folder / 'houou.db').resolve()}{SEPARATOR}logs/{log_id}"] = state
    expected[str((folder / f"{third}.mjlog").resolve())] = "ok"
    return expected


def read_entry(entry: Entry) -> FileResult:
    """What the ingest does with one entry read for the first time: read it (a read failure quarantines it),
    then parse it."""
    result = reading.read_entry(entry, {})
    assert result is not None  # nothing is known: every entry is read
    return result


def test_read_file_over_the_entries_of_every_container(tmp_path: Path, xml: dict[str, bytes]) -> None:
    expected = build_inputs(tmp_path / "in", xml)
    results = [read_entry(e) for path in sorted((tmp_path / "in").iterdir()) for e in entries(path)]
    assert {r.path: r.status for r in results} == expected
    assert len(results) == len(expected)
    for r in results:
        assert (r.error is None) == (r.status == "ok"), r.error
        if r.status == "ok":
            assert [g.game_id for g in r.games] == [log_id_from_path(r.path)]
            assert r.games[0].source_file == r.path


def test_ingest_accounts_for_every_entry_in_the_manifest(tmp_path: Path, xml: dict[str, bytes]) -> None:
    expected = build_inputs(tmp_path / "in", xml)
    warehouse = Warehouse(tmp_path / "warehouse")
    report = ingest_module.ingest([tmp_path / "in"], warehouse, batch_size=4)
    manifest = {row["path"]: row for row in warehouse.read_manifest().to_pylist()}
    assert set(manifest) == set(expected)
    copies: dict[str | None, list[str]] = {}
    for path, status in expected.items():
        if status == "ok":  # the same game in several containers: one copy stored, the others duplicates
            copies.setdefault(log_id_from_path(path), []).append(manifest[path]["status"])
        else:
            assert manifest[path]["status"] == status, path
    assert {log_id: sorted(statuses)[0] for log_id, statuses in copies.items()} == dict.fromkeys(xml, "duplicate")
    assert all(statuses.count("ok") == 1 for statuses in copies.values()), copies
    assert sum(report.files.values()) == len(expected)
    again = ingest_module.ingest([tmp_path / "in"], warehouse, batch_size=4)
    unreadable = sum(1 for path, row in manifest.items() if row["content_hash"] == "")
    assert again.files["unchanged"] == len(expected) - unreadable
