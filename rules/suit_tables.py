"""Per-suit distance tables for shanten and waits (the table-driven method of the fastest engines).

For every pattern of one suit (counts 0-4 of each of its kinds, indexed in base 5: kind ``i`` adds
``count * 5**i``) and every goal of ``m`` melds (0-4) with or without a pair, the table holds the
fewest tiles that must be added to the pattern so that it contains that many melds (and the pair).
A whole hand's distance to a complete hand is then the best split of the goal over its suits, and
shanten = distance - 1.

The tables are generated here (``python -m rules.suit_tables`` writes ``rules/data/suit_tables.npz``,
about 5 s) and loaded from that file (330 KB, 40 ms); a test pins the checksum and regenerates them.
At run time shanten and waits read only the suit class tables folded from these (rules.suit_classes,
shipped in ``rules/data/suit_classes.npz``); these are loaded to build and test those.
Generation: mark the exact goal patterns, close them upwards (a pattern containing a goal
is a goal: a cumulative OR along each kind's axis), then walk down each axis adding one per missing
tile (a reverse cumulative minimum), which is exact because the cost is a sum over kinds.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from itertools import combinations_with_replacement
from pathlib import Path

import numpy as np

MAX_MELDS = 4
"""Goals are 0-4 melds, with (1) or without (0) a pair."""

NUMBER_KINDS, HONOR_KINDS = 9, 7
"""Kinds of a number suit (man, pin, sou) and of the honors."""

UNREACHABLE = 127
"""Distance stored where a goal cannot be reached (never, within counts 0-4)."""


def _meld_shapes(n_kinds: int, sequences: bool) -> list[np.ndarray]:
    shapes = []
    for i in range(n_kinds):
        triplet = np.zeros(n_kinds, dtype=np.int64)
        triplet[i] = 3
        shapes.append(triplet)
    if sequences:
        for i in range(n_kinds - 2):
            run = np.zeros(n_kinds, dtype=np.int64)
            run[i : i + 3] = 1
            shapes.append(run)
    return shapes


def _goal_mask(n_kinds: int, sequences: bool, melds: int, pair: int) -> np.ndarray:
    """Boolean array of shape (5,)*n_kinds: patterns that are exactly ``melds`` melds (+ a pair)."""
    mask = np.zeros((5,) * n_kinds, dtype=bool)
    pairs = [np.zeros(n_kinds, dtype=np.int64)]
    if pair:
        pairs = [np.eye(n_kinds, dtype=np.int64)[i] * 2 for i in range(n_kinds)]
    for combo in combinations_with_replacement(_meld_shapes(n_kinds, sequences), melds):
        base = np.sum(combo, axis=0) if combo else np.zeros(n_kinds, dtype=np.int64)
        for pair_shape in pairs:
            counts = base + pair_shape
            if counts.max() <= 4:
                mask[tuple(counts)] = True
    return mask


def _distance(goal: np.ndarray) -> np.ndarray:
    """Fewest tiles to add to each pattern so that it contains a goal pattern."""
    contains = goal.copy()
    for axis in range(goal.ndim):
        contains = np.logical_or.accumulate(contains, axis=axis)
    dist = np.where(contains, 0, UNREACHABLE).astype(np.int16)
    for axis in range(goal.ndim):
        moved = np.moveaxis(dist, axis, 0)
        for count in range(3, -1, -1):
            np.minimum(moved[count], moved[count + 1] + 1, out=moved[count])
    return np.minimum(dist, UNREACHABLE).astype(np.int8)


def build_table(n_kinds: int, sequences: bool) -> np.ndarray:
    """Return the distance table of a suit: shape (5**n_kinds, MAX_MELDS + 1, 2), int8.

    Row ``index`` (base 5, kind ``i`` weighted ``5**i``), column ``[melds, pair]``.
    """
    table = np.empty((5**n_kinds, MAX_MELDS + 1, 2), dtype=np.int8)
    for melds in range(MAX_MELDS + 1):
        for pair in (0, 1):
            dist = _distance(_goal_mask(n_kinds, sequences, melds, pair))
            # axis order: C order puts kind 0 first, so transpose to make kind i weigh 5**i
            table[:, melds, pair] = dist.transpose().reshape(-1)
    return table


TABLE_FILE = "suit_tables.npz"
"""The generated tables, in ``rules/data``."""


CAPPED = 30
"""Distances are capped here when loaded (a real one is at most 14): sums over four suits then fit in int8."""


@cache
def _load() -> dict[str, np.ndarray]:
    with resources.files("rules").joinpath("data", TABLE_FILE).open("rb") as handle, np.load(handle) as npz:
        return {"number": npz["number"], "honor": npz["honor"]}


@cache
def capped_tables() -> tuple[np.ndarray, np.ndarray]:
    """(number, honor) tables with distances capped at CAPPED, for int8 arithmetic."""
    return np.minimum(number_table(), CAPPED), np.minimum(honor_table(), CAPPED)


def number_table() -> np.ndarray:
    """Distance table of a number suit (9 kinds, sequences allowed): (5**9, 5, 2) int8."""
    return _load()["number"]


def honor_table() -> np.ndarray:
    """Distance table of the honors (7 kinds, triplets and pairs only): (5**7, 5, 2) int8."""
    return _load()["honor"]


def table_checksum(number: np.ndarray, honor: np.ndarray) -> str:
    """SHA-256 of both tables' bytes (pinned by a test)."""
    digest = hashlib.sha256(number.tobytes())
    digest.update(honor.tobytes())
    return digest.hexdigest()


def generate(path: Path) -> str:
    """Build both tables, write them to ``path`` (npz) and return their checksum."""
    number = build_table(NUMBER_KINDS, sequences=True)
    honor = build_table(HONOR_KINDS, sequences=False)
    np.savez_compressed(path, number=number, honor=honor)
    return table_checksum(number, honor)


if __name__ == "__main__":
    print(generate(Path(__file__).parent / "data" / TABLE_FILE))
