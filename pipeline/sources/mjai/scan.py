"""The compiled first reading of an mjai file (numba): its lines cut, the play events read from the bytes.

One pass over the bytes cuts the lines as stream.py's Python reading does (LF, a CR before it, blank lines
dropped) and reads every line that is a *plain play event*: a flat JSON object whose keys are all among type,
actor, pai, target, tsumogiri, consumed and dora_marker, whose type is one the play applies (kernel.TYPES), and
whose values are strings without a backslash, a control character or a byte past ASCII, integers of at most 15
digits (no fraction, no exponent), true, false, null or flat lists of those. Such a line is valid JSON (and UTF-8)
for sure, and its row (the kernel's input, what fast.encode_event gives for the parsed event) and the facts the
header needs of it (a red five's name among its values, an actor of 3) are read here: Python does not parse it
unless it is asked for it.
A draw or discard written as most writers write it (_SHAPES: mjai's key order without spaces, akochan's sorted keys
with them) is matched byte by byte against its shape first, cut and read at once; any other line (or one of those
shapes with other spacing or line ending) goes the general way, which gives it the same row and flags.
Every other line is left to json (stream.py), after a check that it holds exactly one object (brackets balanced,
strings closed, nothing after it), so that reading those lines alone gives the values reading all lines gives.

The whole file goes to the Python reading (``ODD``) when a line is not one object, or when the bytes hold a line
break str.splitlines cuts at and this pass does not (a lone CR, VT, FF, FS, GS, RS, NEL, LS, PS).
Helpers declared ``@njit(_nrt=False)`` are compiled without numba's reference counting: they allocate nothing (no
array made, no slice assigned from an array, no np.sort), and each call of a helper taking arrays otherwise
increments and decrements every array's count atomically (NRT_incref/NRT_decref were most of these kernels'
time under perf). numba compiles a helper's own callees without it too, so they must not allocate either.
"""

from __future__ import annotations

import numpy as np

from pipeline.sources.json_bytes import BACKSLASH, QUOTE, SPACE, spaces
from pipeline.sources.mjai import kernel as k
from pipeline.sources.mjai.lines import (
    _ABSENT,
    _NOT_STRING,
    _NOT_TILE,
    _TYPE_CODE,
    _TYPE_LEN,
    _TYPE_NAMES,
    PYTHON,
    _lookup,
    _row,
    _tile,
)
from rules.compiled import njit

JSON = -1
"""``names`` of a line that json reads (not a plain play event)."""
RED, ACTOR_3 = 1, 2
"""``flags`` bits of a plain play event: a red five's name among its values (not its type), its actor is 3."""
TYPE_NAMES = list(k.TYPES)
"""``names`` of a plain play event: its type, as an index of this list."""

_KEY_NAMES = np.zeros((12, 12), dtype=np.uint8)
"""The kept keys by length (each has its own): the key's bytes; _KEY_OF: its field in ``f`` (-1 none)."""
_KEY_OF = np.full(12, -1, dtype=np.int64)
for _field, _key in enumerate(("type", "actor", "pai", "target", "tsumogiri", "consumed", "dora_marker")):
    _KEY_NAMES[len(_key), : len(_key)] = np.frombuffer(_key.encode(), dtype=np.uint8)
    _KEY_OF[len(_key)] = _field
_TYPE_ROWS = np.arange(len(_TYPE_LEN), dtype=np.int64)
_ODD = np.zeros(256, dtype=np.bool_)
_ODD[[0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0xC2, 0xE2]] = True
"""Bytes that may start a line break of str.splitlines other than LF (looked at closer), and LF itself."""
_ODD[10] = True
_ACTOR, _PAI, _BOOL = 1, 2, 3
"""Placeholders in a _SHAPES line: one digit (the actor), a tile name's 1-3 plain bytes, true or false."""
_SHAPE_LINES = (
    (b'{"type":"tsumo","actor":\x01,"pai":"\x02"}', "tsumo"),
    (b'{"type":"dahai","actor":\x01,"pai":"\x02","tsumogiri":\x03}', "dahai"),
    (b'{"actor": \x01, "pai": "\x02", "type": "tsumo"}', "tsumo"),
    (b'{"actor": \x01, "pai": "\x02", "tsumogiri": \x03, "type": "dahai"}', "dahai"),
)
"""The draws and discards as most writers put them (mjai's own order, akochan's sorted keys): read byte by byte."""
_SHAPES = np.zeros((len(_SHAPE_LINES), max(len(line) for line, _ in _SHAPE_LINES)), dtype=np.uint8)
for _row_at, (_line, _) in enumerate(_SHAPE_LINES):
    _SHAPES[_row_at, : len(_line)] = np.frombuffer(_line, dtype=np.uint8)
_SHAPE_LEN = np.array([len(line) for line, _ in _SHAPE_LINES], dtype=np.int64)
_SHAPE_NAME = np.array([TYPE_NAMES.index(name) for _, name in _SHAPE_LINES], dtype=np.int64)
_PLAIN_BYTE = np.zeros(256, dtype=np.bool_)
_PLAIN_BYTE[0x21:0x7F] = True
_PLAIN_BYTE[[QUOTE, BACKSLASH]] = False
"""The bytes a _SHAPES tile name may hold: printable ASCII but a quote or a backslash (no line break among them)."""


@njit(_nrt=False)
def _odd_break(buf: np.ndarray, i: int, end: int) -> bool:
    """Whether the byte at ``i`` (an _ODD one) starts a line break this pass does not cut at."""
    c = buf[i]
    if c == 0x0D:
        return i + 1 >= end or buf[i + 1] != 10
    if c == 0xC2:
        return i + 1 < end and buf[i + 1] == 0x85
    if c == 0xE2:
        return i + 2 < end and buf[i + 1] == 0x80 and (buf[i + 2] == 0xA8 or buf[i + 2] == 0xA9)
    return True


@njit(_nrt=False)
def _plain_string(buf: np.ndarray, i: int, end: int) -> int:
    """The closing quote of the string whose body starts at ``i``; -1 when it holds a backslash, a control
    character or a byte past ASCII (the line is then json's, which checks it is UTF-8), or is not closed."""
    while i < end:
        c = buf[i]
        if c == QUOTE:
            return i
        if c == BACKSLASH or c < 0x20 or c >= 0x80:
            return -1
        i += 1
    return -1


@njit(_nrt=False)
def _plain_scalar(buf: np.ndarray, i: int, end: int, out: np.ndarray) -> int:
    """Read the scalar at ``i``: out = (kind, value, red) with kind 0 string (value: its end), 1 integer, 2 true,
    3 false or null. Returns the position after it, -1 when it is not a plain scalar."""
    c = buf[i]
    out[2] = 0
    if c == QUOTE:
        close = _plain_string(buf, i + 1, end)
        if close < 0:
            return -1
        out[0], out[1] = 0, close
        if close - i == 4 and buf[i + 1] == 53 and buf[i + 3] == ord("r"):
            s = buf[i + 2]
            out[2] = 1 if s == ord("m") or s == ord("p") or s == ord("s") else 0
        return close + 1
    if c == ord("-") or 48 <= c <= 57:
        j = i + 1 if c == ord("-") else i
        if j >= end or not 48 <= buf[j] <= 57:
            return -1
        first, value = j, 0
        while j < end and 48 <= buf[j] <= 57:
            value = value * 10 + buf[j] - 48
            j += 1
        if (buf[first] == 48 and j - first > 1) or j - first > 15:
            return -1
        if j < end and (buf[j] == ord(".") or buf[j] == ord("e") or buf[j] == ord("E")):
            return -1
        out[0], out[1] = 1, -value if c == ord("-") else value
        return j
    if c == ord("t") and i + 4 <= end and buf[i + 1] == ord("r") and buf[i + 2] == ord("u") and buf[i + 3] == 101:
        out[0] = 2
        return i + 4
    if c == ord("n") and i + 4 <= end and buf[i + 1] == ord("u") and buf[i + 2] == 108 and buf[i + 3] == 108:
        out[0] = 3
        return i + 4
    if c == ord("f") and i + 5 <= end and buf[i + 1] == 97 and buf[i + 2] == 108 and buf[i + 3] == 115 \
            and buf[i + 4] == 101:  # fmt: skip
        out[0] = 3
        return i + 5
    return -1


@njit(_nrt=False)
def _plain_event(buf: np.ndarray, a: int, b: int, f: np.ndarray, consumed: np.ndarray, red: np.ndarray,
                 scalar: np.ndarray) -> int:  # fmt: skip
    """Read the line buf[a:b] (``{`` ... ``}``) as a plain play event (the module docstring) into ``f`` (the
    fields of lines._row) and ``consumed``; return its flags, -1 when it is not one."""
    for j in range(7):
        red[j] = 0
    actor_3, name = 0, -1
    i = spaces(buf, a + 1, b)
    while True:
        if i >= b or buf[i] != QUOTE:
            return -1
        close = _plain_string(buf, i + 1, b)
        n = close - i - 1
        if close < 0 or n >= 12 or _KEY_OF[n] < 0:
            return -1
        for j in range(n):
            if buf[i + 1 + j] != _KEY_NAMES[n, j]:
                return -1
        key = _KEY_OF[n]
        i = spaces(buf, close + 1, b)
        if i >= b or buf[i] != ord(":"):
            return -1
        i = spaces(buf, i + 1, b)
        if i >= b:
            return -1
        if buf[i] == ord("["):
            if key == 0:
                return -1
            i = spaces(buf, i + 1, b)
            count, seen = 0, 0
            if key == 5:
                consumed[:] = -1
            while i < b and buf[i] != ord("]"):
                at = i
                i = _plain_scalar(buf, i, b, scalar)
                if i < 0:
                    return -1
                seen |= scalar[2]
                if key == 5 and count < 4:
                    consumed[count] = _tile(buf, at + 1, scalar[1]) if scalar[0] == 0 else _NOT_TILE
                count += 1
                i = spaces(buf, i, b)
                if i < b and buf[i] == ord(","):
                    i = spaces(buf, i + 1, b)
                    if i < b and buf[i] == ord("]"):
                        return -1
                elif i < b and buf[i] != ord("]"):
                    return -1
            if i >= b:
                return -1
            i += 1
            red[key] = seen
            if key == 1:
                f[1], actor_3 = -99, 0
            elif key == 3:
                f[3] = -99
            elif key == 2 or key == 6:
                f[key] = _NOT_STRING
            elif key == 4:
                f[4] = 0
            else:
                f[5] = count if count <= 4 else -1
        else:
            start = i
            i = _plain_scalar(buf, i, b, scalar)
            if i < 0:
                return -1
            kind = scalar[0]
            red[key] = scalar[2]
            if key == 0:
                if kind != 0:
                    return -1
                name = _lookup(buf, start + 1, i - 1, _TYPE_NAMES, _TYPE_LEN, _TYPE_ROWS)
                if name < 0:
                    return -1
                f[0] = _TYPE_CODE[name]
            elif key == 1 or key == 3:
                f[key] = scalar[1] if kind == 1 else -99
                if key == 1:
                    actor_3 = 1 if kind == 1 and scalar[1] == 3 else 0
            elif key == 2 or key == 6:
                f[key] = _tile(buf, start + 1, i - 1) if kind == 0 else _NOT_STRING
            elif key == 4:
                f[4] = 1 if kind == 2 else 0
            else:
                consumed[:] = -1
                f[5] = -1
        i = spaces(buf, i, b)
        if i < b and buf[i] == ord(","):
            i = spaces(buf, i + 1, b)
            continue
        if i == b - 1 and buf[i] == ord("}") and name >= 0:
            break
        return -1
    flags = RED if red[1] or red[2] or red[3] or red[4] or red[5] or red[6] else 0
    return flags | (ACTOR_3 if actor_3 else 0) | (name << 2)


@njit(_nrt=False)
def _one_object(buf: np.ndarray, a: int, b: int) -> bool:
    """Whether buf[a:b] (starting with ``{``) is one bracketed value, closed at its last byte, strings closed."""
    depth, i = 0, a
    while i < b:
        c = buf[i]
        if c == QUOTE:
            i += 1
            while i < b and buf[i] != QUOTE:
                i += 2 if buf[i] == BACKSLASH else 1
            if i >= b:
                return False
        elif c == ord("{") or c == ord("["):
            depth += 1
        elif c == ord("}") or c == ord("]"):
            depth -= 1
            if depth == 0:
                return i == b - 1
        i += 1
    return False


@njit(_nrt=False)
def _shape_end(buf: np.ndarray, a: int, end: int, shape: int, hit: np.ndarray) -> int:
    """The position after the line from ``a`` when it is written as _SHAPES[shape] (-1 when not): its actor in
    hit[0], its tile name's bounds in hit[1:3], its boolean in hit[3] (1: true)."""
    i = a
    for j in range(_SHAPE_LEN[shape]):
        if i >= end:
            return -1
        want, c = _SHAPES[shape, j], buf[i]
        if want > _BOOL:  # a byte of the shape's own (most of them)
            if c != want:
                return -1
            i += 1
        elif want == _ACTOR:
            if not 48 <= c <= 57:
                return -1
            hit[0], i = c - 48, i + 1
        elif want == _PAI:
            hit[1] = i
            while i < end and i - hit[1] < 3 and _PLAIN_BYTE[buf[i]]:
                i += 1
            if i == hit[1]:
                return -1
            hit[2] = i  # the closing quote comes next in the shape
        elif want == _BOOL:
            if c == ord("t") and i + 4 <= end and buf[i + 1] == ord("r") and buf[i + 2] == ord("u") \
                    and buf[i + 3] == 101:  # fmt: skip
                hit[3], i = 1, i + 4
            elif c == ord("f") and i + 5 <= end and buf[i + 1] == 97 and buf[i + 2] == 108 and buf[i + 3] == 115 \
                    and buf[i + 4] == 101:  # fmt: skip
                hit[3], i = 0, i + 5
            else:
                return -1
    return i


@njit(_nrt=False)
def _common_line(buf: np.ndarray, a: int, end: int, f: np.ndarray, consumed: np.ndarray, row: np.ndarray,
                 hit: np.ndarray) -> int:  # fmt: skip
    """Read the line starting at ``a`` when it is one of _SHAPES ended by LF, CR LF or the end of the bytes: its row
    into ``row`` (as _plain_event and _row give it), the end of its object in hit[4] and the start of the next line
    in hit[5]; return its flags as _plain_event does, -1 when it is none of them (the general reading follows)."""
    for shape in range(len(_SHAPE_LEN)):
        close = _shape_end(buf, a, end, shape, hit)
        if close < 0:
            continue
        if close == end or buf[close] == 10:
            hit[5] = close + 1
        elif buf[close] == 13 and close + 1 < end and buf[close + 1] == 10:
            hit[5] = close + 2
        else:
            return -1
        hit[4] = close
        name, tile_a, tile_b = _SHAPE_NAME[shape], hit[1], hit[2]
        f[0], f[1], f[2], f[3], f[4], f[5], f[6] = _TYPE_CODE[name], hit[0], _tile(buf, tile_a, tile_b), -99, \
            hit[3], -1, _ABSENT  # fmt: skip
        _row(f, consumed, row)
        red = tile_b - tile_a == 3 and buf[tile_a] == 53 and buf[tile_a + 2] == ord("r") and (
            buf[tile_a + 1] == ord("m") or buf[tile_a + 1] == ord("p") or buf[tile_a + 1] == ord("s"))  # fmt: skip
        return (name << 2) | (RED if red else 0) | (ACTOR_3 if hit[0] == 3 else 0)
    return -1


@njit
def scan(buf: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Read a file's bytes (no BOM). Returns (odd, rows, bounds, names, flags): odd 1 when the file must be read
    in Python (the module docstring), else per non-blank line its kernel input row (type PYTHON for a line json
    reads), its (start, end) without the blank around it, its type as an index of TYPE_NAMES (JSON: json reads
    it) and its flags (RED, ACTOR_3)."""
    n_lines = np.sum(buf == 10) + 1
    rows = np.full((n_lines, k.IN_WIDTH), -1, dtype=np.int64)
    bounds = np.zeros((n_lines, 2), dtype=np.int64)
    names = np.full(n_lines, JSON, dtype=np.int64)
    flags = np.zeros(n_lines, dtype=np.int64)
    f = np.zeros(7, dtype=np.int64)
    consumed = np.full(4, -1, dtype=np.int64)
    red = np.zeros(7, dtype=np.int64)
    scalar = np.zeros(3, dtype=np.int64)
    hit = np.zeros(6, dtype=np.int64)
    n, start, end = 0, 0, len(buf)
    while start < end:
        got = _common_line(buf, start, end, f, consumed, rows[n], hit) if buf[start] == ord("{") else -1
        if got >= 0:  # a draw or discard as most writers put them: read at once, no byte looked at twice
            bounds[n, 0], bounds[n, 1] = start, hit[4]
            names[n], flags[n] = got >> 2, got & 3
            start, n = hit[5], n + 1
            continue
        stop = start
        while stop < end:  # one table look-up a byte: LF ends the line, another break byte is looked at closer
            if _ODD[buf[stop]]:
                if buf[stop] == 10:
                    break
                if _odd_break(buf, stop, end):
                    return 1, rows[:0], bounds[:0], names[:0], flags[:0]
            stop += 1
        a, b = spaces(buf, start, stop), stop
        while b > a and SPACE[buf[b - 1]]:
            b -= 1
        start = stop + 1
        if a == b:
            continue
        if buf[a] != ord("{"):
            return 1, rows[:0], bounds[:0], names[:0], flags[:0]
        bounds[n, 0], bounds[n, 1] = a, b
        f[0], f[1], f[2], f[3], f[4], f[5], f[6] = PYTHON, -99, _ABSENT, -99, 0, -1, _ABSENT
        got = _plain_event(buf, a, b, f, consumed, red, scalar)
        if got >= 0:
            _row(f, consumed, rows[n])
            names[n], flags[n] = got >> 2, got & 3
        elif _one_object(buf, a, b):
            rows[n, k.IN_TYPE] = PYTHON
        else:
            return 1, rows[:0], bounds[:0], names[:0], flags[:0]
        n += 1
    return 0, rows[:n], bounds[:n], names[:n], flags[:n]
