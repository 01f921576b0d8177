"""Shanten, tenpai and waits for many hands at once, from the per-suit distance tables.

Hands are (N, 34) arrays of closed-tile counts (34-encoding) with the number of calls each hand has
made (each call replaces one of the four melds). Shanten is the minimum of the regular form (four
melds and a pair), seven pairs and thirteen orphans (the last two for hands without calls);
-1 means the tiles already form a complete hand.

The per-hand work runs in numba kernels (rules.compiled) over the count arrays, one pass per call:
a hand's regular-form distance is four class lookups and three table lookups in the shipped suit
class tables (rules.suit_classes); seven pairs and thirteen orphans count the kinds held.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rules.compiled import njit
from rules.suit_classes import SuitClasses, suit_classes
from rules.suit_tables import MAX_MELDS
from rules.tiles import N_KINDS, TERMINALS_HONORS_34

if TYPE_CHECKING:
    from rules.hand_batch import HandBatch

SUIT_SLICES = (slice(0, 9), slice(9, 18), slice(18, 27), slice(27, 34))
"""34-kinds of man, pin, sou, honors."""

CHUNK = 1 << 15
"""Rows per pass of the callers that work in chunks (kept for them: the kernels take any number of rows)."""

IS_ORPHAN = np.zeros(N_KINDS, dtype=np.bool_)
IS_ORPHAN[TERMINALS_HONORS_34] = True
"""Terminal and honor kinds (thirteen orphans)."""

NO_ROWS_INT8 = np.zeros(0, dtype=np.int8)
NO_ROWS_INT64 = np.zeros(0, dtype=np.int64)
NO_INDICES = np.zeros((0, 4), dtype=np.int64)
"""Stand-ins for an argument not given to a kernel (length 0: compute it)."""


@njit
def suit_index_of(counts: np.ndarray, row: int, suit: int) -> int:
    """Base-5 index of one suit of one hand (kind i of the suit weighs 5**i)."""
    first = 9 * suit
    index = 0
    for kind in range(first + (9 if suit < 3 else 7) - 1, first - 1, -1):  # Horner's rule, highest kind first
        index = index * 5 + counts[row, kind]
    return index


@njit
def check_indices(man: int, pin: int, sou: int, honors: int, tables: tuple[np.ndarray, ...]) -> None:
    """Raise ValueError unless the four suit indices name suit shapes (counts 0-4): kernels do not check bounds."""
    n_numbers, n_honors = tables[0].shape[0], tables[1].shape[0]
    if not (0 <= man < n_numbers and 0 <= pin < n_numbers and 0 <= sou < n_numbers and 0 <= honors < n_honors):
        raise ValueError("a suit index outside the tables: hand counts must be 0-4")


@njit
def distance_of_classes(
    man: int, pin: int, sou: int, honors: int, melds: int, pair: int, tables: tuple[np.ndarray, ...]
) -> int:
    """Fewest tiles to add for ``melds`` melds (a negative count wraps, as an index) and ``pair`` pairs, from the
    four suits' classes; ``tables``: kernel_tables()."""
    pair_of_numbers, three_numbers, regular = tables[2], tables[3], tables[4]
    three = three_numbers[pair_of_numbers[man, pin], sou]
    return regular[three, honors, melds % (MAX_MELDS + 1), pair]


@njit
def special_of(counts: np.ndarray, row: int) -> tuple[int, int]:
    """Seven-pairs and thirteen-orphans shanten of one hand (a kind held four times is one pair)."""
    kinds, pairs, orphans, paired_orphan = 0, 0, 0, 0
    for kind in range(counts.shape[1]):
        count = counts[row, kind]
        kinds += count != 0
        pairs += count >= 2
        if IS_ORPHAN[kind]:
            orphans += count != 0
            paired_orphan |= count >= 2
    return 6 - pairs + max(0, 7 - kinds), 13 - orphans - paired_orphan


@njit
def _suit_indices_kernel(counts: np.ndarray, out: np.ndarray) -> None:
    """out[row, suit] = suit_index_of(counts, row, suit) for every hand."""
    for row in range(counts.shape[0]):
        for suit in range(4):
            out[row, suit] = suit_index_of(counts, row, suit)


@njit
def _distance_kernel(indices: np.ndarray, calls: np.ndarray, tables: tuple[np.ndarray, ...], out: np.ndarray) -> None:
    """out[row] = regular-form distance of each hand from its suit indices and calls."""
    number_class, honor_class = tables[0], tables[1]
    for row in range(indices.shape[0]):
        check_indices(indices[row, 0], indices[row, 1], indices[row, 2], indices[row, 3], tables)
        out[row] = distance_of_classes(  # the classes widened: one compiled signature for every caller
            np.int64(number_class[indices[row, 0]]),
            np.int64(number_class[indices[row, 1]]),
            np.int64(number_class[indices[row, 2]]),
            np.int64(honor_class[indices[row, 3]]),
            MAX_MELDS - calls[row],
            1,
            tables,
        )


@njit
def _special_kernel(counts: np.ndarray, rows: np.ndarray, chiitoitsu: np.ndarray, kokushi: np.ndarray) -> None:
    """Seven-pairs and thirteen-orphans shanten of the hands at ``rows``, into position i for rows[i]."""
    for i in range(rows.shape[0]):
        chiitoitsu[i], kokushi[i] = special_of(counts, rows[i])


@njit
def _ingredients_kernel(
    counts: np.ndarray, calls: np.ndarray, indices: np.ndarray, tables: tuple[np.ndarray, ...], distance: np.ndarray,
    chiitoitsu: np.ndarray, kokushi: np.ndarray,
) -> None:  # fmt: skip
    """distance[row], chiitoitsu[row], kokushi[row] of every hand in one pass: _distance_kernel's regular-form
    distance, and special_of's shanten of the hands without calls (99 for the others: special_shanten_all's)."""
    number_class, honor_class = tables[0], tables[1]
    for row in range(counts.shape[0]):
        if calls[row] == 0:
            chiitoitsu[row], kokushi[row] = special_of(counts, row)
        else:
            chiitoitsu[row], kokushi[row] = 99, 99
        check_indices(indices[row, 0], indices[row, 1], indices[row, 2], indices[row, 3], tables)
        distance[row] = distance_of_classes(
            np.int64(number_class[indices[row, 0]]), np.int64(number_class[indices[row, 1]]),
            np.int64(number_class[indices[row, 2]]), np.int64(honor_class[indices[row, 3]]),
            MAX_MELDS - calls[row], 1, tables,
        )  # fmt: skip


@njit
def _shanten_kernel(
    counts: np.ndarray,
    calls: np.ndarray,
    distance: np.ndarray,
    indices: np.ndarray,
    chiitoitsu: np.ndarray,
    kokushi: np.ndarray,
    tables: tuple[np.ndarray, ...],
    out: np.ndarray,
) -> None:
    """out[row] = shanten of each hand; ``distance``, ``indices``, ``chiitoitsu``/``kokushi``: used when of
    length > 0 (else computed from the counts)."""
    number_class, honor_class = tables[0], tables[1]
    for row in range(counts.shape[0]):
        if distance.shape[0]:
            regular = distance[row]
        else:
            if indices.shape[0]:
                man, pin, sou, honors = indices[row, 0], indices[row, 1], indices[row, 2], indices[row, 3]
            else:
                man, pin = suit_index_of(counts, row, 0), suit_index_of(counts, row, 1)
                sou, honors = suit_index_of(counts, row, 2), suit_index_of(counts, row, 3)
            check_indices(man, pin, sou, honors, tables)
            regular = distance_of_classes(
                np.int64(number_class[man]), np.int64(number_class[pin]), np.int64(number_class[sou]),
                np.int64(honor_class[honors]), MAX_MELDS - calls[row], 1, tables,
            )  # fmt: skip
        best = regular - 1
        if calls[row] == 0:  # seven pairs and thirteen orphans need a closed hand
            if chiitoitsu.shape[0]:
                seven, thirteen = chiitoitsu[row], kokushi[row]
            else:
                seven, thirteen = special_of(counts, row)
            best = min(best, seven, thirteen)
        out[row] = best


def kernel_tables(tables: SuitClasses | None = None) -> tuple[np.ndarray, ...]:
    """The suit class tables as the kernels take them: (number_class, honor_class, pair_of_numbers,
    three_numbers, regular)."""
    t = suit_classes() if tables is None else tables
    return t.number_class, t.honor_class, t.pair_of_numbers, t.three_numbers, t.regular


def as_counts(counts: np.ndarray) -> np.ndarray:
    """(N, 34) closed-tile counts as the kernels take them: C-contiguous int8 (no copy when already so)."""
    return np.ascontiguousarray(counts, dtype=np.int8)


def as_calls(n_calls: np.ndarray | int, n: int) -> np.ndarray:
    """Calls of each of ``n`` hands (an int or (n,)) as a contiguous, writable (n,) int64 (numba compiles a kernel
    again for a read-only array: broadcast_to's view of an array is one)."""
    return np.require(np.broadcast_to(np.asarray(n_calls, dtype=np.int64), (n,)), requirements=("C", "W"))


def given(values: np.ndarray | None, dtype: type, empty: np.ndarray) -> np.ndarray:
    """An optional kernel argument: ``values`` as a contiguous ``dtype`` array, or ``empty`` (length 0) when None."""
    return empty if values is None else np.ascontiguousarray(values, dtype=dtype)


def suit_indices(counts: np.ndarray) -> np.ndarray:
    """Return the base-5 table index of each suit of each hand: (N, 4) int64."""
    counts = as_counts(counts)
    out = np.empty((len(counts), 4), dtype=np.int64)
    _suit_indices_kernel(counts, out)
    return out


def suit_classes_of(indices: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The distance class of each suit of each hand (rules.suit_classes), from suit_indices."""
    tables = suit_classes()
    number, honor = tables.number_class, tables.honor_class
    return number[indices[:, 0]], number[indices[:, 1]], number[indices[:, 2]], honor[indices[:, 3]]


def regular_distance(indices: np.ndarray, n_calls: np.ndarray | int) -> np.ndarray:
    """Fewest tiles to add so the closed tiles hold (4 - n_calls) melds and a pair: (N,) int8."""
    indices = np.ascontiguousarray(indices, dtype=np.int64)
    out = np.empty(len(indices), dtype=np.int8)
    _distance_kernel(indices, as_calls(n_calls, len(indices)), kernel_tables(), out)
    return out


def special_shanten(
    counts: np.ndarray, indices: np.ndarray | None = None, rows: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Seven-pairs and thirteen-orphans shanten of the hands at ``rows`` (default all), (len,) int64 each, as
    chiitoitsu_shanten and kokushi_shanten give. ``indices`` (the hands' suit_indices) is accepted for the
    callers that have them: the kernel counts the kinds directly."""
    counts = as_counts(counts)
    rows = np.arange(len(counts), dtype=np.int64) if rows is None else np.ascontiguousarray(rows, dtype=np.int64)
    chiitoitsu, kokushi = np.empty(len(rows), dtype=np.int64), np.empty(len(rows), dtype=np.int64)
    _special_kernel(counts, rows, chiitoitsu, kokushi)
    return chiitoitsu, kokushi


def chiitoitsu_shanten(counts: np.ndarray) -> np.ndarray:
    """Seven-pairs shanten: 6 - pairs + missing distinct kinds (a kind held four times is one pair)."""
    return special_shanten(counts)[0]


def kokushi_shanten(counts: np.ndarray) -> np.ndarray:
    """Thirteen-orphans shanten: 13 - distinct terminal/honor kinds - (1 if one of them is paired)."""
    return special_shanten(counts)[1]


def shanten(hands: HandBatch | np.ndarray, n_calls: np.ndarray | int = 0) -> np.ndarray:
    """Return the shanten of each hand (N,) int8: min of regular, seven pairs, thirteen orphans.

    ``hands`` is a rules.hand_batch.HandBatch (its suit indices, regular distance and special shanten are read,
    not computed again), or (N, 34) closed-tile counts with ``n_calls`` the calls of each hand (an int or (N,));
    a hand holds 13 - 3 x n_calls tiles (or one more, mid-turn). Seven pairs and thirteen orphans apply only to
    hands without calls.
    """
    counts, calls, distance, indices, chiitoitsu, kokushi = kernel_hands(hands, n_calls)
    out = np.empty(len(counts), dtype=np.int8)
    _shanten_kernel(counts, calls, distance, indices, chiitoitsu, kokushi, kernel_tables(), out)
    return out


def kernel_hands(hands: HandBatch | np.ndarray, n_calls: np.ndarray | int = 0) -> tuple[np.ndarray, ...]:
    """(counts, calls, distance, indices, chiitoitsu, kokushi) as the kernels take them: a HandBatch's, or for
    counts (N, 34) with ``n_calls``, the last four of length 0 (the kernels compute them as they go)."""
    if isinstance(hands, np.ndarray):
        counts = as_counts(hands)
        return counts, as_calls(n_calls, len(counts)), NO_ROWS_INT8, NO_INDICES, NO_ROWS_INT64, NO_ROWS_INT64
    return hands.counts, hands.n_calls, hands.distance, hands.suit_index, hands.chiitoitsu, hands.kokushi


def special_shanten_all(
    counts: np.ndarray, n_calls: np.ndarray, indices: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Seven-pairs and thirteen-orphans shanten of every hand without calls, (N,) int64 each (the hands with
    calls get 99: these forms need a closed hand); for shanten's and waits_mask's ``special``."""
    closed = np.flatnonzero(np.asarray(n_calls) == 0)
    chiitoitsu, kokushi = np.full(len(counts), 99, dtype=np.int64), np.full(len(counts), 99, dtype=np.int64)
    chiitoitsu[closed], kokushi[closed] = special_shanten(counts, indices, closed)
    return chiitoitsu, kokushi


def batch_ingredients(
    counts: np.ndarray, n_calls: np.ndarray, indices: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The regular-form distance (N,) int8 (regular_distance) and the seven-pairs and thirteen-orphans shanten (N,)
    int64 each (special_shanten_all: 99 for hands with calls) of ``counts`` (as_counts), ``n_calls`` (as_calls)
    and their ``indices`` (suit_indices), in one compiled pass (what rules.hand_batch.HandBatch holds)."""
    n = len(counts)
    distance = np.empty(n, dtype=np.int8)
    chiitoitsu, kokushi = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    _ingredients_kernel(counts, n_calls, np.ascontiguousarray(indices, dtype=np.int64), kernel_tables(), distance,
                        chiitoitsu, kokushi)  # fmt: skip
    return distance, chiitoitsu, kokushi
