"""Shanten, tenpai and waits for many hands at once, from the per-suit distance tables.

Hands are (N, 34) arrays of closed-tile counts (34-encoding) with the number of calls each hand has
made (each call replaces one of the four melds). Shanten is the minimum of the regular form (four
melds and a pair), seven pairs and thirteen orphans (the last two for hands without calls);
-1 means the tiles already form a complete hand.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from rules.suit_classes import honor_classes, number_classes, regular_from_classes
from rules.suit_tables import MAX_MELDS
from rules.tiles import TERMINALS_HONORS_34

SUIT_SLICES = (slice(0, 9), slice(9, 18), slice(18, 27), slice(27, 34))
"""34-kinds of man, pin, sou, honors."""


def suit_indices(counts: np.ndarray) -> np.ndarray:
    """Return the base-5 table index of each suit of each hand: (N, 4) int64."""
    out = np.empty((len(counts), 4), dtype=np.int64)
    for suit, kinds in enumerate(SUIT_SLICES):
        part = counts[:, kinds]
        # Horner's rule, highest kind first: sum of count x 5**position
        index = part[:, -1].astype(np.int64)
        for position in range(part.shape[1] - 2, -1, -1):
            index *= 5
            index += part[:, position]
        out[:, suit] = index
    return out


def suit_classes_of(indices: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The distance class of each suit of each hand (rules.suit_classes), from suit_indices."""
    return (
        number_classes(indices[:, 0]),
        number_classes(indices[:, 1]),
        number_classes(indices[:, 2]),
        honor_classes(indices[:, 3]),
    )


CHUNK = 1 << 15
"""Rows per numpy pass: small enough for the working arrays to stay in the CPU cache."""


def regular_distance(indices: np.ndarray, n_calls: np.ndarray) -> np.ndarray:
    """Fewest tiles to add so the closed tiles hold (4 - n_calls) melds and a pair: (N,) int8."""
    need = MAX_MELDS - np.broadcast_to(np.asarray(n_calls, dtype=np.int64), (len(indices),))
    return regular_from_classes(*suit_classes_of(indices), need, 1)


def chiitoitsu_shanten(counts: np.ndarray) -> np.ndarray:
    """Seven-pairs shanten: 6 - pairs + missing distinct kinds (a kind held four times is one pair)."""
    pairs = np.count_nonzero(counts >= 2, axis=1)
    kinds = np.count_nonzero(counts, axis=1)
    return 6 - pairs + np.maximum(0, 7 - kinds)


def kokushi_shanten(counts: np.ndarray) -> np.ndarray:
    """Thirteen-orphans shanten: 13 - distinct terminal/honor kinds - (1 if one of them is paired)."""
    orphans = counts[:, TERMINALS_HONORS_34]
    return 13 - np.count_nonzero(orphans, axis=1) - (orphans >= 2).any(axis=1)


_FIELDS = {"kinds": (0, 63), "pairs": (6, 31), "orphans": (11, 15), "paired_orphan_suits": (15, 7)}
"""(shift, mask) of the counts packed in a special_tables entry; the widths hold the sums over four suits."""


def _special_table(n_kinds: int, orphans: tuple[int, ...]) -> np.ndarray:
    """(5**n_kinds,) uint32 by suit index: kinds held, kinds held twice or more, terminal/honor kinds held, and
    1 when one of those is held twice or more, packed at _FIELDS."""
    table = np.zeros(1, dtype=np.uint32)
    for kind in range(n_kinds):  # kind k is digit k of the index: the new most significant digit each time
        count = np.arange(5)
        is_orphan = kind in orphans
        entry = (count > 0) + ((count >= 2) << 6) + ((is_orphan & (count > 0)) << 11)
        table = (entry.astype(np.uint32)[:, None] + table[None, :]).ravel()
        if is_orphan:  # at most one flag per suit: set it where this kind is paired and no earlier one was
            flag = np.uint32(1 << 15)
            paired = np.repeat(np.arange(5) >= 2, len(table) // 5)
            table[paired & ((table & flag) == 0)] += flag
    return table


@cache
def special_tables() -> tuple[np.ndarray, np.ndarray]:
    """The special_shanten lookup tables of a number suit and of the honors (built once, in a few ms)."""
    return _special_table(9, (0, 8)), _special_table(7, tuple(range(7)))


def special_shanten(
    counts: np.ndarray, indices: np.ndarray | None = None, rows: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Seven-pairs and thirteen-orphans shanten of the hands at ``rows`` (default all), (len,) int64 each, as
    chiitoitsu_shanten and kokushi_shanten give. ``indices``, the hands' suit_indices when known, are read in
    tables instead of counting over the 34 kinds (while every count is 0-4, which suit indices then name)."""
    if indices is None or (len(counts) and (counts.min() < 0 or counts.max() > 4)):
        held = counts if rows is None else counts[rows]
        return chiitoitsu_shanten(held), kokushi_shanten(held)
    at = indices if rows is None else indices[rows]
    number, honor = special_tables()
    summed = number[at[:, 0]] + number[at[:, 1]] + number[at[:, 2]] + honor[at[:, 3]]
    kinds, pairs, orphans, paired = (((summed >> shift) & mask).astype(np.int64) for shift, mask in _FIELDS.values())
    return 6 - pairs + np.maximum(0, 7 - kinds), 13 - orphans - (paired != 0)


def shanten(
    counts: np.ndarray,
    n_calls: np.ndarray | int = 0,
    distance: np.ndarray | None = None,
    indices: np.ndarray | None = None,
    special: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """Return the shanten of each hand (N,) int8: min of regular, seven pairs, thirteen orphans.

    ``counts`` is (N, 34) closed-tile counts with 13 - 3 x n_calls tiles (or one more, mid-turn),
    ``n_calls`` the calls of each hand (an int or (N,)); ``distance``, ``indices`` and ``special``: the
    regular_distance, the suit_indices and the (seven pairs, thirteen orphans) shanten of the hands when
    already known (the last two (N,) arrays, read only for hands without calls). Seven pairs and thirteen
    orphans apply only to hands without calls.
    """
    counts = np.asarray(counts)
    calls = np.broadcast_to(np.asarray(n_calls, dtype=np.int64), (len(counts),))
    if distance is None:
        distance = regular_distance(suit_indices(counts) if indices is None else indices, calls)
    result = (distance - 1).astype(np.int8)
    closed = np.flatnonzero(calls == 0)
    chiitoitsu, kokushi = special_shanten_at(counts, indices, closed, special)
    result[closed] = np.minimum(result[closed], np.minimum(chiitoitsu, kokushi))
    return result


def special_shanten_at(
    counts: np.ndarray, indices: np.ndarray | None, rows: np.ndarray, known: tuple[np.ndarray, np.ndarray] | None
) -> tuple[np.ndarray, np.ndarray]:
    """Seven-pairs and thirteen-orphans shanten of the hands at ``rows``: read from ``known`` (as
    special_shanten_all gives them) when given, else computed by special_shanten."""
    if known is None:
        return special_shanten(counts, indices, rows)
    return known[0][rows], known[1][rows]


def special_shanten_all(
    counts: np.ndarray, n_calls: np.ndarray, indices: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Seven-pairs and thirteen-orphans shanten of every hand without calls, (N,) int64 each (the hands with
    calls get 99: these forms need a closed hand); for shanten's and waits_mask's ``special``."""
    closed = np.flatnonzero(np.asarray(n_calls) == 0)
    chiitoitsu, kokushi = np.full(len(counts), 99, dtype=np.int64), np.full(len(counts), 99, dtype=np.int64)
    chiitoitsu[closed], kokushi[closed] = special_shanten(counts, indices, closed)
    return chiitoitsu, kokushi
