"""A game's header: identity (game id, fingerprint), rules and player names, from its events.

mjai carries little about the game: ``start_game`` may hold ``names``, ``kyoku_first`` (game length),
``aka_flag`` (red fives), ``seed``, ``id`` (the seat of the bot the stream was sent to, not a game id)
and, in logs converted from Tenhou, a ``uri`` with the Tenhou log id. The rest is read from the kyoku.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pipeline.errors import ParseError
from pipeline.sources.mjai.canonical import fingerprint_text, first_kyoku_text
from pipeline.sources.mjai.codes import is_hanchan
from pipeline.sources.mjai.stream import GameEvents
from pipeline.sources.mjai.tiles import UNKNOWN, is_red_name
from pipeline.sources.tenhou_xml.codes import decode_rule
from pipeline.sources.tenhou_xml.parser import started_at

_TENHOU_ID = re.compile(r"(\d{10})gm-([0-9a-f]{4})-(\d{4,5})-([0-9a-f]{8})")
_ID_KEYS = ("game_id", "log_id", "uuid")
_NO_TILES = frozenset({"names", "type", "reason", "uri", "yakus", "yaku"})
_RED_NAMES = frozenset({"5mr", "5pr", "5sr"})
"""The names tiles.is_red_name accepts."""


@dataclass(frozen=True)
class Header:
    """What the games and players tables need from a game's events."""

    game_id: str
    fingerprint: str | None
    """The hash of the events (``fingerprint``) when the game id is made of it (no id in the log), else None: a
    game with rounds is known by its content (pipeline.identity), and one without computes it when it ends."""
    n_players: int
    has_red_fives: bool
    is_hanchan: bool
    rule_code: int
    room: str
    lobby: int | None
    is_custom_rule: bool
    is_vs_humans: bool
    started_at: datetime | None
    names: tuple[str | None, ...]
    quirks: frozenset[str]


def _first_kyoku(game: GameEvents) -> list[dict[str, Any]]:
    """The events of the first kyoku, start_kyoku to its last event (empty when the game has none)."""
    out: list[dict[str, Any]] = []
    starts = [i for i, e in game.events.decoded() if e["type"] == "start_kyoku"][:2]  # never a plain play event
    if starts:
        game.events.load(starts[0], starts[1] if len(starts) > 1 else len(game.events))  # parsed at once
    for _, event in game.events[: starts[1] + 1 if len(starts) > 1 else len(game.events)]:
        if event["type"] == "start_kyoku" and out:
            break
        if event["type"] == "start_kyoku" or out:
            out.append(event)
    return out


def fingerprint(game: GameEvents) -> str:
    """Hash of the player names and the whole first kyoku as written (deal and play): two copies of one game
    share it, two games dealt the same wall (bot matches replay seeds) do not."""
    start = game.start_game or {}
    kyoku = first_kyoku_text(game.events)  # written from the bytes, when the lines allow it
    if kyoku is not None:
        return hashlib.blake2b(fingerprint_text(start.get("names"), kyoku), digest_size=8).hexdigest()
    text = json.dumps(["mjai", start.get("names"), _first_kyoku(game)], sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _red_seen(value: Any) -> bool:
    """Whether a red five's name appears among an event's tile values."""
    if isinstance(value, str):
        return is_red_name(value)
    if isinstance(value, list):
        try:
            return any(map(_RED_NAMES.__contains__, value))  # a flat list (a hand, consumed tiles): at C speed
        except TypeError:  # a list or an object among its values
            return any(_red_seen(v) for v in value)
    return False


def _n_players(game: GameEvents) -> int:
    """3 or 4: the seats the first kyoku deals to; a fourth seat with 0 points that never acts is empty."""
    decoded = game.events.decoded()  # start_kyoku and end_game are never plain play events (scan.py)
    first = next((e for _, e in decoded if e["type"] == "start_kyoku"), None)
    if first is None:
        names = (game.start_game or {}).get("names")
        return 3 if isinstance(names, list) and len(names) == 3 else 4
    scores = first.get("scores")
    if not isinstance(scores, list) or len(scores) not in (3, 4):
        raise ParseError(f"start_kyoku scores {scores!r} are not 3 or 4 seats")
    if len(scores) == 4 and scores[3] == 0 and not (
        game.events.has_actor_3() or any(e.get("actor") == 3 for _, e in decoded)
    ):
        return 3
    return len(scores)


def _game_length(game: GameEvents, quirks: set[str]) -> bool:
    """Hanchan or not: ``kyoku_first`` when written; else a kyoku past East says hanchan, a finished game that
    stayed in East without a seat below 0 says East only, anything else is taken as a hanchan."""
    start = game.start_game or {}
    if "kyoku_first" in start:
        return is_hanchan(start["kyoku_first"])
    quirks.add("game_length_inferred")
    decoded = game.events.decoded()
    winds = {e.get("bakaze") for _, e in decoded if e["type"] == "start_kyoku"}
    if winds - {"E"}:
        return True
    end = next((e for _, e in decoded if e["type"] == "end_game"), None)
    scores = end.get("scores") if end else None
    busted = isinstance(scores, list) and any(isinstance(s, int | float) and s < 0 for s in scores)
    return end is None or busted


def _red_fives(game: GameEvents, quirks: set[str]) -> bool:
    """``aka_flag`` when written, the tiles when they contradict it (quirk) or when it is not written."""
    seen = game.events.has_red() or any(
        _red_seen(v) for _, e in game.events.decoded() for k, v in e.items() if k not in _NO_TILES
    )
    flag = (game.start_game or {}).get("aka_flag")
    if isinstance(flag, bool):
        if seen and not flag:
            quirks.add("red_fives_contradict_rule")
        return flag or seen
    return seen


def _names(game: GameEvents, n_players: int) -> tuple[str | None, ...]:
    names = (game.start_game or {}).get("names")
    names = names if isinstance(names, list) else []
    return tuple(n if isinstance(n, str) and n and n != UNKNOWN else None for n in (names + [None] * 4)[:n_players])


def _log_ids(start: dict[str, Any]) -> tuple[str | None, str | None]:
    """(Tenhou log id, other game id) the start_game carries, None where absent."""
    tenhou = None
    for value in start.values():
        match = _TENHOU_ID.search(value) if isinstance(value, str) else None
        if match:
            tenhou = match.group(0)
            break
    other = next((start[k] for k in _ID_KEYS if isinstance(start.get(k), str) and start[k].strip()), None)
    return tenhou, other


def read_header(game: GameEvents) -> Header:
    """Read a game's header; raises ParseError (UnknownCodeError) for values that cannot be read."""
    quirks: set[str] = set()
    start = game.start_game
    if start is None:
        quirks.add("no_start_game")
    tenhou_id, other_id = _log_ids(start or {})
    quirks.add("converted" if tenhou_id else "bot_written")
    red = _red_fives(game, quirks)
    print_fp = None if tenhou_id or other_id else fingerprint(game)  # the events hashed only to name the game
    game_id = tenhou_id or other_id or f"fp-{print_fp}"
    if tenhou_id:
        rules = decode_rule(int(tenhou_id.split("-")[1], 16))
        return Header(game_id, print_fp, rules.n_players, red or rules.has_red_fives, rules.is_hanchan,
                      rules.rule_code, rules.room, int(tenhou_id.split("-")[2]), rules.is_custom_rule,
                      rules.is_vs_humans, started_at(tenhou_id), _names(game, rules.n_players),
                      frozenset(quirks))  # fmt: skip
    n_players = _n_players(game)
    hanchan = _game_length(game, quirks)
    code = (0 if red else 0x02) | (0x08 if hanchan else 0) | (0x10 if n_players == 3 else 0)
    return Header(game_id, print_fp, n_players, red, hanchan, code, "unknown", None, True, False, None,
                  _names(game, n_players), frozenset(quirks))  # fmt: skip
