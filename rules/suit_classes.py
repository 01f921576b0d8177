"""Suit distance classes: the per-suit distance tables folded into a few small lookup tables.

A suit's distances (rules.suit_tables, capped: (5 meld counts, pair or not)) take only 126 distinct
values over all 5**9 number-suit shapes and 55 over all 5**7 honor shapes. Numbering those values
(a suit's *class*) turns the min-plus combination of suits (rules.shanten.combine) into table
lookups:

- ``pair_of_numbers[a, b]``: the class (among the values two number suits give together) of a+b;
- ``three_numbers[ab, c]``: the class of three number suits together;
- ``regular[abc, h, melds, pair]``: fewest tiles to add for ``melds`` melds and ``pair`` (0/1)
  pairs from three number suits and the honors.

So a hand's regular-form distance is four class lookups and three table lookups; a wait candidate
(one more tile of a kind) is the class of the suit's index plus that kind's weight. The tables are
built from the distance tables by ``build_suit_classes`` (about half a second) and shipped in
``rules/data/suit_classes.npz`` (``python -m rules.suit_classes`` writes it; a test pins its checksum
and that a fresh build reproduces it), so a process only loads them (a few ms).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields
from functools import cache
from importlib import resources
from pathlib import Path

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


def build_suit_classes() -> SuitClasses:
    """Build the class tables from the capped distance tables (about half a second; ``generate`` ships them)."""
    number, honor = capped_tables()
    number_values, number_class = _distinct(number)
    honor_values, honor_class = _distinct(honor)
    two = _combine_all(number_values, number_values)
    two_values, two_class = _distinct(two.reshape(-1, MAX_MELDS + 1, 2))
    three = _combine_all(two_values, number_values)
    three_values, three_class = _distinct(three.reshape(-1, MAX_MELDS + 1, 2))
    regular = _combine_all(three_values, honor_values)
    return SuitClasses(
        # fewer than 256 classes per suit: one byte per shape (2 MB for the number suits)
        number_class=number_class.astype(np.uint8),
        honor_class=honor_class.astype(np.uint8),
        pair_of_numbers=two_class.reshape(len(number_values), len(number_values)),
        three_numbers=three_class.reshape(len(two_values), len(number_values)),
        regular=regular,
    )


CLASS_FILE = "suit_classes.npz"
"""The shipped class tables, in ``rules/data`` (``python -m rules.suit_classes`` writes them)."""


@cache
def suit_classes() -> SuitClasses:
    """The shipped class tables (loaded once per process, a few ms; a test pins that build_suit_classes gives them)."""
    with resources.files("rules").joinpath("data", CLASS_FILE).open("rb") as handle, np.load(handle) as npz:
        return SuitClasses(**{field.name: npz[field.name] for field in fields(SuitClasses)})


def classes_checksum(tables: SuitClasses) -> str:
    """SHA-256 of every class table's name, dtype, shape and bytes (pinned by a test)."""
    digest = hashlib.sha256()
    for field in fields(SuitClasses):
        array = np.ascontiguousarray(getattr(tables, field.name))
        digest.update(f"{field.name} {array.dtype.str} {array.shape}".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def generate(path: Path) -> str:
    """Build the class tables, write them to ``path`` (npz) and return their checksum."""
    tables = build_suit_classes()
    np.savez_compressed(path, **{field.name: getattr(tables, field.name) for field in fields(SuitClasses)})
    return classes_checksum(tables)


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


if __name__ == "__main__":
    print(generate(Path(__file__).parent / "data" / CLASS_FILE))
