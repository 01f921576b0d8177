"""Split an mjlog document into elements with the compiled tokenizer (kernel.py): the hot elements in bulk,
the rest by name.

Nine elements in ten are a draw (``<T12/>``) or a discard (``<D12/>``), and most of the others a call, a riichi
or a new dora indicator: their integer attributes come back from the kernel as arrays, read for all of them at
once. The few other elements (GO, UN, BYE, SHUFFLE...) are returned with their name and attribute text for the
per-tag handlers; INIT, AGARI and RYUUKYOKU by index (the bulk reading takes their attributes from the bytes),
with their text only for the element-by-element reading (Elements.named).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from pipeline.errors import ParseError
from pipeline.sources.tenhou_xml.kernel import HOT_NAMES, NAMED, NAMES, OTHER, scan_document

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
    others: list[tuple[int, str, str]]
    """The elements read in Python other than INIT, AGARI and RYUUKYOKU (GO, UN, BYE, SHUFFLE...)."""
    inits_before: list[int]
    """The number of INIT elements before each of ``others``."""
    named_at: np.ndarray
    """The index of every element read in Python (``named``)."""
    at: np.ndarray
    """The index of every INIT, AGARI and RYUUKYOKU element."""
    tags: np.ndarray
    """Their tags as codes 0, 1, 2 (kernel.ROUND_TAGS)."""
    one_by_one: bool
    """Whether an element is to be read element by element (an unknown tag, a call, riichi or dora indicator not
    written as the server writes it)."""
    n_inits: int
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
    (starts, ends, kinds, a, b, markup, is_cut, bad, rows, named_at, last, at, tags, one_by_one,
     n_inits) = scan_document(buf)  # fmt: skip
    if markup >= 0:
        raise ParseError(f"malformed markup: '<' inside an element at byte {markup}")
    if bad >= 0:
        _bad_tile(data, int(starts[bad]), int(ends[bad]))
    index, kind, start, end, inits_before = rows.tolist()
    others = _named(data, index, kind, start, end)
    return Elements(kinds=kinds, a=a, b=b, others=others, inits_before=inits_before, named_at=named_at, at=at,
                    tags=tags, one_by_one=one_by_one, n_inits=n_inits, last_tag=_last_tag(kinds, last, others),
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


def _last_tag(kinds: np.ndarray, last: int, others: list[tuple[int, str, str]]) -> str:
    """The tag of the element ``last``, the last one read in Python or hot (``others``: those read in Python
    other than INIT, AGARI and RYUUKYOKU); '' for none (-1)."""
    if last < 0:
        return ""
    kind = int(kinds[last])
    if kind < OTHER:
        return HOT_NAMES[kind]
    if kind > OTHER:
        return NAMES[kind - NAMED]
    return next(name for index, name, _ in reversed(others) if index == last)


def _split_named(index: int, inner: str) -> tuple[int, str, str]:
    """Return (index, name, attribute text) of an element from its inside, e.g. (9, 'N', ' who="1" m="3"/')."""
    name = inner.partition(" ")[0]
    if name.isalpha():
        return index, name, inner[len(name) :]
    match = _NAME.match(inner)  # other whitespace after the name, or a bare '<NAME/>'
    if match is None:
        raise ParseError(f"malformed element {'<' + inner[:40]!r}")
    return index, match.group(0), inner[match.end() :]
