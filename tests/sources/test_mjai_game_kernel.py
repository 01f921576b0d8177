"""The mjai reader's one kernel call per game (fast.GamePlay: every kyoku dealt and played by kernel.play_game)
against the per-kyoku path (KyokuReplay deals, fast.play_compiled plays) and the Python replay alone.

A kyoku the game kernel does not deal (a hidden or unknown tile, a hand not of 13, copies the set does not hold)
goes the per-kyoku way, so the tables, and every error with its file, game, round and tag, must be the same in the
three modes: on every real mjai file of ../shared/logs, on mutants of them and on games made to be refused.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pyarrow as pa
import pytest

from pipeline.errors import NotALogError, ParseError
from pipeline.schema import to_arrow
from pipeline.sources import mjai
from pipeline.sources.base import concat_buffers
from pipeline.sources.mjai import fast
from pipeline.sources.mjai import parser as parser_module

Outcome = list[dict[str, pa.Table]] | tuple[str, str, object, object, object]
MODES = ("python", "per kyoku", "per game")


def outcome(data: bytes, mode: str, monkeypatch: pytest.MonkeyPatch) -> Outcome:
    """Every game's tables (as stored), or the error (type, message, game, round, tag), in one of MODES."""
    with monkeypatch.context() as patch:
        if mode != "per game":
            patch.setattr(parser_module, "GamePlay", _NoGamePlay)
        if mode == "python":
            patch.setattr(parser_module, "play_compiled", lambda *_: 0)
        try:
            games = mjai.parse(data, "game.jsonl")
        except (NotALogError, ParseError) as exc:
            return type(exc).__name__, str(exc), getattr(exc, "game_id", None), exc.round_idx, exc.tag
    return [{t: to_arrow(t, concat_buffers([g], t)) for t in g.tables} for g in games]


class _NoGamePlay(fast.GamePlay):
    """A GamePlay that deals no kyoku (each goes the per-kyoku way)."""

    def __init__(self, *_: object) -> None:
        self.starts, self.kyoku = [], {}  # no kyoku dealt: bulk.read_game declines the game

    def replay(self, *_: object) -> None:
        """No kyoku was dealt."""
        return None


def assert_same_in_every_mode(data: bytes, monkeypatch: pytest.MonkeyPatch) -> Outcome:
    expected = outcome(data, "python", monkeypatch)
    for mode in MODES[1:]:
        assert outcome(data, mode, monkeypatch) == expected, mode
    return expected


def _game(kyoku: list[list[dict]]) -> list[dict]:
    """A two-kyoku-or-more game's events around the kyoku given (each: start_kyoku first)."""
    events = [{"type": "start_game", "names": ["a", "b", "c", "d"]}]
    for k in kyoku:
        events += [*k, {"type": "end_kyoku"}]
    return [*events, {"type": "end_game"}]


def _kyoku(tehais: list[list[str]], dora: str = "1m", kyoku: int = 1) -> list[dict]:
    """A kyoku: the deal, one draw and discard, an exhaustive draw."""
    return [
        {"type": "start_kyoku", "bakaze": "E", "kyoku": kyoku, "honba": 0, "kyotaku": 0, "oya": kyoku - 1,
         "dora_marker": dora, "tehais": tehais, "scores": [25000] * 4},
        {"type": "tsumo", "actor": kyoku - 1, "pai": "9s"},
        {"type": "dahai", "actor": kyoku - 1, "pai": "9s", "tsumogiri": True},
        {"type": "ryukyoku", "reason": "fanpai", "deltas": [0, 0, 0, 0]},
    ]  # fmt: skip


_HAND = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "E"]
_OTHER = [["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "1p", "2p", "3p", "4p", "S"],
          ["4p", "5p", "6p", "7p", "8p", "9p", "W", "W", "W", "N", "N", "N", "P"],
          ["2m", "3m", "4m", "6m", "7m", "8m", "F", "F", "F", "C", "C", "C", "P"]]  # fmt: skip


@pytest.mark.parametrize("seat0", [
    _HAND,
    ["?"] * 13,  # hidden: the per-kyoku way
    _HAND[:12],  # 12 tiles: KyokuReplay's error
    [*_HAND[:12], "x"],  # an unknown tile name
    [*_HAND[:12], 5],  # not a tile name
    ["1s"] * 13,  # more copies than the set holds (the kernel refuses the deal)
])  # fmt: skip
def test_a_kyoku_the_kernel_does_not_deal_reads_as_without_it(seat0: list, monkeypatch: pytest.MonkeyPatch) -> None:
    events = _game([_kyoku([_HAND, *_OTHER]), _kyoku([seat0, *_OTHER], kyoku=2), _kyoku([_HAND, *_OTHER], kyoku=3)])
    data = "\n".join(json.dumps(e) for e in events).encode()
    assert_same_in_every_mode(data, monkeypatch)


def test_a_fifth_dora_copy_is_refused_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    hand = ["1m"] * 4 + _HAND[4:]
    events = _game([_kyoku([hand, *_OTHER], dora="1m"), _kyoku([_HAND, *_OTHER], kyoku=2)])
    result = assert_same_in_every_mode("\n".join(json.dumps(e) for e in events).encode(), monkeypatch)
    assert isinstance(result, tuple)  # a ParseError: more copies of 1m than the set holds


def _mjai_files(shared_folder) -> list[Path]:  # noqa: ANN001 - conftest's function fixture
    return sorted(p for p in shared_folder("mjai", "mjai logs").rglob("*") if p.is_file())


def test_every_real_file_reads_the_same_in_every_mode(shared_folder, monkeypatch) -> None:  # noqa: ANN001
    for path in _mjai_files(shared_folder):
        assert_same_in_every_mode(path.read_bytes(), monkeypatch)


_VALUES = ["1m", "5mr", "?", "x", 5, None, [], 0, 3, -1, 13]


def test_mutants_of_the_deal_read_the_same_in_every_mode(shared_folder, monkeypatch) -> None:  # noqa: ANN001
    rng = random.Random(7)
    for path in _mjai_files(shared_folder):
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        starts = [i for i, line in enumerate(lines) if '"start_kyoku"' in line and line.lstrip().startswith("{")]
        for _ in range(15 if starts else 0):
            mutant = list(lines)
            at = rng.choice(starts)
            event = json.loads(mutant[at])
            how = rng.randrange(4)
            if how == 0 and isinstance(event.get("tehais"), list) and event["tehais"]:
                hand = event["tehais"][rng.randrange(len(event["tehais"]))]
                if isinstance(hand, list) and hand:
                    hand[rng.randrange(len(hand))] = rng.choice(_VALUES)
            elif how == 1:
                event["dora_marker"] = rng.choice(_VALUES)
            elif how == 2:
                event[rng.choice(["kyoku", "oya", "honba", "bakaze", "scores"])] = rng.choice(_VALUES)
            else:
                del mutant[at + 1 : at + 1 + rng.randrange(1, 4)]  # the kyoku's first events lost
            mutant[at] = json.dumps(event)
            assert_same_in_every_mode("\n".join(mutant).encode(), monkeypatch)
