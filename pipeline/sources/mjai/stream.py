"""Read a file's bytes into mjai events, and cut them into games.

A file holds one JSON event per line; some tools write a JSON list of events per line (mjai.app's
bot tests: the events sent to a bot in one message) or the whole stream as one JSON list. Events are
numbered in file order (lists flattened): that number is every row's ``source_index``. A game starts
at ``start_game``; events before the first one are a game of their own (a stream that starts mid-game).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

import numpy as np

from pipeline.errors import NotALogError, ParseError
from pipeline.sources import json_text
from pipeline.sources.mjai.detect import looks_like
from pipeline.sources.mjai.scan import ACTOR_3, JSON, RED, TYPE_NAMES, scan


class Events:
    """A file's events (or a game's run of them) as a sequence of (index in the file, event) pairs.

    The events of the lines scan.py read as plain play events are parsed (json) only when asked for (an item, a
    slice's item); ``decoded``, ``has_red`` and ``has_actor_3`` answer for the whole run without parsing them,
    ``rows`` holds the kernel's input row of every event (None when the file was read in Python) and ``parsed`` the
    file positions of the events json read at once, in order."""

    def __init__(self, dicts: list[dict[str, Any] | None], body: bytes = b"", bounds: np.ndarray | None = None,
                 names: np.ndarray | None = None, flags: np.ndarray | None = None, rows: np.ndarray | None = None,
                 lo: int = 0, hi: int | None = None, parsed: np.ndarray | None = None) -> None:  # fmt: skip
        self.dicts, self.body, self.bounds, self.names, self.flags, self.rows = dicts, body, bounds, names, flags, rows
        self.lo, self.hi = lo, len(dicts) if hi is None else hi
        self.parsed = parsed
        self._decoded: list[tuple[int, dict[str, Any]]] | None = None

    def __len__(self) -> int:
        return self.hi - self.lo

    def __getitem__(self, key: int | slice) -> Any:
        if isinstance(key, slice):
            lo, hi, _ = key.indices(len(self))
            return Events(self.dicts, self.body, self.bounds, self.names, self.flags, self.rows, self.lo + lo,
                          self.lo + max(lo, hi), self.parsed)  # fmt: skip
        pos = key + len(self) if key < 0 else key
        if not 0 <= pos < len(self):
            raise IndexError("event index out of range")
        at = self.lo + pos
        event = self.dicts[at]
        if event is None:
            self.load(pos, min(pos + 8, len(self)))
            event = self.dicts[at]
        return at, event

    def __iter__(self) -> Iterator[tuple[int, dict[str, Any]]]:
        self.load(0, len(self))
        return zip(range(self.lo, self.hi), self.dicts[self.lo : self.hi], strict=True)

    def __bool__(self) -> bool:
        return self.hi > self.lo

    def load(self, a: int, b: int) -> None:
        """Parse the events at positions a..b-1 not parsed yet (lines scan.py read: valid JSON objects)."""
        todo = [i for i in range(self.lo + a, self.lo + b) if self.dicts[i] is None]
        if todo:
            spans = self.bounds[todo].tolist()  # type: ignore[index]
            values = json_text.loads("[" + ",".join(self.body[s:e].decode() for s, e in spans) + "]")
            for i, value in zip(todo, values, strict=True):
                self.dicts[i] = value

    def index(self, pos: int) -> int:
        """The file index of the event at ``pos``."""
        return self.lo + pos

    def type_of(self, pos: int) -> str:
        """The type of the event at ``pos`` (not parsing a plain play event)."""
        at = self.lo + pos
        if self.dicts[at] is None:
            return TYPE_NAMES[int(self.names[at])]  # type: ignore[index]
        return self.dicts[at]["type"]  # type: ignore[index]

    def decoded(self) -> list[tuple[int, dict[str, Any]]]:
        """(position, event) of every event json read at once: every event when the file was read in Python, else
        those of the lines that are not plain play events (the plain ones stand apart even once parsed)."""
        if self._decoded is None:  # the same list every time (made once: the events json read do not change)
            dicts, lo = self.dicts, self.lo
            if self.names is None:
                self._decoded = list(enumerate(dicts[lo : self.hi]))
            else:
                a, b = np.searchsorted(self.parsed, (lo, self.hi)).tolist()  # type: ignore[arg-type]
                self._decoded = [(i - lo, dicts[i]) for i in self.parsed[a:b].tolist()]  # type: ignore[index,misc]
        return self._decoded

    def _flag(self, bit: int) -> bool:
        return self.flags is not None and bool(np.any(self.flags[self.lo : self.hi] & bit))

    def has_red(self) -> bool:
        """Whether a plain play event (not parsed) writes a red five's name among its values (not its type)."""
        return self._flag(RED)

    def has_actor_3(self) -> bool:
        """Whether a plain play event (not parsed) has the actor 3."""
        return self._flag(ACTOR_3)


@dataclass
class GameEvents:
    """The events of one game: (index in the file, event) pairs, the start_game event first when present."""

    events: Events = field(default_factory=lambda: Events([]))

    @property
    def start_game(self) -> dict[str, Any] | None:
        """The game's start_game event, None when the stream starts without one."""
        first = self.events[0][1] if self.events else None
        return first if first is not None and first["type"] == "start_game" else None


def _decode(data: bytes, source_file: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NotALogError(f"{source_file}: not UTF-8 text, not an mjai log") from None


def _values(text: str, source_file: str) -> list[Any]:
    """The JSON values of the text: one per non-empty line (read as one JSON array, the fast path),
    else the whole text as one value (strict JSON: see json_text). Raises ParseError naming the file."""
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        return json_text.loads("[" + ",".join(lines) + "]")
    except ValueError:
        pass
    try:
        return [json_text.loads(line) for line in lines]
    except ValueError as exc:
        line_error = exc
    try:
        return [json_text.loads(text)]
    except ValueError:
        raise ParseError(f"{source_file}: malformed JSON line ({line_error})") from None


def read_events(data: bytes, source_file: str) -> Events:
    """Return the file's events numbered in file order (see the module docstring).

    Raises NotALogError when the bytes are not mjai JSON lines, ParseError when they are but a line is
    malformed or a value is not an event (an object with a string ``type``).
    """
    return read_stream(data, source_file)[0]


def read_stream(data: bytes, source_file: str) -> tuple[Events, bool]:
    """read_events' events, and whether every value read was one event (no list of them: one per line, or one
    in the file). Raises as read_events."""
    if not looks_like(data):
        raise NotALogError(f"{source_file}: not an mjai log (no start_game or start_kyoku event)")
    scanned = _scanned(data)  # the lines it reads are ASCII, json decodes the others: a file it reads is UTF-8
    if scanned is not None:
        return scanned, True
    values = _values(_decode(data, source_file), source_file)
    if set(map(type, values)) <= {dict} and set(map(type, map(dict.get, values, repeat("type")))) <= {str}:
        # every value an event (the usual case), checked at C speed
        return Events(values), True
    events: list[tuple[int, dict[str, Any]]] = []
    for value in values:
        for event in value if isinstance(value, list) else [value]:
            if not isinstance(event, dict) or not isinstance(event.get("type"), str):
                raise ParseError(f"{source_file}: event {len(events)} is not an mjai event: {event!r:.80}")
            events.append(event)
    return Events(events), False


def _scanned(data: bytes) -> Events | None:
    """The events of a file of one event per line read by scan.py (json parses only the lines that are not plain
    play events), None when the file must be read in Python (odd line breaks, a line that is not one object, a
    value that is not an event, a line json refuses: the Python reading then says why)."""
    body = data.removeprefix(b"\xef\xbb\xbf")
    odd, rows, bounds, names, flags = scan(np.frombuffer(body, dtype=np.uint8))
    if odd:
        return None
    dicts: list[dict[str, Any] | None] = [None] * len(names)
    at = np.flatnonzero(names == JSON)
    parsed = at.tolist()
    if parsed:
        spans = bounds[at].tolist()
        try:
            values = json_text.loads("[" + ",".join([body[s:e].decode() for s, e in spans]) + "]")
        except ValueError:
            return None
        if len(values) != len(parsed) or not (set(map(type, values)) <= {dict} and
                                              set(map(type, map(dict.get, values, repeat("type")))) <= {str}):
            return None  # fmt: skip
        for i, value in zip(parsed, values, strict=True):
            dicts[i] = value
    return Events(dicts, body, bounds, names, flags, rows, parsed=at)


def split_games(events: Events, source_file: str) -> list[GameEvents]:
    """Cut the events into games at each start_game (a game may hold no kyoku: the caller sees 0 rounds).
    Events before the first start_game are a game when they hold a start_kyoku, else ParseError."""
    decoded = events.decoded()  # a plain play event is never a start_game or start_kyoku
    cuts = [i for i, event in decoded if event["type"] == "start_game" and i > 0]
    parts = [GameEvents(events[a:b]) for a, b in zip([0, *cuts], [*cuts, len(events)], strict=True)]
    head = parts[0]
    head_end = cuts[0] if cuts else len(events)
    if head.start_game is None and head.events and not any(
        e["type"] == "start_kyoku" for i, e in decoded if i < head_end
    ):
        raise ParseError(f"{source_file}: events before the first start_game belong to no kyoku")
    return [p for p in parts if p.events]
