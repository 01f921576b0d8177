"""Waits of tenpai hands, many at once: the kinds that complete each hand, as a 34-bit mask.

A kind completes a hand when the closed tiles plus that tile hold the melds the hand still needs
and a pair (regular form), or seven distinct pairs, or thirteen orphans with a pair (hands without
calls). A kind the hand already holds four of is counted as a wait when a fifth copy would complete
the hand: such a wait can never come (pure karaten), and Tenhou counts a hand whose every wait is
like that as noten; see rules.karaten.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rules.compiled import njit
from rules.shanten import (
    IS_ORPHAN,
    MAX_MELDS,
    NO_INDICES,
    NO_ROWS_INT8,
    NO_ROWS_INT64,
    as_calls,
    as_counts,
    check_indices,
    chiitoitsu_shanten,
    distance_of_classes,
    given,
    kernel_hands,
    kernel_tables,
    kokushi_shanten,
    special_of,
    suit_index_of,
)
from rules.tiles import N_KINDS, TERMINALS_HONORS_34

if TYPE_CHECKING:
    from rules.hand_batch import HandBatch

KIND_BITS = np.int64(1) << np.arange(N_KINDS, dtype=np.int64)
"""Bit of each 34-kind in a ``*_mask`` column."""

ALL_ORPHANS = np.int64(KIND_BITS[TERMINALS_HONORS_34].sum())
"""The thirteen-sided wait of thirteen orphans."""


@njit
def _with_suit(classes: np.ndarray, suit: int, replaced: int, melds: int, pair: int, tables: tuple) -> int:
    """Regular-form distance of a hand whose suit ``suit`` has the class ``replaced`` instead of classes[suit]."""
    man = replaced if suit == 0 else classes[0]
    pin = replaced if suit == 1 else classes[1]
    sou = replaced if suit == 2 else classes[2]
    honors = replaced if suit == 3 else classes[3]
    return distance_of_classes(man, pin, sou, honors, melds, pair, tables)


@njit
def regular_mask_of(counts: np.ndarray, row: int, indices: np.ndarray, need: int, tables: tuple) -> int:
    """Regular-form waits of one hand (suit ``indices`` (4,), ``need`` melds still to make) as a 34-bit mask.

    A kind completes the hand when the suit's class with one more of its tiles leaves distance 0; a kind held
    four times, when its (impossible) fifth copy would make a triplet (the rest: one meld fewer and a pair) or
    the pair."""
    number_class, honor_class = tables[0], tables[1]
    classes = np.empty(4, dtype=np.int64)
    for suit in range(4):
        classes[suit] = (number_class if suit < 3 else honor_class)[indices[suit]]
    mask = 0
    for suit in range(4):
        suit_class = number_class if suit < 3 else honor_class
        index, weight = indices[suit], 1
        for kind in range(9 * suit, 9 * suit + (9 if suit < 3 else 7)):
            bit = np.int64(1) << kind
            has_room = (index // weight) % 5 < 4  # room for one more tile of the kind in this shape
            if has_room and _with_suit(classes, suit, suit_class[index + weight], need, 1, tables) == 0:
                mask |= bit
            if counts[row, kind] == 4:  # a fifth copy: as a triplet (two left) or as the pair (three left)
                as_triplet = _with_suit(classes, suit, suit_class[index - 2 * weight], max(need - 1, 0), 1, tables)
                as_pair = _with_suit(classes, suit, suit_class[index - weight], need, 0, tables)
                if as_triplet == 0 or as_pair == 0:
                    mask |= bit
            weight *= 5
    return mask


@njit
def special_mask_of(counts: np.ndarray, row: int, chiitoitsu: int, kokushi: int) -> int:
    """Seven-pairs and thirteen-orphans waits of one hand without calls, from its shanten of both forms: the
    single kind beside six pairs; all thirteen orphans, or the one missing beside a pair."""
    mask = 0
    if chiitoitsu == 0:
        for kind in range(N_KINDS):
            if counts[row, kind] == 1:
                mask |= np.int64(1) << kind
    if kokushi == 0:
        paired, missing = False, 0
        for kind in range(N_KINDS):
            if IS_ORPHAN[kind]:
                paired |= counts[row, kind] >= 2
                if counts[row, kind] == 0:
                    missing |= np.int64(1) << kind
        mask |= missing if paired else ALL_ORPHANS
    return mask


@njit
def _waits_kernel(
    counts: np.ndarray,
    calls: np.ndarray,
    rows: np.ndarray,
    distance: np.ndarray,
    indices: np.ndarray,
    chiitoitsu: np.ndarray,
    kokushi: np.ndarray,
    only_near: bool,
    special: bool,
    tables: tuple,
    masks: np.ndarray,
) -> None:
    """masks[row] = waits of each hand at ``rows``; ``distance``, ``indices``, ``chiitoitsu``/``kokushi``: used
    when of length > 0 (else computed). ``only_near``: the regular form only for hands at distance 1 or below, or
    2 with a kind held four times (no other can complete with one tile); ``special``: seven pairs and thirteen
    orphans too (hands without calls)."""
    number_class, honor_class = tables[0], tables[1]
    suits = np.empty(4, dtype=np.int64)
    for i in range(rows.shape[0]):
        row = rows[i]
        for suit in range(4):
            suits[suit] = indices[row, suit] if indices.shape[0] else suit_index_of(counts, row, suit)
        check_indices(suits[0], suits[1], suits[2], suits[3], tables)
        need = MAX_MELDS - calls[row]
        near = True
        if only_near:
            if distance.shape[0]:
                regular = distance[row]
            else:
                regular = distance_of_classes(
                    np.int64(number_class[suits[0]]), np.int64(number_class[suits[1]]),
                    np.int64(number_class[suits[2]]), np.int64(honor_class[suits[3]]), need, 1, tables,
                )  # fmt: skip
            near = regular <= 1
            if regular == 2:
                for kind in range(N_KINDS):
                    near |= counts[row, kind] == 4
        mask = regular_mask_of(counts, row, suits, need, tables) if near else 0
        if special and calls[row] == 0:
            if chiitoitsu.shape[0]:
                seven, thirteen = chiitoitsu[row], kokushi[row]
            else:
                seven, thirteen = special_of(counts, row)
            mask |= special_mask_of(counts, row, seven, thirteen)
        masks[row] = mask


def regular_waits(counts: np.ndarray, n_calls: np.ndarray, indices: np.ndarray | None = None) -> np.ndarray:
    """Waits of the regular form (melds + a pair) as masks (N,) int64; 0 when not tenpai.

    ``counts`` (N, 34) must hold 13 - 3 x n_calls tiles; ``indices``, their suit_indices when known. Every
    kind is tried: the suit's class with that tile added (rules.suit_classes) against the other suits.
    """
    counts = as_counts(counts)
    masks = np.zeros(len(counts), dtype=np.int64)
    rows = np.arange(len(counts), dtype=np.int64)
    calls = as_calls(n_calls, len(counts))
    indices = given(indices, np.int64, NO_INDICES)
    _waits_kernel(
        counts, calls, rows, NO_ROWS_INT8, indices, NO_ROWS_INT64, NO_ROWS_INT64, False, False, kernel_tables(), masks
    )
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
    hands: HandBatch | np.ndarray, n_calls: np.ndarray | int = 0, rows: np.ndarray | None = None
) -> np.ndarray:
    """Return every hand's waits as a 34-bit mask (N,) int64, over all forms; 0 when not tenpai.

    ``hands`` is a rules.hand_batch.HandBatch (what it holds is read, not computed again), or (N, 34)
    closed-tile counts with ``n_calls`` (an int or (N,)); a hand holds 13 - 3 x n_calls tiles. Seven pairs and
    thirteen orphans count only for hands without calls. ``rows``: the positions of the hands to look at, when
    not all (the others get 0).
    """
    counts, calls, distance, indices, chiitoitsu, kokushi = kernel_hands(hands, n_calls)
    masks = np.zeros(len(counts), dtype=np.int64)
    rows = np.arange(len(counts), dtype=np.int64) if rows is None else np.ascontiguousarray(rows, dtype=np.int64)
    _waits_kernel(
        counts, calls, rows, distance, indices, chiitoitsu, kokushi, True, True, kernel_tables(), masks
    )  # fmt: skip
    return masks


def n_waits(masks: np.ndarray) -> np.ndarray:
    """Number of waiting kinds in each mask (N,) int8."""
    return np.bitwise_count(masks.astype(np.uint64)).astype(np.int8)
