"""Whether bytes are mjai JSON lines, told from their head (no parser, no compiled code imported)."""

from __future__ import annotations

import re

START_EVENT = re.compile(rb'"type"\s*:\s*"start_(?:game|kyoku)"')
"""A start_game or start_kyoku event: what every mjai stream holds near its start."""


def _head(data: bytes, size: int) -> bytes:
    """The first ``size`` bytes, a UTF-8 byte order mark and leading whitespace left out."""
    return data[:size].removeprefix(b"\xef\xbb\xbf").lstrip()


def looks_like(data: bytes) -> bool:
    """Return whether the bytes look like mjai JSON lines: text starting with a JSON object or list that
    holds a ``"type": "start_game"`` (or ``start_kyoku``) event in its first 64 KiB. Plain bytes only."""
    head = _head(data, 65536)
    return head[:1] in (b"{", b"[") and START_EVENT.search(head) is not None


def starts_like(data: bytes) -> bool:
    """Return whether the bytes' first line (within 4 KiB) is one JSON object that is a start_game or start_kyoku
    event: how mjai streams begin, told without reading further (the other formats' looks_like read up to 64
    KiB, ~0.1 ms a file); a file so begun is no other format's. Plain bytes only."""
    first = _head(data, 4096).split(b"\n", 1)[0].rstrip()
    return first[:1] == b"{" and first[-1:] == b"}" and START_EVENT.search(first) is not None
