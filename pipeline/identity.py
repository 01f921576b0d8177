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

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.sources.base import ParsedGame

FIRST_ROUND_FIELDS = ("round_wind", "kyoku", "honba", "riichi_sticks", "scores_pre")
"""The rounds columns of the first round that enter the content fingerprint, besides the dealt tiles and the
first dora indicator."""

ROUND_DIGEST_FIELDS = ("round_wind", "kyoku", "honba", "riichi_sticks", "scores_pre", "scores_post")
"""The rounds columns every copy of a round must agree on."""

SEATS = 4
ABSENT = -(1 << 62)
"""A score where a seat has none (not dealt a hand): no real score is this."""


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


def _by_seat(offsets: np.ndarray, values: np.ndarray, fill: int) -> np.ndarray:
    """Rows given as Arrow list offsets over ``values`` (the values of the rows only) as an (n, 4) int64 matrix:
    a row's first four values, ``fill`` where it has fewer."""
    out = np.full((len(offsets) - 1, SEATS), fill, dtype=np.int64)
    rows = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    position = np.arange(len(rows)) - (offsets[rows] - offsets[0])
    keep = position < SEATS
    out[rows[keep], position[keep]] = values[keep]
    return out


def _integers(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """Integer values as int64, ABSENT for a null."""
    return pc.fill_null(values.cast(pa.int64()), ABSENT).to_numpy()


def _list_column(column: pa.ChunkedArray) -> tuple[np.ndarray, pa.Array]:
    """A list column's offsets and values (of its rows only: a slice's values start at its first offset)."""
    lists = column.combine_chunks()
    return lists.offsets.to_numpy(), lists.flatten()


def _scores_by_seat(column: pa.ChunkedArray, seated: np.ndarray) -> np.ndarray:
    """A list<int> scores column as an (n, 4) matrix, ABSENT where a seat has no score or was dealt no hand."""
    offsets, values = _list_column(column)
    return np.where(seated, _by_seat(offsets, _integers(values), ABSENT), ABSENT)


def _seated_by_seat(hands_start: pa.ChunkedArray) -> np.ndarray:
    """(n, 4) bool: the seats dealt a hand in each round (sanma's empty fourth seat, or a missing seat, not)."""
    offsets, hands = _list_column(hands_start)
    sizes = pc.fill_null(pc.list_value_length(hands), 0).to_numpy()
    return _by_seat(offsets, sizes, 0) > 0


def round_digests(rounds: pa.Table) -> np.ndarray:
    """A 63-bit digest of each row of a rounds table (Arrow; ROUND_DIGEST_FIELDS and ``hands_start``): its
    wind, kyoku, honba, sticks and the scores before and after it of the seats dealt a hand. Returns uint64,
    one per row; equal rounds have equal digests, and distinct ones (practically) never do."""
    seated = _seated_by_seat(rounds.column("hands_start"))
    scalars = [_integers(rounds.column(name))[:, None] for name in ROUND_DIGEST_FIELDS[:4]]
    scores = [_scores_by_seat(rounds.column(name), seated) for name in ROUND_DIGEST_FIELDS[4:]]
    fields = np.concatenate([*scalars, *scores], axis=1).astype(np.uint64)
    digest = np.full(len(fields), 0x9E3779B97F4A7C15, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for column in fields.T:  # fold each field into the running state, mixing after each (splitmix64)
            digest = _mix(digest ^ column)
    return digest >> np.uint64(1)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: every bit of ``x`` (uint64) spread over every bit of the result."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


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
