"""A Mahjong Soul game's identity, room, players and final result, from its head (RecordGame) when the file
has one, else from what the records and the file's other top-level keys say."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import PurePath
from typing import Any

from pipeline.sources.majsoul.codes import dan_of_level, room_of
from pipeline.sources.majsoul.document import Document

_UUID = re.compile(r"(\d{6})-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_JST = timezone(timedelta(hours=9))


@dataclass(frozen=True)
class Header:
    """What the games table needs from a document besides its rules."""

    game_id: str
    fingerprint: str
    started_at: datetime | None
    year: int | None
    room: str
    lobby: int | None
    is_vs_humans: bool


def game_uuid(doc: Document, source_file: str) -> str | None:
    """The game's uuid ('YYMMDD-xxxxxxxx-...'): the head's, else one named by a top-level key (round
    excerpts name their source file), else the file name's; None when there is none."""
    candidates = [doc.head.get("uuid"), *(v for v in doc.extra.values() if isinstance(v, str)),
                  PurePath(source_file).name]  # fmt: skip
    for value in candidates:
        match = _UUID.search(value) if isinstance(value, str) else None
        if match:
            return match.group(0)
    return None


def fingerprint(doc: Document, uuid: str | None) -> str:
    """The uuid's hash (every copy of a game, whole or cut, shares it), else the first round's as written."""
    first = next((r.data for r in doc.records if r.kind == "NewRound"), None)
    text = "majsoul:" + uuid if uuid else json.dumps(["majsoul", first], sort_keys=True, ensure_ascii=False)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _start(doc: Document, uuid: str | None) -> tuple[datetime | None, int | None]:
    """Start time (the head's Unix seconds, as Japan time) and year (else the uuid's YYMMDD prefix)."""
    seconds = doc.head.get("start_time")
    if isinstance(seconds, int | str) and str(seconds).isdigit() and int(seconds) > 0:
        when = datetime.fromtimestamp(int(seconds), _JST).replace(tzinfo=None)
        return when, when.year
    return None, 2000 + int(uuid[:2]) if uuid else None


def read_header(doc: Document, source_file: str) -> Header:
    """Read a document's identity, start, room and lobby."""
    uuid = game_uuid(doc, source_file)
    print_fp = fingerprint(doc, uuid)
    when, year = _start(doc, uuid)
    config = doc.head.get("config") or {}
    meta = config.get("meta") or {}
    room = room_of(config.get("category", 0), meta.get("mode_id", 0)) if doc.head else "unknown"
    lobby = meta.get("room_id") or meta.get("contest_uid") or None
    robots = doc.head.get("robots") or [a for a in doc.head.get("accounts") or [] if not a.get("account_id")]
    return Header(uuid or "fp-" + print_fp, print_fp, when, year, room, lobby, not robots)


def player_rows(doc: Document, n_players: int) -> list[tuple[str | None, int | None]]:
    """(name, rank index) of seats 0..n_players-1 from the head's accounts; None where unknown."""
    rows: list[tuple[str | None, int | None]] = [(None, None)] * n_players
    for account in doc.head.get("accounts") or []:
        seat = account.get("seat", 0)
        if isinstance(seat, int) and 0 <= seat < n_players:
            level = account.get("level3" if n_players == 3 else "level") or {}
            rows[seat] = (account.get("nickname") or None, dan_of_level(level.get("id")))
    return rows


def final_scores(doc: Document, n_players: int, last_result: dict[str, Any] | None) -> list[tuple] | None:
    """(score, game points or None) per seat at the game's end: the head's result, else a top-level
    ``final_scores``, else the last result's ``gameend``; None when the file does not reach the end."""
    players = (doc.head.get("result") or {}).get("players") or []
    if len(players) == n_players:
        by_seat = {p.get("seat", 0): p for p in players}
        return [(int(by_seat[s].get("part_point_1", 0)), by_seat[s].get("total_point", 0) / 1000)
                for s in range(n_players)]  # fmt: skip
    scores = doc.extra.get("final_scores")
    if not scores and isinstance((last_result or {}).get("gameend"), dict):
        scores = last_result["gameend"].get("scores")
    if isinstance(scores, list) and len(scores) == n_players:
        return [(int(score), None) for score in scores]
    return None
