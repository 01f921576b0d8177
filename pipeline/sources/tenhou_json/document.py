"""Read a file's bytes into tenhou.net/6 documents: one JSON document, a JSON list of documents, or
JSON lines of documents (some tools write one line per round or per few rounds of one game).

Lines holding rounds of the same game (the same ``ref``, or no ``ref`` and the same players and rule)
are joined into one document, rounds in file order.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pipeline.errors import NotALogError, ParseError
from pipeline.sources import json_text

_HEAD = re.compile(rb'"log"\s*:\s*\[\s*\[\s*\[')
_BOMS = (b"\xef\xbb\xbf",)


def looks_like(data: bytes) -> bool:
    """Return whether the bytes look like tenhou.net/6 JSON: a JSON object (or list, or lines of
    objects) with a ``"log": [[[`` array of rounds in its first 64 KiB."""
    head = data[:65536]
    for bom in _BOMS:
        head = head.removeprefix(bom)
    head = head.lstrip()
    # the literal looked for first (a C scan): the regex alone reads all 64 KiB of every other JSON file slowly
    return head[:1] in (b"{", b"[") and b'"log"' in head and _HEAD.search(head) is not None


def _decode_text(data: bytes, source_file: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NotALogError(f"{source_file}: not UTF-8 text, not a tenhou.net/6 JSON log") from None


def _loads(text: str) -> list[Any]:
    """Parse one JSON value or, failing that, one value per non-empty line (strict JSON: see json_text); raises
    ValueError."""
    try:
        value = json_text.loads(text)
    except ValueError:
        return [json_text.loads(line) for line in text.splitlines() if line.strip()]
    return value if isinstance(value, list) and value and isinstance(value[0], dict) else [value]


def read_documents(data: bytes, source_file: str) -> list[dict[str, Any]]:
    """Return the documents of a file, rounds of one game joined (see the module docstring).

    Raises NotALogError when the bytes are not JSON documents holding a ``log`` list, ParseError
    when they are but a line is malformed.
    """
    if not looks_like(data):
        raise NotALogError(f'{source_file}: not a tenhou.net/6 JSON log (no "log" list of rounds)')
    try:
        values = _loads(_decode_text(data, source_file))
    except ValueError as exc:
        raise ParseError(f"{source_file}: malformed JSON ({exc})") from None
    documents = [v for v in values if isinstance(v, dict) and "log" in v]
    if not documents:
        raise NotALogError(f'{source_file}: no JSON document with a "log" list')
    if len(documents) != len(values):
        raise ParseError(f"{source_file}: {len(values) - len(documents)} JSON values are not log documents")
    for doc in documents:
        if not isinstance(doc["log"], list):
            raise ParseError(f'{source_file}: "log" is not a list of rounds')
    return _join_games(documents)


def _game_key(doc: dict[str, Any]) -> str:
    """What makes two documents parts of one game: the log id, else the players and the rule."""
    if doc.get("ref"):
        return "ref:" + str(doc["ref"])
    return "players:" + json.dumps([doc.get("name"), doc.get("rule"), doc.get("title")], ensure_ascii=False)


def _starts_game(doc: dict[str, Any]) -> bool:
    """A document whose first round is East 1 without honba starts a game."""
    first = doc["log"][0] if doc["log"] else None
    header = first[0] if isinstance(first, list) and first else None
    return isinstance(header, list) and header[:2] == [0, 0]


def _join_games(documents: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Join consecutive documents of one game (same key, the later one not starting a new game);
    the later parts' header fields (final scores) win."""
    games: list[dict[str, Any]] = []
    keys: list[str] = []
    for doc in documents:
        key = _game_key(doc)
        if games and keys[-1] == key and not _starts_game(doc):
            games[-1] = _joined(games[-1], doc)
        else:
            games.append(dict(doc))
            keys.append(key)
    return games


def _joined(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """Two parts of one game as one document; the second part's connection entries are renumbered."""
    joined = {**first, **{k: v for k, v in second.items() if k not in ("log", "connection")}}
    joined["log"] = first["log"] + second["log"]
    connections = [c for part in (first, second) for c in _listed(part.get("connection"))]
    offset = len(first["log"])
    for i in range(len(_listed(first.get("connection"))), len(connections)):
        entry = connections[i]
        if isinstance(entry, dict) and isinstance(entry.get("log"), int):
            connections[i] = {**entry, "log": entry["log"] + offset}
    if connections:
        joined["connection"] = connections
    return joined


def _listed(value: Any) -> list:
    """A list field, or an empty list when absent (a malformed value is left to the parser)."""
    return value if isinstance(value, list) else []
