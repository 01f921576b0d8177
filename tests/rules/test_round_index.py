"""rules.round_index.RoundIndex answers previous/next/last-in-round questions as a plain scan would."""

from __future__ import annotations

import numpy as np

from rules.round_index import RoundIndex


def _items(rng: np.random.Generator, n: int, n_rounds: int, n_positions: int) -> tuple[np.ndarray, ...]:
    """Random (round, seat, position) items, unsorted, positions from -1."""
    return (
        rng.integers(0, n_rounds, n), rng.integers(0, 4, n), rng.integers(-1, n_positions, n),
    )  # fmt: skip


def _scan(rounds, seats, positions, q_round, q_seat, q_pos, after: bool, inclusive: bool) -> np.ndarray:
    """The item a scan finds for each query: the nearest before (or after) in the same round and seat."""
    out = []
    for r, s, p in zip(q_round, q_seat, q_pos, strict=True):
        same = (rounds == r) & (seats == s)
        if after:
            hits = np.flatnonzero(same & ((positions >= p) if inclusive else (positions > p)))
            best = hits[np.argmin(positions[hits])] if len(hits) else -1
        else:
            hits = np.flatnonzero(same & ((positions <= p) if inclusive else (positions < p)))
            best = hits[np.argmax(positions[hits])] if len(hits) else -1
        out.append(positions[best] if best >= 0 else -2)
    return np.array(out)


def test_previous_and_next_match_a_scan() -> None:
    rng = np.random.default_rng(5)
    rounds, seats, positions = _items(rng, 300, 7, 40)
    index = RoundIndex.build(rounds, seats, positions, 40, items=positions)
    q_round, q_seat, q_pos = _items(rng, 500, 7, 40)
    for inclusive in (False, True):
        got = index.previous(q_round, q_seat, q_pos, inclusive)
        want = _scan(rounds, seats, positions, q_round, q_seat, q_pos, False, inclusive)
        np.testing.assert_array_equal(np.where(want == -2, -1, want), got)
        got = index.next(q_round, q_seat, q_pos, inclusive)
        want = _scan(rounds, seats, positions, q_round, q_seat, q_pos, True, inclusive)
        np.testing.assert_array_equal(np.where(want == -2, -1, want), got)


def test_seats_out_of_range_and_an_empty_index_find_nothing() -> None:
    index = RoundIndex.build(np.array([0, 1]), np.array([3, 0]), np.array([5, 5]), 10)
    assert index.previous(np.array([0, 0]), np.array([4, -1]), np.array([9, 9])).tolist() == [-1, -1]
    assert index.next(np.array([0]), np.array([4]), np.array([-1])).tolist() == [-1]  # not round 1's seat 0
    empty = RoundIndex.build(np.zeros(0, int), np.zeros(0, int), np.zeros(0, int), 10)
    assert empty.previous(np.array([0]), 0, np.array([3])).tolist() == [-1]
    assert empty.last(2).tolist() == [[-1] * 4] * 2


def test_last_gives_each_groups_last_item_and_rows_index_by_round() -> None:
    round_id = np.array([0, 0, 0, 1, 1, 3])
    index = RoundIndex.of_rows(round_id, np.array([0, 2, 3, 4]), np.array([1, 1, 2, 1]))
    assert index.last(4).tolist() == [[-1, 2, -1, -1], [-1, 4, 3, -1], [-1] * 4, [-1] * 4]
    assert index.previous(round_id[[2, 4]], 1, np.array([2, 4])).tolist() == [0, -1]
    whole = RoundIndex.of_rows(round_id, np.arange(6))
    assert whole.last(4)[:, 0].tolist() == [2, 4, -1, 5]
