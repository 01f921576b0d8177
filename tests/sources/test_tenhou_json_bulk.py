"""The tenhou.net/6 reader's one-pass read of a game the kernels replayed whole (tenhou_json.bulk) against the
kyoku-by-kyoku one (the same kernels, then a RoundIds, Kyoku and OutcomeBuilder a round).

Both must give the same tables, or the same error with its file, game, round and tag: on every real tenhou.net/6
file and on mutants of their results (score changes, who won from whom, score strings, yaku, draw names), kyoku
headers, scores and disconnections.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from pipeline.errors import NotALogError, ParseError
from pipeline.schema import TABLES, new_buffers, to_arrow
from pipeline.sources import tenhou_json
from pipeline.sources.base import concat_buffers
from pipeline.sources.tenhou_json import bulk
from pipeline.sources.tenhou_json import parser as parser_module

Outcome = list[dict[str, pa.Table]] | tuple[str, str, object, object, object]


def read(data: bytes, one_pass: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[Outcome, int]:
    """Every game's tables (as stored) or the error (type, message, game, round, tag), and how many games the
    one-pass read took (``one_pass`` False: none)."""
    taken = []

    def counted(*args: Any) -> bulk.BulkRounds | None:
        game = bulk.read_game(*args) if one_pass else None
        taken.append(game is not None)
        return game

    with monkeypatch.context() as patch:
        patch.setattr(parser_module, "read_game", counted)
        try:
            games = tenhou_json.parse(data, "game.json")
        except (NotALogError, ParseError) as exc:
            return (type(exc).__name__, str(exc), getattr(exc, "game_id", None), exc.round_idx, exc.tag), sum(taken)
    return [{t: to_arrow(t, concat_buffers([g], t)) for t in g.tables} for g in games], sum(taken)


def assert_same_either_way(data: bytes, monkeypatch: pytest.MonkeyPatch) -> int:
    """Check both reads agree on ``data``; return the games read in one pass."""
    general, _ = read(data, False, monkeypatch)
    one_pass, taken = read(data, True, monkeypatch)
    assert one_pass == general
    return taken


def _files(shared_folder) -> list[Path]:  # noqa: ANN001 - conftest's function fixture
    return sorted(p for p in shared_folder("tenhou-json", "tenhou.net/6 logs").rglob("*.json") if p.is_file())


def test_every_real_file_reads_the_same_either_way(shared_folder, monkeypatch) -> None:  # noqa: ANN001
    taken = sum(assert_same_either_way(path.read_bytes(), monkeypatch) for path in _files(shared_folder))
    assert taken >= 40  # the real games the kernels replay whole (49 of ../shared/logs' today)


_VALUES: list[Any] = [0, 1, 2, 3, 4, -1, 1.5, "1", True, None, [], [0, 0, 0], [1000, -1000, 0, 0], 10**20,
                      "30符1000点", "満貫8000点", "40符700-1300点", "役満32000点", "立直(1飜)", "ドラ(2飜)",
                      "断幺九(1飜)", "流局", "全員聴牌", "九種九牌", "和了", {"a": 1}]  # fmt: skip


def _mutant(doc: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The document with one to three values of a kyoku's result, header, scores or the connection list changed,
    removed or added."""
    doc = json.loads(json.dumps(doc))
    for _ in range(rng.randrange(1, 4)):
        kyoku = rng.choice(doc["log"])
        how = rng.randrange(6)
        result = kyoku[-1]
        if how == 0 and len(result) > 1:  # an entry of the result (deltas, a detail) replaced
            result[rng.randrange(len(result))] = rng.choice(_VALUES)
        elif how == 1 and len(result) > 2 and isinstance(result[2], list) and result[2]:  # within a win's detail
            detail = result[2]
            detail[rng.randrange(len(detail))] = rng.choice(_VALUES)
        elif how == 2 and len(result) > 1 and isinstance(result[1], list) and result[1]:  # one score change
            result[1][rng.randrange(len(result[1]))] = rng.choice(_VALUES)
        elif how == 3:  # the header or the scores
            part = kyoku[rng.randrange(2)]
            if isinstance(part, list) and part:
                part[rng.randrange(len(part))] = rng.choice(_VALUES)
        elif how == 4:
            result.append(rng.choice(_VALUES))
        else:
            doc["connection"] = [{"what": rng.randrange(2), "who": rng.randrange(4),
                                  "log": rng.randrange(len(doc["log"])), "step": rng.randrange(30)}]  # fmt: skip
    return doc


def test_mutants_of_results_and_headers_read_the_same_either_way(shared_folder, monkeypatch) -> None:  # noqa: ANN001
    rng = random.Random(23)
    taken = 0
    for path in _files(shared_folder)[::3]:
        doc = json.loads(path.read_bytes())
        if not isinstance(doc, dict) or not isinstance(doc.get("log"), list) or not doc["log"]:
            continue
        for _ in range(12):
            taken += assert_same_either_way(json.dumps(_mutant(doc, rng)).encode(), monkeypatch)
    assert taken >= 30  # mutants read in one pass (a value it takes as the other read does)


def test_the_rows_follow_the_tables_columns() -> None:
    for table, names in (("rounds", bulk.ROUND_COLUMNS), ("wins", bulk.WIN_COLUMNS), ("draws", bulk.DRAW_COLUMNS)):
        assert table in TABLES
        assert set(names) | {"game_id"} == set(new_buffers(table)), table
