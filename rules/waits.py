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
    SUIT_SLICES,
    chiitoitsu_shanten,
    kokushi_shanten,
    regular_distance,
    special_shanten_at,
    suit_classes_of,
    suit_indices,
)
from rules.suit_classes import honor_classes, number_classes, regular_from_classes, suit_classes
from rules.tiles import N_KINDS, TERMINALS_HONORS_34

KIND_BITS = np.int64(1) << np.arange(N_KINDS, dtype=np.int64)
"""Bit of each 34-kind in a ``*_mask`` column."""

_SUIT_OF = np.arange(N_KINDS) // 9
_WEIGHT_OF = 5 ** (np.arange(N_KINDS) % 9)


def _distance_with_suit(
    classes: tuple[np.ndarray, ...], suit: int, replaced: np.ndarray, melds: np.ndarray, pair: int
) -> np.ndarray:
    """Regular-form distance of hands whose suit ``suit`` has the classes ``replaced`` instead
    (broadcast: (N,) or (N, k) against the other suits' (N,))."""
    suits = [c[:, None] if replaced.ndim == 2 else c for c in classes]
    suits[suit] = replaced
    return regular_from_classes(*suits, melds, pair)


def _fifth_copy_waits(
    counts: np.ndarray, indices: np.ndarray, classes: tuple[np.ndarray, ...], need: np.ndarray
) -> np.ndarray:
    """Kinds a hand holds four of whose (impossible) fifth copy would complete it, as masks (N,).

    The fifth copy makes a triplet (the rest: one meld fewer and a pair) or the pair."""
    masks = np.zeros(len(counts), dtype=np.int64)
    rows, kinds = np.nonzero(counts == 4)
    for suit in range(4):
        of_suit = _SUIT_OF[kinds] == suit
        r, k = rows[of_suit], kinds[of_suit]
        if not len(r):
            continue
        class_of = number_classes if suit < 3 else honor_classes
        others = tuple(c[r] for c in classes)
        index, weight = indices[r, suit], _WEIGHT_OF[k]
        as_triplet = _distance_with_suit(others, suit, class_of(index - 2 * weight), np.maximum(need[r] - 1, 0), 1)
        as_pair = _distance_with_suit(others, suit, class_of(index - weight), need[r], 0)
        completes = (as_triplet == 0) | (as_pair == 0)
        np.bitwise_or.at(masks, r[completes], KIND_BITS[k[completes]])
    return masks


def regular_waits(counts: np.ndarray, n_calls: np.ndarray, indices: np.ndarray | None = None) -> np.ndarray:
    """Waits of the regular form (melds + a pair) as masks (N,) int64; 0 when not tenpai.

    ``counts`` (N, 34) must hold 13 - 3 x n_calls tiles; ``indices``, their suit_indices when known. Every
    kind of a suit is tried at once: the suit's class with that tile added (rules.suit_classes) against the
    other suits.
    """
    need = MAX_MELDS - np.broadcast_to(np.asarray(n_calls, dtype=np.int64), (len(counts),))
    indices = suit_indices(counts) if indices is None else indices
    classes = suit_classes_of(indices)
    tables = suit_classes()
    masks = np.zeros(len(counts), dtype=np.int64)
    for suit, kinds in enumerate(SUIT_SLICES):
        added = (tables.number_added if suit < 3 else tables.honor_added)[indices[:, suit]]
        distance = _distance_with_suit(classes, suit, np.maximum(added, 0), need[:, None], 1)
        completes = (distance == 0) & (added >= 0)
        masks |= np.bitwise_or.reduce(np.where(completes, KIND_BITS[kinds], 0), axis=1)
    if (counts == 4).any():
        masks |= _fifth_copy_waits(counts, indices, classes, need)
    return masks


def kind_masks(flags: np.ndarray) -> np.ndarray:
    """(N, 34) bool -> (N,) int64 34-bit masks (bit k: kind k)."""
    packed = np.zeros((len(flags), 8), dtype=np.uint8)
    packed[:, :5] = np.packbits(flags, axis=1, bitorder="little")
    return packed.view("<i8").ravel().astype(np.int64)


def chiitoitsu_waits(counts: np.ndarray, shanten: np.ndarray | None = None) -> np.ndarray:
    """Seven-pairs waits (N,) int64: the single kind of a hand with six other distinct pairs (``shanten``: the
    hands' chiitoitsu_shanten when known)."""
    masks = np.zeros(len(counts), dtype=np.int64)
    tenpai = np.flatnonzero((chiitoitsu_shanten(counts) if shanten is None else shanten) == 0)
    masks[tenpai] = kind_masks(counts[tenpai] == 1)
    return masks


def kokushi_waits(counts: np.ndarray, shanten: np.ndarray | None = None) -> np.ndarray:
    """Thirteen-orphans waits (N,) int64: all thirteen kinds, or the one missing beside a pair (``shanten``: the
    hands' kokushi_shanten when known)."""
    masks = np.zeros(len(counts), dtype=np.int64)
    tenpai = np.flatnonzero((kokushi_shanten(counts) if shanten is None else shanten) == 0)
    orphans = counts[tenpai][:, TERMINALS_HONORS_34]
    missing = np.zeros((len(tenpai), N_KINDS), dtype=bool)
    missing[:, TERMINALS_HONORS_34] = orphans == 0
    paired = (orphans >= 2).any(axis=1)
    masks[tenpai] = np.where(paired, kind_masks(missing), KIND_BITS[TERMINALS_HONORS_34].sum())
    return masks


def waits_mask(
    counts: np.ndarray,
    n_calls: np.ndarray | int = 0,
    distance: np.ndarray | None = None,
    indices: np.ndarray | None = None,
    special: tuple[np.ndarray, np.ndarray] | None = None,
    rows: np.ndarray | None = None,
) -> np.ndarray:
    """Return every hand's waits as a 34-bit mask (N,) int64, over all forms; 0 when not tenpai.

    ``counts`` (N, 34) closed-tile counts holding 13 - 3 x n_calls tiles; ``n_calls`` int or (N,).
    Seven pairs and thirteen orphans count only for hands without calls. ``distance``, ``indices`` and
    ``special``: the hands' regular_distance, suit_indices and (seven pairs, thirteen orphans) shanten when
    already known (the last two (N,) arrays, read only for hands without calls). ``rows``: the positions of
    the hands to look at, when not all (the others get 0).
    """
    counts = np.asarray(counts)
    calls = np.broadcast_to(np.asarray(n_calls, dtype=np.int64), (len(counts),))
    masks = np.zeros(len(counts), dtype=np.int64)
    rows = np.arange(len(counts)) if rows is None else rows
    if distance is None:
        distance = regular_distance(suit_indices(counts) if indices is None else indices, calls)
    # only tenpai hands wait, and 1-shanten hands holding four of a kind (a fifth copy may complete them)
    asked = distance[rows]
    is_near = asked <= 1
    two = np.flatnonzero(asked == 2)
    is_near[two] = (counts[rows[two]] == 4).any(axis=1)
    near = rows[is_near]
    for start in range(0, len(near), CHUNK):
        at = near[start : start + CHUNK]
        masks[at] = regular_waits(counts[at], calls[at], None if indices is None else indices[at])
    closed = rows[calls[rows] == 0]
    chiitoitsu, kokushi = special_shanten_at(counts, indices, closed, special)
    tenpai = (chiitoitsu == 0) | (kokushi == 0)
    held = counts[closed[tenpai]]
    masks[closed[tenpai]] |= chiitoitsu_waits(held, chiitoitsu[tenpai]) | kokushi_waits(held, kokushi[tenpai])
    return masks


def n_waits(masks: np.ndarray) -> np.ndarray:
    """Number of waiting kinds in each mask (N,) int8."""
    return np.bitwise_count(masks.astype(np.uint64)).astype(np.int8)
