"""The compiled path of the mjai reader (lines.py reads the play's fields from the bytes, kernel.py plays them)
against its Python path (replay.KyokuReplay event by event).

The kernel stops before any event it cannot apply and the Python replay goes on from there with the same state,
so the tables, and every error with its file, game, round and tag, must be the same with the kernels as without:
on every real mjai file of ../shared/logs and on mutants of them. The line reader must give, for every line it
reads, the row fast.encode_event gives for the parsed event.
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
from pipeline.sources import mjai
from pipeline.sources.base import concat_buffers
from pipeline.sources.mjai import fast
from pipeline.sources.mjai import parser as parser_module
from pipeline.sources.mjai.kernel import TYPES
from pipeline.sources.mjai.lines import OTHER, PYTHON, line_rows, read_rows

Outcome = list[dict[str, pa.Table]] | tuple[str, str, object, object, object]
MODES = ("python", "kernel, rows from the events", "kernel, rows from the bytes")


def outcome(data: bytes, name: str, mode: str, monkeypatch: pytest.MonkeyPatch) -> Outcome:
    """Every game's tables (as stored), or the error (type, message, game, round, tag), in one of MODES."""
    play = {
        "python": lambda *_: 0,
        "kernel, rows from the events": lambda replay, events, start, _lines=None: fast.play_compiled(
            replay, events, start, None
        ),
        "kernel, rows from the bytes": fast.play_compiled,
    }[mode]
    monkeypatch.setattr(parser_module, "play_compiled", play)
    # the game kernel off: every kyoku the per-kyoku way, the one these modes compare (test_mjai_game_kernel.py
    # compares the game kernel with it)
    monkeypatch.setattr(fast.GamePlay, "replay", lambda *_: None)
    try:
        games = mjai.parse(data, name)
    except (NotALogError, ParseError) as exc:
        return type(exc).__name__, str(exc), getattr(exc, "game_id", None), exc.round_idx, exc.tag
    return [{t: to_arrow(t, concat_buffers([g], t)) for t in g.tables} for g in games]


def mjai_files(shared_folder) -> list[Path]:  # noqa: ANN001 - conftest's function fixture
    """Every file of ../shared/logs/mjai."""
    return sorted(p for p in shared_folder("mjai", "mjai logs").rglob("*") if p.is_file())


def assert_same_in_every_mode(data: bytes, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = outcome(data, name, "python", monkeypatch)
    for mode in MODES[1:]:
        assert outcome(data, name, mode, monkeypatch) == expected, (mode, name)


def test_the_kernels_give_the_python_tables_on_every_real_file(shared_folder, monkeypatch) -> None:  # noqa: ANN001
    for path in mjai_files(shared_folder):
        assert_same_in_every_mode(path.read_bytes(), path.name, monkeypatch)


_TILES = ["1m", "5m", "5mr", "9p", "5s", "5sr", "E", "N", "C", "?", "0m", "", 5, None, ["1m"]]
_VALUES = [0, 1, 3, 4, -1, 1.0, True, "1", None, 10**20]


def _mutate(event: dict, rng: random.Random) -> str:
    """One event as a line, with one field changed or written oddly."""
    event = dict(event)
    how = rng.randrange(8)
    if how == 0:
        event["pai"] = rng.choice(_TILES)
    elif how == 1:
        event[rng.choice(["actor", "target"])] = rng.choice(_VALUES)
    elif how == 2:
        event["tsumogiri"] = rng.choice([True, False, 1, "true", None])
    elif how == 3:
        event["consumed"] = rng.sample(["1m", "1m", "2m", "3m", "5mr", "E", "E", "E", 7], rng.randrange(6))
    elif how == 4:
        event.pop(rng.choice(list(event)))
    text = json.dumps(event, ensure_ascii=rng.random() < 0.5)
    if how == 5:  # an escaped key, or a duplicated one (the last counts)
        text = text.replace('"pai"', rng.choice(['"\\u0070ai"', '"pai": "C", "pai"']), 1)
    elif how == 6:
        text = text.replace(", ", rng.choice([",", " ,\t", ",\n"]), 1)
    elif how == 7:
        text = text.replace('"type"', '"x": {"type": [1, "}"]}, "type"', 1)
    return text


def test_mutants_read_the_same_in_every_mode(shared_folder, monkeypatch) -> None:  # noqa: ANN001
    rng = random.Random(19)
    for path in mjai_files(shared_folder):
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        if not lines or not lines[0].lstrip().startswith("{"):
            continue
        for _ in range(40):
            mutant = list(lines)
            at = rng.randrange(len(mutant))
            how = rng.randrange(3)
            if how == 0:
                del mutant[at]
            elif how == 1 and at + 1 < len(mutant):
                mutant[at], mutant[at + 1] = mutant[at + 1], mutant[at]
            else:
                mutant[at] = _mutate(json.loads(mutant[at]), rng)
            assert_same_in_every_mode("\n".join(mutant).encode(), path.name, monkeypatch)


_LINES = [
    '{"type":"tsumo","actor":0,"pai":"5mr"}',
    '{ "type" : "dahai" , "actor" : 2 , "pai" : "C" , "tsumogiri" : true }',
    '{"type":"dahai","actor":1,"pai":"9s","tsumogiri":false,"meta":{"q":[1,{"a":"}"}]}}',
    '{"actor":3,"type":"chi","target":2,"pai":"3p","consumed":["4p","5pr"]}',
    '{"type":"pon","actor":1,"target":0,"pai":"E","consumed":["E","E"],"consumed":["E","E","E","E","E"]}',
    '{"type":"ankan","actor":0,"consumed":["7p","7p","7p","7p"]}',
    '{"type":"ankan","actor":0,"pai":null,"consumed":["7p","7p","7p",7]}',
    '{"type":"kakan","actor":0,"pai":"5m","consumed":["5m","5m","5mr"]}',
    '{"type":"nukidora","actor":2}',
    '{"type":"kita","actor":2,"pai":null}',
    '{"type":"reach","actor":1.0}',
    '{"type":"reach_accepted","actor":true}',
    '{"type":"dora","dora_marker":"?"}',
    '{"type":"dora","dora_marker":"x"}',
    '{"type":"none"}',
    '{"type":"hora","actor":0,"target":0}',
    '{"type":"tsumo","actor":12345678901234567890,"pai":"1m"}',
    '{"type":"tsumo","actor":0,"pai":"1\\u006d"}',
    '{"\\u0074ype":"tsumo","actor":0,"pai":"1m"}',
    '{"type":"dahai","actor":-0,"pai":"P","tsumogiri":"true"}',
]


def test_the_line_reader_gives_the_rows_of_the_parsed_events() -> None:
    data = "\r\n\n".join(_LINES).encode() + b"\n  \n"
    rows = line_rows(data, len(_LINES))
    assert rows is not None and len(rows) == len(_LINES)
    for line, row in zip(_LINES, rows, strict=True):
        event = json.loads(line)
        kind = TYPES.get(event.get("type"), -1) if isinstance(event.get("type"), str) else -1
        if row[0] == PYTHON:
            assert "\\u" in line or "12345678901234567890" in line, line  # only what it cannot read surely
            continue
        if kind < 0:
            assert row[0] == OTHER, line
            continue
        assert row.tolist() == fast.encode_event(kind, event), line


def test_lines_cut_otherwise_than_the_python_reading_are_not_used() -> None:
    assert line_rows(b'{"type":"none"}\r{"type":"none"}', 2) is None  # a lone CR: str.splitlines cuts there
    assert line_rows('{"type":"none"}\u2028{"type":"none"}'.encode(), 2) is None
    assert line_rows(b'{"type":"none"}\n{"type":"none"}', 3) is None  # the counts differ
    assert read_rows(np.frombuffer(b"", dtype=np.uint8)).shape == (0, 10)
