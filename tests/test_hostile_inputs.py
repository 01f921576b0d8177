"""No input takes a batch down (issue 18, item 4): every failure while reading one file, of any kind, makes that
file's manifest row (quarantined, skipped or pending) with a one-line reason naming it, and the run goes on.

Every hostile input is built in tmp_path from real logs of ../shared/logs (none is committed): JSON holding
NaN or Infinity or nested 50,000 deep, a Mahjong Soul protobuf record with two bits flipped, SQLite log
databases with REAL, BLOB and NULL values and a ``logs`` view that never ends, links (a loop, a dangling one,
one out of the inputs), a FIFO, a folder that cannot be listed, archive members named with '..', compression
bombs (gzip, zip, tar.gz, xz, a database row), a plain file over the size limit, and a truncated gzip mjlog
(which keeps its complete rounds).
"""

from __future__ import annotations

import base64
import bz2
import gzip
import io
import json
import lzma
import os
import re
import sqlite3
import subprocess
import sys
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest
from typer.testing import CliRunner

import pipeline.ingest.reading as reading
from pipeline.cli import app
from pipeline.ingest import IngestReport, containers, ingest
from pipeline.ingest.containers import SEPARATOR, entries
from pipeline.ingest.reading import FileResult, read_entry, read_file
from pipeline.limits import Limits, MiB, gunzip
from pipeline.sources import tenhou_xml
from pipeline.store.warehouse import Warehouse

MJX = "tenhou-xml/mjx/tests_py/resources/mjlog"
XML_LOG = f"{MJX}/2020052700gm-00a9-0000-75a4695c.mjlog"
"""A plain mjlog, 9 rounds, complete."""
GZ_LOG = "tenhou-xml/Tenhou-Paifu-Logger/test/test_data/2022060222gm-0001-0000-f47dd061&tw=3.mjlog"
"""A gzip-compressed mjlog, complete."""
TENHOU_JSON = "tenhou-json/mjai-reviewer/convlog/tests/testdata/ranked_game.json"
MJAI = "mjai/RiichiEnv/tests/data/126_204_0_mjai.jsonl"
MAJSOUL_JSON = "corpus/majsoul/majsoul-replay-editor/products/paipu_record.json"
MAJSOUL_BASE64 = "corpus/majsoul/PyMajSoul/records/190503-dcd1287a-12f8-4c51-a2a2-0cb5cd284ca8"
"""A downloader's record: its ``data`` is base64 of the binary protobuf Wrapper(GameDetailRecords)."""
FLIPPED_BITS = ((26070, 6), (11283, 1))
"""(byte, bit) flipped in that protobuf record: the second makes a RecordDealTile's liqibang an empty packed run,
where the reader once raised IndexError (an exit 70 for the whole ingest)."""
LIMITS = Limits(max_bytes=4 * MiB, max_rows=1000, max_seconds=2)
"""Small limits, so that the bombs below pass them by far and cost little to build."""
BOMB_SIZE = 64 * MiB
"""What each bomb expands to: sixteen times LIMITS.max_bytes."""
DEEP = 50_000
"""Nesting depth of the deep JSON values."""


# --- builders ---------------------------------------------------------------------------------
def real(shared_logs: Path, rel: str) -> bytes:
    """The bytes of a real log below ../shared/logs."""
    return (shared_logs / rel).read_bytes()


def put(folder: Path, name: str, data: bytes) -> Path:
    """Write an input file (folders made) and return its absolute path."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path.resolve()


def with_first_number(data: bytes, replacement: bytes, after: bytes) -> bytes:
    """The bytes with the first integer after ``after`` replaced (e.g. by Infinity)."""
    found = re.compile(rb"-?\d+").search(data, data.index(after) + len(after))
    assert found is not None
    return data[: found.start()] + replacement + data[found.end() :]


def deep_json(depth: int = DEEP) -> bytes:
    """A JSON array nested ``depth`` deep."""
    return b"[" * depth + b"]" * depth


def with_deep_value(document: bytes) -> bytes:
    """A JSON object document with a deep value added as its last key (its head, which detection reads, kept)."""
    end = document.rindex(b"}")
    return document[:end] + b', "deep": ' + deep_json() + document[end:]


def with_deep_event(lines: bytes) -> bytes:
    """mjai JSON lines with a last event holding a deep value."""
    return lines.rstrip() + b'\n{"type": "none", "deep": ' + deep_json() + b"}\n"


def flipped_protobuf(shared_logs: Path) -> bytes:
    """The binary protobuf record of MAJSOUL_BASE64 with FLIPPED_BITS flipped."""
    data = bytearray(base64.b64decode(json.loads(real(shared_logs, MAJSOUL_BASE64))["data"]))
    for byte, bit in FLIPPED_BITS:
        data[byte] ^= 1 << bit
    return bytes(data)


def stream_compressed(compressor: Callable[[], object], head: bytes, size: int, fill: bytes = b" ") -> bytes:
    """``head`` then ``size`` bytes of ``fill``, compressed chunk by chunk (never held whole)."""
    compress = compressor()
    chunk = fill * (MiB // len(fill))
    parts = [compress.compress(head)]  # type: ignore[attr-defined]
    parts += [compress.compress(chunk) for _ in range(size // MiB)]  # type: ignore[attr-defined]
    return b"".join([*parts, compress.flush()])  # type: ignore[attr-defined]


def gzip_bomb(head: bytes, size: int = BOMB_SIZE) -> bytes:
    """Gzip data of a log's head followed by ``size`` spaces (about 1/1000 of its size)."""
    return stream_compressed(lambda: zlib.compressobj(9, zlib.DEFLATED, 31), head, size)


def zip_with(members: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip archive of the members, as bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def zip_with_deflated_bomb(name: str, head: bytes, size: int = BOMB_SIZE) -> bytes:
    """A zip archive holding one deflated member of ``head`` + ``size`` spaces, written in chunks."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive, archive.open(name, "w") as out:
        out.write(head)
        chunk = b" " * MiB
        for _ in range(size // MiB):
            out.write(chunk)
    return buffer.getvalue()


def tar_with(members: list[tuple[str, bytes | int]], mode: str = "w:gz") -> bytes:
    """A tar archive of (name, bytes, or a size in spaces written as a stream) members, as bytes."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = data if isinstance(data, int) else len(data)
            archive.addfile(info, _Spaces(data) if isinstance(data, int) else io.BytesIO(data))
    return buffer.getvalue()


class _Spaces(io.RawIOBase):
    """``size`` spaces as a readable stream (a bomb's member, never held whole)."""

    def __init__(self, size: int) -> None:
        self.left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        n = min(len(buffer), self.left)
        buffer[:n] = b" " * n
        self.left -= n
        return n


PHOENIX = "CREATE TABLE logs(log_id text primary key, log_content text)"
"""phoenix-logs' logs table (the columns paipu reads)."""
HOUOU = "CREATE TABLE logs(id TEXT PRIMARY KEY, log BLOB) WITHOUT ROWID"
"""houou-logs' logs table (the columns paipu reads): ``log`` has no type affinity, so a number stays a number."""
NEVER_ENDING = (
    "CREATE VIEW logs AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
    "SELECT printf('2019010100gm-00a9-0000-%08x', i) AS log_id, 'x' AS log_content FROM n"
)
"""A logs view that never ends: listing it in id order sorts an endless stream."""


def database(path: Path, schema: str, rows: list[tuple[object, object]] | None = None) -> Path:
    """A SQLite file made by ``schema``, its logs table holding ``rows`` (id, log)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(path)) as db:
        db.execute(schema)
        if rows:
            db.executemany("INSERT INTO logs VALUES (?, ?)", rows)
        db.commit()
    return path.resolve()


def member_name(container: Path, member: str) -> str:
    """The entry name of a container's member."""
    return f"{container}{SEPARATOR}{member}"


# --- the hostile folder, ingested once ------------------------------------------------------------
@pytest.fixture(scope="module")
def hostile(shared_logs: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A folder of every hostile input beside one good log, ingested once with LIMITS; returns the expected
    (status, words of its message) by entry name, the manifest rows by path and the report."""
    root = tmp_path_factory.mktemp("hostile")
    inputs = root / "in"
    expected: dict[str, tuple[str, str]] = {}
    xml = real(shared_logs, XML_LOG)
    head = xml[: xml.index(b"<INIT")]  # a Tenhou log's head: detected as one, no round yet
    expected[str(put(inputs, "good/2020052700gm-00a9-0000-75a4695c.mjlog", xml))] = ("ok", "")
    _json_inputs(shared_logs, inputs, expected)
    expected[str(put(inputs, "majsoul/flipped.bin", flipped_protobuf(shared_logs)))] = (
        "quarantined", "protobuf field liqibang of type uint32 holds no value")  # fmt: skip
    _database_inputs(inputs, xml, head, expected)
    _archive_inputs(inputs, xml, head, expected)
    _bomb_inputs(inputs, head, expected)
    _file_system_inputs(root, inputs, xml, expected)
    gz = real(shared_logs, GZ_LOG)
    expected[str(put(inputs, "cut/2022060222gm-0001-0000-f47dd061.mjlog", gz[: len(gz) * 2 // 3]))] = ("ok", "")
    warehouse = Warehouse(root / "warehouse")
    with pytest.MonkeyPatch.context() as patch:
        _lock_folder(patch, inputs / "locked")
        report = ingest([inputs], warehouse, batch_size=7, limits=LIMITS)
    rows = {row["path"]: row for row in warehouse.read_manifest().to_pylist()}
    return {"expected": expected, "rows": rows, "report": report, "warehouse": warehouse, "inputs": inputs}


def _json_inputs(shared_logs: Path, inputs: Path, expected: dict[str, tuple[str, str]]) -> None:
    """NaN, Infinity, 1e999 and deep nesting in the three JSON formats."""
    sources = {"tenhou_json": (TENHOU_JSON, b'"log"'), "mjai": (MJAI, b'"kyoku"'),
               "majsoul": (MAJSOUL_JSON, b'"start_time"')}  # fmt: skip
    for fmt, (rel, after) in sources.items():
        data = real(shared_logs, rel)
        for constant, words in ((b"Infinity", "Infinity is not a JSON number"), (b"NaN", "NaN is not a JSON number"),
                                (b"-1e999", "the number -1e999 is out of range")):  # fmt: skip
            name = f"json/{fmt}-{constant.decode().strip('-')}.json"
            expected[str(put(inputs, name, with_first_number(data, constant, after)))] = ("quarantined", words)
        deep = with_deep_value(data) if fmt != "mjai" else with_deep_event(data)
        expected[str(put(inputs, f"json/{fmt}-deep.json", deep))] = ("quarantined", "nested too deep to be read")


def _database_inputs(inputs: Path, xml: bytes, head: bytes, expected: dict[str, tuple[str, str]]) -> None:
    """Log databases with numbers, blobs and nulls where text is due, a gzip bomb in a row, and a never-ending
    logs view."""
    good = "2020052700gm-00a9-0000-75a4695c"
    houou = database(inputs / "db/houou.db", HOUOU, [
        (good, gzip.compress(xml)), ("2019010100gm-00a9-0000-0000real", 1.5),
        ("2019010100gm-00a9-0000-00000int", 10**12), ("2019010100gm-00a9-0000-00000011", None),
        (b"\x00\xff", gzip.compress(xml)), ("2019010100gm-00a9-0000-00000b0b", gzip_bomb(head)),
    ])  # fmt: skip
    for member, outcome in {
        f"logs/{good}": ("ok", ""),
        "logs/2019010100gm-00a9-0000-0000real": ("quarantined", "its log is REAL, not a log"),
        "logs/2019010100gm-00a9-0000-00000int": ("quarantined", "its log is INTEGER, not a log"),
        "logs/2019010100gm-00a9-0000-00000011": ("pending", "its log is NULL: the log is not downloaded yet"),
        "logs/x'00ff'": ("quarantined", "its id is BLOB, not a log id: not read"),
        "logs/2019010100gm-00a9-0000-00000b0b": ("quarantined", "expands to more than 4 MiB"),
    }.items():
        expected[member_name(houou, member)] = outcome
    phoenix_rows = [(None, bz2.compress(xml)), ("2019010100gm-00a9-0000-0e", "")]
    phoenix = database(inputs / "db/phoenix.db", PHOENIX, phoenix_rows)
    expected[member_name(phoenix, "logs/NULL")] = ("quarantined", "its log_id is NULL, not a log id: not read")
    expected[member_name(phoenix, "logs/2019010100gm-00a9-0000-0e")] = ("pending", "its log is empty")
    endless = database(inputs / "db/endless.db", NEVER_ENDING)
    expected[str(endless)] = ("quarantined", "a query of its logs table ran over 2 s: interrupted")


def _archive_inputs(inputs: Path, xml: bytes, head: bytes, expected: dict[str, tuple[str, str]]) -> None:
    """Members named with '..', and bombs inside zip and tar archives."""
    dotted = put(inputs, "archives/dotted.zip", zip_with({"../escape.mjlog": xml, "a/../../up.mjlog": xml}))
    for member in ("../escape.mjlog", "a/../../up.mjlog"):
        expected[member_name(dotted, member)] = ("quarantined", "has a '..' in its name: not read")
    tar = put(inputs, "archives/dotted.tar", tar_with([("../x.mjlog", xml)], "w"))
    expected[member_name(tar, "../x.mjlog")] = ("quarantined", "has a '..' in its name: not read")
    deflated = put(inputs, "archives/deflated-bomb.zip", zip_with_deflated_bomb("bomb.mjlog", head))
    expected[member_name(deflated, "bomb.mjlog")] = ("quarantined", "holds more than 4 MiB")
    gzipped = put(inputs, "archives/gzip-in-zip.zip", zip_with({"bomb.mjlog.gz": gzip_bomb(head)}, zipfile.ZIP_STORED))
    expected[member_name(gzipped, "bomb.mjlog.gz")] = ("quarantined", "expands to more than 4 MiB")
    tgz = put(inputs, "archives/bomb.tgz", tar_with([("a.mjlog", xml), ("bomb.mjlog", BOMB_SIZE), ("z.mjlog", xml)]))
    expected[member_name(tgz, "a.mjlog")] = ("ok", "")
    expected[member_name(tgz, "bomb.mjlog")] = ("quarantined", "holds more than 4 MiB")
    expected[str(tgz)] = ("quarantined", "listing past it would decompress it")


def _bomb_inputs(inputs: Path, head: bytes, expected: dict[str, tuple[str, str]]) -> None:
    """Single-file bombs (gzip, xz) and a plain file over the limit."""
    expected[str(put(inputs, "bombs/bomb.mjlog.gz", gzip_bomb(head)))] = ("quarantined", "expands to more than 4 MiB")
    majsoul_head = b'{"head": {"uuid": "190503-dcd1287a-12f8-4c51-a2a2-0cb5cd284ca8"}, "data": "'
    xz = stream_compressed(lambda: lzma.LZMACompressor(), majsoul_head, BOMB_SIZE, b"A")
    expected[str(put(inputs, "bombs/bomb.json.xz", xz))] = ("quarantined", "expands to more than 4 MiB")
    big = head + b" " * (LIMITS.max_bytes + 1)
    expected[str(put(inputs, "bombs/big.mjlog", big))] = ("quarantined", "holds more than 4 MiB")


def _file_system_inputs(root: Path, inputs: Path, xml: bytes, expected: dict[str, tuple[str, str]]) -> None:
    """A link loop, a dangling link, a link out of the inputs, a FIFO and a folder that cannot be listed."""
    links = inputs / "links"
    links.mkdir(parents=True)
    (links / "loop.mjlog").symlink_to(links / "loop.mjlog")
    expected[str(links / "loop.mjlog")] = ("skipped", "a link loop: not read")
    (links / "dangling.mjlog").symlink_to(root / "gone.mjlog")
    expected[str(links / "dangling.mjlog")] = ("skipped", f"a dangling link (to {root / 'gone.mjlog'})")
    outside = put(root / "outside", "2020052700gm-00a9-0000-75a4695c.mjlog", xml)
    (links / "out.mjlog").symlink_to(outside)
    expected[str(links / "out.mjlog")] = ("skipped", "a link out of the inputs")
    os.mkfifo(inputs / "pipe.mjlog")
    expected[str(inputs / "pipe.mjlog")] = ("skipped", "a FIFO, not a regular file: not read")
    put(inputs / "locked", "2020052700gm-00a9-0000-75a4695c.mjlog", xml)
    expected[str(inputs / "locked")] = ("skipped", "the folder cannot be listed (Permission denied)")


def _lock_folder(patch: pytest.MonkeyPatch, folder: Path) -> None:
    """Make a folder unlistable, as chmod 000 does for anyone but root (the tests may run as root)."""
    listing = os.scandir

    def scandir(path: str) -> Iterator[os.DirEntry]:
        if path == str(folder):
            raise PermissionError(13, "Permission denied", path)
        return listing(path)

    patch.setattr(os, "scandir", scandir)


# --- through the ingest -------------------------------------------------------------------------
def test_every_hostile_input_has_its_row_with_its_status_and_reason(hostile: dict) -> None:
    rows, expected = hostile["rows"], hostile["expected"]
    missing = set(expected) - set(rows)
    assert not missing, missing
    for name, (status, words) in expected.items():
        row = rows[name]
        assert row["status"] in (status, "duplicate" if status == "ok" else status), (name, row["error"])
        assert words in (row["error"] or ""), (name, row["error"])


def test_every_reason_is_one_line_naming_the_file_and_member(hostile: dict) -> None:
    for path, row in hostile["rows"].items():
        if row["status"] in ("ok", "duplicate"):
            continue
        error = row["error"]
        assert error and "\n" not in error and "Traceback" not in error, (path, error)
        container, _, member = path.partition(SEPARATOR)
        assert error.startswith(container), (path, error)
        if member and error != f"{path}: not a game log of any known format":
            assert repr(member) in error or path in error, (path, error)


def test_the_report_counts_every_status_and_the_good_logs_are_stored(hostile: dict) -> None:
    report: IngestReport = hostile["report"]
    rows = hostile["rows"]
    counted = {status: n for status, n in report.files.items() if n and status != "unchanged"}
    assert counted == {status: sum(1 for r in rows.values() if r["status"] == status) for status in counted}
    assert report.files["skipped"] == 5 and report.files["pending"] == 2
    stored = {row["game_ids"][0] for row in rows.values() if row["status"] == "ok"}
    assert stored == {"2020052700gm-00a9-0000-75a4695c", "2022060222gm-0001-0000-f47dd061"}


def test_a_truncated_gzip_mjlog_keeps_its_complete_rounds_as_the_cut_xml_does(shared_logs: Path, hostile: dict) -> None:
    gz = real(shared_logs, GZ_LOG)
    cut = gz[: len(gz) * 2 // 3]
    name = str(hostile["inputs"].resolve() / "cut/2022060222gm-0001-0000-f47dd061.mjlog")
    (game,) = read_file(Path(name), cut).games
    whole = tenhou_xml.parse(gz, name)[0]
    prefix = zlib.decompressobj(wbits=31).decompress(cut)  # what the cut stream holds, as a cut plain file
    (as_plain,) = tenhou_xml.parse(prefix, name)
    assert 0 < game.n_rounds == as_plain.n_rounds < whole.n_rounds
    assert not game.is_complete and hostile["rows"][name]["status"] == "ok"


def test_a_rerun_reads_the_pending_and_skipped_again_and_nothing_else(hostile: dict) -> None:
    with pytest.MonkeyPatch.context() as patch:
        _lock_folder(patch, hostile["inputs"] / "locked")
        again = ingest([hostile["inputs"]], hostile["warehouse"], batch_size=7, limits=LIMITS)
    unreadable = sum(1 for row in hostile["rows"].values() if row["content_hash"] == "")
    assert again.files["skipped"] == 5 and again.files["pending"] == 2 and again.games == 0
    assert again.files["unchanged"] == len(hostile["rows"]) - unreadable


def test_the_cli_names_the_hostile_files_and_exits_3_not_70(shared_logs: Path, tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    put(inputs, "2020052700gm-00a9-0000-75a4695c.mjlog", real(shared_logs, XML_LOG))
    put(inputs, "deep.json", with_deep_value(real(shared_logs, TENHOU_JSON)))
    put(inputs, "nan.json", with_first_number(real(shared_logs, TENHOU_JSON), b"NaN", b'"log"'))
    database(inputs / "houou.db", HOUOU, [("2019010100gm-00a9-0000-0000real", 1.5)])
    os.mkfifo(inputs / "pipe.mjlog")
    result = CliRunner().invoke(app, ["ingest", str(inputs), "-w", str(tmp_path / "warehouse"), "--no-derive"])
    assert result.exit_code == 3, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert re.search(r"\b1 ok\b.*\b3 quarantined\b.*\b1 skipped\b, 0 pending\b", result.output), result.output
    for name in ("deep.json", "nan.json", "houou.db: member 'logs/2019010100gm-00a9-0000-0000real'", "pipe.mjlog"):
        assert name in result.output, name


# --- one file at a time -------------------------------------------------------------------------
def test_a_reader_failing_in_any_way_quarantines_the_file_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def broken(data: bytes, source_file: str) -> list:
        raise KeyError("a bug\nover two lines")

    monkeypatch.setitem(reading.PARSERS, "mjai", broken)
    result = read_file(tmp_path / "x.jsonl", b'{"type": "start_game"}\n')
    why = "KeyError: 'a bug\\nover two lines'"  # repr's escape: the message is one line
    assert (result.status, result.error) == ("quarantined", f"{tmp_path / 'x.jsonl'}: cannot be read as mjai ({why})")
    path = put(tmp_path, "log.mjlog", b"<mjloggm")
    (entry,) = entries(path)
    monkeypatch.setattr(containers._PlainFile, "read", lambda *args: {}["no such key"])
    result = read_entry(entry, {})
    assert isinstance(result, FileResult)
    assert (result.status, result.error) == ("quarantined", f"{path}: cannot read (KeyError: 'no such key')")


@pytest.mark.parametrize("flips", [1, 2, 3])
def test_flipped_bits_in_a_protobuf_record_never_escape_as_exceptions(shared_logs: Path, flips: int) -> None:
    import random

    data = base64.b64decode(json.loads(real(shared_logs, MAJSOUL_BASE64))["data"])
    rng = random.Random(flips)
    for _ in range(150):
        flipped = bytearray(data)
        for _ in range(flips):
            flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
        result = read_file(Path("/in/record.bin"), bytes(flipped))
        assert result.status in ("ok", "quarantined"), result.error
        assert "cannot be read as" not in (result.error or ""), result.error  # a ParseError, not a reader's bug


def test_a_database_lists_at_most_max_rows_rows(tmp_path: Path) -> None:
    path = database(tmp_path / "many.db", PHOENIX, [(f"2019010100gm-00a9-0000-{i:08x}", "x") for i in range(5)])
    found = list(entries(path, Limits(max_rows=3)))
    assert [e.name for e in found] == [*(member_name(path, f"logs/2019010100gm-00a9-0000-{i:08x}") for i in range(3)),
                                       str(path)]  # fmt: skip
    with pytest.raises(containers.ContainerError, match="more than 3 rows, the limit of one database"):
        found[-1].read()


def test_gunzip_stops_at_the_limit_and_keeps_what_a_cut_stream_holds() -> None:
    data = os.urandom(1000) + b"x" * 3 * MiB
    packed = gzip.compress(data)
    assert gunzip(packed, 4 * MiB) == data and gunzip(packed + packed, 8 * MiB) == data + data
    cut = gunzip(packed[: len(packed) // 2], 4 * MiB)
    assert data.startswith(cut) and 1000 < len(cut) < len(data)
    with pytest.raises(reading.TooLargeError, match="expands to more than 1 MiB"):
        gunzip(packed, MiB)
    with pytest.raises(EOFError):
        gunzip(packed[:12], MiB)


# --- memory ---------------------------------------------------------------------------------------
PEAK_KIB = """
def peak_kib():
    # this process's own peak (VmHWM): ru_maxrss would count the parent's memory at the spawn (vfork)
    with open("/proc/self/status") as status:
        return int(next(line for line in status if line.startswith("VmHWM:")).split()[1])
"""
"""Source of ``peak_kib()`` for a child process: its resident peak in KiB, its own and not its parent's."""

MEASURE = PEAK_KIB + """
import sys
from pathlib import Path
from pipeline.ingest import ingest
from pipeline.store.warehouse import Warehouse
report = ingest([Path(sys.argv[1])], Warehouse(Path(sys.argv[2])))
print(report.files["quarantined"], peak_kib())
"""


@pytest.mark.slow
def test_a_gigabyte_bomb_costs_its_limit_not_its_size(shared_logs: Path, tmp_path: Path) -> None:
    head = real(shared_logs, XML_LOG)[:200]
    head = head[: head.index(b"<SHUFFLE")]
    inputs = tmp_path / "in"
    put(inputs, "bomb.mjlog.gz", gzip_bomb(head, 1024 * MiB))  # 1 MB on disk, a gigabyte inside
    put(inputs, "bomb.zip", zip_with({"bomb.mjlog.gz": gzip_bomb(head, 1024 * MiB)}, zipfile.ZIP_STORED))
    database(inputs / "bomb.db", HOUOU, [("2019010100gm-00a9-0000-00000b0b", gzip_bomb(head, 1024 * MiB))])
    run = subprocess.run([sys.executable, "-c", MEASURE, str(inputs), str(tmp_path / "warehouse")],
                         capture_output=True, text=True, timeout=600, check=True)  # fmt: skip
    quarantined, max_rss_kib = map(int, run.stdout.split())
    assert quarantined == 3
    assert max_rss_kib < 1024 * 1024, f"peak memory {max_rss_kib / 1024:.0f} MiB"
