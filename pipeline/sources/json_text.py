"""JSON as the JSON formats read it: strict (RFC 8259), so that a hostile value fails as a ValueError the reader
turns into a ParseError naming the file, never as an exception the batch does not expect.

Python's json module reads ``NaN``, ``Infinity`` and ``-Infinity`` (not JSON) and ``1e999`` (JSON, but
infinite as a float): here they are errors, as is nesting deeper than the interpreter's recursion allows
(RecursionError) and an integer longer than Python converts (ValueError).

orjson reads a text first (3.4 times json's speed on a tenhou.net/6 file; a text read with an ``object_hook``
goes to json): what it reads, it reads as json does here (it refuses NaN, Infinity and infinite numbers too),
except for an integer of 19 digits or more (beyond 64 bits it gives a float), so a text holding a run of 19 digits
goes to json. Whatever orjson refuses goes to json as well, which then says what is wrong, or reads it (a lone
surrogate's escape, which orjson refuses). One difference is left: orjson reads nesting up to 1,024 levels deep,
json up to the interpreter's recursion limit (about 1,000 levels, less the caller's depth); a text nested between
the two is read rather than refused, and then fails as a log (no log format nests anywhere near that deep).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import orjson

_DIGITS = bytes(48 if 48 <= byte <= 57 else 32 for byte in range(256))
"""bytes.translate's table: a digit stays a digit ("0"), any other byte becomes a blank."""
_LONG_NUMBER = b"0" * 19
"""A run of 19 digits, translated: the shortest integer orjson may read as a float (2**64 has 20 digits, -2**63 19)."""


def loads(text: str | bytes, object_hook: Callable[[dict[str, Any]], Any] | None = None) -> Any:
    """The JSON value of ``text`` (UTF-8 when bytes; each object passed through ``object_hook`` when given,
    innermost first, as json.loads does); raises ValueError (json.JSONDecodeError for bad syntax, or
    UnicodeDecodeError) saying what is wrong with it: a non-finite number, nesting too deep, an integer too
    long. Read by orjson when it can read it as json would (the module docstring), else by json."""
    if object_hook is None:
        data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
        if _LONG_NUMBER not in data.translate(_DIGITS):
            try:
                return orjson.loads(text)
            except orjson.JSONDecodeError:
                pass  # json says what is wrong (or reads what orjson refuses: a lone surrogate's escape)
    return json_loads(text, object_hook)


def json_loads(text: str | bytes, object_hook: Callable[[dict[str, Any]], Any] | None = None) -> Any:
    """loads read by Python's json module alone (what loads gives, the one difference in the module docstring
    aside); raises as loads does."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float, object_hook=object_hook)
    except RecursionError:
        raise ValueError("nested too deep to be read") from None


def _no_constant(name: str) -> float:
    """Refuse NaN, Infinity and -Infinity (json's extension: not JSON, not a number a log writes)."""
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    """A JSON number with a fraction or exponent as a float; refuses one that is infinite as a float."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is out of range")
    return value
