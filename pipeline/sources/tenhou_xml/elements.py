"""Split an mjlog document into elements with the compiled tokenizer (kernel.py): the hot elements in bulk,
the rest by name.

Nine elements in ten are a draw (``<T12/>``) or a discard (``<D12/>``), and most of the others a call, a riichi
or a new dora indicator: their integer attributes come back from the kernel as arrays, read for all of them at
once. The few other elements (INIT, AGARI, RYUUKYOKU...) are returned with their name and attribute text for the
per-tag handlers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from pipeline.errors import ParseError
from pipeline.sources.tenhou_xml.kernel import BAD_TILE, HOT_NAMES, N_HOT, NAMED, NAMES, OTHER, tokenize

_NAME = re.compile(r"[A-Za-z]+")
_TILE_NAME = re.compile(r"[A-Za-z]\d+")


@dataclass
class Elements:
    """A document's elements: every element's kind and integers as arrays (kernel.tokenize), the ones read in
    Python as (index, name, attribute text)."""

    kinds: np.ndarray
    """The kernel's kind code of every element (its index in the document is its position here)."""
    a: np.ndarray
    """The tile (draws, discards), who (N, REACH) or hai (DORA) of the hot elements."""
    b: np.ndarray
    """m (N) or step (REACH)."""
    named: list[tuple[int, str, str]]
    last_tag: str
    """The tag of the document's last element that is not a draw, discard or closing tag ('' for none)."""
    is_cut: bool
    buf: np.ndarray
    """The document's bytes (uint8)."""
    starts: np.ndarray
    """The offset of every element's '<' in ``buf``."""
    ends: np.ndarray
    """The offset of every element's '>'."""


def scan_elements(data: bytes) -> Elements:
    """Split an XML document into elements; raises ParseError on markup that is not well formed.

    A last element cut off by the end of the file is dropped (``is_cut``).
    """
    buf = np.frombuffer(data, dtype=np.uint8)
    starts, ends, kinds, a, b, markup, is_cut = tokenize(buf)
    if markup >= 0:
        raise ParseError(f"malformed markup: '<' inside an element at byte {markup}")
    bad = np.flatnonzero(kinds == BAD_TILE)
    if len(bad):
        _bad_tile(data, int(starts[bad[0]]), int(ends[bad[0]]))
    named_at = np.flatnonzero(kinds >= OTHER)
    named = _named(data, named_at.tolist(), kinds[named_at].tolist(), starts[named_at].tolist(),
                   ends[named_at].tolist())  # fmt: skip
    return Elements(kinds=kinds, a=a, b=b, named=named, last_tag=_last_tag(named, kinds), is_cut=bool(is_cut),
                    buf=buf, starts=starts, ends=ends)  # fmt: skip


def _bad_tile(data: bytes, start: int, end: int) -> None:
    """Raise the ParseError of a draw or discard element that is not well formed, naming it."""
    text = data[start : end + 1].decode("utf-8", "replace")
    name = _TILE_NAME.match(text, 1)  # the tag as far as it is well formed, e.g. 'T131'
    raise ParseError(f"malformed draw/discard element {text[:60]!r}", tag=name.group(0) if name else None)


def _named(data: bytes, at: list[int], kinds: list[int], starts: list[int], ends: list[int]) -> list[tuple]:
    """(index, name, attribute text) of the elements read in Python; raises ParseError for one without a name."""
    out = []
    for index, kind, start, end in zip(at, kinds, starts, ends, strict=True):
        inner = data[start + 1 : end].decode("utf-8", "replace")
        if kind == OTHER:
            out.append(_split_named(index, inner))
        else:
            name = NAMES[kind - NAMED]
            out.append((index, name, inner[len(name) :]))
    return out


def _last_tag(named: list[tuple[int, str, str]], kinds: np.ndarray) -> str:
    """The tag of the last named element, hot or not."""
    hot_at = np.flatnonzero((kinds >= N_HOT) & (kinds < OTHER))
    last_hot = int(hot_at[-1]) if len(hot_at) else -1
    if named and named[-1][0] > last_hot:
        return named[-1][1]
    return HOT_NAMES[int(kinds[last_hot])] if last_hot >= 0 else ""


def _split_named(index: int, inner: str) -> tuple[int, str, str]:
    """Return (index, name, attribute text) of an element from its inside, e.g. (9, 'N', ' who="1" m="3"/')."""
    name = inner.partition(" ")[0]
    if name.isalpha():
        return index, name, inner[len(name) :]
    match = _NAME.match(inner)  # other whitespace after the name, or a bare '<NAME/>'
    if match is None:
        raise ParseError(f"malformed element {'<' + inner[:40]!r}")
    return index, match.group(0), inner[match.end() :]
