"""The compiled reading of mjai JSON lines (numba): each line's event as kernel.play's input row, from the bytes.

json.loads still reads (and checks) every line; what this kernel saves is the Python work after it, field by
field for every event. It reads a line as the flat JSON object mjai writes and keeps the fields the play needs
(type, actor, pai or dora_marker, target, tsumogiri, consumed), giving exactly the row fast.encode_event gives for
the parsed event. A line it cannot read so surely (a backslash in a key or in a kept string, an integer too long,
anything unexpected) is marked ``PYTHON`` and fast.encode_event reads the parsed event instead; the type of an
event the play does not apply (start_kyoku, hora...) is ``OTHER``. Lines are cut at LF, CR before it and blank
lines dropped as the Python reading drops them (stream.py; fast.py checks that the counts agree).
Helpers declared ``@njit(_nrt=False)``: compiled without reference counting (see kernel.py).
"""

from __future__ import annotations

import numpy as np

from pipeline.sources.json_bytes import QUOTE, SPACE, integer, skip_value, spaces, string_end
from pipeline.sources.mjai import kernel as k
from rules.compiled import njit

PYTHON, OTHER = -2, -1
"""Row types beside kernel.T_*: read this event in Python; an event the play does not apply."""
_ABSENT, _NOT_STRING, _NOT_TILE = -4, -5, -1
"""A tile field: not written, written but not a string, a string that is no tile name."""


def _vocabulary(names: list[tuple[str, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(name bytes (n, 16), lengths, codes) of a name table for _lookup."""
    table = np.zeros((len(names), 16), dtype=np.uint8)
    for row, (name, _) in enumerate(names):
        table[row, : len(name)] = np.frombuffer(name.encode(), dtype=np.uint8)
    return table, np.array([len(n) for n, _ in names], dtype=np.int64), np.array([c for _, c in names], np.int64)


def _tables() -> tuple[np.ndarray, ...]:
    """The vocabularies of the kept keys and of the event types."""
    keys = [("type", 0), ("actor", 1), ("pai", 2), ("target", 3), ("tsumogiri", 4), ("consumed", 5),
            ("dora_marker", 6)]  # fmt: skip
    return (*_vocabulary(keys), *_vocabulary(list(k.TYPES.items())))


_KEYS, _KEY_LEN, _KEY_CODE, _TYPE_NAMES, _TYPE_LEN, _TYPE_CODE = _tables()


@njit(_nrt=False)
def _lookup(buf: np.ndarray, a: int, b: int, names: np.ndarray, lengths: np.ndarray, codes: np.ndarray) -> int:
    """The code of the name written as buf[a:b], -1 when it is none of them."""
    for row in range(len(lengths)):
        if lengths[row] == b - a:
            same = True
            for j in range(b - a):
                if buf[a + j] != names[row, j]:
                    same = False
                    break
            if same:
                return codes[row]
    return -1


_ONE_LETTER = np.full(256, _NOT_TILE, dtype=np.int64)
"""The code of a one-letter tile name (honors, '?') by its byte."""
_SUIT = np.full(256, -1, dtype=np.int64)
_SUIT[[ord("m"), ord("p"), ord("s")]] = (0, 9, 18)
for _name, _code in k.TILE_CODES.items():
    if len(_name) == 1:
        _ONE_LETTER[ord(_name)] = _code


@njit(_nrt=False)
def _tile(buf: np.ndarray, a: int, b: int) -> int:
    """The code of the tile name written as buf[a:b] (kernel.TILE_CODES), _NOT_TILE when it is none."""
    n = b - a
    if n == 1:
        return _ONE_LETTER[buf[a]]
    if n < 2 or n > 3 or _SUIT[buf[a + 1]] < 0 or not 49 <= buf[a] <= 57:
        return _NOT_TILE
    kind = _SUIT[buf[a + 1]] + buf[a] - 49
    if n == 2:
        return 2 * kind
    return 2 * kind + 1 if buf[a] == 53 and buf[a + 2] == ord("r") else _NOT_TILE


@njit(_nrt=False)
def _consumed(buf: np.ndarray, i: int, end: int, out: np.ndarray) -> int:
    """The count of the list at ``i`` with its tile codes in ``out`` (-1 past four elements; PYTHON when a string
    holds a backslash or the list cannot be read)."""
    i, n = spaces(buf, i + 1, end), 0
    while i < end and buf[i] != ord("]"):
        code = _NOT_TILE
        if buf[i] == QUOTE:
            close, escaped = string_end(buf, i + 1, end)
            if close < 0 or escaped:
                return PYTHON
            code = _tile(buf, i + 1, close)
            i = close + 1
        else:
            i = skip_value(buf, i, end)
            if i < 0:
                return PYTHON
        if n < 4:
            out[n] = code
        n += 1
        i = spaces(buf, i, end)
        if i < end and buf[i] == ord(","):
            i = spaces(buf, i + 1, end)
    if i >= end:
        return PYTHON
    return n if n <= 4 else -1


@njit(_nrt=False)
def _fields(buf: np.ndarray, a: int, b: int, f: np.ndarray, consumed: np.ndarray) -> bool:
    """Read the kept fields of the object written as buf[a:b] into ``f`` (type, actor, pai, target, tsumogiri,
    consumed count, dora_marker); False when the line must be read in Python."""
    if buf[a] != ord("{"):
        return False
    i = spaces(buf, a + 1, b)
    while i < b and buf[i] != ord("}"):
        if buf[i] != QUOTE:
            return False
        close, escaped = string_end(buf, i + 1, b)
        if close < 0 or escaped:
            return False
        key = _lookup(buf, i + 1, close, _KEYS, _KEY_LEN, _KEY_CODE)
        i = spaces(buf, close + 1, b)
        if i >= b or buf[i] != ord(":"):
            return False
        v = spaces(buf, i + 1, b)
        after = skip_value(buf, v, b)
        if after < 0 or v >= b:
            return False
        is_string = buf[v] == QUOTE
        if is_string and key >= 0:
            _, escaped = string_end(buf, v + 1, after)
            if escaped:
                return False
        if key == 0:
            f[0] = _lookup(buf, v + 1, after - 1, _TYPE_NAMES, _TYPE_LEN, _TYPE_CODE) if is_string else PYTHON
        elif key == 1 or key == 3:
            value, ok = integer(buf, v, after)
            if ok < 0:
                return False
            f[key] = value if ok else -99
        elif key == 2 or key == 6:
            f[key] = _tile(buf, v + 1, after - 1) if is_string else _NOT_STRING
        elif key == 4:
            f[4] = 1 if after - v == 4 and buf[v] == ord("t") else 0
        elif key == 5:
            consumed[:] = -1
            f[5] = _consumed(buf, v, after, consumed) if buf[v] == ord("[") else -1
            if f[5] == PYTHON:
                return False
        i = spaces(buf, after, b)
        if i < b and buf[i] == ord(","):
            i = spaces(buf, i + 1, b)
    return i < b and spaces(buf, i + 1, b) == b and f[0] != PYTHON


@njit(_nrt=False)
def _row(f: np.ndarray, consumed: np.ndarray, row: np.ndarray) -> None:
    """The input row of an event from its fields (what fast.encode_event gives for the parsed event)."""
    kind = f[0]
    row[:] = -1
    row[k.IN_TYPE], row[k.IN_ACTOR], row[k.IN_TARGET], row[k.IN_TSUMOGIRI], row[k.IN_N] = kind, f[1], -99, 0, 0
    tile = f[6] if kind == k.T_DORA else f[2]
    if kind == k.T_KITA and tile == _ABSENT:
        tile = 2 * 30  # "N"
    if kind == k.T_ANKAN and (tile in (_ABSENT, _NOT_STRING)):
        tile = -3  # no pai string: the first consumed tile
    elif tile in (_ABSENT, _NOT_STRING):
        tile = _NOT_TILE
    row[k.IN_TILE] = tile
    if kind == k.T_DAHAI:
        row[k.IN_TSUMOGIRI] = f[4]
    elif kind in (k.T_CHI, k.T_PON, k.T_DAIMINKAN, k.T_ANKAN):
        row[k.IN_TARGET], row[k.IN_N] = f[3], f[5]
        for j in range(f[5]):  # a loop, not a slice assignment: that pulls numba's error formatting in (~2 s)
            row[k.IN_CONSUMED + j] = consumed[j]


@njit
def read_rows(buf: np.ndarray) -> np.ndarray:
    """The input row of every non-blank line (type PYTHON: read it in Python; OTHER: not a play event)."""
    rows = np.full((np.sum(buf == 10) + 1, k.IN_WIDTH), -1, dtype=np.int64)
    f = np.zeros(7, dtype=np.int64)
    consumed = np.full(4, -1, dtype=np.int64)
    n, start, end = 0, 0, len(buf)
    while start < end:
        stop = start
        while stop < end and buf[stop] != 10:
            stop += 1
        a, b = spaces(buf, start, stop), stop
        while b > a and SPACE[buf[b - 1]]:
            b -= 1
        start = stop + 1
        if a == b:
            continue
        f[0], f[1], f[2], f[3], f[4], f[5], f[6] = PYTHON, -99, _ABSENT, -99, 0, -1, _ABSENT
        if _fields(buf, a, b, f, consumed) and f[0] != OTHER:
            _row(f, consumed, rows[n])
        else:
            rows[n, k.IN_TYPE] = OTHER if f[0] == OTHER else PYTHON
        n += 1
    return rows[:n]


_SEPARATORS = (b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\xc2\x85", b"\xe2\x80\xa8", b"\xe2\x80\xa9")
"""Line breaks of str.splitlines (stream.py cuts lines with it) other than LF and CRLF, in UTF-8 (searched one by
one: a byte search is much faster than a regular expression's)."""


def line_rows(data: bytes, n_events: int) -> np.ndarray | None:
    """The input rows of a file whose every non-blank line is one event (``n_events`` of them), or None when its
    lines might be cut otherwise than stream.py cuts them (other line breaks; the counts differ)."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    if data.count(b"\r") != data.count(b"\r\n") or any(sep in data for sep in _SEPARATORS):
        return None
    rows = read_rows(np.frombuffer(data, dtype=np.uint8))
    return rows if len(rows) == n_events else None
