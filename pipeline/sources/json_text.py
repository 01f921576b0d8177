"""JSON as the JSON formats read it: strict (RFC 8259), so that a hostile value fails as a ValueError the reader
turns into a ParseError naming the file, never as an exception the batch does not expect.

Python's json module reads ``NaN``, ``Infinity`` and ``-Infinity`` (not JSON) and ``1e999`` (JSON, but
infinite as a float): here they are errors, as is nesting deeper than the interpreter's recursion allows
(RecursionError) and an integer longer than Python converts (ValueError).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any


def loads(text: str, object_hook: Callable[[dict[str, Any]], Any] | None = None) -> Any:
    """The JSON value of ``text`` (each object passed through ``object_hook`` when given, innermost first, as
    json.loads does); raises ValueError (json.JSONDecodeError for bad syntax) saying what is wrong with it: a
    non-finite number, nesting too deep, an integer too long."""
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
