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
_LT, _GT, _ZERO = ord("<"), ord(">"), ord("0")
_ENDS_TILE = np.zeros(256, dtype=bool)
_ENDS_TILE[[ord(c) for c in "/> \t\r\n"]] = True
_PAD = b"\0\0\0\0\0\0"
_NAME = re.compile(r"[A-Za-z]+")


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
    """Read the decimal number starting at each position (1-3 digits); return (value, n_digits)."""
    d = [buf[at + k].astype(np.int64) - _ZERO for k in range(4)]
    ok = [(x >= 0) & (x <= 9) for x in d]
    n = 1 + ok[1] + (ok[1] & ok[2]) + (ok[1] & ok[2] & ok[3])
    value = np.select([n == 1, n == 2, n == 3], [d[0], d[0] * 10 + d[1], d[0] * 100 + d[1] * 10 + d[2]], 9999)
    return value, n


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
    second = buf[starts + 2].astype(np.int64) - _ZERO
    is_tile = (letter_seat >= 0) & (second >= 0) & (second <= 9)
    tile_at = np.flatnonzero(is_tile)
    value, n_digits = _digits(buf, starts[tile_at] + 2)
    after = buf[starts[tile_at] + 2 + n_digits]
    well_formed = (value < 1000) & _ENDS_TILE[after]
    if not np.all(well_formed):
        bad = int(tile_at[np.flatnonzero(~well_formed)[0]])
        text = data[starts[bad] : ends[bad] + 1].decode("utf-8", "replace")
        raise ParseError(f"malformed draw/discard element {text!r}", tag=text.strip("</>"))
    seat_code = letter_seat[tile_at]
    # an ASCII document (names are percent-encoded) is decoded once; byte offsets are then str offsets
    text = data.decode("ascii") if data.isascii() else None
    named = [
        (i, *_split_named(text[a + 1 : b] if text is not None else data[a + 1 : b].decode("utf-8", "replace")))
        for i, a, b in zip(
            np.flatnonzero(~is_tile).tolist(), starts[~is_tile].tolist(), ends[~is_tile].tolist(), strict=True
        )
    ]
    return Elements(
        tile_index=tile_at,
        tile_seat=seat_code % 4,
        tile_action=np.where(seat_code >= 4, DISCARD, DRAW),
        tile_value=value,
        named=[n for n in named if n[1]],
        is_cut=is_cut,
    )


def _split_named(inner: str) -> tuple[str, str]:
    """Return (name, attribute text) of an element's inside; ('', '') for closing tags,
    declarations and comments."""
    if inner[:1] in ("/", "?", "!"):
        return "", ""
    match = _NAME.match(inner)
    if match is None:
        raise ParseError(f"malformed element <{inner[:40]}>")
    return match.group(0), inner[match.end() :]
