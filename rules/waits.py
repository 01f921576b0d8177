"""Waits of tenpai hands, many at once: the kinds that complete each hand, as a 34-bit mask.

A kind completes a hand when the closed tiles plus that tile hold the melds the hand still needs
and a pair (regular form), or seven distinct pairs, or thirteen orphans with a pair (hands without
calls). A kind the hand already holds four of is counted as a wait when a fifth copy would complete
the hand: such a wait can never come (pure karaten), and Tenhou counts a hand whose every wait is
like that as noten; see rules.karaten.
"""

from __future__ import annotations

import numpy as np

from rules.shanten import (
    CHUNK,
    MAX_MELDS,
    best_split,
    chiitoitsu_shanten,
    combine,
    kokushi_shanten,
    regular_distance,
    suit_distances,
    suit_indices,
)
from rules.suit_tables import capped_tables
from rules.tiles import N_KINDS, TERMINALS_HONORS_34

KIND_BITS = np.int64(1) << np.arange(N_KINDS, dtype=np.int64)
"""Bit of each 34-kind in a ``*_mask`` column."""

_SUIT_OF = np.arange(N_KINDS) // 9
_WEIGHT_OF = 5 ** (np.arange(N_KINDS) % 9)


def _others(suits: list[np.ndarray]) -> list[np.ndarray]:
    """For each suit, the combined distances of the three other suits."""
    return [combine(combine(suits[b], suits[c]), suits[d]) for b, c, d in ((1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2))]


def regular_waits(counts: np.ndarray, n_calls: np.ndarray) -> np.ndarray:
    """Waits of the regular form (melds + a pair) as masks (N,) int64; 0 when not tenpai.

    ``counts`` (N, 34) must hold 13 - 3 x n_calls tiles.
    """
    counts = counts.astype(np.int64)
    need = MAX_MELDS - np.asarray(n_calls, dtype=np.int64)
    indices = suit_indices(counts)
    others = _others(suit_distances(indices))
    masks = np.zeros(len(counts), dtype=np.int64)
    number, honor = capped_tables()
    for kind in range(N_KINDS):
        suit, weight = _SUIT_OF[kind], _WEIGHT_OF[kind]
        table = number if suit < 3 else honor
        held = counts[:, kind]
        index = indices[:, suit]
        added = table[np.where(held < 4, index + weight, index)]
        completes = (best_split(added, others[suit], need, 1) == 0) & (held < 4)
        fifth = held == 4
        if fifth.any():
            # a fifth copy: that kind must give a triplet (rest: one meld fewer + a pair) or the pair
            as_triplet = table[np.where(fifth, index - 2 * weight, index)]
            as_pair = table[np.where(fifth, index - weight, index)]
            fifth_completes = (best_split(as_triplet, others[suit], need - 1, 1) == 0) | (
                best_split(as_pair, others[suit], need, 0) == 0
            )
            completes |= fifth & fifth_completes
        masks |= np.where(completes, KIND_BITS[kind], 0)
    return masks


def chiitoitsu_waits(counts: np.ndarray) -> np.ndarray:
    """Seven-pairs waits (N,) int64: the single kind of a hand with six other distinct pairs."""
    tenpai = chiitoitsu_shanten(counts) == 0
    singles = (counts == 1) @ KIND_BITS
    return np.where(tenpai, singles, 0)


def kokushi_waits(counts: np.ndarray) -> np.ndarray:
    """Thirteen-orphans waits (N,) int64: all thirteen kinds, or the one missing beside a pair."""
    tenpai = kokushi_shanten(counts) == 0
    orphans = counts[:, TERMINALS_HONORS_34]
    all_orphans = KIND_BITS[TERMINALS_HONORS_34].sum()
    missing = (orphans == 0) @ KIND_BITS[TERMINALS_HONORS_34]
    paired = (orphans >= 2).any(axis=1)
    return np.where(tenpai, np.where(paired, missing, all_orphans), 0)


def waits_mask(counts: np.ndarray, n_calls: np.ndarray | int = 0, distance: np.ndarray | None = None) -> np.ndarray:
    """Return every hand's waits as a 34-bit mask (N,) int64, over all forms; 0 when not tenpai.

    ``counts`` (N, 34) closed-tile counts holding 13 - 3 x n_calls tiles; ``n_calls`` int or (N,).
    Seven pairs and thirteen orphans count only for hands without calls. ``distance``: the hands'
    regular_distance when already known.
    """
    counts = np.asarray(counts)
    calls = np.broadcast_to(np.asarray(n_calls, dtype=np.int64), (len(counts),))
    masks = np.zeros(len(counts), dtype=np.int64)
    # only tenpai hands wait, and 1-shanten hands holding four of a kind (a fifth copy may complete them)
    if distance is None:
        distance = regular_distance(suit_indices(counts), calls)
    near = np.flatnonzero((distance <= 1) | ((distance == 2) & (counts == 4).any(axis=1)))
    for start in range(0, len(near), CHUNK):
        rows = near[start : start + CHUNK]
        masks[rows] = regular_waits(counts[rows], calls[rows])
    closed = calls == 0
    masks |= np.where(closed, chiitoitsu_waits(counts) | kokushi_waits(counts), 0)
    return masks


def n_waits(masks: np.ndarray) -> np.ndarray:
    """Number of waiting kinds in each mask (N,) int8."""
    return np.bitwise_count(masks.astype(np.uint64)).astype(np.int8)
