"""scan.py, the compiled first reading of mjai lines: the plain play events it reads give the rows and facts of
the parsed events, every other line is left to json, and a file it cannot cut as Python does is left whole."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pipeline.errors import NotALogError
from pipeline.sources.mjai import fast, stream
from pipeline.sources.mjai.kernel import TYPES
from pipeline.sources.mjai.lines import PYTHON
from pipeline.sources.mjai.scan import ACTOR_3, JSON, RED, TYPE_NAMES, scan

_LINES = [
    '{"type":"tsumo","actor":0,"pai":"5mr"}',
    '{ "type" : "dahai" , "actor" : 3 , "pai" : "C" , "tsumogiri" : true }',
    '{"actor": 3, "pai": "9s", "tsumogiri": false, "type": "dahai"}',
    '{"actor":3,"type":"chi","target":2,"pai":"3p","consumed":["4p","5pr"]}',
    '{"type":"pon","actor":1,"target":0,"pai":"E","consumed":["E","E"],"consumed":["E","E","E","E","E"]}',
    '{"type":"ankan","actor":0,"consumed":["7p","7p","7p","7p"]}',
    '{"type":"ankan","actor":0,"pai":null,"consumed":["7p","7p","7p",7]}',
    '{"type":"nukidora","actor":2}',
    '{"type":"kita","actor":2,"pai":null}',
    '{"type":"reach","actor":-0}',
    '{"type":"reach_accepted","actor":true,"target":"5sr"}',
    '{"type":"dora","dora_marker":"?"}',
    '{"type":"none"}',
    '{"type":"dahai","actor":3,"pai":"P","actor":1}',
]
_JSON_LINES = [
    '{"type":"dahai","actor":1,"pai":"9s","meta":{"q":[1,{"a":"}"}]}}',  # another key
    '{"type":"reach","actor":1.0}',  # a fraction
    '{"type":"tsumo","actor":12345678901234567890,"pai":"1m"}',  # too long
    '{"type":"tsumo","actor":0,"pai":"1\\u006d"}',  # an escape
    '{"type":"hora","actor":0,"target":0}',  # not a play event
    '{"type":"dahai","actor":0,"pai":"1m",}',  # not JSON
    '{"type":["dahai"],"actor":0}',
    '{"type":"tsumo","actor":01}',
    '{"type":"tsumo","actor":0,"pai":"\u00e9"}',  # a byte past ASCII: json checks the line is UTF-8
]


def _scan(text: str) -> tuple:
    return scan(np.frombuffer(text.encode(), dtype=np.uint8))


def test_plain_play_events_give_the_rows_and_facts_of_the_parsed_events() -> None:
    odd, rows, bounds, names, flags = _scan("\r\n\n".join(_LINES + _JSON_LINES) + "\n  \n")
    assert not odd and len(rows) == len(_LINES) + len(_JSON_LINES)
    for line, row, name, flag in zip(_LINES, rows.tolist(), names.tolist(), flags.tolist(), strict=False):
        event = json.loads(line)
        assert name != JSON and TYPE_NAMES[name] == event["type"], line
        assert row == fast.encode_event(TYPES[event["type"]], event), line
        red = any(v in ("5mr", "5pr", "5sr") or (isinstance(v, list) and {"5mr", "5pr", "5sr"} & set(map(str, v)))
                  for key, v in event.items() if key != "type" and isinstance(v, str | list))  # fmt: skip
        assert bool(flag & RED) == bool(red) and bool(flag & ACTOR_3) == (event.get("actor") == 3), line
    for row, name in zip(rows[len(_LINES) :].tolist(), names[len(_LINES) :].tolist(), strict=True):
        assert name == JSON and row[0] == PYTHON


@pytest.mark.parametrize("text", [
    '{"type":"none"}\r{"type":"none"}', '{"type":"none"}\u2028{"type":"none"}', '{"type":"none"}\x0c',
    '{"type":"none"} {"type":"none"}', '[{"type":"none"}]', '{"type":"none"', '{"a":"}\n"}', "\u3000",
])  # fmt: skip
def test_a_file_cut_otherwise_or_holding_other_than_one_object_a_line_is_left_to_python(text: str) -> None:
    assert _scan(text)[0] == 1


def test_the_events_of_a_scanned_file_are_those_json_reads() -> None:
    lines = ['{"type":"start_game","names":["a","b","c","d"]}', *_LINES, '{"type":"end_game"}']
    data = ("\ufeff" + "\n".join(lines)).encode()
    events, one_per_value = stream.read_stream(data, "x.jsonl")
    assert one_per_value and events.rows is not None
    assert [events.type_of(i) for i in range(len(events))] == [json.loads(line)["type"] for line in lines]
    assert list(events) == [(i, json.loads(line)) for i, line in enumerate(lines)]
    assert events.has_red() and events.has_actor_3()
    assert [(i, e) for i, e in events[1:3]] == [(1, json.loads(lines[1])), (2, json.loads(lines[2]))]


def test_a_file_not_utf8_in_a_play_line_is_not_a_log() -> None:
    data = b'{"type":"start_kyoku","tehais":[]}\n{"type":"tsumo","actor":0,"pai":"1\xff"}\n'
    with pytest.raises(NotALogError, match="not UTF-8"):
        stream.read_stream(data, "x.jsonl")


_SHAPED = [
    '{"type":"tsumo","actor":%s,"pai":"%s"}', '{"type":"dahai","actor":%s,"pai":"%s","tsumogiri":true}',
    '{"type":"dahai","actor":%s,"pai":"%s","tsumogiri":false}', '{"actor": %s, "pai": "%s", "type": "tsumo"}',
    '{"actor": %s, "pai": "%s", "tsumogiri": false, "type": "dahai"}',
    '{"actor": %s, "pai": "%s", "tsumogiri": true, "type": "dahai"}',
]  # fmt: skip
_ODD_SHAPED = ['{"type":"tsumo","actor":3,"pai":"1m"} ', '{"type":"tsumo","actor":3,"pai":"1m"}\t',
               '{"type":"dahai","actor":3,"pai":"1m","tsumogiri":truex}', '{"type":"tsumo","actor":3,"pai":"1m","x":1}',
               '{"type":"tsumo","actor":3,"pai":"\u00e9"}', '{"type":"tsumo","actor":30,"pai":"1m"}']  # fmt: skip


@pytest.mark.parametrize("pai", ["1m", "5mr", "5pr", "5sr", "5m", "9s", "E", "C", "?", "x", "1z", "5mR", "6mr", "",
                                 "5mrr", "5m "])  # fmt: skip
@pytest.mark.parametrize("ending", ["\n", "\r\n", ""])
def test_the_common_shapes_read_at_once_give_what_the_general_reading_gives(pai: str, ending: str) -> None:
    lines = [shape % (actor, pai) for shape in _SHAPED for actor in "0379"] + _ODD_SHAPED
    text = "".join(line + "\n" for line in lines) + lines[0] + ending
    spaced = "".join(" " + line + "\n" for line in lines) + " " + lines[0] + ending  # the general reading alone
    odd, rows, bounds, names, flags = _scan(text)
    odd_s, rows_s, bounds_s, names_s, flags_s = _scan(spaced)
    assert odd == odd_s == 0 and rows.tolist() == rows_s.tolist() and names.tolist() == names_s.tolist()
    assert flags.tolist() == flags_s.tolist()
    body = text.encode()
    assert [body[a:b].decode().strip() for a, b in bounds.tolist()] == [line.strip() for line in [*lines, lines[0]]]
