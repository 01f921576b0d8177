"""The manifest's files by path (pipeline.ingest.known_files): every lookup as a dict of the same rows would answer it,
hash collisions included."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

from pipeline.ingest import known_files
from pipeline.ingest.known_files import KnownFiles
from pipeline.ingest.reading import KnownFile


def manifest(n: int, seed: int = 1) -> pa.Table:
    """``n`` manifest rows of made-up files: some with no modification time (container members), two versions."""
    rng = random.Random(seed)
    paths = [f"/archive/{rng.randrange(10**9):09d}/{i}.mjlog" for i in range(n)]
    return pa.table({
        "path": paths,
        "content_hash": [f"{rng.getrandbits(128):032x}" for _ in paths],
        "paipu_version": [rng.choice(("0.1.0", "0.0.9")) for _ in paths],
        "size": [rng.randrange(1, 40_000) for _ in paths],
        "mtime_ns": pa.array([None if i % 7 == 0 else rng.getrandbits(60) for i in range(n)], pa.int64()),
        "format": [rng.choice(("tenhou_xml", "mjai", None)) for _ in paths],
        "status": ["ok"] * n,
    })  # fmt: skip


def as_dict(table: pa.Table) -> dict[str, KnownFile]:
    columns = [table[name].to_pylist() for name in ("content_hash", "paipu_version", "size", "mtime_ns", "format")]
    return dict(zip(table["path"].to_pylist(), map(KnownFile, *columns), strict=True))


@pytest.mark.parametrize("colliding", [False, True])
def test_every_lookup_answers_as_a_dict_of_the_same_rows(colliding: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if colliding:  # every path the same hash: lookups must still find each path's own row, or none
        monkeypatch.setattr(known_files, "_key", lambda path: 7)
    table = manifest(300 if colliding else 5000)
    expected = as_dict(table)
    index = KnownFiles(table)
    assert len(index) == len(expected)
    assert all(index.get(path) == known for path, known in expected.items())
    strangers = ["/archive/none.mjlog", "", table["path"][0].as_py() + "x"]
    assert all(index.get(path) is None and path not in index for path in strangers)
    wanted = [*list(expected)[:50:3], *strangers]
    assert index.of(wanted) == {path: expected[path] for path in wanted if path in expected}


def test_an_empty_index_knows_no_file() -> None:
    index = KnownFiles.empty()
    assert len(index) == 0 and index.get("/a") is None and "/a" not in index and index.of(["/a"]) == {}
