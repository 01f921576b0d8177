"""The kyoku's lists of a tenhou.net/6 file read from its bytes (numba), for round.prepare_kyoku's seats.

Walking the Python lists json builds costs ~20 us a kyoku (round._seat_codes); reading the same values from the
bytes costs ~35 us a whole game. ``log_lists`` reads a file that is one JSON object (a UTF-8 byte order mark and
blanks around it allowed) whose keys hold no backslash and name ``log`` once: every entry of every kyoku of its
``log`` array, each either *flat* (an array of integers of at most 15 digits, without fraction or exponent, and of
strings without a backslash: its items given) or not (skipped). Anything else (a top-level list, JSON lines, a
second ``log``, a kyoku that is not an array) is declined: the caller reads the lists json built, as before.

The bytes are valid JSON already (the document was read from them by json before): the walk only finds where
values begin and end, it does not check them. ``seat_arrays`` then checks and lays out the seats' lists of every
kyoku at once (seat_lists.game_seats turns them into what prepare_kyoku reads).
"""

from __future__ import annotations

import numpy as np

from pipeline.sources.json_bytes import QUOTE, integer, skip_value, spaces, string_end
from rules.compiled import njit

OK, DECLINED = 1, 0
"""``log_lists``' status."""
INT, STRING = 0, 1
"""An item's kind (``kinds``): an integer (``values``: it) or a string (``values``: its span's row in ``spans``)."""

_COMMA, _OPEN_LIST, _CLOSE_LIST, _OPEN_OBJECT, _CLOSE_OBJECT = 44, 91, 93, 123, 125
_LOG = np.frombuffer(b"log", dtype=np.uint8).copy()
_ITEMS, _STRINGS, _FLAT, _KYOKU, _ENTRIES = range(5)
"""log_lists' counts: items and strings read, whether the last entry read was flat, kyoku and entries read."""


@njit(_nrt=False)
def _next(buf: np.ndarray, pos: int, n: int) -> int:
    """The position of what follows a value ending at ``pos``: past the blanks and one comma."""
    pos = spaces(buf, pos, n)
    return spaces(buf, pos + 1, n) if pos < n and buf[pos] == _COMMA else pos


@njit(_nrt=False)
def _is_log(buf: np.ndarray, a: int, b: int) -> bool:
    """Whether the key written as buf[a:b] is ``log``."""
    return b - a == 3 and buf[a] == _LOG[0] and buf[a + 1] == _LOG[1] and buf[a + 2] == _LOG[2]


@njit(_nrt=False)
def _entry(buf: np.ndarray, pos: int, n: int, kinds: np.ndarray, values: np.ndarray, spans: np.ndarray,
           counts: np.ndarray) -> int:  # fmt: skip
    """Read the kyoku entry at ``pos``: a flat list's items appended (counts[_FLAT] 1), anything else skipped, its
    items dropped (counts[_FLAT] 0). Returns the position after it."""
    end = skip_value(buf, pos, n)
    first_item, first_string = counts[_ITEMS], counts[_STRINGS]
    flat = buf[pos] == _OPEN_LIST
    pos = spaces(buf, pos + 1, n)
    while flat and pos < n and buf[pos] != _CLOSE_LIST:
        item_end = skip_value(buf, pos, n)
        if buf[pos] == QUOTE:
            close, escaped = string_end(buf, pos + 1, n)
            flat = not escaped
            kinds[counts[_ITEMS]], values[counts[_ITEMS]] = STRING, counts[_STRINGS]
            spans[counts[_STRINGS], 0], spans[counts[_STRINGS], 1] = pos + 1, close
            counts[_STRINGS] += 1
        else:
            number, status = integer(buf, pos, item_end)  # 0 or -1: not an integer, or too long
            flat = status == 1
            kinds[counts[_ITEMS]], values[counts[_ITEMS]] = INT, number
        counts[_ITEMS] += 1
        pos = _next(buf, item_end, n)
    counts[_FLAT] = 1 if flat else 0
    if not flat:
        counts[_ITEMS], counts[_STRINGS] = first_item, first_string
    return end


@njit(_nrt=False)
def _log(buf: np.ndarray, pos: int, n: int, kyoku: np.ndarray, entries: np.ndarray, kinds: np.ndarray,
         values: np.ndarray, spans: np.ndarray, counts: np.ndarray) -> int:  # fmt: skip
    """Read the ``log`` array at ``pos`` (its opening bracket): each kyoku's first entry in ``kyoku``, each entry's
    first item and flatness in ``entries``. Returns the position after it, -1 when a kyoku is not an array."""
    pos = spaces(buf, pos + 1, n)
    while pos < n and buf[pos] != _CLOSE_LIST:
        if buf[pos] != _OPEN_LIST:
            return -1
        kyoku[counts[_KYOKU]] = counts[_ENTRIES]
        counts[_KYOKU] += 1
        pos = spaces(buf, pos + 1, n)
        while pos < n and buf[pos] != _CLOSE_LIST:
            entries[counts[_ENTRIES], 0] = counts[_ITEMS]
            pos = _next(buf, _entry(buf, pos, n, kinds, values, spans, counts), n)
            entries[counts[_ENTRIES], 1] = counts[_FLAT]
            counts[_ENTRIES] += 1
        pos = _next(buf, pos + 1, n)  # past the kyoku's closing bracket
    return pos + 1


@njit
def log_lists(buf: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Read the ``log`` of a one-object tenhou.net/6 file (see the module docstring). Returns (status, kyoku: each
    kyoku's first entry (one more row: the end), entries: each entry's first item (one more row: the end) and
    whether it is flat (1) or not (0), kinds and values of the items of the flat entries, spans: each string
    item's [start, end) in ``buf`` (without its quotes)); a declined file's arrays are empty."""
    n = len(buf)
    kyoku = np.zeros(n // 2 + 2, dtype=np.int64)
    entries = np.zeros((n // 2 + 2, 2), dtype=np.int64)
    kinds = np.zeros(n // 2 + 1, dtype=np.int8)
    values = np.zeros(n // 2 + 1, dtype=np.int64)
    spans = np.zeros((n // 2 + 1, 2), dtype=np.int64)
    counts = np.zeros(5, dtype=np.int64)
    empty = (DECLINED, kyoku[:0], entries[:0], kinds[:0], values[:0], spans[:0])
    pos = spaces(buf, 3 if n >= 3 and buf[0] == 0xEF and buf[1] == 0xBB and buf[2] == 0xBF else 0, n)
    if pos >= n or buf[pos] != _OPEN_OBJECT:
        return empty
    pos, seen = spaces(buf, pos + 1, n), False
    while pos < n and buf[pos] != _CLOSE_OBJECT:  # the top object's keys
        close, escaped = string_end(buf, pos + 1, n)
        if escaped:
            return empty  # a key json reads otherwise than its bytes
        is_log = _is_log(buf, pos + 1, close)
        pos = spaces(buf, spaces(buf, close + 1, n) + 1, n)  # past the colon
        if is_log and (seen or buf[pos] != _OPEN_LIST):
            return empty  # a second log (json keeps the last), or a log that is not a list
        seen = seen or is_log
        pos = _log(buf, pos, n, kyoku, entries, kinds, values, spans, counts) if is_log else skip_value(buf, pos, n)
        if pos < 0:
            return empty
        pos = _next(buf, pos, n)
    if not seen or spaces(buf, pos + 1, n) != n:
        return empty  # no log, or more than one value (JSON lines)
    n_kyoku, n_entries, n_items, n_strings = counts[_KYOKU], counts[_ENTRIES], counts[_ITEMS], counts[_STRINGS]
    kyoku[n_kyoku] = n_entries
    entries[n_entries, 0] = n_items
    return OK, kyoku[: n_kyoku + 1], entries[: n_entries + 1], kinds[:n_items], values[:n_items], spans[:n_strings]


@njit
def seat_arrays(kyoku: np.ndarray, entries: np.ndarray, kinds: np.ndarray, values: np.ndarray, tile_ok: np.ndarray,
                give_ok: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                              np.ndarray, np.ndarray]:  # fmt: skip
    """The seat lists of log_lists' kyoku, checked as round._seat_groups and _encoded check them: every kyoku of 17
    entries (14: three seats), every seat list flat, every hand 13 tile codes (``tile_ok``) or none, every take a
    tile code or a string, every give a code of ``give_ok`` or a string. Returns (status: OK, or DECLINED when one
    is not so; the hands (kyoku, seat, 13) and their sizes (kyoku, seat); the takes of every kyoku's seats in
    order, and each kyoku's five offsets in them (the seats' starts, then the end); the same of the gives; the
    strings in the order _seat_codes reads them (each kyoku's seats in order, a seat's takes before its gives), as
    rows of (their item, 1 when a give, their place in the takes or gives, kyoku, seat))."""
    n_kyoku, n_items = len(kyoku) - 1, len(kinds)
    hands, hand_len = np.zeros((n_kyoku, 4, 13), dtype=np.int64), np.zeros((n_kyoku, 4), dtype=np.int64)
    lists = np.zeros((2, n_items), dtype=np.int64)  # the takes, the gives
    starts = np.zeros((2, n_kyoku, 5), dtype=np.int64)
    strings = np.zeros((n_items, 5), dtype=np.int64)
    counts = np.zeros(3, dtype=np.int64)  # takes, gives and strings so far
    ok = True
    for k in range(n_kyoku):
        n_entries = kyoku[k + 1] - kyoku[k]
        ok = n_entries == 17 or n_entries == 14
        for seat in range(4):
            starts[0, k, seat], starts[1, k, seat] = counts[0], counts[1]
            if ok and 3 * seat + 7 <= n_entries - 1:  # a seat's three lists (the fourth's are absent for three seats)
                for part in range(3):
                    ok = ok and _seat_list(kyoku[k] + 4 + 3 * seat + part, part, k, seat, entries, kinds, values,
                                           tile_ok, give_ok, hands, hand_len, lists, strings, counts)  # fmt: skip
        starts[0, k, 4], starts[1, k, 4] = counts[0], counts[1]
        if not ok:
            break
    return (OK if ok else DECLINED, hands, hand_len, lists[0, : counts[0]], starts[0], lists[1, : counts[1]], starts[1],
            strings[: counts[2]])  # fmt: skip


@njit
def _seat_list(entry: int, part: int, k: int, seat: int, entries: np.ndarray, kinds: np.ndarray, values: np.ndarray,
               tile_ok: np.ndarray, give_ok: np.ndarray, hands: np.ndarray, hand_len: np.ndarray, lists: np.ndarray,
               strings: np.ndarray, counts: np.ndarray) -> bool:  # fmt: skip
    """Check and copy one seat list (``part``: 0 its hand, 1 its takes, 2 its gives) into seat_arrays' arrays;
    False when it does not pass."""
    a, b = entries[entry, 0], entries[entry + 1, 0]
    if entries[entry, 1] == 0 or (part == 0 and b - a != 0 and b - a != 13):
        return False
    for i in range(a, b):
        value = values[i]
        if kinds[i] == STRING:
            if part == 0:
                return False
            row = strings[counts[2]]
            row[0], row[1], row[2], row[3], row[4] = i, part - 1, counts[part - 1], k, seat
            counts[2] += 1
        elif value < 0 or value >= len(tile_ok) or not (give_ok[value] if part == 2 else tile_ok[value]):
            return False
        if part == 0:
            hands[k, seat, i - a] = value
        else:
            lists[part - 1, counts[part - 1]] = value
            counts[part - 1] += 1
    if part == 0:
        hand_len[k, seat] = b - a
    return True
