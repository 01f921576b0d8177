"""The bulk reading of Tenhou XML rounds and results (pipeline/sources/tenhou_xml/attributes.py, bulk.py) and the
compiled event flags (pipeline/sources/event_flags.py) give exactly what the element-by-element reading and the
numpy flags give: on real games, on mutants of them (outputs and errors), and on chosen attribute texts.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

from pipeline.errors import NotALogError, ParseError
from pipeline.sources import event_flags as flags
from pipeline.sources import tenhou_xml
from pipeline.sources.tenhou_xml import bulk, parser, state
from pipeline.sources.tenhou_xml.attributes import (
    COUNT,
    INTS,
    OFFSET,
    SIGNED,
    SLOT,
    START,
    STATUS,
    TEXT,
    attribute_table,
)
from pipeline.sources.tenhou_xml.bulk import AGARI, INIT, Refused, rule_array

GAMES = (
    "tenhou-xml/mjx/tests_py/resources/mjlog/2020052700gm-00a9-0000-75a4695c.mjlog",
    "tenhou-xml/dnovikoff-tenhou/log/test_data/sanma2.xml",
    "tenhou-xml/pantheon/Mimir/tests/helpers/onlineLog/testdata/doubleron.xml",
    "tenhou-xml/pantheon/Mimir/tests/helpers/onlineLog/testdata/nagashi.xml",
    "tenhou-xml/pantheon/Mimir/tests/helpers/onlineLog/testdata/pao_ron.xml",
    "corpus/tenhou-xml/thewaxmango-mahjong-hands/log-libraries/phoenix-logs/logs/2009030822gm-00b9-0000-d5882500.txt",
)
_ELEMENT = re.compile(rb"<[^<>]*>")
_VALUE = re.compile(rb'="[^"]*"')
_GARBAGE = (b"", b"-1", b"+5", b"136", b"99999999999999999999", b"1,,2", b"1,", b"x", b"0,0", b"13", b"\xc3\xa9")


def outcome(data: bytes, name: str) -> tuple:
    """What parse gives: ('error', type, message, game, round, tag) or ('games', tables as comparable values)."""
    try:
        (game,) = tenhou_xml.parse(data, name)
    except (ParseError, NotALogError) as exc:
        return ("error", type(exc).__name__, str(exc), exc.game_id, exc.round_idx, exc.tag)
    tables = {}
    for table, columns in game.tables.items():
        tables[table] = {name: repr(column.tolist() if isinstance(column, np.ndarray) else column)
                         for name, column in columns.items()}  # fmt: skip
    return ("games", game.game_id, game.fingerprint, game.n_rounds, game.is_complete, tables)


def one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the parser read every document element by element."""

    def refuse(*_args: object) -> None:
        raise Refused

    monkeypatch.setattr(parser._DocumentReader, "_read_at_once", refuse)


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One random change to an element or attribute value (or the bytes) of a document."""
    elements = [m.span() for m in _ELEMENT.finditer(data)]
    start, end = elements[rng.randrange(len(elements))]
    kind = rng.randrange(6)
    if kind == 0:  # delete an element
        return data[:start] + data[end:]
    if kind == 1:  # repeat an element
        return data[:end] + data[start:end] + data[end:]
    if kind == 2:  # swap it with the next one
        other = elements[min(elements.index((start, end)) + 1, len(elements) - 1)]
        if other[0] <= end:
            return data
        return data[:start] + data[other[0] : other[1]] + data[end : other[0]] + data[start:end] + data[other[1] :]
    values = [m.span() for m in _VALUE.finditer(data, start, end)]
    if kind == 5 or not values:  # flip a byte
        at = rng.randrange(start, end)
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
    value_start, value_end = values[rng.randrange(len(values))]
    if kind == 3:  # a garbled value
        return data[: value_start + 2] + rng.choice(_GARBAGE) + data[value_end - 1 :]
    return data[: value_start - 1] + b"x" + data[value_start - 1 :]  # an attribute renamed


@pytest.mark.parametrize("relative", GAMES)
def test_the_bulk_reading_gives_what_the_element_by_element_one_gives(
    shared_logs: Path, relative: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = (shared_logs / relative).read_bytes()
    rng = random.Random(relative)
    documents = [data] + [mutate(mutate(data, rng), rng) if i % 3 == 0 else mutate(data, rng) for i in range(150)]
    bulk = [outcome(document, relative) for document in documents]
    one_by_one(monkeypatch)
    assert [outcome(document, relative) for document in documents] == bulk
    assert bulk[0][0] == "games" and bulk[0][3] > 0


def test_real_games_are_read_in_bulk(shared_logs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read_at_once = parser._DocumentReader._read_at_once
    taken = []

    def counted(self: parser._DocumentReader, *args: object) -> object:
        game = read_at_once(self, *args)
        taken.append(game)
        return game

    monkeypatch.setattr(parser._DocumentReader, "_read_at_once", counted)
    for relative in GAMES:
        tenhou_xml.parse((shared_logs / relative).read_bytes(), relative)
    assert len(taken) == len(GAMES)


def table_of(elements: list[bytes], tags: list[int], n_players: int = 4) -> tuple:
    """(cells, values, ok) of attribute_table over a document made of ``elements``."""
    document = b"".join(elements)
    buf = np.frombuffer(document, dtype=np.uint8)
    starts = np.array([m.start() for m in _ELEMENT.finditer(document)], dtype=np.int64)
    ends = np.array([m.end() - 1 for m in _ELEMENT.finditer(document)], dtype=np.int64)
    at = np.arange(len(starts), dtype=np.int64)
    return attribute_table(buf, starts, ends, at, np.array(tags, dtype=np.int64), rule_array(n_players))


def test_attribute_values_are_read_as_int_reads_them() -> None:
    cells, values, ok = table_of([b'<AGARI who="1" fromWho="-0" sc="+3,-4,007" m="" ten="1,"  yaku="1,x"/>'], [AGARI])
    cell = cells[0]
    assert cell[SLOT["who"], STATUS] == INTS and values[cell[SLOT["who"], OFFSET]] == 1
    assert cell[SLOT["sc"], STATUS] == SIGNED and cell[SLOT["sc"], COUNT] == 3
    start = cell[SLOT["sc"], OFFSET]
    assert values[start : start + 3].tolist() == [3, -4, 7]
    assert cell[SLOT["m"], STATUS] == INTS and cell[SLOT["m"], COUNT] == 0
    assert cell[SLOT["ten"], STATUS] == TEXT and cell[SLOT["yaku"], STATUS] == TEXT
    assert not ok[0]  # ten and yaku are not integers, machi and hai missing


@pytest.mark.parametrize(
    "element",
    [
        b'<INIT seed="0,0,0,0,5,37"ten="250,250,250,250" oya="0"/>',  # no space between attributes
        b'<INIT seed = "0,0,0,0,5,37" ten="250,250,250,250" oya="0"/>',  # spaces around '='
        b'<INIT seed="0,0,0,0,5,37" ten="250,250,250,250" oya="0"/ >',  # a space after '/'
        b'<INIT seed="0,0,0,0,5,37" ten="250,250,250,250" oya="0" junk/>',  # a name without a value
        b'<INIT seed="0,0,0,0,5,37" ten="250,250,250,250" \xc3\xa9="1" oya="0"/>',  # a name not ASCII
        b'<INIT seed="0,0,0,0,5,37" ten="250,250,250,250" oya="4"/>',  # not a seat
        b'<INIT seed="0,0,0,0,5,136" ten="250,250,250,250" oya="0"/>',  # dora indicator out of range
        b'<INIT seed="0,0,0,0,5,37" ten="250,250,250" oya="0"/>',  # three scores
        b'<INIT seed="0,0,0,0,5,37" ten="250,250,250,250" oya="0" hai0="1,2"/>',  # a deal of two tiles
        b'<INIT seed="0,0,0,0,5,37" ten="250,250,250,250" oya="+0"/>',  # a sign only sc may have
        b'<INIT seed="0,0,0,0,5,37" ten="250,250,250,250" oya="1234567890123456"/>',  # too many digits
    ],
)
def test_an_attribute_its_handler_would_refuse_or_not_clean_markup_is_not_ok(element: bytes) -> None:
    assert table_of([b'<INIT seed="0,0,0,0,5,37" ten="250,250,250,250" oya="0"/>'], [INIT])[2].tolist() == [True]
    assert table_of([element], [INIT])[2].tolist() == [False]


def test_a_repeated_attribute_keeps_its_last_value_as_a_dict_does() -> None:
    cells, values, ok = table_of([b'<INIT oya="1" seed="0,0,0,0,5,37" ten="250,250,250,250" oya="2"/>'], [INIT])
    assert ok[0] and values[cells[0, SLOT["oya"], OFFSET]] == 2 and cells[0, SLOT["oya"], START] > 0


def test_compiled_event_flags_match_the_numpy_ones() -> None:
    rng = np.random.default_rng(19)
    for trial in range(400):
        n = int(rng.integers(0, 80))
        round_idx = np.sort(rng.integers(0, 3, n)) if trial % 4 else rng.integers(0, 3, n)
        seat = rng.integers(-1 if trial % 5 == 0 else 0, 4, n)
        action, tile = rng.integers(0, 13, n), rng.integers(-1, 136, n)
        got = flags.event_flags(round_idx, seat, action, tile, bool(trial % 2))
        want = flags._event_flags_numpy(round_idx, seat, action, tile, bool(trial % 2))
        assert {k: (v.dtype, v.tolist()) for k, v in got.items()} == {k: (v.dtype, v.tolist()) for k, v in want.items()}


@pytest.mark.parametrize("relative", GAMES)
@pytest.mark.parametrize("disconnection", [False, True])
def test_the_compiled_event_table_gives_what_the_numpy_one_gives(
    shared_logs: Path, relative: str, disconnection: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # without disconnections every event is read in bulk; with one, a handler's event row joins them
    data = re.sub(rb"<BYE [^>]*>", b"", (shared_logs / relative).read_bytes())
    if disconnection:
        first_init = data.index(b"/>", data.index(b"<INIT")) + 2
        data = data[:first_init] + b'<BYE who="1"/>' + data[first_init:]
    rng = random.Random(relative + "events")
    documents = [data] + [mutate(data, rng) for _ in range(100)]
    built = []
    function = bulk.event_table_columns  # the compiled events' last step, with the rounds

    def counted(*args: object) -> object:
        built.append(True)
        return function(*args)

    monkeypatch.setattr(bulk, "event_table_columns", counted)
    compiled = []
    for document in documents:
        built.clear()
        compiled.append((outcome(document, relative), any(built)))
    # the compiled pass built the game's events and many of its mutants'
    assert compiled[0][1] and sum(taken for _, taken in compiled) >= 20
    monkeypatch.undo()
    one_by_one(monkeypatch)  # read element by element, the events in numpy
    monkeypatch.setattr(state, "bulk_event_columns", lambda *_args: None)
    assert [outcome(document, relative) for document in documents] == [game for game, _ in compiled]
