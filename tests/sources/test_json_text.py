"""pipeline.sources.json_text: orjson reads what it reads exactly as json would (types included), and whatever it
refuses goes to json, which reads it or says what is wrong with the same message as when it reads alone."""

from __future__ import annotations

from typing import Any

import pytest

from pipeline.sources import json_text

READ_ALIKE = [
    '{"a": 1, "b": [true, false, null], "a": 2}',
    "[0, -0, 1.0, -0.0, 1e2, 1E-400, 4.9e-324, 1.7976931348623157e308, 0.1]",
    "[999999999999999999, -999999999999999999]",  # 18 digits: orjson's integers
    "[9223372036854775807, -9223372036854775808, 18446744073709551615]",  # 19 and 20 digits: json's
    "[100000000000000000000, -100000000000000000000, 1e20]",  # beyond 64 bits: integers all the same
    '["\\u00e9\\ud83d\\ude00", "\\u0000", "\\/", "Aさん"]',
    '"\\ud800"',  # a lone surrogate's escape: orjson refuses it, json reads it
    ' {"log": [[[0, 0, 0], [25000, 25000, 25000, 25000]]]} \n',
    "[" * 300 + "]" * 300,
]
REFUSED = [
    "NaN",
    "[Infinity]",
    "[-Infinity]",
    "[1e999]",
    "[-1e999]",
    "[1,]",
    '"\x01"',
    "\ufeff[1]",
    "[" + "9" * 5000 + "]",  # longer than Python converts
    "[" * 5000 + "]" * 5000,  # deeper than either reads
    '{"a" 1}',
    "",
]


def _typed(value: Any) -> Any:
    """The value with every leaf's type beside it (1, 1.0 and True differ; so do 0.0 and -0.0)."""
    if isinstance(value, dict):
        return ("dict", [(key, _typed(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("list", [_typed(item) for item in value])
    return (type(value).__name__, repr(value))


@pytest.mark.parametrize("text", READ_ALIKE)
def test_a_text_is_read_as_json_reads_it(text: str) -> None:
    expected = _typed(json_text.json_loads(text))
    assert _typed(json_text.loads(text)) == expected
    assert _typed(json_text.loads(text.encode())) == expected


@pytest.mark.parametrize("text", REFUSED)
def test_a_refused_text_is_refused_as_json_refuses_it(text: str) -> None:
    with pytest.raises(ValueError) as alone:
        json_text.json_loads(text)
    with pytest.raises(ValueError) as read:
        json_text.loads(text)
    assert str(read.value) == str(alone.value) and type(read.value) is type(alone.value)


def test_bytes_that_are_not_utf8_are_refused_as_a_decoding_error() -> None:
    with pytest.raises(UnicodeDecodeError):
        json_text.loads(b'["\xff"]')


def test_a_plain_text_is_read_by_orjson(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> None:
        raise AssertionError("json read a text orjson reads")

    monkeypatch.setattr(json_text, "json_loads", refuse)
    assert json_text.loads('{"log": [[[0, 0, 0]]], "name": ["Aさん"]}') == {"log": [[[0, 0, 0]]], "name": ["Aさん"]}


def test_an_object_hook_is_applied_by_json() -> None:
    assert json_text.loads('{"a": {"b": 1}}', object_hook=lambda obj: sorted(obj)) == ["a"]
