"""Tenhou's rules at an exhaustive draw: who is tenpai, and when the draw is a nagashi mangan.

Tenpai at the draw is formal tenpai (the closed tiles wait on some kind) except pure karaten: a hand whose every
wait is a kind it holds all four of counts noten (copies in the player's own kan do not make it so: they are
visible). Copies visible elsewhere do not matter: a karaten hand whose waits are all dead on the table still
counts tenpai. A draw with a seat whose ponds qualify (rules.nagashi) is a nagashi mangan, whatever the log's
label says.
"""

from __future__ import annotations

import numpy as np

DRAW_KINDS_WITH_HANDS = ("exhaustive", "nagashi_mangan")
"""Draws at which every seat's tenpai decides payments."""


def is_draw_with_hands(kind: np.ndarray) -> np.ndarray:
    """(N,) bool: the logged draw ``kind`` (str, '' or None for none) is one where tenpai decides payments."""
    return np.isin(kind, DRAW_KINDS_WITH_HANDS)


def tenpai_at_draw(is_formal_tenpai: np.ndarray, is_pure_karaten: np.ndarray) -> np.ndarray:
    """(N,) bool: Tenhou counts the hand tenpai at an exhaustive draw (formal tenpai, not pure karaten)."""
    return np.asarray(is_formal_tenpai, dtype=bool) & ~np.asarray(is_pure_karaten, dtype=bool)


def exhaustive_kind(has_nagashi: np.ndarray) -> np.ndarray:
    """(N,) str: what an exhaustive draw is by the ponds: 'nagashi_mangan' where some seat qualifies (``has_nagashi``
    (N,) bool), else 'exhaustive'."""
    return np.where(has_nagashi, "nagashi_mangan", "exhaustive")
