"""Shanten, tenpai and waits for many hands at once, from the per-suit distance tables.

Hands are (N, 34) arrays of closed-tile counts (34-encoding) with the number of calls each hand has
made (each call replaces one of the four melds). Shanten is the minimum of the regular form (four
melds and a pair), seven pairs and thirteen orphans (the last two for hands without calls);
-1 means the tiles already form a complete hand.
"""

from __future__ import annotations

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


def shanten(counts: np.ndarray, n_calls: np.ndarray | int = 0, distance: np.ndarray | None = None) -> np.ndarray:
    """Return the shanten of each hand (N,) int8: min of regular, seven pairs, thirteen orphans.

    ``counts`` is (N, 34) closed-tile counts with 13 - 3 x n_calls tiles (or one more, mid-turn),
    ``n_calls`` the calls of each hand (an int or (N,)); ``distance``, the regular_distance of the
    hands when already known. Seven pairs and thirteen orphans apply only to hands without calls.
    """
    counts = np.asarray(counts)
    calls = np.broadcast_to(np.asarray(n_calls, dtype=np.int64), (len(counts),))
    if distance is None:
        distance = regular_distance(suit_indices(counts), calls)
    result = (distance - 1).astype(np.int8)
    closed = np.flatnonzero(calls == 0)
    special = np.minimum(chiitoitsu_shanten(counts[closed]), kokushi_shanten(counts[closed]))
    result[closed] = np.minimum(result[closed], special)
    return result
