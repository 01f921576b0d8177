"""One index for every previous / next / last-in-round question: rows of a round (and seat), by position.

A ``RoundIndex`` holds items (event rows, hand states, passes, first discards...) each filed under a group, a
round's seat (``round x 4 + seat``) or, for an index of whole rounds, the round alone (seat 0), and a position in
the round (an event row; -1 for the deal, before every event). Its keys ``group x stride + position + 1`` sort
the items by group, then position. Every question is then one ``np.searchsorted`` on the keys, checked to stay
within the asking group:

* ``previous``: the last item of the seat's round before a position (or at it, ``inclusive``);
* ``next``: the first item after a position (or at it);
* ``last``: each group's last item.

Answers are the items (-1 for none), so an index of hand states answers with state numbers, an index of event
rows with rows. Seats outside 0-3 have no items: asking for them answers -1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SEATS = 4
"""Groups per round."""


@dataclass(frozen=True)
class RoundIndex:
    """Items filed by (round, seat, position); see the module docstring."""

    keys: np.ndarray
    """(M,) int64, ascending: ``(round x 4 + seat) x stride + position + 1``."""
    items: np.ndarray
    """(M,) int64: the item each key stands for, answered by the queries."""
    stride: int
    """Keys per group: positions run from -1 to stride - 2."""

    @classmethod
    def build(
        cls,
        round_id: np.ndarray,
        seat: np.ndarray | int,
        position: np.ndarray,
        n_positions: int,
        items: np.ndarray | None = None,
    ) -> RoundIndex:
        """Index the items (default 0.. in the order given) of ``round_id``, ``seat`` (or 0 for all: an index of
        rounds) and ``position`` (-1 to ``n_positions`` - 1; e.g. event rows, ``n_positions`` the events);
        sorted here unless already in (round, seat, position) order (ties keep their order)."""
        stride = int(n_positions) + 2
        round_id = np.asarray(round_id, dtype=np.int64)
        keys = (round_id * SEATS + seat) * stride + (np.asarray(position, dtype=np.int64) + 1)
        items = np.arange(len(keys), dtype=np.int64) if items is None else np.asarray(items, dtype=np.int64)
        if len(keys) > 1 and (keys[1:] < keys[:-1]).any():
            order = np.argsort(keys, kind="stable")
            keys, items = keys[order], items[order]
        return cls(keys, items, stride)

    @classmethod
    def of_rows(cls, round_id: np.ndarray, rows: np.ndarray, seat: np.ndarray | int = 0) -> RoundIndex:
        """Index event ``rows`` (items: the rows themselves) of the events whose rounds are ``round_id``
        (n_events,), filed under ``seat`` (an array for the rows, or 0: an index of rounds)."""
        rows = np.asarray(rows, dtype=np.int64)
        return cls.build(round_id[rows], seat, rows, len(round_id), rows)

    def _query_keys(self, round_id: np.ndarray, seat: np.ndarray | int, position: np.ndarray) -> tuple:
        """(group's first key, the position's key, whether the seat can hold items) of each query."""
        seat = np.asarray(seat, dtype=np.int64)
        group_start = (np.asarray(round_id, dtype=np.int64) * SEATS + seat) * self.stride
        valid = (seat >= 0) & (seat < SEATS)
        return group_start, group_start + np.asarray(position, dtype=np.int64) + 1, valid

    def previous(
        self, round_id: np.ndarray, seat: np.ndarray | int, position: np.ndarray, inclusive: bool = False
    ) -> np.ndarray:
        """(Q,) the last item of each query's (round, seat) before ``position`` (at or before it: ``inclusive``);
        -1 when there is none."""
        group_start, key, valid = self._query_keys(round_id, seat, position)
        if not len(self.keys):
            return np.full(np.shape(key), -1, dtype=np.int64)
        at = np.searchsorted(self.keys, key, side="right" if inclusive else "left") - 1
        found = np.maximum(at, 0)
        ok = (at >= 0) & (self.keys[found] >= group_start) & valid
        return np.where(ok, self.items[found], -1)

    def next(
        self, round_id: np.ndarray, seat: np.ndarray | int, position: np.ndarray, inclusive: bool = False
    ) -> np.ndarray:
        """(Q,) the first item of each query's (round, seat) after ``position`` (at or after it: ``inclusive``);
        -1 when there is none."""
        group_start, key, valid = self._query_keys(round_id, seat, position)
        if not len(self.keys):
            return np.full(np.shape(key), -1, dtype=np.int64)
        at = np.searchsorted(self.keys, key, side="left" if inclusive else "right")
        found = np.minimum(at, len(self.keys) - 1)
        ok = (at < len(self.keys)) & (self.keys[found] < group_start + self.stride) & valid
        return np.where(ok, self.items[found], -1)

    def last(self, n_rounds: int) -> np.ndarray:
        """(n_rounds, 4) each (round, seat)'s last item, -1 where it has none (an index of rounds: column 0)."""
        out = np.full(n_rounds * SEATS, -1, dtype=np.int64)
        if len(self.keys):
            group = self.keys // self.stride
            ends = np.flatnonzero(np.r_[group[1:] != group[:-1], True])
            out[group[ends]] = self.items[ends]
        return out.reshape(n_rounds, SEATS)
