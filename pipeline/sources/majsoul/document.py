"""Read a file's bytes into Mahjong Soul documents: a game head (when the file has one) and its records.

Accepted forms (xz-compressed or not; the ingest removes gzip and xz, within its size limit):

* JSON ``{"head": RecordGame, "data": {"records": [...]}}`` (also ``"records"``/``"actions"`` at the top,
  ``"data"`` as a list of records, or ``"data"`` as base64 of the binary form), or a list of such documents;
* JSON records alone: ``[{"name": ".lq.RecordNewRound", "data": {...}}, ...]`` or ``{"events": [...]}``
  (round excerpts, e.g. smly/RiichiEnv's, whose other top-level keys are kept as ``extra``);
* JSON whose ``data`` is the JSON form of that Wrapper: ``{"head": ..., "data": {"name": ".lq.GameDetailRecords",
  "data": {"version": ..., "actions": [{"passed", "type", "result": {"name", "data"}}, ...]}}}`` (the
  GameDetailRecords object, or base64 of its bytes);
* binary protobuf: Wrapper(".lq.GameDetailRecords") or GameDetailRecords (``records``, or since 2021
  ``actions`` whose ``result`` holds the record), read by wire.py; or the record response as a proxy
  captures it: ResGameRecord (``head`` = RecordGame, ``data`` = that Wrapper's bytes), alone or in a
  Wrapper, with or without the 3-byte frame header of Mahjong Soul's websocket (type, then a 2-byte index).

A record is ``{"name": ..., "data": {...}}`` with the name with or without ``.lq.`` and ``Record``; its data
may be base64 of the message, and a record or an action's result may be base64 of its Wrapper (protobuf's
JSON form of bytes). Keys in camelCase (protobuf's default JSON) are read as snake_case.
"""

from __future__ import annotations

import base64
import binascii
import functools
import lzma
import re
from dataclasses import dataclass, field
from typing import Any

from pipeline.errors import NotALogError, ParseError
from pipeline.limits import DEFAULT_LIMITS, TooLargeError, unxz
from pipeline.sources import json_text
from pipeline.sources.majsoul import wire
from pipeline.sources.majsoul.codes import RECORD_KINDS, short_name

XZ_MAGIC = b"\xfd7zXZ\x00"
_RECORD_NAME = re.compile(rb'"name"\s*:\s*"(?:\.lq\.)?(?:Record)?NewRound"')
_HEAD = re.compile(rb'"head"\s*:\s*\{')
_BINARY_NAMES = (b".lq.GameDetailRecords", b".lq.RecordNewRound")
_UUID_BYTES = re.compile(rb"\d{6}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
FRAME_TYPES = frozenset({1, 2, 3})
"""First byte of a websocket frame of Mahjong Soul (1 notify, 2 request, 3 response; a 2-byte index
follows): never the first byte of a protobuf message, whose first field number is at least 1 (byte >= 8)."""
_DOCUMENT_KEYS = ("head", "records", "actions", "events", "data")
_ACTION_KEYS = frozenset({"passed", "type", "result", "user_input", "user_event", "game_event"})
_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])|(?<=[a-zA-Z])(\d+)$")


@dataclass
class Record:
    """One record: its short kind ('DealTile'), its fields (JSON form) and its position in the file."""

    kind: str
    data: dict[str, Any]
    index: int


@dataclass
class Document:
    """One game's head (RecordGame in JSON form, {} when absent), records and other top-level keys."""

    head: dict[str, Any]
    records: list[Record]
    extra: dict[str, Any] = field(default_factory=dict)


def _xz_head(data: bytes, size: int = 65536) -> bytes:
    try:
        return lzma.LZMADecompressor().decompress(data, size)
    except lzma.LZMAError:
        return b""


def looks_like(data: bytes) -> bool:
    """Return whether the bytes look like Mahjong Soul records: JSON naming a RecordNewRound (or a game
    head) in its first 64 KiB, or binary protobuf naming GameDetailRecords / RecordNewRound in its first
    512 bytes, or a record response: a game uuid in its first 512 bytes and GameDetailRecords named in its
    first 64 KiB (after the head). xz allowed."""
    head = _xz_head(data) if data.startswith(XZ_MAGIC) else data[:65536]
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if text[:1] in (b"{", b"["):
        # each regex behind a literal it needs (a C scan): alone they read all 64 KiB of other JSON slowly
        return (b"NewRound" in text and _RECORD_NAME.search(text) is not None) or (
            b'"uuid"' in text and _HEAD.search(text) is not None
        )
    if any(name in head[:512] for name in _BINARY_NAMES):
        return True
    return _UUID_BYTES.search(head[:512]) is not None and _BINARY_NAMES[0] in head


@functools.lru_cache(maxsize=8192)  # a record repeats a few dozen keys many thousand times
def _snake(key: str) -> str:
    """A camelCase key as snake_case ('partPoint1' -> 'part_point_1'); other keys unchanged."""
    if not any(c.isupper() for c in key):
        return key
    return _CAMEL.sub(lambda m: "_" + (m.group(1) or m.group(2)), key).lower()


_SNAKE_KEYS: set[str] = set()
"""Keys met so far that are snake_case already (_snake leaves them as they are)."""


def _snake_object(value: dict[str, Any]) -> dict[str, Any]:
    """A JSON object with its keys in snake_case (json's object_hook: its values are converted already). Most
    objects' keys are all known snake_case keys: the object is then returned as it is, not rebuilt."""
    if _SNAKE_KEYS.issuperset(value):
        return value
    out = {_snake(k): v for k, v in value.items()}
    if len(_SNAKE_KEYS) < 8192:  # a file's keys are a few dozen: a hostile one does not grow it without end
        _SNAKE_KEYS.update(k for k in value if _snake(k) == k)
    return out


def read_documents(data: bytes, source_file: str, max_bytes: int = DEFAULT_LIMITS.max_bytes) -> list[Document]:
    """Return the documents of a file (see the module docstring); xz is decompressed in chunks up to
    ``max_bytes``.

    Raises NotALogError when the bytes are not Mahjong Soul records, ParseError when they are but
    cannot be read (malformed or non-strict JSON, protobuf, base64 or xz; TooLargeError past ``max_bytes``)."""
    if not looks_like(data):
        raise NotALogError(f"{source_file}: not Mahjong Soul records (no RecordNewRound, no game head)")
    if data.startswith(XZ_MAGIC):
        data = _unxz(data, source_file, max_bytes)
    text = data.removeprefix(b"\xef\xbb\xbf").lstrip()
    if text[:1] not in (b"{", b"["):
        return [_binary_document(data, source_file)]
    try:
        value = json_text.loads(text.decode("utf-8"), object_hook=_snake_object)  # every key in snake_case
    except ValueError as exc:  # UnicodeDecodeError included
        raise ParseError(f"{source_file}: malformed JSON ({exc})") from None
    return _documents(value, source_file)


def _unxz(data: bytes, source_file: str, max_bytes: int) -> bytes:
    """xz data decompressed within ``max_bytes`` (a cut stream gives what it holds); raises ParseError naming
    the file."""
    try:
        return unxz(data, max_bytes)
    except TooLargeError as exc:
        raise TooLargeError(f"{source_file}: {exc.message}") from None
    except (lzma.LZMAError, EOFError) as exc:
        raise ParseError(f"{source_file}: corrupt xz data ({exc})") from None


def _is_record(item: Any) -> bool:
    return isinstance(item, dict) and "name" in item and "data" in item


def _documents(value: Any, source_file: str) -> list[Document]:
    """The documents of a parsed JSON value."""
    if isinstance(value, list) and value and all(_is_record(v) for v in value):
        return [Document({}, _records(value, source_file))]
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(v, dict) and any(k in v for k in _DOCUMENT_KEYS) for v in items):
        raise NotALogError(f"{source_file}: JSON without Mahjong Soul records")
    return [_document(item, source_file) for item in items]


def _document(doc: dict[str, Any], source_file: str) -> Document:
    """One JSON document: head, records from wherever the form keeps them, the other keys as extra."""
    head = doc.get("head") if isinstance(doc.get("head"), dict) else {}
    body = _unwrapped_details(doc.get("data"))
    if isinstance(body, str):
        records = _binary_records(_base64(body, source_file), source_file)
    else:
        container = body if isinstance(body, dict) else doc
        items = body if isinstance(body, list) else None
        for key in ("records", "actions", "events"):
            if items is None and isinstance(container.get(key), list):
                items = container[key]
        if items is None:
            raise ParseError(f"{source_file}: a Mahjong Soul document without records")
        records = _records(items, source_file)
    extra = {k: v for k, v in doc.items() if k not in _DOCUMENT_KEYS}
    return Document(head, records, extra)


def _unwrapped_details(body: Any) -> Any:
    """A document's ``data`` without the JSON form of its Wrapper: ``{"name": ".lq.GameDetailRecords",
    "data": X}`` gives X (the GameDetailRecords object, or base64 of its bytes); anything else is returned as
    it is."""
    if isinstance(body, dict) and set(body) == {"name", "data"} and str(body["name"]).endswith("GameDetailRecords"):
        return body["data"]
    return body


def _base64(text: str, source_file: str) -> bytes:
    """The bytes of a base64 text; raises ParseError naming the file when it is not base64."""
    try:
        return _decode_base64(text)
    except ParseError as exc:
        raise ParseError(f"{source_file}: {exc.message}") from None


def _decode_base64(text: str) -> bytes:
    """The bytes of a base64 text; raises ParseError (the caller names the file) when it is not base64."""
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ParseError("record data is neither an object nor base64") from None


def _records(items: list[Any], source_file: str) -> list[Record]:
    """JSON records (or GameActions holding one) as Records; actions without a result are skipped.
    Raises ParseError naming the file and the record."""
    out: list[Record] = []
    for index, item in enumerate(items):
        try:
            record = _record(item, index)
        except ParseError as exc:  # the record's name, base64 or protobuf bytes
            raise type(exc)(f"{source_file}: record {index}: {exc.message}", tag=exc.tag) from None
        if record is not None:
            out.append(record)
    return out


def _record(item: Any, index: int) -> Record | None:
    """One JSON record (or a GameAction holding one; None when it holds none); raises ParseError."""
    if isinstance(item, dict) and item and set(item) <= _ACTION_KEYS:
        item = item.get("result")  # a GameAction: its record, if any
    if isinstance(item, str):  # a Wrapper's bytes, as protobuf's JSON writes bytes (records, action results)
        item = _wrapped(_decode_base64(item))
    if item is None:
        return None
    if not _is_record(item):
        raise ParseError("not a name/data object")
    kind = short_name(item["name"])
    data = item["data"]
    if isinstance(data, str):
        data = _message(kind, _decode_base64(data))
    if not isinstance(data, dict):
        raise ParseError(f"{item['name']!r} has no data object")
    return Record(kind, data, index)


def _message(kind: str, data: bytes) -> dict[str, Any]:
    """A record's protobuf bytes decoded by its kind ({} for a kind paipu does not read: the parser names it)."""
    return wire.decode("Record" + kind, data) if kind in RECORD_KINDS else {}


def _wrapped(data: bytes) -> dict[str, Any]:
    """A protobuf Wrapper as a JSON-form record {name, data} (data decoded by its record kind)."""
    wrapper = wire.decode("Wrapper", data)
    name = wrapper.get("name", "")
    return {"name": name, "data": _message(short_name(name), wrapper.get("data", b""))}


def _binary_document(data: bytes, source_file: str) -> Document:
    """The document of a binary file: GameDetailRecords (wrapped or not), or a record response whose head
    becomes the document's head (JSON form). Raises ParseError naming the file."""
    try:
        head, details = _unframed(data)
    except ParseError as exc:
        raise type(exc)(f"{source_file}: {exc.message}", tag=exc.tag) from None
    return Document(head, _binary_records(details, source_file))


def _unframed(data: bytes) -> tuple[dict[str, Any], bytes]:
    """(head, GameDetailRecords bytes wrapped or not) of binary data: a record response (ResGameRecord,
    alone or in a Wrapper, after a websocket frame header or not) gives its head and data; anything else is
    the records alone, without a head."""
    body = data[3:] if data[:1] and data[0] in FRAME_TYPES else data
    wrapper = _decoded("Wrapper", body)
    if str(wrapper.get("name", "")).endswith("GameDetailRecords"):
        return {}, body
    for candidate in (wrapper.get("data"), body):
        response = _decoded("ResGameRecord", candidate) if isinstance(candidate, bytes) else {}
        details = response.get("data", b"")
        if str(_decoded("Wrapper", details).get("name", "")).endswith("GameDetailRecords"):
            code = (response.get("error") or {}).get("code")
            if code:
                raise ParseError(f"the record response carries error code {code}")
            return response.get("head", {}), details
    return {}, body


def _decoded(message: str, data: bytes) -> dict[str, Any]:
    """Protobuf bytes decoded as ``message`` ({} when they are not such a message): for telling forms apart."""
    try:
        return wire.decode(message, data)
    except ParseError:
        return {}


def _binary_records(data: bytes, source_file: str) -> list[Record]:
    """The records of binary GameDetailRecords, wrapped (Wrapper) or not."""
    outer = _decoded("Wrapper", data)
    if str(outer.get("name", "")).endswith("GameDetailRecords"):
        data = outer.get("data", b"")
    try:
        details = wire.decode("GameDetailRecords", data)
        wrapped = list(details.get("records", []))
        wrapped += [a["result"] for a in details.get("actions", []) if a.get("result")]
        return [Record(short_name(w["name"]), w["data"], i) for i, w in enumerate(map(_wrapped, wrapped))]
    except ParseError as exc:
        raise type(exc)(f"{source_file}: {exc.message}", tag=exc.tag) from None
