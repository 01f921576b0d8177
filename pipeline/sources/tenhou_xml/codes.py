"""Tenhou's vocabulary: yaku ids, draw types, limit codes and GO rule bits.

Every lookup raises UnknownCodeError for a code paipu does not know, so a new code fails loudly
with its name instead of producing a wrong row.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.errors import UnknownCodeError
from rules.scoring.yaku import YAKU_NAMES  # Tenhou yaku id -> paipu yaku name (ids 0-54)

DRAW_KINDS: dict[str, str] = {
    "": "exhaustive",
    "nm": "nagashi_mangan",
    "yao9": "kyuushu_kyuuhai",
    "kaze4": "suufon_renda",
    "reach4": "suucha_riichi",
    "kan4": "suukaikan",
    "ron3": "sanchahou",
}
"""RYUUKYOKU type attribute -> draw kind (no type = exhaustive draw)."""

ABORTIVE_KINDS: frozenset[str] = frozenset(DRAW_KINDS.values()) - {"exhaustive", "nagashi_mangan"}
"""Draw kinds that are abortive draws (tochuu ryuukyoku)."""

LIMIT_NAMES: tuple[str, ...] = ("", "mangan", "haneman", "baiman", "sanbaiman", "yakuman")
"""AGARI ten third value (limit code 0-5) -> limit name."""

ROOMS: dict[int, str] = {0x00: "ippan", 0x80: "joukyuu", 0x20: "tokujou", 0xA0: "houou"}
"""GO type bits 0x20|0x80 -> room name."""


def yaku_name(yaku_id: int) -> str:
    """Return the name of a Tenhou yaku id; raises UnknownCodeError for an unknown id."""
    if 0 <= yaku_id < len(YAKU_NAMES):
        return YAKU_NAMES[yaku_id]
    raise UnknownCodeError(f"unknown yaku id {yaku_id}", tag="AGARI")


def draw_kind(type_attr: str) -> str:
    """Return the draw kind of a RYUUKYOKU type attribute; raises UnknownCodeError when unknown."""
    try:
        return DRAW_KINDS[type_attr]
    except KeyError:
        raise UnknownCodeError(f"unknown RYUUKYOKU type {type_attr!r}", tag="RYUUKYOKU") from None


def limit_name(code: int) -> str:
    """Return the limit name of an AGARI ten limit code; raises UnknownCodeError when unknown."""
    if 0 <= code < len(LIMIT_NAMES):
        return LIMIT_NAMES[code]
    raise UnknownCodeError(f"unknown limit code {code} in AGARI ten", tag="AGARI")


@dataclass(frozen=True)
class RuleFlags:
    """The decoded GO type bit field."""

    rule_code: int
    n_players: int
    room: str
    is_hanchan: bool
    has_red_fives: bool
    has_kuitan: bool
    is_fast: bool
    is_vs_humans: bool
    is_custom_rule: bool


PRIVATE_ROOM = "private"
"""The room of a game in a private lobby (L1000-L9999: a lobby number other than 0 in the log id or GO header):
its GO room bits are its lobby's rules, not a ranked room (e.g. tenhou-python-bot's lobby 7994 games are type 1
or 9, 'ippan' by the bits)."""


def room_of(rule_room: str, lobby: int | None) -> str:
    """The games.room of a Tenhou game: the GO room bits' name (``rule_room``) in the public lobby (0 or
    unknown), PRIVATE_ROOM in any other ``lobby``."""
    return rule_room if not lobby else PRIVATE_ROOM


def decode_rule(rule_code: int, has_csrule: bool = False) -> RuleFlags:
    """Decode a GO type: 0x01 vs humans, 0x02 no red fives, 0x04 no kuitan, 0x08 hanchan,
    0x10 sanma, 0x40 fast, 0x20|0x80 room; bits above 0xFF (or a csrule) mark a custom lobby."""
    return RuleFlags(
        rule_code=rule_code,
        n_players=3 if rule_code & 0x10 else 4,
        room=ROOMS[rule_code & 0xA0],
        is_hanchan=bool(rule_code & 0x08),
        has_red_fives=not rule_code & 0x02,
        has_kuitan=not rule_code & 0x04,
        is_fast=bool(rule_code & 0x40),
        is_vs_humans=bool(rule_code & 0x01),
        is_custom_rule=rule_code > 0xFF or has_csrule,
    )
