"""The tenhou.net/6 seat lists read from the bytes (lists_kernel, seat_lists) against the lists json builds.

A one-document file's seat lists are read from its bytes when they are plain (integers, strings without escapes)
and its ``log`` is unambiguous; anything else is declined and read from the document json built, kyoku by kyoku.
Either way the tables, and every error with its game and round, must be the same.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from pipeline.errors import NotALogError, ParseError
from pipeline.schema import to_arrow
from pipeline.sources import tenhou_json
from pipeline.sources.base import concat_buffers
from pipeline.sources.tenhou_json import parser as parser_module
from pipeline.sources.tenhou_json import seat_lists
from pipeline.sources.tenhou_json.lists_kernel import DECLINED, OK, STRING, log_lists

Outcome = list[dict[str, pa.Table]] | tuple[str, str, object, object]
SAMPLE = "mjlog2json/data/2019081518gm-00a9-0000-cce9d00c.json"
SANMA = "corpus/tenhou-json/mjai-reviewer3p/convlog/tests/testdata"
"""Three-player tenhou.net/6 files: a whole Tenhou sanma Houou game and Mahjong Soul sanma rounds converted."""


def outcome(data: bytes, from_bytes: bool, monkeypatch: pytest.MonkeyPatch, used: list[bool] | None = None) -> Outcome:
    """Every game's tables (as stored) or the error (type, message, game, round), the seat lists read from the bytes
    (when the reader takes them) or not; ``used`` gets whether the bytes' lists were taken, per game."""

    def seats(lists, log, game):  # noqa: ANN001, ANN202 - game_seats' arguments
        found = seat_lists.game_seats(lists, log, game) if from_bytes else None
        if used is not None:
            used.append(found is not None)
        return found

    monkeypatch.setattr(parser_module, "game_seats", seats)
    try:
        games = tenhou_json.parse(data, "x.json")
    except (NotALogError, ParseError) as exc:
        return type(exc).__name__, str(exc), getattr(exc, "game_id", None), exc.round_idx
    return [{t: to_arrow(t, concat_buffers([g], t)) for t in g.tables} for g in games]


def assert_same(data: bytes, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Assert both readings agree on ``data``; return whether the bytes' lists were taken, per game."""
    used: list[bool] = []
    assert outcome(data, True, monkeypatch, used) == outcome(data, False, monkeypatch), data[:300]
    return used


def json_files(shared_folder) -> list[Path]:  # noqa: ANN001 - conftest's function fixture
    """Every file of ../shared/logs/tenhou-json."""
    return sorted(p for p in shared_folder("tenhou-json", "tenhou.net/6 logs").rglob("*.json") if p.is_file())


def test_every_real_file_reads_the_same_from_its_bytes(shared_folder, monkeypatch) -> None:  # noqa: ANN001
    taken: list[bool] = []
    for path in json_files(shared_folder):
        taken += assert_same(path.read_bytes(), monkeypatch)
    assert sum(taken) > 0.8 * len(taken)  # most real files are one plain document


@pytest.fixture
def sample(shared_folder) -> dict:  # noqa: ANN001 - conftest's function fixture
    """A real four-player document."""
    return json.loads((shared_folder("tenhou-json", "tenhou.net/6 logs") / SAMPLE).read_bytes())


def _encoded(doc: object, **dumps: object) -> bytes:
    return json.dumps(doc, ensure_ascii=False, **dumps).encode()


def test_a_plain_document_is_read_from_its_bytes_however_it_is_laid_out(sample, monkeypatch) -> None:  # noqa: ANN001
    for data in (_encoded(sample), _encoded(sample, indent=2), b"\xef\xbb\xbf \n" + _encoded(sample) + b"\n\n",
                 _encoded(sample, separators=(",", ":"))):  # fmt: skip
        assert assert_same(data, monkeypatch) == [True]


def test_a_file_over_the_size_read_from_bytes_is_read_as_before(sample, monkeypatch) -> None:  # noqa: ANN001
    padded = _encoded(sample) + b" " * seat_lists.MAX_BYTES
    assert assert_same(padded, monkeypatch) == []  # the bytes not read: the seat lists not asked for


def test_what_the_bytes_may_read_otherwise_than_json_is_declined(sample, monkeypatch) -> None:  # noqa: ANN001
    text = _encoded(sample).decode()
    other = json.loads(json.dumps(sample))
    other["log"] = other["log"][:1]
    declined = [
        text.replace('"log":', '"\\u006cog":', 1),  # a key written with an escape
        text[:-1] + ', "log": ' + json.dumps(other["log"]) + "}",  # a second log: json keeps the last
        "[" + text + "]",  # a list of documents
        text + "\n" + text,  # JSON lines
    ]
    for data in declined:
        assert not any(assert_same(data.encode(), monkeypatch))


@pytest.mark.parametrize(
    "value",
    [11.0, -11, True, None, [11], 10**20, 99, 61, "\\u0063121314", "x1213", "c121314", "p151515", "r60", "", 0, 60],
)
@pytest.mark.parametrize("part", [0, 1, 2])
def test_a_changed_seat_list_reads_the_same_either_way(sample, monkeypatch, value, part) -> None:  # noqa: ANN001
    rng = random.Random(f"{value!r}{part}")
    doc = json.loads(json.dumps(sample))
    kyoku = rng.randrange(len(doc["log"]))
    items = doc["log"][kyoku][4 + 3 * rng.randrange(4) + part]
    items[rng.randrange(len(items))] = value
    data = _encoded(doc)
    if isinstance(value, str) and value.startswith("\\"):  # an escape written as such in the file
        data = data.replace(json.dumps(value).encode(), b'"' + value.encode() + b'"')
    assert_same(data, monkeypatch)


_POOL = [11, 19, 47, 51, 53, 0, 60, 61, 99, 100, -1, 11.0, 1e2, True, False, None, [11], {}, "", "c121314",
         "p151515", "m15151515", "k15151515", "15a151515", "r60", "f44", "x", "c1213", "\\u0063121314", 10**19]
"""Values a seat list's item may be replaced with (the escaped one written as such: see _mutant)."""


def _mutant(doc: dict, rng: random.Random) -> bytes:
    """The document with a few items of its kyoku's lists replaced, inserted or dropped, or an entry added or
    dropped, written with a random layout."""
    copy = json.loads(json.dumps(doc))
    for _ in range(rng.randrange(1, 4)):
        kyoku = rng.choice(copy["log"])
        entry = rng.randrange(len(kyoku))
        how = rng.randrange(6)
        items = kyoku[entry]
        if how == 0:
            kyoku.insert(entry, rng.choice([[], [11], "x"]))
        elif how == 1:
            del kyoku[entry]
        elif isinstance(items, list) and items:
            at = rng.randrange(len(items))
            if how == 2:
                del items[at]
            elif how == 3:
                items.insert(at, rng.choice(_POOL))
            else:
                items[at] = rng.choice(_POOL)
    data = _encoded(copy, indent=rng.choice([None, 1]), separators=rng.choice([(",", ":"), (", ", ": ")]))
    return data.replace(b'"\\\\u0063', b'"\\u0063')  # the escape written in the file, not its backslash


def test_random_mutants_read_the_same_either_way(shared_folder, monkeypatch) -> None:  # noqa: ANN001
    rng = random.Random(21)
    paths = [p for p in json_files(shared_folder) if b"\n{" not in p.read_bytes()]
    taken: list[bool] = []
    for path in rng.sample(paths, min(12, len(paths))):
        value = json.loads(path.read_bytes())
        for doc in value if isinstance(value, list) else [value]:
            if isinstance(doc, dict) and doc.get("log"):
                for _ in range(20):
                    taken += assert_same(_mutant(doc, rng), monkeypatch)
    assert any(taken) and not all(taken)  # some mutants read from the bytes, others declined


def test_a_kyoku_of_other_lengths_or_hands_reads_the_same_either_way(sample, monkeypatch) -> None:  # noqa: ANN001
    for edit in range(5):
        doc = json.loads(json.dumps(sample))
        kyoku = doc["log"][2]
        if edit == 0:
            kyoku.insert(5, [])  # 18 entries
        elif edit == 1:
            del kyoku[4:7]  # 14 entries in a four-player game
        elif edit == 2:
            kyoku[7] = kyoku[7][:12]  # a hand of 12
        elif edit == 3:
            kyoku[10] = []  # a seat dealt nothing
        else:
            kyoku[1] = "scores"  # an entry json reads and the bytes skip
        assert_same(_encoded(doc), monkeypatch)


def test_sanma_reads_the_same_either_way(shared_folder, monkeypatch) -> None:  # noqa: ANN001
    taken = [used for path in sorted(shared_folder(SANMA, "three-player tenhou.net/6 logs").glob("*.json"))
             for used in assert_same(path.read_bytes(), monkeypatch)]  # fmt: skip
    assert len(taken) >= 4 and all(taken)
    path = sorted(shared_folder(SANMA, "three-player tenhou.net/6 logs").glob("*.json"))[0]
    doc = json.loads(path.read_bytes())
    doc["log"][-1][4 + 3 * 2 + 1].append("c121314")  # a chi in a three-player game: the error names it either way
    with_chi = _encoded(doc)
    assert "calls chi" in outcome(with_chi, False, monkeypatch)[1]
    assert_same(with_chi, monkeypatch)


def test_log_lists_reads_items_and_flat_entries() -> None:
    text = (b'{"title": ["a\\"]"], "log": [[[0, 0, 0], [25000, -1000], "x", [11, "p121212", 60], [1.5, 2], []]], '
            b'"z": {}}')
    status, kyoku, entries, kinds, values, spans = log_lists(np.frombuffer(text, dtype=np.uint8))
    assert status == OK
    assert kyoku.tolist() == [0, 6]
    assert entries[:, 1].tolist() == [1, 1, 0, 1, 0, 1, 0]  # the last row: the end
    assert np.diff(entries[:, 0]).tolist() == [3, 2, 0, 3, 0, 0]
    assert values[kinds != STRING].tolist() == [0, 0, 0, 25000, -1000, 11, 60]
    (start, end), = spans.tolist()
    assert text[start:end] == b"p121212"
    for declined in (b'[{"log": []}]', b'{"log": [], "log": []}', b'{"lo\\u0067": []}', b'{"log": [1]}',
                     b'{"a": 1}', b'{"log": []} {"log": []}'):  # fmt: skip
        assert log_lists(np.frombuffer(declined, dtype=np.uint8))[0] == DECLINED, declined
