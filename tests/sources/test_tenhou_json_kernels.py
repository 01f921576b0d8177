"""The compiled path of the tenhou.net/6 reader (replay_kernel, ids_kernel, fast.py) against its Python path.

The kernels replay a round taking the search's first choice at every branch and number its tiles; where they
give up, the Python search (which backtracks) and IdAssigner run instead. So the tables, and every error with
its file, game, round and tag, must be the same with the kernels as without them: on every real JSON file of
../shared/logs and on mutants of them (entries swapped, dropped, changed), which make the kernels give up.
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
from pipeline.sources.tenhou_json import bulk, fast
from pipeline.sources.tenhou_json import parser as parser_module
from pipeline.sources.tenhou_json.ids_kernel import KIND_OF_CODE

Outcome = dict[str, pa.Table] | tuple[str, str, object, object, object]


def outcome(data: bytes, name: str, compiled: bool, monkeypatch: pytest.MonkeyPatch) -> list[Outcome] | Outcome:
    """Every game's tables (as stored), or the error (type, message, game, round, tag), with the kernels (and the
    one-pass read of a game they replay whole, tenhou_json.bulk) or without."""
    monkeypatch.setattr(parser_module, "replay_rounds", fast.replay_rounds if compiled else _none)
    monkeypatch.setattr(parser_module, "read_game", bulk.read_game if compiled else _no_bulk)
    try:
        games = tenhou_json.parse(data, name)
    except (NotALogError, ParseError) as exc:
        return type(exc).__name__, str(exc), getattr(exc, "game_id", None), exc.round_idx, exc.tag
    return [{t: to_arrow(t, concat_buffers([g], t)) for t in g.tables} for g in games]


def _none(game: fast.GameLists, _red: bool, _arrays: tuple | None = None) -> list[None]:
    """No round replayed by the kernels: every round goes the Python way."""
    return [None] * len(game.dealer)


def _no_bulk(*_: object) -> None:
    """No game read in one pass."""
    return None


def json_files(shared_folder) -> list[Path]:  # noqa: ANN001 - conftest's function fixture
    """Every file of ../shared/logs/tenhou-json."""
    return sorted(p for p in shared_folder("tenhou-json", "tenhou.net/6 logs").rglob("*.json") if p.is_file())


def test_the_kernels_give_the_python_tables_on_every_real_file(shared_folder, monkeypatch) -> None:  # noqa: ANN001
    used: list[bool] = []

    def counting(game: fast.GameLists, red: bool, arrays: tuple | None = None) -> list:
        results = fast.replay_rounds(game, red, arrays)
        used.extend(result is not None for result in results)
        return results

    for path in json_files(shared_folder):
        data = path.read_bytes()
        expected = outcome(data, path.name, False, monkeypatch)
        assert outcome(data, path.name, True, monkeypatch) == expected, path
        monkeypatch.setattr(parser_module, "replay_rounds", counting)
        monkeypatch.setattr(parser_module, "read_game", _no_bulk)  # every round through replay_rounds, counted
        tenhou_json.parse(data, path.name)
    assert sum(used) > 0.9 * len(used)  # the kernels read nearly every real round ...
    assert not all(used)  # ... and some need the search to backtrack (a call waiting for a later discard)


def _mutants(doc: dict, rng: random.Random, n: int) -> list[bytes]:
    """Documents with one entry of a take or discard list swapped with its neighbour, dropped or changed."""
    out = []
    for _ in range(n):
        copy = json.loads(json.dumps(doc))
        kyoku = rng.choice(copy["log"])
        lists = [part for part in kyoku[4:-1] if isinstance(part, list) and part]
        items = rng.choice(lists)
        at = rng.randrange(len(items))
        how = rng.randrange(4)
        if how == 0 and at + 1 < len(items):
            items[at], items[at + 1] = items[at + 1], items[at]
        elif how == 1:
            del items[at]
        elif how == 2:
            items[at] = rng.choice([11, 15, 51, 60, 0, 44, 47, "c121314", "p151515", "r60", "k15151515"])
        else:
            kyoku[-1] = rng.choice([["和了", [0, 0, 0, 0], [0, 0, 0]], ["流局", [0, 0, 0, 0]], ["九種九牌"]])
        out.append(json.dumps(copy, ensure_ascii=False).encode())
    return out


def test_mutants_read_the_same_with_and_without_the_kernels(shared_folder, monkeypatch) -> None:  # noqa: ANN001
    rng = random.Random(19)
    paths = json_files(shared_folder)
    for path in rng.sample(paths, min(12, len(paths))):
        value = json.loads(path.read_bytes())
        for doc in value if isinstance(value, list) else [value]:
            if not isinstance(doc, dict) or not doc.get("log"):
                continue
            for data in _mutants(doc, rng, 25):
                expected = outcome(data, path.name, False, monkeypatch)
                assert outcome(data, path.name, True, monkeypatch) == expected, (path, data[:200])


def test_kind_table_matches_the_python_tile_codes() -> None:
    from pipeline.sources.tenhou_json.codes import kind_of

    for code in range(64):
        try:
            expected = kind_of(code)
        except ParseError:
            expected = -1
        assert KIND_OF_CODE[code] == expected, code
    assert np.all(KIND_OF_CODE[[51, 52, 53]] == [4, 13, 22])


def test_errors_name_the_first_round_that_fails_whatever_its_kind(shared_folder) -> None:  # noqa: ANN001
    """Every kyoku is checked before the kernels replay them all: a later kyoku that cannot be read must still not
    hide an earlier one that cannot be played (the error names the earlier round), nor be lost."""
    path = shared_folder("tenhou-json", "tenhou.net/6 logs") / "mjlog2json/data/2019081518gm-00a9-0000-cce9d00c.json"
    doc = json.loads(path.read_bytes())
    unplayable = json.loads(json.dumps(doc))
    del unplayable["log"][1][5][-1]  # seat 0 draws a tile less than it discards: no order fits
    both = json.loads(json.dumps(unplayable))
    both["log"][3][1] = "scores"
    malformed = json.loads(json.dumps(doc))
    malformed["log"][3][1] = "scores"
    for edited, round_idx, words in ((unplayable, 1, "playable order"), (both, 1, "playable order"),
                                     (malformed, 3, "the scores")):  # fmt: skip
        with pytest.raises(ParseError, match=words) as caught:
            tenhou_json.parse(json.dumps(edited, ensure_ascii=False).encode(), path.name)
        assert caught.value.round_idx == round_idx
        assert caught.value.game_id == doc["ref"]
