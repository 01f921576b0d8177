"""The JSON text the fingerprint hashes, written from the bytes (numba) for the plain play events.

header.fingerprint hashes ``json.dumps(["mjai", names, first kyoku's events], sort_keys=True, separators=(",",
":"))``. A plain play event (scan.py: a flat object of kept keys, plain strings, integers, true, false, null or flat
lists of those) is written that way here without json: its keys sorted (a key written twice keeps its last value,
as json reads it), the blank between tokens dropped, ``-0`` written ``0``; anything else is what the line holds. A
line with a byte past ``~`` (json.dumps would escape it) is not written: the caller then parses the events and
dumps them as before. The lines json read (start_kyoku, hora...) are left to json.dumps in Python: only their
places are kept.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import numpy as np

from pipeline.sources.json_bytes import QUOTE, SPACE, spaces
from pipeline.sources.mjai.scan import _KEY_OF
from rules.compiled import njit

if TYPE_CHECKING:
    from pipeline.sources.mjai.stream import Events

_SORTED = np.array([1, 5, 6, 2, 3, 4, 0], dtype=np.int64)
"""The kept keys (their field in scan.py's ``_KEY_OF``) in sorted order: actor, consumed, dora_marker, pai,
target, tsumogiri, type."""
_NAMES = np.zeros((7, 16), dtype=np.uint8)
"""Each field's key as json.dumps writes it (``"key":``) by field; _NAME_LEN: its length."""
_NAME_LEN = np.zeros(7, dtype=np.int64)
for _field, _key in enumerate(("type", "actor", "pai", "target", "tsumogiri", "consumed", "dora_marker")):
    _NAMES[_field, : len(_key) + 3] = np.frombuffer(f'"{_key}":'.encode(), dtype=np.uint8)
    _NAME_LEN[_field] = len(_key) + 3


@njit
def canonical(
    buf: np.ndarray, bounds: np.ndarray, names: np.ndarray, lo: int, hi: int
) -> tuple[int, np.ndarray, np.ndarray]:
    """The lines lo..hi-1 of a scanned file (scan's ``bounds`` and ``names``) as json.dumps writes their events,
    each followed by a comma (a line json read: the comma alone). Returns (ok, text, ends): ok 0 when a plain line
    holds a byte json.dumps would escape (nothing written), ``ends[i]``: where line lo + i's text ends. One kernel,
    its steps written inline (each kernel more costs a first run its own compile)."""
    size = hi - lo
    for i in range(lo, hi):
        size += bounds[i, 1] - bounds[i, 0]
    out = np.zeros(size, dtype=np.uint8)
    ends = np.zeros(hi - lo, dtype=np.int64)
    start = np.full(7, -1, dtype=np.int64)
    stop = np.zeros(7, dtype=np.int64)
    o = 0
    for line in range(lo, hi):
        a, b, ends_before = bounds[line, 0], bounds[line, 1], o
        if names[line] >= 0:
            for j in range(a, b):
                if buf[j] > ord("~"):
                    return 0, out[:0], ends[:0]
            for key in range(7):
                start[key] = -1
            i = spaces(buf, a + 1, b)
            while True:  # every key's value span (a line scan.py read as a plain play event: well formed)
                close = i + 1
                while buf[close] != QUOTE:  # no backslash in a plain string
                    close += 1
                key = _KEY_OF[close - i - 1]
                i = spaces(buf, spaces(buf, close + 1, b) + 1, b)
                start[key], depth = i, 0
                while i < b:  # to the end of the value: a string, a scalar or a flat list of them
                    c = buf[i]
                    if c == QUOTE:
                        i += 1
                        while buf[i] != QUOTE:
                            i += 1
                    elif c == ord("["):
                        depth += 1
                    elif c == ord("]"):
                        depth -= 1
                    elif depth == 0 and (c == ord(",") or c == ord("}") or SPACE[c]):
                        break
                    i += 1
                    if depth == 0 and (c == QUOTE or c == ord("]")):
                        break
                stop[key] = i
                i = spaces(buf, i, b)
                if buf[i] != ord(","):
                    break
                i = spaces(buf, i + 1, b)
            out[o] = ord("{")
            o += 1
            for key in _SORTED:
                if start[key] < 0:
                    continue
                if o > ends_before + 1:  # not the first key
                    out[o] = ord(",")
                    o += 1
                for j in range(_NAME_LEN[key]):
                    out[o] = _NAMES[key, j]
                    o += 1
                quoted = False
                for j in range(start[key], stop[key]):  # the value: no blank outside strings, "-0" read as 0
                    c = buf[j]
                    quoted = quoted != (c == QUOTE)
                    if quoted or c == QUOTE or not (SPACE[c] or (c == ord("-") and buf[j + 1] == 48)):
                        out[o] = c
                        o += 1
            out[o] = ord("}")
            o += 1
        out[o] = ord(",")
        o += 1
        ends[line - lo] = o
    return 1, out[:o], ends


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
"""What ``json.dumps(value, sort_keys=True, separators=(",", ":"))`` makes for each call, made once."""


def _dumps(value: object) -> str:
    return _ENCODER.encode(value)


def first_kyoku_text(events: Events) -> bytes | None:
    """json.dumps's text (sorted keys, no blanks) of the events of the first kyoku of a game's events (start_kyoku
    to the next one, or to the end), as a JSON list; None when they must be parsed and dumped by json (the file was
    read in Python, a line holds a byte json.dumps escapes)."""
    if events.names is None:
        return None
    starts = [i for i, e in events.decoded() if e["type"] == "start_kyoku"][:2]  # never a plain play event
    if not starts:
        return b"[]"
    lo = events.index(starts[0])
    hi = events.index(starts[1] if len(starts) > 1 else len(events))
    ok, text, ends = canonical(np.frombuffer(events.body, dtype=np.uint8), events.bounds, events.names, lo, hi)
    if not ok:
        return None
    body, pieces, done = text.tobytes(), [b"["], 0
    for pos, event in events.decoded():  # json's lines (few): their text put in their places
        if lo <= events.index(pos) < hi:
            at = int(ends[events.index(pos) - lo]) - 1  # the comma standing for the line
            pieces += [body[done:at], _dumps(event).encode()]
            done = at
    pieces += [body[done:-1], b"]"]
    return b"".join(pieces)


def fingerprint_text(names: object, kyoku: bytes) -> bytes:
    """The text header.fingerprint hashes: json.dumps(["mjai", names, events], sort_keys=True, separators=(",",
    ":")) with the events' list already written (``kyoku``)."""
    return b'["mjai",' + _dumps(names).encode() + b"," + kyoku + b"]"
