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
from functools import cached_property

import numpy as np

from pipeline.errors import ParseError
from pipeline.sources.tenhou_xml.kernel import BAD_TILE, HOT_NAMES, N_HOT, NAMED, NAMES, OTHER, tokenize

_NAME = re.compile(r"[A-Za-z]+")
_TILE_NAME = re.compile(r"[A-Za-z]\d+")


_ROUND_KINDS = frozenset(NAMED + NAMES.index(name) for name in ("INIT", "AGARI", "RYUUKYOKU"))
"""The kinds of the rounds' and results' elements: read from the attribute table (bulk.py), their text decoded
only for the element-by-element reading."""


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
    others: list[tuple[int, str, str]]
    """The elements read in Python other than INIT, AGARI and RYUUKYOKU (GO, UN, BYE, SHUFFLE...)."""
    named_at: np.ndarray
    """The index of every element read in Python (``named``)."""
    last_tag: str
    """The tag of the document's last element that is not a draw, discard or closing tag ('' for none)."""
    is_cut: bool
    data: bytes
    """The document."""
    buf: np.ndarray
    """The document's bytes (uint8)."""
    starts: np.ndarray
    """The offset of every element's '<' in ``buf``."""
    ends: np.ndarray
    """The offset of every element's '>'."""

    @cached_property
    def named(self) -> list[tuple[int, str, str]]:
        """Every element read in Python, INIT, AGARI and RYUUKYOKU included, in document order."""
        at = self.named_at
        return _named(self.data, at.tolist(), self.kinds[at].tolist(), self.starts[at].tolist(),
                      self.ends[at].tolist())  # fmt: skip


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
    at, named_kinds = named_at.tolist(), kinds[named_at].tolist()
    other = [k for k, kind in enumerate(named_kinds) if kind not in _ROUND_KINDS]
    if len(other) < len(at):
        at, named_kinds = [at[k] for k in other], [named_kinds[k] for k in other]
    others = _named(data, at, named_kinds, starts[at].tolist(), ends[at].tolist())
    return Elements(kinds=kinds, a=a, b=b, others=others, named_at=named_at, last_tag=_last_tag(kinds, others),
                    is_cut=bool(is_cut), data=data, buf=buf, starts=starts, ends=ends)  # fmt: skip


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


def _last_tag(kinds: np.ndarray, others: list[tuple[int, str, str]]) -> str:
    """The tag of the last element read in Python or hot (``others``: those read in Python other than INIT,
    AGARI and RYUUKYOKU); '' for none."""
    view = memoryview(kinds)  # read from the end: the last such element is seldom far from it
    for e in range(len(view) - 1, -1, -1):
        kind = view[e]
        if kind < N_HOT:
            continue
        if kind < OTHER:
            return HOT_NAMES[kind]
        if kind > OTHER:
            return NAMES[kind - NAMED]
        return next(name for index, name, _ in reversed(others) if index == e)
    return ""


def _split_named(index: int, inner: str) -> tuple[int, str, str]:
    """Return (index, name, attribute text) of an element from its inside, e.g. (9, 'N', ' who="1" m="3"/')."""
    name = inner.partition(" ")[0]
    if name.isalpha():
        return index, name, inner[len(name) :]
    match = _NAME.match(inner)  # other whitespace after the name, or a bare '<NAME/>'
    if match is None:
        raise ParseError(f"malformed element {'<' + inner[:40]!r}")
    return index, match.group(0), inner[match.end() :]
