"""The attributes of a document's INIT, AGARI and RYUUKYOKU elements, read by one compiled pass (numba).

Each element's attributes are looked up by name in ATTRIBUTES (other names are passed over) and each value is
read as a comma-separated list of integers; one table row per element gives, for every attribute: where its
value is written, how many integers it holds, where they start in one flat array, their smallest and largest,
and whether it was read as integers at all. The rounds, wins and draws are then built from the table for the
whole document at once (bulk.py).

An element is *clean* when its attributes are written as the server writes them: a space before each, the name
(ASCII letters, digits, ``_.-``), ``="``, the value, ``"``, an optional ``/`` at the end. For a clean element
the table holds what the per-tag handlers' reading (a regex over the attribute text, a dict, ``int()`` of each
comma-separated value) would give; anything else is for the handlers alone. Each attribute is also checked
against what its tag's handler accepts of it (its rule: bulk.py declares them), so that the rows of a document
whose elements are all clean and as their rules say can be built without a check left but a few.
"""

from __future__ import annotations

import numpy as np

from rules.compiled import njit

ATTRIBUTES = ("seed", "ten", "oya", "hai0", "hai1", "hai2", "hai3", "shuffle", "who", "fromWho", "paoWho",
              "yaku", "yakuman", "sc", "ba", "machi", "hai", "m", "doraHai", "doraHaiUra", "owari", "type")  # fmt: skip
"""The attributes the handlers of INIT, AGARI and RYUUKYOKU read, by slot."""
SLOT = {name: slot for slot, name in enumerate(ATTRIBUTES)}

START, END, COUNT, OFFSET, STATUS = range(5)
"""The fields of a table cell: the value's first byte and the byte after it (-1, -1: not written), the number of
integers and their offset in the flat array, STATUS."""
ABSENT, TEXT, INTS, SIGNED = 0, 1, 2, 3
"""STATUS: not written; not a list of integers; integers (an empty value is none); integers of which one is
written with a '+' sign."""

READ, REQUIRED, SIGNED_OK, MIN_COUNT, MAX_COUNT, STEP, LOW, HIGH, PERIOD, POSITION = range(10)
"""The fields of a rule (what a handler accepts of one attribute of one tag): whether the handler reads it as
integers at all (0: the rule does not apply), whether it must be written, whether a '+' sign is taken, the
counts allowed (a multiple of STEP), the values allowed, then the values allowed at each of the first HEAD
positions (POSITION + p the lowest, POSITION + HEAD + p the highest), or with a PERIOD at every position p of
the value by p % PERIOD (pairs: PERIOD 2)."""
HEAD = 8
RULE_SIZE = POSITION + 2 * HEAD

MAX_DIGITS = 15
"""Longer numbers are left to the handlers: the table's values, times 100 and summed, stay within int64."""

PADDING = 8
"""Zeros after the values: the first eight integers of any cell can be gathered, however many it holds."""

_NAME_BYTES = np.zeros((len(ATTRIBUTES), 16), dtype=np.uint8)
_NAME_LENGTHS = np.array([len(name) for name in ATTRIBUTES], dtype=np.int64)
for _slot, _name in enumerate(ATTRIBUTES):
    _NAME_BYTES[_slot, : len(_name)] = np.frombuffer(_name.encode(), dtype=np.uint8)
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_LETTER = np.zeros(256, dtype=np.bool_)
_LETTER[[ord(c) for c in _LETTERS]] = True
_NAME_CHAR = np.zeros(256, dtype=np.bool_)
_NAME_CHAR[[ord(c) for c in _LETTERS + "0123456789_.-"]] = True
_BLANK = np.zeros(256, dtype=np.bool_)
_BLANK[[ord(c) for c in " \t\n\r\x0b\x0c"]] = True  # a subset of Python's \s
_QUOTE, _SLASH, _EQUALS, _COMMA, _MINUS, _PLUS = (ord(c) for c in '"/=,-+')


@njit(_nrt=False)
def _slot_of(buf: np.ndarray, start: int, end: int) -> int:
    """The slot of the attribute name written from ``start`` to ``end``; -1 when it is not one of ATTRIBUTES."""
    length = end - start
    for slot in range(len(_NAME_LENGTHS)):
        if _NAME_LENGTHS[slot] != length:
            continue
        k = 0
        while k < length and buf[start + k] == _NAME_BYTES[slot, k]:
            k += 1
        if k == length:
            return slot
    return -1


@njit(_nrt=False)
def _integers(buf: np.ndarray, start: int, end: int, values: np.ndarray, at: int) -> tuple[int, int]:
    """(count, STATUS) of the value from ``start`` to ``end`` read as comma-separated integers into ``values``
    from ``at`` (count 0 unless INTS or SIGNED)."""
    count, status, i = 0, INTS, start
    while i < end:
        sign = 1
        if buf[i] == _MINUS or buf[i] == _PLUS:
            if buf[i] == _PLUS:
                status = SIGNED
            sign = -1 if buf[i] == _MINUS else 1
            i += 1
        first, value = i, 0
        while i < end and 48 <= buf[i] <= 57 and i - first < MAX_DIGITS:
            value = value * 10 + buf[i] - 48
            i += 1
        if i == first or (i < end and buf[i] != _COMMA) or i + 1 == end:  # no digits, too many, ',' last
            return 0, TEXT
        values[at + count] = sign * value
        count += 1
        i += 1  # past the comma
    return count, status


@njit(_nrt=False)
def _follows(cells: np.ndarray, row: int, values: np.ndarray, rules: np.ndarray, tag: int) -> bool:
    """Whether every attribute of a row is as the rule of its tag says (arrays indexed, not sliced: a view per
    cell would cost more than the check)."""
    for slot in range(cells.shape[1]):
        if rules[tag, slot, READ] == 0:
            continue
        if cells[row, slot, START] < 0:
            if rules[tag, slot, REQUIRED] != 0:
                return False
            continue
        status, count, offset = cells[row, slot, STATUS], cells[row, slot, COUNT], cells[row, slot, OFFSET]
        if not (status == INTS or (status == SIGNED and rules[tag, slot, SIGNED_OK] != 0)):
            return False
        if count < rules[tag, slot, MIN_COUNT] or count > rules[tag, slot, MAX_COUNT]:
            return False
        if count % rules[tag, slot, STEP] != 0:
            return False
        period = rules[tag, slot, PERIOD]
        for k in range(count):
            value = values[offset + k]
            if value < rules[tag, slot, LOW] or value > rules[tag, slot, HIGH]:
                return False
            p = k % period if period > 0 else k
            if p < HEAD and not rules[tag, slot, POSITION + p] <= value <= rules[tag, slot, POSITION + HEAD + p]:
                return False
    return True


@njit
def attribute_table(
    buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, at: np.ndarray, tags: np.ndarray, rules: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(cells, values, ok) of the elements ``at`` (indices into ``starts``/``ends``, the offsets of each
    element's '<' and '>' in ``buf``): ``cells[row, slot]`` the fields START...STATUS of each attribute of
    ATTRIBUTES (a repeated attribute's last value counts, as in a dict), ``values`` the integers the cells point
    into (and PADDING zeros), ``ok[row]`` whether the element is clean and each of its attributes as the rule
    of its tag says (``rules[tags[row], slot]``, RULE_SIZE fields)."""
    n = len(at)
    cells = np.zeros((n, len(ATTRIBUTES), 5), dtype=np.int64)
    cells[:, :, START] = -1
    cells[:, :, END] = -1
    ok = np.ones(n, dtype=np.bool_)
    size = 1
    for row in range(n):
        size += (ends[at[row]] - starts[at[row]]) // 2
    values = np.zeros(size + PADDING, dtype=np.int64)
    used = 0
    for row in range(n):
        i, end = starts[at[row]] + 1, ends[at[row]]
        while i < end and _LETTER[buf[i]]:  # the tag's name
            i += 1
        while True:
            k = i
            while k < end and _BLANK[buf[k]]:
                k += 1
            if k == end or (buf[k] == _SLASH and k + 1 == end):
                break
            name = k
            while k < end and _NAME_CHAR[buf[k]]:
                k += 1
            if name == i or k == name or k + 1 >= end or buf[k] != _EQUALS or buf[k + 1] != _QUOTE:
                ok[row] = False
                break
            value = k + 2
            k = value
            while k < end and buf[k] != _QUOTE:
                k += 1
            if k == end:
                ok[row] = False
                break
            slot = _slot_of(buf, name, value - 2)
            if slot >= 0:
                count, status = _integers(buf, value, k, values, used)
                cells[row, slot, START], cells[row, slot, END], cells[row, slot, STATUS] = value, k, status
                cells[row, slot, COUNT], cells[row, slot, OFFSET] = count, used
                used += count
            i = k + 1
        if ok[row] and not _follows(cells, row, values, rules, tags[row]):
            ok[row] = False
    return cells, values[: used + PADDING], ok
