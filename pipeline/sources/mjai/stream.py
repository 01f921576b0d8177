"""Read a file's bytes into mjai events, and cut them into games.

A file holds one JSON event per line; some tools write a JSON list of events per line (mjai.app's
bot tests: the events sent to a bot in one message) or the whole stream as one JSON list. Events are
numbered in file order (lists flattened): that number is every row's ``source_index``. A game starts
at ``start_game``; events before the first one are a game of their own (a stream that starts mid-game).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from pipeline.errors import NotALogError, ParseError
from pipeline.sources import json_text

_HEAD = re.compile(rb'"type"\s*:\s*"start_(?:game|kyoku)"')


def looks_like(data: bytes) -> bool:
    """Return whether the bytes look like mjai JSON lines: text starting with a JSON object or list that
    holds a ``"type": "start_game"`` (or ``start_kyoku``) event in its first 64 KiB. Plain bytes only."""
    head = data[:65536].removeprefix(b"\xef\xbb\xbf").lstrip()
    return head[:1] in (b"{", b"[") and _HEAD.search(head) is not None


@dataclass
class GameEvents:
    """The events of one game: (index in the file, event) pairs, the start_game event first when present."""

    events: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

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


def read_events(data: bytes, source_file: str) -> list[tuple[int, dict[str, Any]]]:
    """Return the file's events numbered in file order (see the module docstring).

    Raises NotALogError when the bytes are not mjai JSON lines, ParseError when they are but a line is
    malformed or a value is not an event (an object with a string ``type``).
    """
    return read_stream(data, source_file)[0]


def read_stream(data: bytes, source_file: str) -> tuple[list[tuple[int, dict[str, Any]]], bool]:
    """read_events' events, and whether every value read was one event (no list of them: one per line, or one
    in the file). Raises as read_events."""
    if not looks_like(data):
        raise NotALogError(f"{source_file}: not an mjai log (no start_game or start_kyoku event)")
    values = _values(_decode(data, source_file), source_file)
    if set(map(type, values)) <= {dict} and set(map(type, map(dict.get, values, repeat("type")))) <= {str}:
        # every value an event (the usual case), checked at C speed
        return list(enumerate(values)), True
    events: list[tuple[int, dict[str, Any]]] = []
    for value in values:
        for event in value if isinstance(value, list) else [value]:
            if not isinstance(event, dict) or not isinstance(event.get("type"), str):
                raise ParseError(f"{source_file}: event {len(events)} is not an mjai event: {event!r:.80}")
            events.append((len(events), event))
    return events, False


def split_games(events: list[tuple[int, dict[str, Any]]], source_file: str) -> list[GameEvents]:
    """Cut the events into games at each start_game (a game may hold no kyoku: the caller sees 0 rounds).
    Events before the first start_game are a game when they hold a start_kyoku, else ParseError."""
    cuts = [i for i, (_, event) in enumerate(events) if event["type"] == "start_game" and i > 0]
    parts = [GameEvents(events[a:b]) for a, b in zip([0, *cuts], [*cuts, len(events)], strict=True)]
    head = parts[0]
    if head.start_game is None and head.events and not any(e["type"] == "start_kyoku" for _, e in head.events):
        raise ParseError(f"{source_file}: events before the first start_game belong to no kyoku")
    return [p for p in parts if p.events]
