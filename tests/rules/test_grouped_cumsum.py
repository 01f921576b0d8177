"""rules.hands.grouped_cumsum against a plain per-group cumulative sum, across its chunk boundaries."""

from __future__ import annotations

import numpy as np
import pytest

from rules.hands import CHUNK_ROWS, grouped_cumsum, grouped_cumsum_1d


def naive(matrix: np.ndarray, group_start: np.ndarray) -> np.ndarray:
    """Per-group cumulative sums, one group at a time."""
    ends = np.append(group_start[1:], len(matrix))
    return np.concatenate([np.cumsum(matrix[a:b], axis=0) for a, b in zip(group_start, ends, strict=True)])


@pytest.mark.parametrize(
    "starts, n",
    [
        ([0], 10),
        ([0, 3, 7], 9),
        ([0, 4000], CHUNK_ROWS + 900),  # the last group starts before a chunk's row and runs past it
        ([0, CHUNK_ROWS], 2 * CHUNK_ROWS),  # a group starts exactly at a chunk's row
        ([0, 1, CHUNK_ROWS - 1, CHUNK_ROWS + 1], 3 * CHUNK_ROWS + 5),
    ],
)
def test_grouped_cumsum_restarts_at_every_group(starts: list[int], n: int) -> None:
    rng = np.random.default_rng(len(starts) * n)
    group_start = np.array(starts)
    # running counts between 0 and 4 (as a hand's or a table's tile counts are), given as row differences
    counts = rng.integers(0, 5, size=(n, 5))
    matrix = np.diff(counts, axis=0, prepend=0)
    matrix[group_start] = counts[group_start]
    matrix = matrix.astype(np.int8)
    expected = naive(matrix.astype(np.int64), group_start)
    assert np.array_equal(expected, counts)
    assert np.array_equal(grouped_cumsum(matrix, group_start).astype(np.int64), expected)


@pytest.mark.parametrize("seed", range(5))
def test_grouped_cumsum_1d_equals_the_matrix_form(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 3 * CHUNK_ROWS))
    values = (rng.random(n) < 0.003).astype(np.int8)  # a call added at a state: 0 or 1, a few per group
    group_start = np.unique(np.r_[0, rng.integers(0, n, int(rng.integers(0, 400)))])
    expected = naive(values[:, None].astype(np.int64), group_start)[:, 0]
    assert np.array_equal(grouped_cumsum_1d(values, group_start).astype(np.int64), expected)
