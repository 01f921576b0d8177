"""JSON read from its bytes in numba kernels: the blanks, strings, values and integers the format readers' kernels
(mjai's lines and scan, tenhou.net/6's lists) walk. Helpers compiled without reference counting (``_nrt=False``):
they allocate nothing."""

from __future__ import annotations

import numpy as np

from rules.compiled import njit

SPACE = np.zeros(256, dtype=np.bool_)
SPACE[[ord(c) for c in " \t\r\n"]] = True
QUOTE, BACKSLASH = ord('"'), ord("\\")


@njit(_nrt=False)
def string_end(buf: np.ndarray, i: int, end: int) -> tuple[int, bool]:
    """(position of the closing quote of the string whose body starts at ``i``, it holds a backslash)."""
    escaped = False
    while i < end:
        c = buf[i]
        if c == BACKSLASH:
            escaped = True
            i += 2
            continue
        if c == QUOTE:
            return i, escaped
        i += 1
    return -1, escaped


@njit(_nrt=False)
def skip_value(buf: np.ndarray, i: int, end: int) -> int:
    """The position after the JSON value starting at ``i`` (-1 when it runs past ``end``)."""
    depth = 0
    while i < end:
        c = buf[i]
        if c == QUOTE:
            close, _ = string_end(buf, i + 1, end)
            if close < 0:
                return -1
            i = close + 1
            if depth == 0:
                return i
            continue
        if c == ord("[") or c == ord("{"):
            depth += 1
        elif c == ord("]") or c == ord("}"):
            if depth == 0:
                return i
            depth -= 1
            if depth == 0:
                return i + 1
        elif depth == 0 and (c == ord(",") or SPACE[c]):
            return i
        i += 1
    return -1 if depth else i


@njit(_nrt=False)
def spaces(buf: np.ndarray, i: int, end: int) -> int:
    """The position after the JSON whitespace at ``i``."""
    while i < end and SPACE[buf[i]]:
        i += 1
    return i


@njit(_nrt=False)
def integer(buf: np.ndarray, a: int, b: int) -> tuple[int, int]:
    """(value, 1) of a JSON integer written as buf[a:b]; (0, 0) for another value, (0, -1) when too long."""
    sign, i = 1, a
    if i < b and buf[i] == ord("-"):
        sign, i = -1, i + 1
    if i >= b or b - i > 15:
        return 0, -1 if b - i > 15 else 0
    value = 0
    for j in range(i, b):
        if not 48 <= buf[j] <= 57:
            return 0, 0
        value = value * 10 + buf[j] - 48
    return sign * value, 1
