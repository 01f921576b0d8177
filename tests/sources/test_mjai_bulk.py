"""The mjai reader's one-pass path for a game the kernel played whole (bulk.py) against the kyoku-by-kyoku one.

A game whose every kyoku the kernel dealt and played up to its result is read in one pass; any other goes kyoku by
kyoku. Both must give the same tables, or the same error with its file, game, round and tag: on every real mjai
file, on random games played here (rons, tsumo, double and triple rons, riichi with ura dora, pons and chis, every
draw kind, with and without a reason, end_game or not, sanma) and on mutants of their results and starts.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from one_pass import Outcome, same_either_way
from one_pass import read as one_pass_read

from pipeline.sources import mjai
from pipeline.sources.mjai import bulk
from pipeline.sources.mjai import parser as parser_module
from rules.scoring.situation import LIVE_DRAWS

_KINDS = [f"{n}{suit}" for suit in "mps" for n in range(1, 10)] + list("ESWNPFC")
_REASONS = ("fanpai", "nagashimangan", "kyushukyuhai", "sufonrenta", "suchareach", "sukaikan", "sanchaho")


def read(data: bytes, one_pass: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[Outcome, int]:
    """one_pass.read of mjai's parser."""
    return one_pass_read(mjai.parse, parser_module, bulk.read_game, data, one_pass, monkeypatch)


def assert_same_either_way(data: bytes, monkeypatch: pytest.MonkeyPatch) -> int:
    """Check both reads agree on ``data``; return the games read in one pass."""
    return same_either_way(read, data, monkeypatch)


def _wall(rng: random.Random, n_players: int, red: bool) -> list[str]:
    names = []
    for kind in _KINDS:
        if n_players == 3 and kind[1:] == "m" and kind[0] in "2345678":
            continue
        copies = [kind] * 4
        if red and kind in ("5m", "5p", "5s"):
            copies[0] = kind + "r"
        names += copies
    rng.shuffle(names)
    return names


class _Kyoku:
    """One kyoku played at random: draws and discards in turn, some pons, chis and riichi, then a result."""

    def __init__(self, rng: random.Random, n: int, red: bool, round_no: int, scores: list[int]) -> None:
        self.rng, self.n, self.events = rng, n, []
        wall = _wall(rng, n, red)
        self.hands = [wall[13 * s : 13 * s + 13] for s in range(n)]
        self.wall = wall[13 * n :]
        self.dealer = round_no % n
        self.riichi: list[int] = []
        self.events.append({"type": "start_kyoku", "bakaze": "ESWN"[round_no // n % 4], "kyoku": round_no % n + 1,
                            "honba": rng.choice((0, 0, 1, 2)), "kyotaku": rng.choice((0, 0, 1)), "oya": self.dealer,
                            "scores": list(scores), "dora_marker": self.wall.pop(),
                            "tehais": [list(h) for h in self.hands]})  # fmt: skip

    def play(self) -> list[dict[str, Any]]:
        """The kyoku's events, its result and end_kyoku included."""
        rng, n = self.rng, self.n
        ending = rng.choice(("ron", "ron", "tsumo", "tsumo", "multi_ron", "exhaustive", "exhaustive", "abort",
                             "kyuushu"))  # fmt: skip
        turns = LIVE_DRAWS[n] if ending == "exhaustive" else rng.randrange(1, LIVE_DRAWS[n] // 2)
        seat, drawn = self.dealer, 0
        while drawn < turns:
            tile = self.wall.pop()
            drawn += 1
            self.hands[seat].append(tile)
            self.events.append({"type": "tsumo", "actor": seat, "pai": tile})
            if drawn == turns and ending in ("tsumo", "kyuushu"):
                break
            seat = self._discard_and_calls(seat)
        self._result(ending, seat)
        self.events.append({"type": "end_kyoku"})
        return self.events

    def _discard_and_calls(self, seat: int) -> int:
        """The seat discards (after a riichi now and then); another seat may pon or chi it and discard in turn.
        Returns the next seat to draw."""
        rng = self.rng
        while True:
            riichi = seat not in self.riichi and rng.random() < 0.04
            if riichi:
                self.events.append({"type": "reach", "actor": seat})
            at = len(self.hands[seat]) - 1 if riichi or seat in self.riichi or rng.random() < 0.4 else (
                rng.randrange(len(self.hands[seat])))  # fmt: skip
            tile = self.hands[seat].pop(at)
            self.events.append({"type": "dahai", "actor": seat, "pai": tile, "tsumogiri": at == len(self.hands[seat])})
            self.last = (seat, tile)
            if riichi:
                self.riichi.append(seat)
                self.events.append({"type": "reach_accepted", "actor": seat})
            caller = self._call(seat, tile)
            if caller is None:
                return (seat + 1) % self.n
            seat = caller

    def _call(self, seat: int, tile: str) -> int | None:
        """A pon (any seat holding two of the kind) or a chi (the next seat) of ``tile``, now and then."""
        rng, kind = self.rng, tile.rstrip("r")
        for caller in range(self.n):
            same = [t for t in self.hands[caller] if t.rstrip("r") == kind]
            if caller != seat and caller not in self.riichi and len(same) >= 2 and rng.random() < 0.5:
                return self._meld(caller, seat, "pon", tile, same[:2])
        caller = (seat + 1) % self.n
        if self.n == 4 and len(kind) == 2 and kind[0] not in "89" and caller not in self.riichi:
            need = [f"{int(kind[0]) + 1}{kind[1]}", f"{int(kind[0]) + 2}{kind[1]}"]
            held = [next((t for t in self.hands[caller] if t.rstrip("r") == k), None) for k in need]
            if None not in held and rng.random() < 0.5:
                return self._meld(caller, seat, "chi", tile, held)  # type: ignore[arg-type]
        return None

    def _meld(self, caller: int, target: int, kind: str, tile: str, consumed: list[str]) -> int:
        for t in consumed:
            self.hands[caller].remove(t)
        self.events.append({"type": kind, "actor": caller, "target": target, "pai": tile, "consumed": consumed})
        return caller

    def _result(self, ending: str, seat: int) -> None:
        rng, n = self.rng, self.n

        def deltas() -> list[int]:
            return [rng.choice((-8000, -2000, -1000, 0, 1000, 3000, 12000)) for _ in range(n)]

        def hora(actor: int, target: int, pai: str) -> dict[str, Any]:
            event = {"type": "hora", "actor": actor, "target": target, "pai": pai, "deltas": deltas()}
            for key, values in (("fu", (20, 25, 30, 32, 40, 110)), ("han", (1, 3, 13, 100)),
                                ("ura_markers", (["1m"], [], ["E", "9s"])), ("hora_points", (7700, 0))):  # fmt: skip
                if rng.random() < 0.7:
                    event[key] = rng.choice(values)
            return event

        if ending == "tsumo":
            self.events.append(hora(seat, seat, self.hands[seat][-1]))
        elif ending in ("ron", "multi_ron"):
            giver, tile = self.last
            winners = [s for s in range(n) if s != giver]
            rng.shuffle(winners)
            for actor in winners[: 1 if ending == "ron" else rng.randrange(2, n)]:
                self.events.append(hora(actor, giver, tile))
        else:
            event: dict[str, Any] = {"type": "ryukyoku", "deltas": deltas()}
            if ending == "kyuushu":
                event.update(reason="kyushukyuhai", actor=seat)
            elif ending == "abort" or rng.random() < 0.6:
                event["reason"] = rng.choice(_REASONS)
            if rng.random() < 0.6:
                event["tenpais"] = [rng.random() < 0.5 for _ in range(n)]
            self.events.append(event)


def random_game(seed: int) -> list[dict[str, Any]]:
    """A game of a few kyoku played at random (``seed``: which one), sanma one time in four."""
    rng = random.Random(seed)
    n, red = rng.choice((4, 4, 4, 3)), rng.random() < 0.8
    events: list[dict[str, Any]] = [{"type": "start_game", "names": ["A", "B", "C", "D"][:n], "kyoku_first": 0,
                                     "aka_flag": red}]  # fmt: skip
    scores = [25000] * n
    for round_no in range(rng.randrange(1, 9)):
        kyoku = _Kyoku(rng, n, red, round_no, scores).play()
        events += kyoku
        changes = [e["deltas"] for e in kyoku if "deltas" in e]
        scores = [s + sum(d[i] for d in changes) for i, s in enumerate(scores)]
        if rng.random() < 0.1:
            scores[0] += 100  # the next kyoku's scores not the result's: quirk score_mismatch
    if rng.random() < 0.7:
        events.append({"type": "end_game", **({"scores": scores} if rng.random() < 0.8 else {})})
    return events


def encode(events: list[dict[str, Any]]) -> bytes:
    return "\n".join(json.dumps(e) for e in events).encode()


def test_every_real_file_reads_the_same_either_way(shared_folder, monkeypatch) -> None:  # noqa: ANN001
    taken = 0
    for path in sorted(p for p in shared_folder("mjai", "mjai logs").rglob("*") if p.is_file()):
        taken += assert_same_either_way(path.read_bytes(), monkeypatch)
    assert taken >= 1  # RiichiEnv's log is read in one pass


def test_random_games_are_read_in_one_pass_and_the_same_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = [assert_same_either_way(encode(random_game(seed)), monkeypatch) for seed in range(60)]
    assert sum(taken) >= 50, taken  # a game of a result the kernel cannot tell (an abort without reason) goes on


_VALUES: list[Any] = ["1m", "5mr", "?", "x", 5, None, [], [0, 0], [1000, -1000, 0, 0], 0, 3, -1, 13, 2.5, True,
                      10**20, {"a": 1}, "kyushukyuhai", "fanpai"]  # fmt: skip


def _mutant(events: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """The events with one to three fields of results, end_kyoku, end_game or start_kyoku changed, removed or
    added, or an event removed or doubled."""
    events = json.loads(json.dumps(events))
    targets = [i for i, e in enumerate(events) if e["type"] in ("hora", "ryukyoku", "end_kyoku", "end_game",
                                                                "start_kyoku")]  # fmt: skip
    for _ in range(rng.randrange(1, 4)):
        at = rng.choice(targets)
        event = events[at]
        how = rng.randrange(6)
        keys = [k for k in event if k != "type"]
        if how == 0 and keys:
            event[rng.choice(keys)] = rng.choice(_VALUES)
        elif how == 1 and keys:
            del event[rng.choice(keys)]
        elif how == 2:
            event[rng.choice(("deltas", "reason", "tenpais", "actor", "target", "pai", "fu", "fan", "scores",
                              "hora_tehais", "yakus", "uradora_markers", "tehais", "extra"))] = rng.choice(_VALUES)
        elif how == 3 and "deltas" in event and type(event["deltas"]) is list and event["deltas"]:
            event["deltas"][rng.randrange(len(event["deltas"]))] = rng.choice(_VALUES)
        elif how == 4:
            del events[at]
            return events
        else:
            events.insert(at, dict(event))
            return events
    return events


def test_mutants_of_results_and_starts_read_the_same_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(19)
    taken = 0
    for seed in range(40):
        game = random_game(seed)
        for _ in range(8):
            taken += assert_same_either_way(encode(_mutant(game, rng)), monkeypatch)
    assert taken >= 40  # mutants the one-pass path reads (a value it takes as the general path does)


def test_a_game_cut_inside_a_kyoku_goes_kyoku_by_kyoku(monkeypatch: pytest.MonkeyPatch) -> None:
    events = random_game(3)
    cut = max(i for i, e in enumerate(events) if e["type"] == "start_kyoku") + 3
    assert assert_same_either_way(encode(events[:cut]), monkeypatch) == 0


@pytest.mark.parametrize("path", ["mjai/RiichiEnv/tests/data/126_204_0_mjai.jsonl"])
def test_the_real_one_pass_game_is_read_in_one_pass(shared_logs: Path, path: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    _, taken = read((shared_logs / path).read_bytes(), True, monkeypatch)
    assert taken == 1
