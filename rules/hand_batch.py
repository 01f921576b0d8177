"""A batch of hands with what every shanten and waits question about them needs, computed once.

``HandBatch`` holds N hands' closed-tile counts and calls with their suits' base-5 indices, the regular form's
distance and the seven-pairs and thirteen-orphans shanten. rules.shanten.shanten and rules.waits.waits_mask take
one (instead of the counts and four optional "already known" arrays); ``take`` picks hands without computing
anything again (e.g. the states some later question is about).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.shanten import as_calls, as_counts, batch_ingredients, suit_indices


@dataclass(frozen=True)
class HandBatch:
    """N hands and their shanten ingredients (see the module docstring)."""

    counts: np.ndarray
    """(N, 34) int8, C-contiguous: closed-tile counts of each 34-kind."""
    n_calls: np.ndarray
    """(N,) int64: called melds of each hand (a closed kan counts)."""
    suit_index: np.ndarray
    """(N, 4) int64: base-5 index of each suit's counts (rules.shanten.suit_indices)."""
    distance: np.ndarray
    """(N,) int8: fewest tiles to add for the regular form (as rules.shanten.regular_distance gives)."""
    chiitoitsu: np.ndarray
    """(N,) int64: seven-pairs shanten of hands without calls, 99 for the others."""
    kokushi: np.ndarray
    """(N,) int64: thirteen-orphans shanten of hands without calls, 99 for the others."""

    @classmethod
    def of(cls, counts: np.ndarray, n_calls: np.ndarray | int = 0, suit_index: np.ndarray | None = None) -> HandBatch:
        """The batch of hands ``counts`` (N, 34) with ``n_calls`` (an int or (N,)); ``suit_index`` (N, 4) when
        already known (rules.hands.hand_states sums it along with the counts)."""
        counts = as_counts(counts)
        calls = as_calls(n_calls, len(counts))
        index = suit_indices(counts) if suit_index is None else np.ascontiguousarray(suit_index, dtype=np.int64)
        distance, chiitoitsu, kokushi = batch_ingredients(counts, calls, index)
        return cls(counts, calls, index, distance, chiitoitsu, kokushi)

    def __len__(self) -> int:
        """Hands in the batch."""
        return len(self.counts)

    def take(self, rows: np.ndarray) -> HandBatch:
        """The hands at ``rows`` (positions, as numpy indexes them) as a batch of their own."""
        return HandBatch(
            np.ascontiguousarray(self.counts[rows]), self.n_calls[rows], self.suit_index[rows], self.distance[rows],
            self.chiitoitsu[rows], self.kokushi[rows],
        )  # fmt: skip
