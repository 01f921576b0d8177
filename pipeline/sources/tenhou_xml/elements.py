"""Split an mjlog document into elements with numpy: draws and discards in bulk, the rest by name.

Nine elements in ten are a draw (``<T12/>``) or a discard (``<D12/>``): their seat, action and
tile are read for all of them at once from the bytes. The few other elements (INIT, N, REACH,
AGARI...) are returned with their name and attribute text for the per-tag handlers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from pipeline.errors import ParseError

DRAW, DISCARD = 0, 1
"""Action codes of tile elements (the same codes as event_columns.ACTIONS)."""

_SEAT_OF_LETTER = np.full(256, -1, dtype=np.int64)
_SEAT_OF_LETTER[[ord(c) for c in "TUVW"]] = [0, 1, 2, 3]
_SEAT_OF_LETTER[[ord(c) for c in "DEFG"]] = [4, 5, 6, 7]  # discards: seat + 4
_LT, _GT = ord("<"), ord(">")
_ENDS_TILE = np.zeros(256, dtype=bool)
_ENDS_TILE[[ord(c) for c in "/> \t\r\n"]] = True
_PAD = b"\0\0\0\0\0\0"
_DIGIT = np.full(256, -1, dtype=np.int64)
_DIGIT[ord("0") : ord("9") + 1] = np.arange(10)
_NOT_AN_ELEMENT = np.zeros(256, dtype=bool)
_NOT_AN_ELEMENT[[ord(c) for c in "/?!"]] = True  # closing tags, declarations, comments
_NAME = re.compile(r"[A-Za-z]+")
_TILE_NAME = re.compile(r"[A-Za-z]\d+")


@dataclass
class Elements:
    """A document's elements: tile elements as arrays, the others as (index, name, attribute text)."""

    tile_index: np.ndarray
    tile_seat: np.ndarray
    tile_action: np.ndarray
    tile_value: np.ndarray
    named: list[tuple[int, str, str]]
    is_cut: bool


def _digits(buf: np.ndarray, at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Read the decimal number starting at each position (1-3 digits); return (value, n_digits).

    A fourth digit is left for the caller's end-of-element check to reject."""
    d0, d1, d2 = _DIGIT[buf[at]], _DIGIT[buf[at + 1]], _DIGIT[buf[at + 2]]
    two = d1 >= 0
    three = two & (d2 >= 0)
    value = np.where(three, d0 * 100 + d1 * 10 + d2, np.where(two, d0 * 10 + d1, d0))
    return value, 1 + two + three


def scan_elements(data: bytes) -> Elements:
    """Split an XML document into elements; raises ParseError on markup that is not well formed.

    A last element cut off by the end of the file is dropped (``is_cut``).
    """
    buf = np.frombuffer(data + _PAD, dtype=np.uint8)
    starts = np.flatnonzero(buf == _LT)
    closes = np.flatnonzero(buf == _GT)
    end_pos = np.searchsorted(closes, starts)
    is_cut = bool(len(starts)) and end_pos[-1] == len(closes)
    if is_cut:
        starts, end_pos = starts[:-1], end_pos[:-1]
    ends = closes[end_pos]
    if len(starts) > 1 and np.any(ends[:-1] > starts[1:]):
        bad = int(np.flatnonzero(ends[:-1] > starts[1:])[0])
        raise ParseError(f"malformed markup: '<' inside an element at byte {int(starts[bad + 1])}")
    letter_seat = _SEAT_OF_LETTER[buf[starts + 1]]
    is_tile = (letter_seat >= 0) & (_DIGIT[buf[starts + 2]] >= 0)
    tile_at = np.flatnonzero(is_tile)
    value, n_digits = _digits(buf, starts[tile_at] + 2)
    after = buf[starts[tile_at] + 2 + n_digits]
    well_formed = _ENDS_TILE[after]
    if not np.all(well_formed):
        bad = int(tile_at[np.flatnonzero(~well_formed)[0]])
        text = data[starts[bad] : ends[bad] + 1].decode("utf-8", "replace")
        name = _TILE_NAME.match(text, 1)  # the tag as far as it is well formed, e.g. 'T131'
        raise ParseError(f"malformed draw/discard element {text[:60]!r}", tag=name.group(0) if name else None)
    seat_code = letter_seat[tile_at]
    named_at = np.flatnonzero(~is_tile & ~_NOT_AN_ELEMENT[buf[starts + 1]])
    # an ASCII document (names are percent-encoded) is decoded once; byte offsets are then str offsets
    text = data.decode("ascii") if data.isascii() else None
    named = [
        _split_named(i, text[a + 1 : b] if text is not None else data[a + 1 : b].decode("utf-8", "replace"))
        for i, a, b in zip(named_at.tolist(), starts[named_at].tolist(), ends[named_at].tolist(), strict=True)
    ]
    return Elements(
        tile_index=tile_at,
        tile_seat=seat_code % 4,
        tile_action=np.where(seat_code >= 4, DISCARD, DRAW),
        tile_value=value,
        named=named,
        is_cut=is_cut,
    )


def _split_named(index: int, inner: str) -> tuple[int, str, str]:
    """Return (index, name, attribute text) of an element from its inside, e.g. (9, 'N', ' who="1" m="3"/')."""
    name = inner.partition(" ")[0]
    if name.isalpha():
        return index, name, inner[len(name) :]
    match = _NAME.match(inner)  # other whitespace after the name, or a bare '<NAME/>'
    if match is None:
        raise ParseError(f"malformed element {'<' + inner[:40]!r}")
    return index, match.group(0), inner[match.end() :]
