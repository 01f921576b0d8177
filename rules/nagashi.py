"""Nagashi mangan eligibility: every discard a terminal or honor, and none of them called.

The seat's own calls do not matter (Tenhou allows nagashi mangan after calling). Eligibility is
per (round, seat) at the end of the round; it pays only at an exhaustive draw.
"""

from __future__ import annotations

import numpy as np

from rules.hands import CODE, EventArrays, is_action
from rules.tiles import TERMINALS_HONORS_34

_IS_ORPHAN = np.zeros(35, dtype=bool)
_IS_ORPHAN[TERMINALS_HONORS_34] = True


def nagashi_eligible(events: EventArrays, n_rounds: int) -> np.ndarray:
    """Return (n_rounds, 4) bool: the seat discarded, only terminals and honors, none called."""
    size = n_rounds * 4
    rows = np.flatnonzero(events.action == CODE["discard"])
    cell = events.round_id[rows] * 4 + events.seat[rows]
    discards = np.bincount(cell, minlength=size)
    orphan_discards = np.bincount(cell[_IS_ORPHAN[events.tile[rows] // 4]], minlength=size)
    calls = np.flatnonzero(is_action(events.action, ("chi", "pon", "daiminkan")))
    called_from = np.bincount(events.round_id[calls] * 4 + events.from_seat[calls], minlength=size)
    eligible = (discards > 0) & (orphan_discards == discards) & (called_from == 0)
    return eligible.reshape(n_rounds, 4)
