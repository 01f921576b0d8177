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

import pytest
from one_pass import Outcome, same_either_way
from one_pass import read as one_pass_read

from pipeline.sources import tenhou_json
from pipeline.sources.tenhou_json import bulk
from pipeline.sources.tenhou_json import parser as parser_module


def read(data: bytes, one_pass: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[Outcome, int]:
    """one_pass.read of tenhou_json's parser."""
    return one_pass_read(tenhou_json.parse, parser_module, bulk.read_game, data, one_pass, monkeypatch)


def assert_same_either_way(data: bytes, monkeypatch: pytest.MonkeyPatch) -> int:
    """Check both reads agree on ``data``; return the games read in one pass."""
    return same_either_way(read, data, monkeypatch)


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
