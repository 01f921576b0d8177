"""rules.running's packed running counts and rules.hands.grouped_cumsum_1d against a plain per-group cumulative
sum (the running counts replaced rules.hands.grouped_cumsum, which summed an int8 matrix in int16 chunks of
4096 rows: the same group layouts are kept here)."""

from __future__ import annotations

import numpy as np
import pytest

from rules.hands import add_counts, grouped_cumsum_1d
from rules.running import LANE_BIAS, grouped_running_sums, running_counts, wrapped_cells

ROWS = 4096
"""The chunk size of the former int16 sums: group layouts around it are kept as cases."""


def naive(matrix: np.ndarray, group_start: np.ndarray) -> np.ndarray:
    """Per-group cumulative sums, one group at a time."""
    ends = np.append(group_start[1:], len(matrix))
    return np.concatenate([np.cumsum(matrix[a:b], axis=0) for a, b in zip(group_start, ends, strict=True)])


def running(matrix: np.ndarray, group_start: np.ndarray) -> np.ndarray:
    """running_counts of a dense int8 delta matrix (its nonzero cells as deltas)."""
    rows, columns = np.nonzero(matrix)
    return running_counts(rows, columns, matrix[rows, columns], matrix.shape, group_start)


@pytest.mark.parametrize(
    "starts, n",
    [
        ([0], 10),
        ([0, 3, 7], 9),
        ([0, 4000], ROWS + 900),  # a group starts before a multiple of 4096 and runs past it
        ([0, ROWS], 2 * ROWS),  # a group starts exactly there
        ([0, 1, ROWS - 1, ROWS + 1], 3 * ROWS + 5),
    ],
)
@pytest.mark.parametrize("width", [5, 34, 37])  # one word, five words exactly full, five words with room
def test_running_counts_restart_at_every_group(starts: list[int], n: int, width: int) -> None:
    rng = np.random.default_rng(len(starts) * n + width)
    group_start = np.array(starts)
    # running counts between 0 and 4 (as a hand's or a table's tile counts are), given as row differences
    counts = rng.integers(0, 5, size=(n, width))
    matrix = np.diff(counts, axis=0, prepend=0)
    matrix[group_start] = counts[group_start]
    matrix = matrix.astype(np.int8)
    expected = naive(matrix.astype(np.int64), group_start)
    assert np.array_equal(expected, counts)
    got = running(matrix, group_start)
    assert got.dtype == np.int8 and got.shape == (n, width)
    assert np.array_equal(got.astype(np.int64), expected)


def test_running_counts_are_exact_from_minus_64_to_191() -> None:
    # a malformed log can take a tile out of a hand that never held it: the count reads back negative
    rng = np.random.default_rng(3)
    n, width = 2000, 37
    counts = rng.integers(-LANE_BIAS, 192, size=(n, width))
    group_start = np.unique(np.r_[0, rng.integers(0, n, 50)])
    matrix = np.diff(counts, axis=0, prepend=0)
    matrix[group_start] = counts[group_start]
    rows, columns = np.nonzero(matrix)
    got = running_counts(rows, columns, matrix[rows, columns], (n, width), group_start)
    assert np.array_equal(got, counts.astype(np.int8))  # as an int8 matrix holds them (191 wraps to -65)


def test_grouped_running_sums_are_column_major_int64() -> None:
    rows, columns = np.array([0, 1, 1, 2, 3]), np.array([0, 1, 1, 0, 1])
    values = np.array([5, 1 << 40, 2, -7, 3])
    sums = grouped_running_sums(rows, columns, values, (4, 2), np.array([0, 2]))
    assert sums.tolist() == [[5, 5, -7, -7], [0, (1 << 40) + 2, 0, 3]]


def test_an_unknown_tile_lands_where_a_flat_matrix_puts_it() -> None:
    # an unknown tile's kind is -1 (-1 // 4): add_counts puts it on the flattened matrix's previous cell
    rows, columns, deltas = np.array([0, 2, 3]), np.array([-1, -1, 4]), np.array([1, 1, -1], dtype=np.int8)
    expected = add_counts(rows, columns, deltas, (4, 6))
    moved_rows, moved_columns = wrapped_cells(rows, columns, (4, 6))
    dense = np.zeros((4, 6), dtype=np.int8)
    np.add.at(dense, (moved_rows, moved_columns), deltas)
    assert np.array_equal(dense, expected)
    got = running_counts(moved_rows, moved_columns, deltas, (4, 6), np.array([0]))
    assert np.array_equal(got, np.cumsum(expected, axis=0))


@pytest.mark.parametrize("seed", range(5))
def test_grouped_cumsum_1d_equals_the_matrix_form(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 3 * ROWS))
    values = (rng.random(n) < 0.003).astype(np.int8)  # a call added at a state: 0 or 1, a few per group
    group_start = np.unique(np.r_[0, rng.integers(0, n, int(rng.integers(0, 400)))])
    expected = naive(values[:, None].astype(np.int64), group_start)[:, 0]
    assert np.array_equal(grouped_cumsum_1d(values, group_start).astype(np.int64), expected)
