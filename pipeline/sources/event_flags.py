"""The events columns every format derives the same way, for a whole game at once (numpy).

From the events in order (round, seat, action code, 136-id; -1 for none): the order within the round,
the tile's kind and red five, whether a discard is tsumogiri (the seat's previous hand event drew this
very tile) and whether a draw is a rinshan draw (the seat's previous hand event was its own kan or kita).

A compiled pass (``_flags``) derives them in one go for events as the formats give them (round by round, the
hand events' seats 0-3); the numpy reading, which takes any order, derives them otherwise.
"""

from __future__ import annotations

import numpy as np

from rules.compiled import njit
from rules.hands import ACTIONS, CODE


def _lookup(size: int, true_at: list[int]) -> np.ndarray:
    """A boolean lookup table; index -1 (the null sentinel) reads the last entry, always False."""
    table = np.zeros(size + 1, dtype=bool)
    table[true_at] = True
    return table


_IS_HAND_ACTION = _lookup(len(ACTIONS), [CODE[a] for a in ACTIONS[:8]])
_IS_RINSHAN_AFTER = _lookup(len(ACTIONS), [CODE[a] for a in ("daiminkan", "kakan", "ankan", "kita")])
_IS_RED_FIVE = _lookup(136, [16, 52, 88])
_DRAW, _DISCARD = CODE["draw"], CODE["discard"]
_N_ACTIONS = len(ACTIONS)


def _previous_hand_action(round_idx: np.ndarray, seat: np.ndarray, is_hand: np.ndarray) -> np.ndarray:
    """For each event, the row of the same seat's previous hand-changing event in the round (-1: none)."""
    rows = np.flatnonzero(is_hand)
    # rows are in event order: a stable sort by (round, seat) keeps that order within each seat
    order = rows[np.argsort(round_idx[rows] * 4 + seat[rows], kind="stable")]
    prev = np.full(len(round_idx), -1, dtype=np.int64)
    same = (round_idx[order[1:]] == round_idx[order[:-1]]) & (seat[order[1:]] == seat[order[:-1]])
    prev[order[1:][same]] = order[:-1][same]
    return prev


FLAG_NAMES = ("event_idx", "tile34", "is_red", "is_tsumogiri", "is_rinshan")


@njit
def _flags(
    round_idx: np.ndarray, seat: np.ndarray, action: np.ndarray, tile: np.ndarray, tables: np.ndarray, red: bool
) -> tuple[np.ndarray, bool]:
    """(the FLAG_NAMES columns as rows of one array, True) for events in round order whose hand events have
    seats 0-3 and whose codes the tables hold; (unusable columns, False) for any other events. ``tables``:
    _IS_HAND_ACTION, _IS_RINSHAN_AFTER (as integers, rows 0 and 1; the last entry read for -1) and _IS_RED_FIVE
    (row 2)."""
    n = len(round_idx)
    out = np.full((5, n), -1, dtype=np.int64)
    last = np.full(4, -1, dtype=np.int64)  # each seat's previous hand event in the round
    start = 0
    for e in range(n):
        if e and round_idx[e] != round_idx[e - 1]:
            if round_idx[e] < round_idx[e - 1]:
                return out, False
            start = e
            last[:] = -1
        out[0, e] = e - start
        a, t = action[e], tile[e]
        if not (-1 <= a <= _N_ACTIONS and t <= 136):  # codes the lookup tables do not hold
            return out, False
        if t >= 0:
            out[1, e], out[2, e] = t >> 2, tables[2, t] if red else 0
        if not tables[0, a]:
            continue
        s = seat[e]
        if not 0 <= s < 4:
            return out, False
        prev = last[s]
        previous = action[prev] if prev >= 0 else -1
        if a == _DISCARD:
            out[3, e] = previous == _DRAW and tile[prev] == t
        elif a == _DRAW:
            out[4, e] = tables[1, previous]
        last[s] = e
    return out, True


_TABLES = np.zeros((3, 137), dtype=np.int64)
_TABLES[0, : len(_IS_HAND_ACTION)] = _IS_HAND_ACTION
_TABLES[1, : len(_IS_RINSHAN_AFTER)] = _IS_RINSHAN_AFTER
_TABLES[2] = _IS_RED_FIVE
_TABLES[:2, -1] = _TABLES[:2, len(ACTIONS)]  # index -1 (no previous event) reads the null sentinel's False


def event_flags(
    round_idx: np.ndarray, seat: np.ndarray, action: np.ndarray, tile: np.ndarray, has_red_fives: bool
) -> dict[str, np.ndarray]:
    """Return event_idx, tile34, is_red, is_tsumogiri and is_rinshan (int64, -1 for null) for a game's
    events, given in order: round by round, each round's events in play order."""
    # contiguous int64 whatever the caller passes: one compiled signature of _flags
    round_idx, seat, action, tile = (np.ascontiguousarray(a, dtype=np.int64) for a in (round_idx, seat, action, tile))
    columns, done = _flags(round_idx, seat, action, tile, _TABLES, bool(has_red_fives))
    if done:
        return dict(zip(FLAG_NAMES, columns, strict=True))
    return _event_flags_numpy(round_idx, seat, action, tile, has_red_fives)


def _event_flags_numpy(
    round_idx: np.ndarray, seat: np.ndarray, action: np.ndarray, tile: np.ndarray, has_red_fives: bool
) -> dict[str, np.ndarray]:
    """event_flags for events in any order (int64 arrays)."""
    n = len(round_idx)
    starts = np.flatnonzero(np.concatenate(([True], round_idx[1:] != round_idx[:-1]))) if n else np.zeros(0, int)
    # order within the round: position minus the round's first position
    event_idx = np.arange(n) - np.repeat(starts, np.diff(np.append(starts, n)))
    prev = _previous_hand_action(round_idx, seat, _IS_HAND_ACTION[action])
    prev_action = np.where(prev >= 0, action[np.maximum(prev, 0)], -1)
    has_tile = tile >= 0
    # tsumogiri: the seat's previous hand event drew this very tile
    tsumogiri = (prev_action == _DRAW) & (tile[np.maximum(prev, 0)] == tile)
    # rinshan: the seat's previous hand event was its own kan or kita
    rinshan = _IS_RINSHAN_AFTER[prev_action]
    red = _IS_RED_FIVE[tile] & has_red_fives
    return {
        "event_idx": event_idx,
        "tile34": np.where(has_tile, tile >> 2, -1),
        "is_red": np.where(has_tile, red, -1),
        "is_tsumogiri": np.where(action == _DISCARD, tsumogiri, -1),
        "is_rinshan": np.where(action == _DRAW, rinshan, -1),
    }
