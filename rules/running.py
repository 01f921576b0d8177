"""Running sums within groups of rows (a round's events, a seat's hand states), many columns at once.

Values are scattered into a column-major int64 matrix, and each column is summed by one 1-D
``np.cumsum`` restarted at every group start (the value at a group's first row minus the previous
groups' totals): numpy sums a contiguous 1-D array several times faster than a 2-D one along its rows.

Small counts (tiles of a kind: 0-4) travel eight to an int64 word, a byte each (``running_counts``):
a word holding sum(count_k x 256**k) sums to sum(running count_k x 256**k), exact while every running
count stays within a byte. Each count is offset by LANE_BIAS so that the bytes are exact for counts
from -64 to 191 (a real count is 0-4; a negative one, from a malformed log, stays what it is).
"""

from __future__ import annotations

import numpy as np

LANES = 8
"""Counts per int64 word."""

LANE_BIAS = 64
"""Added to every packed count (and taken off when unpacked): counts from -64 to 191 unpack exactly."""

_BIAS_WORD = int(sum(LANE_BIAS << (8 * lane) for lane in range(LANES)))


def grouped_running_sums(
    rows: np.ndarray, columns: np.ndarray, values: np.ndarray, shape: tuple[int, int], group_start: np.ndarray
) -> np.ndarray:
    """(width, n) int64, column-major: at each row, the sum of the ``values`` put at (row, column) over the
    rows of its group up to and including it (int64 arithmetic wraps). ``shape`` is (n, width);
    ``group_start`` the ascending first rows of the groups, the first 0."""
    n, width = shape
    flat = np.zeros(width * n, dtype=np.int64)
    np.add.at(flat, columns * n + rows, values)
    return running_sums_in_groups(flat.reshape(width, n), group_start)


def running_sums_in_groups(sums: np.ndarray, group_start: np.ndarray) -> np.ndarray:
    """``sums`` (width, n) int64, C-contiguous, turned in place into each row's running sum restarted at every group
    start (``group_start`` ascending, the first 0; int64 arithmetic wraps); returned."""
    if not sums.shape[1]:
        return sums
    for column in sums:
        # each group's first value less the totals of the groups before it: the cumulative sum restarts
        totals = np.add.reduceat(column, group_start)
        column[group_start[1:]] -= totals[:-1]
        np.cumsum(column, out=column)
    return sums


def wrapped_cells(rows: np.ndarray, columns: np.ndarray, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(rows, columns) with a column of -1 (the kind of an unknown tile, -1 // 4) moved to the cell that
    ``row x width + column`` reaches in the flattened (n, width) matrix, as rules.hands.add_counts puts it:
    the previous row's last column (before the first row, the last row's)."""
    odd = columns < 0
    if not odd.any():
        return rows, columns
    n, width = shape
    flat = (rows[odd] * width + columns[odd]) % (n * width)
    rows, columns = rows.copy(), columns.copy()
    rows[odd], columns[odd] = flat // width, flat % width
    return rows, columns


def n_words(width: int) -> int:
    """Words holding ``width`` packed counts."""
    return -(-width // LANES)


def packed_deltas(columns: np.ndarray, deltas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(word, value) of count ``deltas`` at ``columns`` when counts are packed LANES to a word (a shift, not a
    product: several times faster in numpy; a negative delta shifts to its negative multiple)."""
    return columns >> 3, deltas.astype(np.int64) << ((columns & 7) << 3)


def unpack_counts(words: np.ndarray) -> np.ndarray:
    """(n, LANES x n_words) int8 counts, contiguous, from their running packed words (n_words, n) (see
    packed_deltas); the columns past the packed ones read 0."""
    # biased word by word (each byte then holds its count + LANE_BIAS, without borrows), unbiased byte by byte
    # little-endian words: lane k is byte k on any machine
    lanes = np.ascontiguousarray((words + _BIAS_WORD).T, dtype="<i8").view(np.uint8)
    np.subtract(lanes, np.uint8(LANE_BIAS), out=lanes)
    return lanes.view(np.int8)


def running_counts(
    rows: np.ndarray, columns: np.ndarray, deltas: np.ndarray, shape: tuple[int, int], group_start: np.ndarray
) -> np.ndarray:
    """(n, width) int8 (a view with a row stride of whole words): at each row, the sum of the count ``deltas``
    put at (row, column) over the rows of its group so far (``shape`` (n, width); columns 0 to width - 1, see
    wrapped_cells for -1; groups begin at ``group_start``, ascending, the first at 0)."""
    n, width = shape
    words, values = packed_deltas(columns, deltas)
    return unpack_counts(grouped_running_sums(rows, words, values, (n, n_words(width)), group_start))[:, :width]
