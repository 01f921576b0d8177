"""The kyoku's lists of a tenhou.net/6 file read from its bytes (numba), for round.prepare_kyoku's seats.

Walking the Python lists json builds costs ~20 us a kyoku (round._seat_codes); reading the same values from the
bytes costs ~35 us a whole game. ``log_lists`` reads a file that is one JSON object (a UTF-8 byte order mark and blanks
around it allowed) whose keys hold no backslash and name ``log`` once: every entry of every kyoku of its ``log``
array, each either *flat* (an array of integers without fraction or exponent and of strings without a backslash:
its items given) or not (skipped). Anything else (a top-level list, JSON lines, a second ``log``, a kyoku that is
not an array) is declined: the caller reads the lists json built, as before.

The bytes are valid JSON already (the document was read from them by json before): the walk only finds where
values begin and end, it does not check them. ``seat_arrays`` then checks and lays out the seats' lists of every
kyoku at once (seat_lists.game_seats turns them into what prepare_kyoku reads).
"""

from __future__ import annotations

import numpy as np

from rules.compiled import njit

OK, DECLINED = 1, 0
"""``log_lists``' status."""
INT, STRING = 0, 1
"""An item's kind (``kinds``): an integer (``values``: it) or a string (``values``: its span's row in ``spans``)."""
MAX_DIGITS = 18
"""An integer of more digits is not read (its entry is not flat): it may not fit 64 bits."""

_QUOTE, _BACKSLASH, _COMMA, _MINUS = 34, 92, 44, 45
_OPEN_LIST, _CLOSE_LIST, _OPEN_OBJECT, _CLOSE_OBJECT = 91, 93, 123, 125
_LOG = np.frombuffer(b"log", dtype=np.uint8).copy()


@njit(_nrt=False)
def _opens(c: int) -> bool:
    return c == _OPEN_LIST or c == _OPEN_OBJECT  # noqa: SIM109 - integer compares, as numba compiles them best


@njit(_nrt=False)
def _closes(c: int) -> bool:
    return c == _CLOSE_LIST or c == _CLOSE_OBJECT  # noqa: SIM109


@njit(_nrt=False)
def _blank(c: int) -> bool:
    return c == 32 or c == 10 or c == 13 or c == 9


@njit(_nrt=False)
def _skip_blanks(buf: np.ndarray, pos: int) -> int:
    while pos < len(buf) and _blank(buf[pos]):
        pos += 1
    return pos


@njit(_nrt=False)
def _string_end(buf: np.ndarray, pos: int) -> int:
    """The position after the string opening at ``pos`` (a quote)."""
    pos += 1
    while pos < len(buf):
        c = buf[pos]
        if c == _BACKSLASH:
            pos += 2
            continue
        pos += 1
        if c == _QUOTE:
            return pos
    return len(buf)


@njit(_nrt=False)
def _value_end(buf: np.ndarray, pos: int) -> int:
    """The position after the value starting at ``pos``."""
    c = buf[pos]
    if c == _QUOTE:
        return _string_end(buf, pos)
    if _opens(c):
        depth = 0
        while pos < len(buf):
            c = buf[pos]
            if c == _QUOTE:
                pos = _string_end(buf, pos)
                continue
            if _opens(c):
                depth += 1
            elif _closes(c):
                depth -= 1
                if depth == 0:
                    return pos + 1
            pos += 1
        return len(buf)
    while pos < len(buf) and not (_blank(buf[pos]) or buf[pos] == _COMMA or _closes(buf[pos])):
        pos += 1
    return pos


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
    empty = (DECLINED, kyoku[:0], entries[:0], kinds[:0], values[:0], spans[:0])
    pos = 3 if n >= 3 and buf[0] == 0xEF and buf[1] == 0xBB and buf[2] == 0xBF else 0
    pos = _skip_blanks(buf, pos)
    if pos >= n or buf[pos] != _OPEN_OBJECT:
        return empty
    pos = _skip_blanks(buf, pos + 1)
    n_kyoku, n_entries, n_items, n_strings, seen = 0, 0, 0, 0, False
    while pos < n and buf[pos] != _CLOSE_OBJECT:
        end = _string_end(buf, pos)
        is_log = end - pos == 5
        for j in range(pos + 1, end - 1):
            if buf[j] == _BACKSLASH:
                return empty  # a key json reads otherwise than its bytes
            if is_log and buf[j] != _LOG[j - pos - 1]:
                is_log = False
        pos = _skip_blanks(buf, _skip_blanks(buf, end) + 1)  # the colon
        if not is_log:
            pos = _value_end(buf, pos)
        elif seen or buf[pos] != _OPEN_LIST:
            return empty  # a second log (json keeps the last), or a log that is not a list
        else:
            seen = True
            pos = _skip_blanks(buf, pos + 1)
            while pos < n and buf[pos] != _CLOSE_LIST:  # the kyoku
                if buf[pos] != _OPEN_LIST:
                    return empty
                kyoku[n_kyoku] = n_entries
                n_kyoku += 1
                pos = _skip_blanks(buf, pos + 1)
                while pos < n and buf[pos] != _CLOSE_LIST:  # the kyoku's entries
                    entries[n_entries, 0] = n_items
                    flat = buf[pos] == _OPEN_LIST
                    if flat:
                        first_item, first_string = n_items, n_strings
                        pos = _skip_blanks(buf, pos + 1)
                        while pos < n and buf[pos] != _CLOSE_LIST and flat:  # the entry's items
                            c = buf[pos]
                            if c == _QUOTE:
                                end = _string_end(buf, pos)
                                for j in range(pos + 1, end - 1):
                                    if buf[j] == _BACKSLASH:
                                        flat = False
                                kinds[n_items], values[n_items] = STRING, n_strings
                                spans[n_strings, 0], spans[n_strings, 1] = pos + 1, end - 1
                                n_strings += 1
                            else:
                                end = _value_end(buf, pos)
                                start = pos + 1 if c == _MINUS else pos
                                if end == start or end - start > MAX_DIGITS:
                                    flat = False
                                number = 0
                                for j in range(start, end):
                                    digit = buf[j] - 48
                                    if digit < 0 or digit > 9:
                                        flat = False
                                        break
                                    number = number * 10 + digit
                                kinds[n_items], values[n_items] = INT, -number if c == _MINUS else number
                            n_items += 1
                            pos = _skip_blanks(buf, end)
                            if pos < n and buf[pos] == _COMMA:
                                pos = _skip_blanks(buf, pos + 1)
                        if not flat:  # the rest of the entry skipped, its items dropped
                            n_items, n_strings = first_item, first_string
                            while pos < n and buf[pos] != _CLOSE_LIST:
                                pos = _skip_blanks(buf, _value_end(buf, pos))
                                if pos < n and buf[pos] == _COMMA:
                                    pos = _skip_blanks(buf, pos + 1)
                        pos += 1  # the entry's closing bracket
                    else:
                        pos = _value_end(buf, pos)
                    entries[n_entries, 1] = 1 if flat else 0
                    n_entries += 1
                    pos = _skip_blanks(buf, pos)
                    if pos < n and buf[pos] == _COMMA:
                        pos = _skip_blanks(buf, pos + 1)
                pos = _skip_blanks(buf, pos + 1)  # the kyoku's closing bracket
                if pos < n and buf[pos] == _COMMA:
                    pos = _skip_blanks(buf, pos + 1)
            pos += 1  # the log's closing bracket
        pos = _skip_blanks(buf, pos)
        if pos < n and buf[pos] == _COMMA:
            pos = _skip_blanks(buf, pos + 1)
    if not seen or _skip_blanks(buf, pos + 1) != n:
        return empty  # no log, or more than one value (JSON lines)
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
