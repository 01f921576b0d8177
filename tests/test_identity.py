"""One copy of every game: a game is known by its content (pipeline.identity), whatever its format or layout,
and one best-copy rule (pipeline.ingest.dedup.beats) decides which copy is stored, whatever the order of the files.

On the real logs of ../shared/logs: every XML game's fingerprint is its content's, no game is stored twice (17
were before: pantheon's anonymised XML files and their tenhou.net/6 JSON, two re-indented copies of one game),
and three ingest orders give identical warehouses. On copies made here: a re-indented copy is a duplicate, a
copy with a tag written twice is quarantined by an invariant check, and a copy that disagrees is a conflict.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pytest

from pipeline.db import connect
from pipeline.identity import content_fingerprint, first_disagreement, identify, round_digests
from pipeline.ingest import ingest, read_file
from pipeline.store.warehouse import Warehouse

sys.path.insert(0, str(Path(__file__).parent))
from warehouse_contents import contents, differences  # noqa: E402

PLAIN = "tenhou-xml/mjx/tests_py/resources/mjlog/2020052700gm-00a9-0000-75a4695c.mjlog"
"""A plain mjlog: one complete game of 9 rounds."""
PLAIN_ID = "2020052700gm-00a9-0000-75a4695c"
EDITED_COPY = "tenhou-xml/pantheon/Mimir/tests/models/testdata/hanchan_with_noname.xml"
"""pantheon's hand-edited copy of full_hanchan.xml: the same deal, another result of the first round."""

FIRST_ROUND_SQL = """
select r.game_id, r.round_wind, r.kyoku, r.honba, r.riichi_sticks, r.scores_pre, r.hands_start, r.dora_indicator
from rounds r where r.round_idx = 0 order by r.game_id
"""


@pytest.fixture(scope="module")
def all_logs(shared_logs: Path, tmp_path_factory: pytest.TempPathFactory) -> Warehouse:
    """A warehouse of every file of ../shared/logs (corpus included), ingested once."""
    warehouse = Warehouse(tmp_path_factory.mktemp("all_logs") / "warehouse")
    ingest([shared_logs], warehouse)
    return warehouse


@pytest.mark.parametrize("fmt", ["tenhou_xml", "tenhou_json", "mjai", "majsoul"])
def test_every_parser_gives_the_content_fingerprint(shared_logs: Path, fmt: str) -> None:
    # read_file takes the parsers' fingerprints as they are: each must be pipeline.identity's for a game with rounds
    folder = {"tenhou_xml": "tenhou-xml", "tenhou_json": "tenhou-json", "mjai": "mjai", "majsoul": "majsoul"}[fmt]
    files = sorted(p for top in (shared_logs, shared_logs / "corpus") for p in (top / folder).rglob("*") if p.is_file())
    checked = 0
    for path in files[:: max(1, len(files) // 40)]:  # ~40 files a format (all of the small folders)
        result = read_file(path, file_format=fmt)
        for game in result.games:
            parsed = game.fingerprint
            assert parsed and identify(game).fingerprint == parsed, path  # computed again from the first round
            checked += game.n_rounds > 0
    assert checked >= min(30, len(files) // 2)


def test_no_game_of_the_real_logs_is_stored_twice(all_logs: Warehouse) -> None:
    con = connect(all_logs)
    columns = ("round_wind", "kyoku", "honba", "riichi_sticks", "scores_pre", "hands_start", "dora_indicator")
    keys = Counter(
        content_fingerprint(dict(zip(columns, row[1:], strict=True))) for row in con.execute(FIRST_ROUND_SQL).fetchall()
    )
    assert len(keys) > 850
    assert [key for key, n in keys.items() if n > 1] == []
    stored = {fp for (fp,) in con.execute("select fingerprint from games").fetchall()}
    assert stored == set(keys)


def test_an_anonymised_xml_and_its_json_are_one_game(all_logs: Warehouse) -> None:
    # pantheon's west.xml (anonymised, its header edited) and the game's tenhou.net/6 JSON: the server's copy stays
    rows = connect(all_logs).execute(
        "select status, error from manifest where path like '%/onlineLog/testdata/west.xml'"
    ).fetchall()
    assert rows == [("duplicate", rows[0][1])]
    assert rows[0][1].startswith("same game as 2017030413gm-0009-3821-485c5dae, stored from ")
    assert rows[0][1].endswith("tenhou-json/pantheon/Mimir/tests/helpers/onlineLog/testdata/format6/west.json")


def test_a_copy_that_disagrees_is_a_conflict_naming_the_copy_stored(shared_logs: Path, tmp_path: Path) -> None:
    xml = (shared_logs / PLAIN).read_bytes()
    third = [m.start() for m in re.finditer(rb"<INIT ", xml)][2]
    seed = re.compile(rb'seed="(\d+),(\d+),').search(xml, third)
    assert seed is not None
    other_honba = xml[: seed.start(2)] + str(int(seed.group(2)) + 1).encode() + xml[seed.end(2) :]  # round 2 only
    for order in ("genuine first", "edited first"):
        folder = tmp_path / order
        folder.mkdir()
        genuine, edited = folder / f"a-{PLAIN_ID}.mjlog", folder / f"b-{PLAIN_ID}.mjlog"
        genuine.write_bytes(xml)
        edited.write_bytes(other_honba)
        warehouse = Warehouse(tmp_path / f"{order} warehouse")
        for paths in [[folder]] if order == "genuine first" else [[edited], [genuine]]:
            ingest(paths, warehouse)
        rows = dict(connect(warehouse).execute("select path, status from manifest").fetchall())
        assert rows == {str(genuine): "ok", str(edited): "conflict"}, order  # the smaller path wins between equals
        (error,) = connect(warehouse).execute("select error from manifest where status = 'conflict'").fetchone()
        assert f"conflicting copy of game {PLAIN_ID}: round 2 differs" in error
        assert error.endswith(f"the copy stored from {genuine} (wind, kyoku, honba, sticks or scores)")


def test_a_hand_edited_copy_with_a_round_without_play_is_quarantined(all_logs: Warehouse) -> None:
    ((status, error),) = connect(all_logs).execute(
        "select status, error from manifest where path like '%/' || $f", {"f": EDITED_COPY.split("/", 2)[-1]}
    ).fetchall()
    assert status == "quarantined" and "fails the invariant check round_has_play (round 0" in error


def test_three_ingest_orders_give_identical_warehouses(shared_logs: Path, tmp_path: Path) -> None:
    folders = sorted(p for p in shared_logs.rglob("*") if p.is_dir() and any(f.is_file() for f in p.iterdir()))
    leaves = [p for p in folders if not any(q != p and q.is_relative_to(p) for q in folders)]
    loose = [p for p in shared_logs.rglob("*") if p.is_file() and p.parent not in leaves]

    def run(name: str, runs: list[list[Path]], batch_size: int = 1000) -> dict:
        warehouse = Warehouse(tmp_path / name)
        for paths in runs:
            ingest(paths, warehouse, batch_size=batch_size, workers=1)
        return contents(warehouse)

    once = run("once", [[shared_logs]])
    assert differences(once, run("forward", [[p] for p in [*leaves, *loose]])) == []
    assert differences(once, run("backward", [[p] for p in reversed([*leaves, *loose])], batch_size=50)) == []


def test_a_reindented_copy_is_the_same_game(shared_logs: Path, tmp_path: Path) -> None:
    xml = (shared_logs / PLAIN).read_bytes()
    (tmp_path / "in").mkdir()
    shutil.copy(shared_logs / PLAIN, tmp_path / "in" / "b.mjlog")
    (tmp_path / "in" / "a.xml").write_bytes(xml.replace(b"><", b">\n    <"))  # other layout, no log id in the name
    warehouse = Warehouse(tmp_path / "warehouse")
    report = ingest([tmp_path / "in"], warehouse)
    assert (report.files["ok"], report.files["duplicate"], report.games) == (1, 1, 1)


def test_a_copy_with_a_tag_written_twice_never_wins(shared_logs: Path, tmp_path: Path) -> None:
    xml = (shared_logs / PLAIN).read_bytes()
    accepted = re.search(rb'<REACH who="\d" ten="[^"]*" step="2"/>', xml)
    assert accepted is not None
    (tmp_path / "in").mkdir()
    shutil.copy(shared_logs / PLAIN, tmp_path / "in" / "b.mjlog")
    doubled = xml[: accepted.end()] + accepted.group(0) + xml[accepted.end() :]  # a riichi stick that never was
    (tmp_path / "in" / "a-2020052700gm-00a9-0000-75a4695c.mjlog").write_bytes(doubled)  # sorts first
    warehouse = Warehouse(tmp_path / "warehouse")
    ingest([tmp_path / "in"], warehouse)
    rows = dict(connect(warehouse).execute("select regexp_extract(path, '[^/]+$'), status from manifest").fetchall())
    assert rows == {"b.mjlog": "ok", "a-2020052700gm-00a9-0000-75a4695c.mjlog": "quarantined"}
    (error,) = connect(warehouse).execute("select error from manifest where status = 'quarantined'").fetchone()
    assert "fails the invariant check once_per_round" in error and "accepted 2 times" in error


def test_round_digests_agree_on_a_prefix_and_name_the_first_difference() -> None:
    assert first_disagreement((1, 2, 3), (1, 2)) is None
    assert first_disagreement((1, 2, 3), (1, 5, 3, 4)) == 1
    assert first_disagreement((), (7,)) is None


def _rounds(rows: list[dict]) -> pa.Table:
    """A rounds table of the digest's columns (hands as lists of 136-ids, scores per seat)."""
    types = {"round_wind": pa.int8(), "kyoku": pa.int8(), "honba": pa.int16(), "riichi_sticks": pa.int16(),
             "scores_pre": pa.list_(pa.int32()), "scores_post": pa.list_(pa.int32()),
             "hands_start": pa.list_(pa.list_(pa.int16()))}  # fmt: skip
    return pa.table({name: pa.array([row[name] for row in rows], type_) for name, type_ in types.items()})


def test_round_digests_see_every_field_and_only_the_seats_dealt_a_hand() -> None:
    hand = list(range(13))
    base = {"round_wind": 0, "kyoku": 1, "honba": 2, "riichi_sticks": 1, "scores_pre": [25000, 25000, 25000, 25000],
            "scores_post": [33000, 17000, 25000, 25000], "hands_start": [hand] * 4}  # fmt: skip
    changed = [{**base, "round_wind": 1}, {**base, "kyoku": 2}, {**base, "honba": 3}, {**base, "riichi_sticks": 0},
               {**base, "scores_pre": [25000, 25000, 25000, 25100]}, {**base, "scores_post": [17000, 33000, 25000,
               25000]}]  # fmt: skip
    sanma = {**base, "scores_pre": [35000, 35000, 35000, 0], "scores_post": [35000, 35000, 35000, 0],
             "hands_start": [hand, hand, hand, []]}  # fmt: skip
    sanma_other_fourth = {**sanma, "scores_pre": [35000, 35000, 35000], "scores_post": [35000, 35000, 35000, 9]}
    table = _rounds([base, *changed, sanma, sanma_other_fourth, base])
    digests = round_digests(table).tolist()
    assert len(set(digests[:7])) == 7 and all(d < 2**63 for d in digests)  # every field counts
    assert digests[7] == digests[8]  # the fourth seat of sanma is dealt no hand: its scores do not count
    assert digests[9] == digests[0]
    assert round_digests(table.slice(3, 4)).tolist() == digests[3:7]  # a slice's rows digest as in the whole
