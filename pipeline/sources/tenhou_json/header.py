"""A document's game header: identity (log id, fingerprint, start time), rules and players."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from typing import Any

from pipeline.sources.majsoul.ruleset import MajsoulRules
from pipeline.sources.tenhou_json.codes import dan_index, rule_code_from_disp
from pipeline.sources.tenhou_xml.codes import RuleFlags, decode_rule, room_of
from pipeline.sources.tenhou_xml.parser import log_id_from_path, started_at

_TENHOU_ID = re.compile(r"^(\d{10})gm-([0-9a-f]{4})-(\d{4,5})-([0-9a-f]{8})$")
_JST = timezone(timedelta(hours=9))
_MAJSOUL_ROOMS = {
    "銅": "bronze", "Bronze": "bronze", "銀": "silver", "Silver": "silver", "金": "gold", "Gold": "gold",
    "玉": "jade", "Jade": "jade", "王座": "throne", "Throne": "throne", "大会": "tournament",
}  # fmt: skip
"""Mahjong Soul room labels (as converters write them in ``rule.disp``) -> room name."""
_MAJSOUL_OTHER_LABELS = ("友人戦", "Friendly")
"""Mahjong Soul labels of games outside the ranked rooms (friendly rooms): no room."""


@dataclass(frozen=True)
class Header:
    """What the games and players tables need from a document's header."""

    game_id: str
    fingerprint: str | None
    """The hash of the document (``fingerprint``) when the game id is made of it (no log id), else None: a game with
    rounds is known by its content (pipeline.identity), and one without computes it when it ends."""
    log_id: str | None
    started_at: datetime | None
    rules: RuleFlags
    room: str
    lobby: int | None
    is_tenhou: bool
    """The document carries a Tenhou log id: written by Tenhou itself (not converted by a tool)."""
    red_contradicted: bool = False
    """The rule says one thing about red fives and the tiles another (the tiles win)."""
    rule_quirks: frozenset[str] = frozenset()
    """The log_quirks naming the rule set, where it is not Tenhou's: a Mahjong Soul game converted by a tool
    follows Mahjong Soul's ranked rules (pipeline.sources.majsoul.ruleset, 'rule:assumed_ranked' included)."""


def tenhou_log_id(doc: dict[str, Any], source_file: str) -> str | None:
    """The Tenhou log id of the document's ``ref``, else of the file name, else None."""
    ref = doc.get("ref")
    if isinstance(ref, str) and _TENHOU_ID.match(ref):
        return ref
    return log_id_from_path(source_file)


def other_log_id(doc: dict[str, Any]) -> str | None:
    """A non-Tenhou ``ref`` (e.g. a Mahjong Soul game uuid); None when absent or a zero placeholder."""
    ref = doc.get("ref")
    if not isinstance(ref, str) or not ref.strip() or not ref.strip("0-"):
        return None
    return ref


def fingerprint(doc: dict[str, Any]) -> str:
    """Hash of the rule and the first kyoku as written (deal, lists, result): two copies of one game
    share it whatever the names say. It cannot equal the XML's (shuffle seed + INIT with 136-ids)."""
    first = doc["log"][0] if doc["log"] else None
    rule = doc.get("rule") if isinstance(doc.get("rule"), dict) else {}
    text = json.dumps(["tenhou_json", rule.get("disp"), first], ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _has_red_fives(rule: dict[str, Any]) -> bool:
    flags = [v for k, v in rule.items() if k.startswith("aka")]
    if flags:
        return any(bool(v) for v in flags)
    return "赤" in str(rule.get("disp", ""))


def _round_codes(kyoku: Any) -> list[int]:
    """The tile codes entering a kyoku from the wall: indicators, hands and drawn tiles."""
    if not isinstance(kyoku, list) or len(kyoku) < 8:
        return []
    codes = [c for part in kyoku[2:4] if isinstance(part, list) for c in part]
    for seat in range((len(kyoku) - 5) // 3):
        for part in kyoku[4 + 3 * seat : 6 + 3 * seat]:
            codes += [c for c in part if isinstance(c, int)] if isinstance(part, list) else []
    return codes


def red_fives_seen(doc: dict[str, Any]) -> bool | None:
    """What the tiles say about red fives: True when a red five (51-53) appears, False when a round
    holds four plain copies of a five, None when they do not tell."""
    saw_plain_four = False
    for kyoku in doc["log"]:
        codes = _round_codes(kyoku)
        if any(c in (51, 52, 53) for c in codes):
            return True
        saw_plain_four |= any(codes.count(c) >= 4 for c in (15, 25, 35))
    return False if saw_plain_four else None


def _seats_dealt(doc: dict[str, Any]) -> int:
    """Seats dealt a hand in the first kyoku (4 when that cannot be read)."""
    first = doc["log"][0] if doc["log"] else None
    if not isinstance(first, list) or len(first) < 14:
        return 4
    return sum(bool(first[4 + 3 * seat]) for seat in range((len(first) - 5) // 3))


def _room(disp: str, rules: RuleFlags, is_tenhou: bool, lobby: int | None) -> str:
    """games.room: Tenhou's by the rule bits and lobby (tenhou_xml.codes.room_of), a Mahjong Soul room by the
    label, else 'unknown'."""
    if is_tenhou or any(c in disp[:2] for c in "般上特鳳"):
        return room_of(rules.room, lobby)
    for label, room in _MAJSOUL_ROOMS.items():
        if label in disp:
            return room
    return "unknown"


def is_majsoul_label(disp: str, is_tenhou: bool) -> bool:
    """Whether a rule label names a Mahjong Soul game (a ranked room, a tournament or a friendly room)."""
    if is_tenhou or any(c in disp[:2] for c in "般上特鳳"):
        return False
    return any(label in disp for label in (*_MAJSOUL_ROOMS, *_MAJSOUL_OTHER_LABELS))


def _rule_quirks(disp: str, rules: RuleFlags, is_tenhou: bool) -> frozenset[str]:
    """The rule quirks of a document: Mahjong Soul's (assumed ranked) for a Mahjong Soul label, else none."""
    if not is_majsoul_label(disp, is_tenhou):
        return frozenset()
    return frozenset(
        MajsoulRules(rules.n_players, rules.is_hanchan, rules.has_red_fives, has_kuitan=rules.has_kuitan).quirks()
    )


def _time_from_title(title: Any) -> datetime | None:
    """A start time in the title's second entry (Unix seconds or an HTTP date), as Japan time."""
    value = title[1] if isinstance(title, list) and len(title) > 1 else None
    try:
        if isinstance(value, int | float) or (isinstance(value, str) and value.isdigit()):
            return datetime.fromtimestamp(int(value), _JST).replace(tzinfo=None)
        if isinstance(value, str) and value:
            return parsedate_to_datetime(value).astimezone(_JST).replace(tzinfo=None)
    except (ValueError, OverflowError, OSError, TypeError):
        return None
    return None


def read_header(doc: dict[str, Any], source_file: str) -> Header:
    """Read the game header of a document (a dict of the JSON) read from ``source_file``."""
    log_id = tenhou_log_id(doc, source_file)
    rule = doc.get("rule") if isinstance(doc.get("rule"), dict) else {}
    disp = str(rule.get("disp", ""))
    id_match = _TENHOU_ID.match(log_id) if log_id else None
    if id_match:
        rules = decode_rule(int(id_match.group(2), 16))
    else:
        code = rule_code_from_disp(disp, _has_red_fives(rule))
        # a label without 三 at a three-player table: the deal decides
        rules = decode_rule(code | 0x10 if _seats_dealt(doc) == 3 else code)
    seen = red_fives_seen(doc)
    contradicted = seen is not None and seen != rules.has_red_fives
    if contradicted:
        rules = replace(rules, has_red_fives=bool(seen))
    # the log id's lobby is the game's; a document's own ``lobby`` field only stands in for a missing id
    lobby = int(id_match.group(3)) if id_match else doc.get("lobby") if isinstance(doc.get("lobby"), int) else None
    named_id = log_id or other_log_id(doc)
    print_fp = None if named_id else fingerprint(doc)  # the document hashed only to name the game
    game_id = named_id or f"fp-{print_fp}"
    when = started_at(log_id) if log_id else _time_from_title(doc.get("title"))
    room = _room(disp, rules, bool(id_match), lobby)
    quirks = _rule_quirks(disp, rules, bool(id_match))
    return Header(game_id, print_fp, log_id, when, rules, room, lobby, bool(id_match), contradicted, quirks)


def player_rows(doc: dict[str, Any], n_players: int) -> list[tuple[str | None, int | None, float | None, str | None]]:
    """(name, dan index, rate, sex) of seats 0..n_players-1; None where the document has nothing."""

    def entry(key: str, seat: int) -> Any:
        values = doc.get(key)
        return values[seat] if isinstance(values, list) and seat < len(values) else None

    rows = []
    for seat in range(n_players):
        name, rate, sex = entry("name", seat), entry("rate", seat), entry("sx", seat)
        rows.append((
            name if isinstance(name, str) and name else None,
            dan_index(entry("dan", seat)),
            float(rate) if isinstance(rate, int | float) else None,
            sex if isinstance(sex, str) and sex else None,
        ))  # fmt: skip
    return rows


def final_scores(doc: dict[str, Any], n_players: int) -> list[tuple[int, float]] | None:
    """(score, game points) per seat from ``sc``, None when the document has no final result."""
    sc = doc.get("sc")
    if not isinstance(sc, list) or len(sc) < 2 * n_players:
        return None
    if not all(isinstance(v, int | float) for v in sc[: 2 * n_players]):
        return None
    return [(int(sc[2 * s]), float(sc[2 * s + 1])) for s in range(n_players)]
