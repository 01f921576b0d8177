"""The ingest's index of stored games: found by fingerprint and by game id, whatever the hashes do, and games
that moved away from a part are not found there."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pipeline.store.stored_index as stored_index
from pipeline.store.stored_index import StoredIndex
from pipeline.store.warehouse import StoredGame


def write_part(path: Path, games: list[tuple[str, str]]) -> Path:
    """A games part holding (fingerprint, game id) rows, complete, 8 rounds each."""
    path.parent.mkdir(parents=True, exist_ok=True)
    n = len(games)
    table = pa.table(
        {
            "fingerprint": [fp for fp, _ in games],
            "game_id": [gid for _, gid in games],
            "source_file": [f"/logs/{gid}.mjlog" for _, gid in games],
            "is_complete": [True] * n,
            "n_rounds": pa.array([8] * n, pa.int16()),
            "is_server_log": [True] * n,
            "source": ["tenhou_xml"] * n,
        }
    )
    pq.write_table(table, path)
    return path


def stored(games: list[tuple[str, str]], part: Path) -> dict[str, StoredGame]:
    return {fp: StoredGame(gid, f"/logs/{gid}.mjlog", (1, 8, 1, 3, 1), part) for fp, gid in games}


@pytest.mark.parametrize("colliding", [False, True])
def test_games_are_found_by_fingerprint_and_id_across_many_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, colliding: bool
) -> None:
    if colliding:  # every string the same hash: the rows read back must still decide
        monkeypatch.setattr(stored_index, "_hashes", lambda values: np.fromiter((7 for _ in values), np.int64))
    index = StoredIndex()
    rng = np.random.default_rng(3)
    parts = {}
    for k in range(6):
        games = [(f"{rng.integers(1 << 60):016x}", f"game-{k}-{i}") for i in range(40)]
        part = write_part(tmp_path / f"part-{k}.parquet", games)
        index.add(stored(games, part))
        parts[part] = games
    everything = [g for games in parts.values() for g in games]
    found = index.by_fingerprint([fp for fp, _ in everything] + ["not-stored"])
    assert set(found) == {fp for fp, _ in everything}
    for part, games in parts.items():
        for fp, gid in games:
            assert (found[fp].game_id, found[fp].part, found[fp].completeness[:4]) == (gid, part, (True, 8, True, 3))
    owners = index.by_game_id(["game-2-5", "game-5-39", "nobody"])
    assert {gid: fp for gid, (fp, _) in owners.items()} == {
        "game-2-5": parts[tmp_path / "part-2.parquet"][5][0],
        "game-5-39": parts[tmp_path / "part-5.parquet"][39][0],
    }
    assert not colliding or len(index._by_fingerprint.hashes) == len(everything)
    assert np.all(np.diff(index._by_fingerprint.hashes) >= 0)


def test_a_game_that_moved_is_found_only_where_it_is(tmp_path: Path) -> None:
    games = [("aa", "g1"), ("bb", "g2")]
    old = write_part(tmp_path / "old.parquet", games)
    index = StoredIndex()
    index.add(stored(games, old))
    new = write_part(tmp_path / "new.parquet", [("aa", "g1")])  # a better copy of g1 went to another part
    write_part(old, [("bb", "g2")])  # and its old part was rewritten without it
    index.add(stored([("aa", "g1")], new))
    assert index.by_fingerprint(["aa"])["aa"].part == new
    assert index.by_game_id(["g1"])["g1"][1].part == new
    old.unlink()  # a part rewritten away entirely
    assert index.by_fingerprint(["bb"]) == {}
