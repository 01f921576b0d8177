"""canonical.py: the fingerprint's text written from the bytes is json.dumps's text of the parsed events (keys
sorted, no blanks, a key written twice keeping its last value, -0 as 0), and a line json.dumps would escape sends
the game back to json."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from pipeline.sources.mjai import canonical, header, stream
from tests.sources.test_mjai_scan import _JSON_LINES, _LINES

_PLAIN = [
    *_LINES,
    '{"type":"dahai","actor":1,"pai":"5m] ,}","tsumogiri":false}',  # a string holding what ends a value
    '{"type":"chi","actor":2,"target":1,"pai":"3s","consumed":[ "4s" ,  "5s" ]}',
    '{"type":"chi","actor":2,"target":1,"pai":"3s","consumed":[ ]}',
    '{"type":"dahai","actor":-12,"pai":"1m","target":[-0, -3, true,null ,false]}',
    '{"type":"dahai","actor":0,"pai":"~ /"}',
]
_START = '{"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"dora_marker":"1m"}'


def _game(lines: list[str]) -> stream.GameEvents:
    text = "\n".join(['{"type":"start_game","names":["a","b","c","d"]}', *lines]) + "\n"
    events, _ = stream.read_stream(text.encode(), "t.jsonl")
    (game,) = stream.split_games(events, "t.jsonl")
    return game


def _dumped(game: stream.GameEvents) -> bytes:
    """What the fingerprint hashed before canonical.py: json.dumps of the parsed first kyoku."""
    names = (game.start_game or {}).get("names")
    kyoku = header._first_kyoku(game)
    return json.dumps(["mjai", names, kyoku], sort_keys=True, separators=(",", ":")).encode()


@pytest.mark.parametrize("line", _PLAIN + _JSON_LINES[:5])
def test_a_line_is_written_as_json_dumps_writes_its_event(line: str) -> None:
    game = _game([_START, line, '{"type":"end_kyoku"}', _START, line])
    text = canonical.first_kyoku_text(game.events)
    assert text is not None
    assert canonical.fingerprint_text(["a", "b", "c", "d"], text) == _dumped(game)


def test_every_plain_line_of_a_kyoku_and_json_lines_between_them() -> None:
    game = _game(['{"type":"dora","dora_marker":"1m"}', _START, *_PLAIN, _JSON_LINES[0], *_PLAIN[::-1]])
    text = canonical.first_kyoku_text(game.events)
    assert text is not None and json.loads(text)[0]["type"] == "start_kyoku"
    assert canonical.fingerprint_text(["a", "b", "c", "d"], text) == _dumped(game)


@pytest.mark.parametrize("value", ['"5m\u00e9"', '"5m\x7f"', '"\u6771"'])
def test_a_line_json_dumps_would_escape_is_written_as_json_dumps_writes_it(value: str) -> None:
    game = _game([_START, f'{{"type":"dahai","actor":0,"pai":{value}}}'])
    text = canonical.first_kyoku_text(game.events)  # such a line is json's (scan.py): dumped by json, or all is
    assert text is None or canonical.fingerprint_text(["a", "b", "c", "d"], text) == _dumped(game)
    assert header.fingerprint(game) == hashlib.blake2b(_dumped(game), digest_size=8).hexdigest()


def test_a_game_without_a_kyoku_is_an_empty_list() -> None:
    assert canonical.first_kyoku_text(_game([]).events) == b"[]"


def test_the_fingerprint_of_every_real_mjai_file_is_json_dumps_hash(shared_logs: Path) -> None:
    checked = 0
    for path in sorted(p for p in (shared_logs / "mjai").rglob("*") if p.is_file()):
        try:
            events, _ = stream.read_stream(path.read_bytes(), str(path))
            games = stream.split_games(events, str(path))
        except Exception:  # not a log or not readable: the parser's tests cover those
            continue
        for game in games:
            text = canonical.first_kyoku_text(game.events)
            if text is not None:
                names = (game.start_game or {}).get("names")
                assert canonical.fingerprint_text(names, text) == _dumped(game), path
                checked += 1
    assert checked
