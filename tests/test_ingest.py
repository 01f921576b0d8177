"""Ingest: every input file accounted for, reruns change nothing, duplicates stored once, bad input
quarantined with a message, atomic and self-describing Parquet parts.

Small inputs are built at test time by copying or mutating a few real logs of ../shared/logs into
tmp_path (no copy of a real log is committed).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import random
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.db import STORE_NAME, connect
from pipeline.derive.run import derive
from pipeline.errors import WarehouseError
from pipeline.ingest import STATUSES, IngestReport, containers, content_hash, ingest
from pipeline.schema import DERIVED_TABLES, TABLES
from pipeline.statistics import run_checks
from pipeline.store.lock import LOCK_FILE
from pipeline.store.published import COMMIT_LOCK_FILE
from pipeline.store.warehouse import Warehouse

MJX = "mjx/tests_py/resources/mjlog"
PLAIN = f"{MJX}/2020052700gm-00a9-0000-75a4695c.mjlog"
"""A plain mjlog, 9 rounds, complete."""
PLAIN_ID = "2020052700gm-00a9-0000-75a4695c"
LONG = f"{MJX}/2020061922gm-00a9-0000-6183ff37.mjlog"
"""A plain mjlog with 15 rounds (cut after a few rounds below)."""
KYUUSHU = f"{MJX}/2011020613gm-00a9-0000-3774f8d1.mjlog"
"""A plain mjlog holding one RYUUKYOKU type="yao9"."""
SANMA = "dnovikoff-tenhou/log/test_data/sanma2.xml"
GZ_DIR = "Tenhou-Paifu-Logger/test/test_data"
GZ = {
    name: f"{GZ_DIR}/{name}&tw={tw}.mjlog"
    for name, tw in (
        ("2022060222gm-0001-0000-a87679bc", 3),
        ("2022060222gm-0001-0000-f47dd061", 3),
        ("2022060223gm-0001-0000-b8e20009", 2),
        ("2022060400gm-0001-0000-d6c5c8e7", 3),
    )
}
"""Gzip-compressed mjlogs by log id."""
TRUNCATED_COPIES = [f"{MJX}/2011020401gm-00a9-0000-f6eff225{suffix}.mjlog" for suffix in ("-no-game-end", "")]
"""A game cut before its end and the complete copy of it (the cut copy sorts first)."""

PART_PATH = re.compile(
    rf"^(?P<table>{'|'.join([*TABLES, *DERIVED_TABLES])})/source=tenhou_xml/year=(?P<year>\d{{4}}|unknown)/"
    r"part-[0-9a-f]+\.parquet$"
)


# --- helpers ----------------------------------------------------------------------------------
def real(shared_logs: Path, rel: str) -> bytes:
    """The bytes of a real log (gzip files decompressed when ``plain``)."""
    return (shared_logs / "tenhou-xml" / rel).read_bytes()


NOTHING = dict.fromkeys((*STATUSES, "unchanged"), 0)
"""An ingest report's file counts with no file in any status."""

def plain(shared_logs: Path, rel: str) -> bytes:
    """The XML bytes of a real log, decompressed if it is gzip."""
    data = real(shared_logs, rel)
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def put(folder: Path, name: str, data: bytes) -> Path:
    """Write an input file into a folder and return its absolute path."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path.resolve()


def init_offsets(xml: bytes) -> list[int]:
    """Byte offsets of the INIT elements (round starts)."""
    return [m.start() for m in re.finditer(rb"<INIT", xml)]


def listing(root: Path) -> list[str]:
    """Absolute paths of every file below root, recursively, hidden files and folders aside."""
    return sorted(
        str(p.resolve())
        for p in root.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)
    )


def manifest_rows(warehouse: Warehouse) -> dict[str, dict]:
    """Manifest rows by path."""
    return {row["path"]: row for row in warehouse.read_manifest().to_pylist()}


def snapshot(root: Path, skip: tuple[str, ...] = ("manifest",)) -> dict[str, tuple[int, int, str]]:
    """Relative path -> (size, mtime_ns, content digest) of every file of a warehouse folder (the lock files
    aside: they name the last writer, and date the last publication)."""
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.relative_to(root).parts[0] not in (*skip, LOCK_FILE, COMMIT_LOCK_FILE)
    }


def fetch(warehouse: Warehouse, sql: str, params: list | None = None) -> list[dict]:
    """Run a query over the warehouse views; rows as dicts."""
    result = connect(warehouse).execute(sql, params or [])
    columns = [d[0] for d in result.description]
    return [dict(zip(columns, row, strict=True)) for row in result.fetchall()]


def table_contents(warehouse: Warehouse) -> dict[str, tuple[int, int]]:
    """Every warehouse table's row count and an order-free digest of its rows, read through the DuckDB views."""
    con = connect(warehouse)
    return {
        name: con.execute(f"select count(*), sum(hash(t)) from {name} as t").fetchone()
        for name in (*TABLES, "manifest")
    }


def games(warehouse: Warehouse) -> list[dict]:
    """The games table's rows, by game id."""
    return fetch(warehouse, "select * from games order by game_id")


# --- the real logs: every file accounted for ------------------------------------------------------
def test_every_real_file_is_in_the_manifest_exactly_once(
    tenhou_warehouse: tuple[Warehouse, IngestReport], shared_logs: Path
) -> None:
    warehouse, report = tenhou_warehouse
    files = listing(shared_logs / "tenhou-xml")
    paths = warehouse.read_manifest()["path"].to_pylist()
    assert len(paths) == len(set(paths)), "a file has two manifest rows"
    assert sorted(paths) == files
    assert sum(report.files.values()) == len(files)
    assert report.files["unchanged"] == 0


def test_real_logs_nothing_quarantined_and_only_the_text_files_are_not_logs(
    tenhou_warehouse: tuple[Warehouse, IngestReport],
) -> None:
    warehouse, report = tenhou_warehouse
    rows = manifest_rows(warehouse)
    by_status: dict[str, list[str]] = {}
    for path, row in rows.items():
        by_status.setdefault(row["status"], []).append(Path(path).name)
    assert set(by_status) <= {"ok", "duplicate", "quarantined", "not_a_log"}
    assert sorted(by_status["not_a_log"]) == ["README.txt", "example.txt"]
    # pantheon's hand-edited copy of full_hanchan.xml: its first round has a win and no draw (round_has_play)
    assert by_status["quarantined"] == ["hanchan_with_noname.xml"]
    assert "fails the invariant check round_has_play" in rows[next(p for p in rows if "noname" in p)]["error"]
    assert not report.all_read and report.files["quarantined"] == 1
    assert {status: len(names) for status, names in by_status.items()} == {
        status: n for status, n in report.files.items() if n and status != "unchanged"
    }


def test_real_logs_manifest_agrees_with_the_games_table(tenhou_warehouse: tuple[Warehouse, IngestReport]) -> None:
    warehouse, report = tenhou_warehouse
    rows = manifest_rows(warehouse)
    stored = {g["game_id"]: g for g in games(warehouse)}
    ok = [row for row in rows.values() if row["status"] == "ok"]
    assert len(stored) == report.games == len(ok)
    assert sorted(g["source_file"] for g in stored.values()) == sorted(row["path"] for row in ok)
    assert sum(g["n_rounds"] for g in stored.values()) == report.rounds
    for row in ok:
        assert row["error"] is None and row["n_games"] == 1 and row["game_ids"][0] in stored
    for row in rows.values():
        if row["status"] == "duplicate":
            named = re.search(r"same game as (\S+),", row["error"])
            assert named and named.group(1) in stored, row


# --- reruns ----------------------------------------------------------------------------------------
def test_reingesting_the_same_folder_changes_nothing(shared_logs: Path, tmp_path: Path) -> None:
    folder = shared_logs / "tenhou-xml"
    warehouse = Warehouse(tmp_path / "warehouse")
    first = ingest([folder], warehouse)
    parts, contents, manifest = snapshot(warehouse.root), table_contents(warehouse), manifest_rows(warehouse)

    again = ingest([folder], warehouse)

    n_files = len(listing(folder))
    assert again.files == {**NOTHING, "unchanged": n_files}
    assert (again.games, again.rounds, again.problems) == (0, 0, [])
    assert first.games > 0
    assert snapshot(warehouse.root) == parts  # same part names, bytes and mtimes
    assert manifest_rows(warehouse) == manifest  # same rows, ingested_at included
    assert table_contents(warehouse) == contents
    assert not list(warehouse.root.rglob("*.tmp"))


def _opened_files(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every input file the ingest opens (the container sniff and the plain read both go through
    pipeline.ingest.containers' ``open``); returns the list it appends to."""
    opened: list[str] = []

    def recording_open(path, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        opened.append(str(path))
        return open(path, *args, **kwargs)

    monkeypatch.setattr(containers, "open", recording_open, raising=False)
    return opened


def test_a_rerun_opens_no_file_of_unchanged_size_and_time(
    shared_logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = tmp_path / "in"
    a = put(inputs, Path(PLAIN).name, real(shared_logs, PLAIN))
    b = put(inputs, "sanma2.xml", real(shared_logs, SANMA))
    warehouse = Warehouse(tmp_path / "warehouse")
    ingest([inputs], warehouse)
    manifest = manifest_rows(warehouse)
    assert manifest[str(a)]["mtime_ns"] == a.stat().st_mtime_ns and manifest[str(b)]["size"] == b.stat().st_size
    c = put(inputs, "later.mjlog", real(shared_logs, LONG))
    opened = _opened_files(monkeypatch)

    again = ingest([inputs], warehouse)

    assert opened and set(opened) == {str(c)}  # only the new file was looked at
    assert (again.files["ok"], again.files["unchanged"]) == (1, 2)
    rows = manifest_rows(warehouse)
    assert rows[str(a)] == manifest[str(a)] and rows[str(b)] == manifest[str(b)]


def _one_file_ingested(shared_logs: Path, tmp_path: Path) -> tuple[Path, Path, Warehouse]:
    """A folder holding one real log, ingested into a new warehouse: (the folder, the file, the warehouse)."""
    inputs = tmp_path / "in"
    a = put(inputs, Path(PLAIN).name, real(shared_logs, PLAIN))
    warehouse = Warehouse(tmp_path / "warehouse")
    ingest([inputs], warehouse)
    return inputs, a, warehouse


def test_a_touched_file_is_read_once_more_then_skipped_unread(
    shared_logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs, a, warehouse = _one_file_ingested(shared_logs, tmp_path)
    before = manifest_rows(warehouse)[str(a)]
    os.utime(a, ns=(a.stat().st_atime_ns, before["mtime_ns"] + 10**9))  # same bytes, a later time (a copy, a touch)
    opened = _opened_files(monkeypatch)

    read_again = ingest([inputs], warehouse)

    assert str(a) in opened and read_again.files["unchanged"] == 1 and read_again.games == 0
    after = manifest_rows(warehouse)[str(a)]
    assert after["mtime_ns"] == before["mtime_ns"] + 10**9  # restamped: the row is otherwise the same
    assert {k: v for k, v in after.items() if k != "mtime_ns"} == {k: v for k, v in before.items() if k != "mtime_ns"}
    opened.clear()
    assert ingest([inputs], warehouse).files["unchanged"] == 1 and opened == []


def test_rehash_reads_a_file_changed_behind_its_size_and_time(
    shared_logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs, a, warehouse = _one_file_ingested(shared_logs, tmp_path)
    stamp = a.stat()
    other = real(shared_logs, LONG)
    a.write_bytes(other[: stamp.st_size].ljust(stamp.st_size, b" "))  # other bytes, the same size...
    os.utime(a, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # ...and the recorded time

    assert ingest([inputs], warehouse).files["unchanged"] == 1  # trusted: size and time are those recorded
    opened = _opened_files(monkeypatch)
    report = ingest([inputs], warehouse, rehash=True)

    assert str(a) in opened and report.files["unchanged"] == 0
    assert manifest_rows(warehouse)[str(a)]["content_hash"] == content_hash(a.read_bytes())


def test_the_manifest_parts_holding_paths_are_those_a_full_scan_finds(shared_logs: Path, tmp_path: Path) -> None:
    warehouse = Warehouse(tmp_path / "warehouse")
    ingest([shared_logs / "tenhou-xml" / MJX], warehouse, batch_size=3)  # a manifest part per 3 files
    parts = {part: set(warehouse._read_manifest_part(part, pa.schema([("path", pa.string())]))["path"].to_pylist())
             for part in warehouse.manifest_parts()}  # fmt: skip
    assert len(parts) > 3
    paths = sorted(set().union(*parts.values()))
    for wanted in ([paths[0]], paths[1::4], [paths[-1], "/nowhere"], ["/nowhere"], paths):
        found = warehouse._parts_holding(pa.array(wanted, pa.string()))
        assert set(found) == {part for part, held in parts.items() if held & set(wanted)}, wanted


def test_new_files_are_added_later_without_duplicating_the_old(shared_logs: Path, tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    a = put(inputs, Path(PLAIN).name, real(shared_logs, PLAIN))
    b = put(inputs, "sanma2.xml", real(shared_logs, SANMA))
    warehouse = Warehouse(tmp_path / "warehouse")
    first = ingest([inputs], warehouse)
    assert first.files["ok"] == 2 and first.games == 2
    parts, manifest = snapshot(warehouse.root), manifest_rows(warehouse)

    c_id = "2022060222gm-0001-0000-a87679bc"
    c = put(inputs, "later/" + Path(GZ[c_id]).name, real(shared_logs, GZ[c_id]))
    d = put(inputs, "later/0-copy-of-a.gz", gzip.compress(real(shared_logs, PLAIN)))
    second = ingest([inputs], warehouse)

    assert second.files == {**NOTHING, "ok": 1, "duplicate": 1, "unchanged": 2}
    assert second.games == 1
    stored = games(warehouse)
    ids = [g["game_id"] for g in stored]
    assert len(ids) == len(set(ids)) == 3
    assert set(ids) == {PLAIN_ID, c_id, next(g["game_id"] for g in stored if g["n_players"] == 3)}
    rows = manifest_rows(warehouse)
    assert rows[str(a)] == manifest[str(a)] and rows[str(b)] == manifest[str(b)]
    assert rows[str(c)]["status"] == "ok"
    assert rows[str(d)]["status"] == "duplicate" and PLAIN_ID in rows[str(d)]["error"]
    now = snapshot(warehouse.root)
    assert {k: v for k, v in now.items() if k in parts} == parts  # the first run's parts are untouched
    assert len(now) > len(parts)
    con = connect(warehouse)
    for table in TABLES:
        n_rows, n_distinct = con.execute(f"select count(*), count(distinct t) from {table} as t").fetchone()
        assert n_rows == n_distinct, table


def test_a_file_given_twice_is_read_once_and_hidden_files_are_skipped(shared_logs: Path, tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    a = put(inputs, Path(PLAIN).name, real(shared_logs, PLAIN))
    put(inputs, ".hidden/skip.mjlog", real(shared_logs, SANMA))
    warehouse = Warehouse(tmp_path / "warehouse")
    (inputs / "sub").mkdir()
    report = ingest([inputs, a, inputs / "sub" / ".." / a.name], warehouse)
    assert report.files["ok"] == 1 and sum(report.files.values()) == 1
    assert list(manifest_rows(warehouse)) == [str(a)]


def test_same_content_written_to_two_warehouses_gives_the_same_parts(shared_logs: Path, tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    put(inputs, Path(PLAIN).name, real(shared_logs, PLAIN))
    put(inputs, "sanma2.xml", real(shared_logs, SANMA))
    one, two = Warehouse(tmp_path / "one"), Warehouse(tmp_path / "two")
    ingest([inputs], one)
    ingest([inputs], two)
    assert one.table_files("games") and sorted(snapshot(one.root)) == sorted(snapshot(two.root))
    contents_one, contents_two = table_contents(one), table_contents(two)
    for name in TABLES:
        assert contents_one[name] == contents_two[name], name


# --- duplicates --------------------------------------------------------------------------------
def test_the_same_game_in_two_files_is_stored_once(shared_logs: Path, tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    data = real(shared_logs, PLAIN)
    gz_copy = put(inputs, "0-copy.mjlog.gz", gzip.compress(data))  # sorts first, carries no log id
    original = put(inputs, Path(PLAIN).name, data)
    warehouse = Warehouse(tmp_path / "warehouse")
    report = ingest([inputs], warehouse)

    assert report.files["ok"] == 1 and report.files["duplicate"] == 1 and report.games == 1
    stored = games(warehouse)
    assert [g["game_id"] for g in stored] == [PLAIN_ID]  # the copy named by its log id is the one kept
    assert stored[0]["source_file"] == str(original)
    rows = manifest_rows(warehouse)
    assert rows[str(original)]["status"] == "ok"
    duplicate = rows[str(gz_copy)]
    assert duplicate["status"] == "duplicate"
    assert f"same game as {PLAIN_ID}" in duplicate["error"] and str(original) in duplicate["error"]
    assert connect(warehouse).execute("select count(*) from rounds").fetchone() == (stored[0]["n_rounds"],)


def test_the_stored_copy_does_not_depend_on_the_batch_size(shared_logs: Path, tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    for rel in TRUNCATED_COPIES:
        put(inputs, Path(rel).name, real(shared_logs, rel))
    stored = {}
    for batch_size in (2000, 1):
        warehouse = Warehouse(tmp_path / f"warehouse-{batch_size}")
        ingest([inputs], warehouse, batch_size=batch_size)
        stored[batch_size] = [(g["game_id"], g["n_rounds"], g["is_complete"]) for g in games(warehouse)]
    assert stored[2000] == [("2011020401gm-00a9-0000-f6eff225", 8, True)]
    assert stored[1] == stored[2000]


def test_a_file_edited_in_place_is_not_a_duplicate_of_itself(shared_logs: Path, tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    path = put(inputs, Path(PLAIN).name, real(shared_logs, PLAIN))
    warehouse = Warehouse(tmp_path / "warehouse")
    ingest([inputs], warehouse)
    path.write_bytes(path.read_bytes() + b"\n")  # same game, new content hash: read again

    report = ingest([inputs], warehouse)

    assert len(games(warehouse)) == 1
    row = manifest_rows(warehouse)[str(path)]
    assert (row["status"], report.files["ok"]) == ("ok", 1), row["error"]


# --- bad input ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def bad_batch(shared_logs: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """One batch mixing good files with every kind of bad input, ingested once."""
    inputs = tmp_path_factory.mktemp("bad_batch") / "in"
    files = {
        "good_plain": put(inputs, Path(PLAIN).name, real(shared_logs, PLAIN)),
        "good_sanma": put(inputs, "sanma2.xml", real(shared_logs, SANMA)),
    }
    gz = real(shared_logs, GZ["2022060222gm-0001-0000-f47dd061"])
    files["truncated_gzip"] = put(inputs, "truncated-2022060222gm-0001-0000-f47dd061.mjlog", gz[: len(gz) // 2])
    noise = random.Random(7).randbytes(5000)
    assert noise[:2] != b"\x1f\x8b" and b"<mjloggm" not in noise
    files["random_bytes"] = put(inputs, "noise.mjlog", noise)

    kyuushu = real(shared_logs, KYUUSHU)
    assert kyuushu.count(b'type="yao9"') == 1
    files["unknown_draw_type"] = put(
        inputs, "zzz-" + Path(KYUUSHU).name, kyuushu.replace(b'type="yao9"', b'type="zzz"')
    )

    xml = plain(shared_logs, GZ["2022060223gm-0001-0000-b8e20009"])
    at = xml.index(b"<", init_offsets(xml)[2] + 1)  # after the INIT of round 2
    files["unknown_tag"] = put(inputs, "foo-2022060223gm-0001-0000-b8e20009.mjlog", xml[:at] + b"<FOO/>" + xml[at:])

    ten = re.compile(rb'ten="(\d+),(\d+),(\d+),(\d+)"').search(xml, init_offsets(xml)[1])
    assert ten is not None
    three = xml[: ten.start()] + b'ten="%s,%s,%s"' % ten.groups()[:3] + xml[ten.end() :]
    files["three_scores"] = put(inputs, "ten3-2022060223gm-0001-0000-b8e20009.mjlog", three)
    third = init_offsets(xml)[2]  # without round 2's INIT, rounds 1 and 2 read as one: tiles enter it twice
    lost_init = xml[:third] + xml[xml.index(b">", third) + 1 :]
    files["lost_init"] = put(inputs, "init-2022060223gm-0001-0000-b8e20009.mjlog", lost_init)

    xml = plain(shared_logs, GZ["2022060400gm-0001-0000-d6c5c8e7"])
    draw = re.compile(rb"<T\d+/>").search(xml, init_offsets(xml)[1])
    assert draw is not None
    bad_tile = xml[: draw.start()] + b"<T200/>" + xml[draw.end() :]
    files["tile_200"] = put(inputs, "t200-2022060400gm-0001-0000-d6c5c8e7.mjlog", bad_tile)

    xml = plain(shared_logs, GZ["2022060222gm-0001-0000-a87679bc"])
    files["cut_in_first_round"] = put(
        inputs, "cut1-2022060222gm-0001-0000-a87679bc.mjlog", xml[: init_offsets(xml)[0] + 400]
    )

    xml = real(shared_logs, LONG)
    cut_at = init_offsets(xml)[3] + 250  # inside round 3, most likely mid-element
    files["cut_after_three_rounds"] = put(inputs, "cut3-" + Path(LONG).name, xml[:cut_at])

    warehouse = Warehouse(tmp_path_factory.mktemp("bad_batch_warehouse") / "warehouse")
    report = ingest([inputs], warehouse)
    rows = manifest_rows(warehouse)
    return {
        "report": report,
        "warehouse": warehouse,
        "files": files,
        "rows": {k: rows[str(p)] for k, p in files.items()},
    }


def test_bad_input_is_accounted_for_and_the_rest_is_written(bad_batch: dict) -> None:
    report, rows = bad_batch["report"], bad_batch["rows"]
    assert {k: row["status"] for k, row in rows.items()} == {
        "good_plain": "ok",
        "good_sanma": "ok",
        "truncated_gzip": "quarantined",
        "random_bytes": "not_a_log",
        "unknown_draw_type": "quarantined",
        "unknown_tag": "quarantined",
        "three_scores": "quarantined",
        "lost_init": "quarantined",
        "tile_200": "quarantined",
        "cut_in_first_round": "quarantined",
        "cut_after_three_rounds": "ok",
    }
    assert {k: row["reason"] for k, row in rows.items()} == {
        "good_plain": None, "good_sanma": None, "truncated_gzip": "malformed", "random_bytes": "unknown_format",
        "unknown_draw_type": "unknown_code", "unknown_tag": "malformed", "three_scores": "malformed",
        "lost_init": "malformed", "tile_200": "malformed", "cut_in_first_round": "no_complete_round",
        "cut_after_three_rounds": None,
    }  # fmt: skip
    assert report.files == {**NOTHING, "ok": 3, "quarantined": 7, "not_a_log": 1}
    assert not report.all_read
    assert sorted(p for p, _, _ in report.problems) == sorted(
        str(path) for k, path in bad_batch["files"].items() if rows[k]["status"] != "ok"
    )
    stored = games(bad_batch["warehouse"])
    assert sorted(g["source_file"] for g in stored) == sorted(
        str(bad_batch["files"][k]) for k in ("good_plain", "good_sanma", "cut_after_three_rounds")
    )
    for k, row in rows.items():
        if row["status"] != "ok":
            assert str(bad_batch["files"][k]) in row["error"], (k, row["error"])
            assert "Traceback" not in row["error"]


@pytest.mark.parametrize(
    ("case", "words"),
    [
        ("truncated_gzip", ["gzip"]),
        ("random_bytes", ["not a"]),
        ("unknown_draw_type", ["RYUUKYOKU", "'zzz'", "game 2011020613gm-00a9-0000-3774f8d1"]),
        ("unknown_tag", ["<FOO>"]),
        ("three_scores", ["INIT ten holds 3 scores", "round 1"]),
        ("lost_init", ["enters the round twice", "round 1"]),
        ("tile_200", ["tile id 200", "round 1"]),
        ("cut_in_first_round", ["no complete round"]),
    ],
)
def test_quarantine_message_names_the_file_and_the_problem(bad_batch: dict, case: str, words: list[str]) -> None:
    error = bad_batch["rows"][case]["error"]
    assert str(bad_batch["files"][case]) in error
    for word in words:
        assert word in error, error
    assert "\n" not in error


@pytest.mark.parametrize(("case", "round_name"), [("unknown_tag", "round 2"), ("unknown_draw_type", "round 4")])
def test_quarantine_message_names_the_round_when_known(bad_batch: dict, case: str, round_name: str) -> None:
    assert round_name in bad_batch["rows"][case]["error"]


def test_a_log_cut_after_a_few_rounds_keeps_its_complete_rounds(bad_batch: dict) -> None:
    warehouse = bad_batch["warehouse"]
    path = str(bad_batch["files"]["cut_after_three_rounds"])
    con = connect(warehouse)
    game = con.execute("select game_id, n_rounds, is_complete from games where source_file = ?", [path]).fetchone()
    assert game is not None and game[1:] == (3, False)
    game_id = game[0]
    assert con.execute("select count(*), max(round_idx) from rounds where game_id = ?", [game_id]).fetchone() == (3, 2)
    assert con.execute("select bool_or(is_last) from rounds where game_id = ?", [game_id]).fetchone() == (False,)
    assert con.execute("select max(round_idx) from events where game_id = ?", [game_id]).fetchone() == (2,)
    finals = con.execute("select count(final_score), count(final_rank) from players where game_id = ?", [game_id])
    assert finals.fetchone() == (0, 0)
    assert bad_batch["rows"]["cut_after_three_rounds"]["game_ids"] == [game_id]


def test_the_warehouse_with_partial_games_passes_every_check(bad_batch: dict) -> None:
    results = run_checks(connect(bad_batch["warehouse"]))
    assert results and {name: violations for name, violations in results.items() if violations} == {}


# --- atomic, self-describing parts --------------------------------------------------------------
def test_parts_are_hive_partitioned_zstd_with_version_metadata(
    tenhou_warehouse: tuple[Warehouse, IngestReport],
) -> None:
    warehouse, _ = tenhou_warehouse
    root = warehouse.root
    assert not list(root.rglob("*.tmp"))
    known = (LOCK_FILE, COMMIT_LOCK_FILE, STORE_NAME)  # STORE_NAME: the statistics' stored rollups, not a part
    parts = sorted(p for p in root.rglob("*") if p.is_file() and p.name not in known)
    manifest_parts = warehouse.manifest_parts()
    assert manifest_parts and set(manifest_parts) <= set(parts)
    tables_seen = set()
    for part in parts:
        rel = part.relative_to(root).as_posix()
        if part not in manifest_parts:
            match = PART_PATH.match(rel)
            assert match, rel
            tables_seen.add(match.group("table"))
        meta = pq.ParquetFile(part).metadata
        kv = meta.metadata or {}
        assert kv.get(b"paipu_version") and kv.get(b"paipu_schema_version"), rel
        assert meta.num_row_groups >= 1
        for rg in range(meta.num_row_groups):
            for col in range(meta.num_columns):
                assert meta.row_group(rg).column(col).compression == "ZSTD", (rel, col)
    # server_flags: only Mahjong Soul records carry the server's own flags (none in Tenhou XML)
    assert tables_seen == (set(TABLES) - {"server_flags"}) | set(DERIVED_TABLES)


def test_game_parts_hold_the_year_of_their_partition(tenhou_warehouse: tuple[Warehouse, IngestReport]) -> None:
    warehouse, _ = tenhou_warehouse
    for part in warehouse.table_files("games"):
        folder_year = PART_PATH.match(part.relative_to(warehouse.root).as_posix()).group("year")
        years = set(pq.read_table(part, columns=["year"], partitioning=None)["year"].to_pylist())
        assert years == ({None} if folder_year == "unknown" else {int(folder_year)}), part


def test_a_failed_write_leaves_no_temp_file_and_the_old_parts_intact(
    shared_logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = tmp_path / "in"
    put(inputs, Path(PLAIN).name, real(shared_logs, PLAIN))
    warehouse = Warehouse(tmp_path / "warehouse")
    ingest([inputs], warehouse)
    before = snapshot(warehouse.root, skip=())
    put(inputs, "sanma2.xml", real(shared_logs, SANMA))

    def disk_full(table, where, **kwargs) -> None:  # noqa: ANN001
        Path(where).write_bytes(b"PAR1 half a file")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pq, "write_table", disk_full)
    with pytest.raises(WarehouseError, match="No space left"):
        ingest([inputs], warehouse)
    monkeypatch.undo()

    assert not list(warehouse.root.rglob("*.tmp"))
    assert snapshot(warehouse.root, skip=()) == before
    report = ingest([inputs], warehouse)  # the next run picks up what was not written
    assert report.files["ok"] == 1 and report.files["unchanged"] == 1


def test_an_unwritable_warehouse_raises_warehouse_error(shared_logs: Path, tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    put(inputs, Path(PLAIN).name, real(shared_logs, PLAIN))
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the warehouse should be")
    with pytest.raises(WarehouseError):
        ingest([inputs], Warehouse(blocker))


def test_temp_files_left_by_a_killed_run_are_removed(tmp_path: Path, shared_logs: Path) -> None:
    source = shared_logs / "tenhou-xml/mjx/tests_py/resources/mjlog/2020052700gm-00a9-0000-75a4695c.mjlog"
    warehouse = Warehouse(tmp_path / "warehouse")
    orphan = warehouse.root / "games" / "source=tenhou_xml" / "year=2020" / "part-0.parquet.123.tmp"
    orphan.parent.mkdir(parents=True)
    orphan.write_bytes(b"half a file")
    ingest([source], warehouse)
    assert not orphan.exists()
    assert warehouse.table_files("games")


def test_derived_tables_of_an_older_schema_ask_for_paipu_derive(tmp_path: Path) -> None:
    warehouse = Warehouse(tmp_path / "w")
    ingest([Path(__file__).resolve().parents[1] / "data" / "sample"], warehouse)
    derive(warehouse)
    part = warehouse.table_files("hand_states")[0]
    old = pq.read_table(part)
    pq.write_table(old.replace_schema_metadata({**old.schema.metadata, b"paipu_schema_version": b"1"}), part)
    with pytest.raises(WarehouseError, match=r"hand_states .* schema version 1.*paipu derive"):
        connect(warehouse)
    derive(warehouse)  # the remedy the message names
    assert connect(warehouse).execute("select count(*) from hand_states").fetchall()[0][0] == old.num_rows


def test_a_game_whose_values_do_not_fit_is_quarantined_and_the_rest_stored(
    shared_logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store's safety net: a parser letting a value through that its column cannot hold (here an honba of
    a billion) costs that file, named with the game and table, not the batch."""
    import pipeline.ingest.reading as reading  # noqa: PLC0415

    inputs = tmp_path / "in"
    put(inputs, Path(PLAIN).name, real(shared_logs, PLAIN))
    put(inputs, "sanma2.xml", real(shared_logs, SANMA))
    parse = reading.PARSERS["tenhou_xml"]

    def parse_with_a_huge_honba(data: bytes, source_file: str) -> list:
        games = parse(data, source_file)
        if source_file.endswith("sanma2.xml"):
            games[0].tables["rounds"]["honba"] = [10**9] * len(games[0].tables["rounds"]["honba"])
        return games

    monkeypatch.setitem(reading.PARSERS, "tenhou_xml", parse_with_a_huge_honba)
    warehouse = Warehouse(tmp_path / "warehouse")
    report = ingest([inputs], warehouse, derive=True)

    assert (report.files["ok"], report.files["quarantined"], report.games) == (1, 1, 1)
    row = manifest_rows(warehouse)[str(inputs / "sanma2.xml")]
    assert row["status"] == "quarantined"
    assert "sanma2.xml" in row["error"] and "table rounds" in row["error"] and "\n" not in row["error"]
    assert len(warehouse.table_files("games")) == 1 and warehouse.table_files("hand_states")


def test_a_file_read_with_another_format_forced_is_read_again(shared_logs: Path, tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    put(inputs, Path(PLAIN).name, real(shared_logs, PLAIN))
    warehouse = Warehouse(tmp_path / "warehouse")
    wrong = ingest([inputs], warehouse, file_format="mjai")  # not mjai: not stored
    assert wrong.files["ok"] == 0
    again = ingest([inputs], warehouse, file_format="mjai")
    assert again.files["unchanged"] == 1  # the same format forced again: nothing new to read
    right = ingest([inputs], warehouse, file_format="tenhou_xml")
    assert (right.files["ok"], right.files["unchanged"], right.games) == (1, 0, 1)
    assert ingest([inputs], warehouse).files["unchanged"] == 1  # detected: tenhou_xml, as recorded


def test_a_batch_read_out_of_game_order_hands_each_part_one_run_of_rows(
    shared_logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files whose order is not their games' order (as mjai games named by their fingerprint): the batch is
    converted in the order the parts are written, so no part's rows are gathered row by row (a copy of every
    table that cost ~7% of an mjai ingest), and the warehouse holds what an ingest in game order holds."""
    from pipeline.store import game_tables

    first = Warehouse(tmp_path / "first")
    ingest(sorted((shared_logs / "tenhou-xml").rglob("*.mjlog"))[:8], first, derive=True)
    by_id = [(g["game_id"], Path(g["source_file"])) for g in games(first)]
    assert len(by_id) >= 4
    inputs = tmp_path / "in"
    for k, (_, source) in enumerate(reversed(by_id)):  # file names sort against the game ids
        put(inputs, f"{k:02d}-{source.name}", source.read_bytes())
    gathered: list[object] = []
    rows_of = game_tables._rows_of
    monkeypatch.setattr(game_tables, "_rows_of", lambda *args: gathered.append(args) or rows_of(*args))
    second = Warehouse(tmp_path / "second")
    report = ingest([inputs], second, derive=True)
    assert report.files["ok"] == len(by_id) and not gathered
    assert [g["game_id"] for g in games(second)] == [game_id for game_id, _ in by_id]
    same = [t for t in TABLES if t != "games"]  # games names each copy's source file
    assert {t: table_contents(second)[t] for t in same} == {t: table_contents(first)[t] for t in same}
