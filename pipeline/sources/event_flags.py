"""The events columns every format derives the same way, for a whole game at once (numpy).

From the events in order (round, seat, action code, 136-id; -1 for none): the order within the round,
the tile's kind and red five, whether a discard is tsumogiri (the seat's previous hand event drew this
very tile) and whether a draw is a rinshan draw (the seat's previous hand event was its own kan or kita).
"""

from __future__ import annotations

import numpy as np

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


def _previous_hand_action(round_idx: np.ndarray, seat: np.ndarray, is_hand: np.ndarray) -> np.ndarray:
    """For each event, the row of the same seat's previous hand-changing event in the round (-1: none)."""
    rows = np.flatnonzero(is_hand)
    # rows are in event order: a stable sort by (round, seat) keeps that order within each seat
    order = rows[np.argsort(round_idx[rows] * 4 + seat[rows], kind="stable")]
    prev = np.full(len(round_idx), -1, dtype=np.int64)
    same = (round_idx[order[1:]] == round_idx[order[:-1]]) & (seat[order[1:]] == seat[order[:-1]])
    prev[order[1:][same]] = order[:-1][same]
    return prev


def event_flags(
    round_idx: np.ndarray, seat: np.ndarray, action: np.ndarray, tile: np.ndarray, has_red_fives: bool
) -> dict[str, np.ndarray]:
    """Return event_idx, tile34, is_red, is_tsumogiri and is_rinshan (int64, -1 for null) for a game's
    events, given in order: round by round, each round's events in play order."""
    round_idx, seat, action, tile = (np.asarray(a, dtype=np.int64) for a in (round_idx, seat, action, tile))
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
