"""Suit distance classes: the per-suit distance tables folded into a few small lookup tables.

A suit's distances (rules.suit_tables, capped: (5 meld counts, pair or not)) take only 126 distinct
values over all 5**9 number-suit shapes and 55 over all 5**7 honor shapes. Numbering those values
(a suit's *class*) turns the min-plus combination of suits (rules.shanten.combine) into table
lookups:

- ``pair_of_numbers[a, b]``: the class (among the values two number suits give together) of a+b;
- ``three_numbers[ab, c]``: the class of three number suits together;
- ``regular[abc, h, melds, pair]``: fewest tiles to add for ``melds`` melds and ``pair`` (0/1)
  pairs from three number suits and the honors.

So a hand's regular-form distance is four class lookups and three table lookups. For waits,
``number_added[index, k]`` / ``honor_added[index, k]`` hold the class of a suit shape with one more
tile of its k-th kind (-1 where the shape already holds four), so all candidate tiles of a suit are
tried with one lookup. The tables are built from the distance tables the
first time they are asked for (about half a second) and kept for the process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from rules.suit_tables import CAPPED, MAX_MELDS, capped_tables


@dataclass(frozen=True)
class SuitClasses:
    """Class of every suit shape and the tables combining classes (see the module docstring)."""

    number_class: np.ndarray
    honor_class: np.ndarray
    pair_of_numbers: np.ndarray
    three_numbers: np.ndarray
    regular: np.ndarray
    number_added: np.ndarray
    honor_added: np.ndarray


def _distinct(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct (5, 2) distance vectors of ``vectors`` (N, 5, 2) and the class of each row."""
    flat = vectors.reshape(len(vectors), -1)
    # one number per vector, base 31 (capped distances are 0-30): 31**10 < 2**53, exact in float64
    keys = flat.astype(np.float64) @ (float(CAPPED + 1) ** np.arange(flat.shape[1]))
    _, first, classes = np.unique(keys, return_index=True, return_inverse=True)
    return vectors[first], classes.astype(np.int16)


NONE = np.int8(4 * CAPPED + 7)
"""Start value of a minimum: above any sum of capped distances, still an int8."""


def combine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Min-plus convolution of two (N, 5, 2) distance arrays over melds and the (single) pair: the
    distances of two suits' tiles together."""
    out = np.full_like(a, NONE)
    for m_a in range(MAX_MELDS + 1):
        for m_b in range(MAX_MELDS + 1 - m_a):
            for p_a in (0, 1):
                for p_b in (0, 1 - p_a):
                    total = a[:, m_a, p_a] + b[:, m_b, p_b]
                    np.minimum(out[:, m_a + m_b, p_a + p_b], total, out=out[:, m_a + m_b, p_a + p_b])
    return out


def _combine_all(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Min-plus combination of every vector of ``a`` with every vector of ``b``: (len a, len b, 5, 2)."""
    left = np.repeat(a, len(b), axis=0)
    right = np.tile(b, (len(a), 1, 1))
    return combine(left, right).reshape(len(a), len(b), MAX_MELDS + 1, 2)


@cache
def suit_classes() -> SuitClasses:
    """Build (once per process) the class tables from the capped distance tables."""
    number, honor = capped_tables()
    number_values, number_class = _distinct(number)
    honor_values, honor_class = _distinct(honor)
    two = _combine_all(number_values, number_values)
    two_values, two_class = _distinct(two.reshape(-1, MAX_MELDS + 1, 2))
    three = _combine_all(two_values, number_values)
    three_values, three_class = _distinct(three.reshape(-1, MAX_MELDS + 1, 2))
    regular = _combine_all(three_values, honor_values)
    return SuitClasses(
        number_class=number_class,
        honor_class=honor_class,
        pair_of_numbers=two_class.reshape(len(number_values), len(number_values)),
        three_numbers=three_class.reshape(len(two_values), len(number_values)),
        regular=regular,
        number_added=_added(number_class, 9),
        honor_added=_added(honor_class, 7),
    )


def _added(classes: np.ndarray, n_kinds: int) -> np.ndarray:
    """(shapes, n_kinds) class of each shape with one more tile of each kind; -1 where it holds four."""
    shapes = np.arange(len(classes), dtype=np.int64)
    out = np.full((len(classes), n_kinds), -1, dtype=np.int16)
    for kind in range(n_kinds):
        weight = 5**kind
        room = (shapes // weight) % 5 < 4
        out[room, kind] = classes[shapes[room] + weight]
    return out


def number_classes(indices: np.ndarray) -> np.ndarray:
    """Class of each number-suit shape index (base-5 counts)."""
    return suit_classes().number_class[indices]


def honor_classes(indices: np.ndarray) -> np.ndarray:
    """Class of each honor shape index (base-5 counts)."""
    return suit_classes().honor_class[indices]


def regular_from_classes(
    man: np.ndarray, pin: np.ndarray, sou: np.ndarray, honors: np.ndarray, melds: np.ndarray, pair: int | np.ndarray
) -> np.ndarray:
    """Fewest tiles to add for ``melds`` melds and ``pair`` pairs, from the four suits' classes (N,) int8."""
    tables = suit_classes()
    n_numbers, n_honors = tables.three_numbers.shape[1], tables.regular.shape[1]
    # one flat index per lookup: several times faster than numpy's indexing by several arrays; a negative
    # meld count wraps as an index would
    two = tables.pair_of_numbers.ravel()[np.multiply(man, n_numbers, dtype=np.intp) + pin]
    three = tables.three_numbers.ravel()[np.multiply(two, n_numbers, dtype=np.intp) + sou]
    cell = (np.multiply(three, n_honors, dtype=np.intp) + honors) * (MAX_MELDS + 1) + np.mod(melds, MAX_MELDS + 1)
    return tables.regular.ravel()[cell * 2 + pair]
