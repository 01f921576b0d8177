"""Shanten, tenpai and waits for many hands at once, from the per-suit distance tables.

Hands are (N, 34) arrays of closed-tile counts (34-encoding) with the number of calls each hand has
made (each call replaces one of the four melds). Shanten is the minimum of the regular form (four
melds and a pair), seven pairs and thirteen orphans (the last two for hands without calls);
-1 means the tiles already form a complete hand.
"""

from __future__ import annotations

import numpy as np

from rules.suit_tables import CAPPED, MAX_MELDS, capped_tables
from rules.tiles import TERMINALS_HONORS_34

_WEIGHTS_9 = 5 ** np.arange(9, dtype=np.int64)
_WEIGHTS_7 = 5 ** np.arange(7, dtype=np.int64)
SUIT_SLICES = (slice(0, 9), slice(9, 18), slice(18, 27), slice(27, 34))
"""34-kinds of man, pin, sou, honors."""

_SUIT_WEIGHTS = np.zeros((34, 4))
for _suit, _kinds in enumerate(SUIT_SLICES):
    _SUIT_WEIGHTS[_kinds, _suit] = _WEIGHTS_9 if _suit < 3 else _WEIGHTS_7


def suit_indices(counts: np.ndarray) -> np.ndarray:
    """Return the base-5 table index of each suit of each hand: (N, 4) int64."""
    # a float matrix product (BLAS) is exact here: indices stay below 5**9 < 2**53
    return (np.asarray(counts, dtype=np.float64) @ _SUIT_WEIGHTS).astype(np.int64)


def suit_distances(indices: np.ndarray) -> list[np.ndarray]:
    """Each suit's (N, 5, 2) distances (melds 0-4, pair 0/1) as int8 (capped, see suit_tables.CAPPED)."""
    number, honor = capped_tables()
    return [(number if i < 3 else honor)[indices[:, i]] for i in range(4)]


def combine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Min-plus convolution of two (N, 5, 2) distance arrays over melds and the (single) pair."""
    out = np.full_like(a, NONE)
    for m_a in range(MAX_MELDS + 1):
        for m_b in range(MAX_MELDS + 1 - m_a):
            for p_a in (0, 1):
                for p_b in (0, 1 - p_a):
                    total = a[:, m_a, p_a] + b[:, m_b, p_b]
                    np.minimum(out[:, m_a + m_b, p_a + p_b], total, out=out[:, m_a + m_b, p_a + p_b])
    return out


NONE = np.int8(4 * CAPPED + 7)
"""Start value of a minimum: above any sum of capped distances, still an int8."""

CHUNK = 1 << 15
"""Rows per numpy pass: small enough for the working arrays to stay in the CPU cache."""


def regular_distance(indices: np.ndarray, n_calls: np.ndarray) -> np.ndarray:
    """Fewest tiles to add so the closed tiles hold (4 - n_calls) melds and a pair: (N,) int8."""
    need = MAX_MELDS - np.broadcast_to(np.asarray(n_calls, dtype=np.int64), (len(indices),))
    out = np.empty(len(indices), dtype=np.int8)
    for start in range(0, len(indices), CHUNK):
        rows = slice(start, start + CHUNK)
        suits = suit_distances(indices[rows])
        out[rows] = best_split(combine(suits[0], suits[1]), combine(suits[2], suits[3]), need[rows], 1)
    return out


def best_split(a: np.ndarray, b: np.ndarray, melds: np.ndarray, pair: int) -> np.ndarray:
    """Min over splits of ``melds`` (per row) and ``pair`` between two (N, 5, 2) distance arrays."""
    melds = np.broadcast_to(np.asarray(melds), (len(a),))
    best = np.full(len(a), NONE, dtype=np.int8)
    values = np.unique(melds)
    for value in values.tolist():
        # rows needing the same number of melds share plain slices (no per-row gathers)
        rows = slice(None) if len(values) == 1 else np.flatnonzero(melds == value)
        a_rows, b_rows = a[rows], b[rows]
        out = np.full(len(a_rows), NONE, dtype=np.int8)
        for m_a in range(max(0, value - MAX_MELDS), min(value, MAX_MELDS) + 1):
            for p_a in range(pair + 1):
                np.minimum(out, a_rows[:, m_a, p_a] + b_rows[:, value - m_a, pair - p_a], out=out)
        best[rows] = out
    return best


def chiitoitsu_shanten(counts: np.ndarray) -> np.ndarray:
    """Seven-pairs shanten: 6 - pairs + missing distinct kinds (a kind held four times is one pair)."""
    pairs = (counts >= 2).sum(axis=1)
    kinds = (counts >= 1).sum(axis=1)
    return 6 - pairs + np.maximum(0, 7 - kinds)


def kokushi_shanten(counts: np.ndarray) -> np.ndarray:
    """Thirteen-orphans shanten: 13 - distinct terminal/honor kinds - (1 if one of them is paired)."""
    orphans = counts[:, TERMINALS_HONORS_34]
    return 13 - (orphans >= 1).sum(axis=1) - (orphans >= 2).any(axis=1)


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
    result = distance - 1
    closed = calls == 0
    special = np.minimum(chiitoitsu_shanten(counts), kokushi_shanten(counts))
    result = np.where(closed, np.minimum(result, special), result)
    return result.astype(np.int8)
