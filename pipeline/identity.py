"""A game's identity from what the game is, the same in every format and every layout of its text.

Copies of one game (a re-indented XML, a truncated one, the game's tenhou.net/6 JSON, an anonymised copy)
share their first round: the same dealt tiles, first dora indicator, scores, wind, kyoku, honba and riichi
sticks. The **content fingerprint** hashes those, by tile kind (34-kinds: formats that name tile kinds number
the four copies themselves), so it does not depend on the format, the file's whitespace, its names or its
id. The **round digests** hash what every copy of a round must agree on (wind, kyoku, honba, sticks and the
scores before and after it): two copies of a game agree when the digests of the rounds both hold are equal.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from pipeline.sources.base import ParsedGame

FIRST_ROUND_FIELDS = ("round_wind", "kyoku", "honba", "riichi_sticks", "scores_pre")
"""The rounds columns of the first round that enter the content fingerprint, besides the dealt tiles and the
first dora indicator."""

ROUND_DIGEST_FIELDS = ("round_wind", "kyoku", "honba", "riichi_sticks", "scores_pre", "scores_post")
"""The rounds columns every copy of a round must agree on."""


def _digest(text: str, size: int) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=size).digest()


def _seated(values: Sequence[Any] | None, hands: Sequence[Sequence[int]]) -> list:
    """The per-seat values of the seats dealt a hand (sanma's empty fourth seat left out)."""
    return [v for v, hand in zip(values or [], hands, strict=False) if len(hand)]


def content_fingerprint(first_round: dict[str, Any]) -> str:
    """The content fingerprint (16 hex digits) of a game from its first round's values (a dict of
    FIRST_ROUND_FIELDS, ``hands_start``: the 136-ids dealt per seat, and ``dora_indicator``: a 136-id)."""
    hands = first_round["hands_start"]
    kinds = [sorted(t // 4 for t in hand) for hand in hands if len(hand)]
    values = [first_round[name] for name in FIRST_ROUND_FIELDS[:-1]]
    scores = _seated(first_round["scores_pre"], hands)
    dora = first_round["dora_indicator"]
    text = f"{kinds}|{dora // 4 if dora is not None else None}|{values}|{scores}"
    return _digest(text, 8).hex()


def round_digest(values: dict[str, Any], hands: Sequence[Sequence[int]]) -> int:
    """A 63-bit digest of one round's ROUND_DIGEST_FIELDS (``values``), scores of the seated players only."""
    parts = [_seated(values[n], hands) if n.startswith("scores") else values[n] for n in ROUND_DIGEST_FIELDS]
    return int.from_bytes(_digest(repr(parts), 8), "big") >> 1


def round_digests(rounds: dict[str, Sequence[Any]]) -> tuple[int, ...]:
    """The round digests of a game's rounds, in round order, from its rounds columns (lists by column:
    ROUND_DIGEST_FIELDS and ``hands_start``)."""
    hands = rounds["hands_start"]
    return tuple(
        round_digest({name: rounds[name][i] for name in ROUND_DIGEST_FIELDS}, hands[i]) for i in range(len(hands))
    )


def first_disagreement(one: Sequence[int], other: Sequence[int]) -> int | None:
    """The first round (index) both copies of a game hold on which their round digests differ; None when the
    copies agree on every round both hold (a truncated copy agrees with the whole game)."""
    return next((i for i, (a, b) in enumerate(zip(one, other, strict=False)) if a != b), None)


def identify(game: ParsedGame) -> ParsedGame:
    """Give a parsed game its content fingerprint (``game.fingerprint`` and its games row) and return it; a
    game without a round keeps the fingerprint its parser gave it."""
    rounds = game.tables["rounds"]
    if not len(rounds["hands_start"]):
        return game
    first = {name: rounds[name][0] for name in (*FIRST_ROUND_FIELDS, "hands_start", "dora_indicator")}
    game.fingerprint = content_fingerprint(first)
    game.tables["games"]["fingerprint"] = [game.fingerprint] * len(game.tables["games"]["fingerprint"])
    return game
