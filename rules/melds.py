"""Meld inference: what a win's logged called tiles are (chi, pon, open or closed kan), and a winning tile a log
left out of the hand. Tenhou's logs list a win's melds as bare tiles; their kinds are read from the tiles.
"""

from __future__ import annotations

import numpy as np

from rules.hands import CODE, EventArrays
from rules.scoring.inputs import CHI, CLOSED_KAN, NO_MELD, OPEN_KAN, PON

MAX_CALLS = 4
"""Called melds a hand can hold."""


def closed_kans(events: EventArrays) -> np.ndarray:
    """(n_rounds, 4) int64: bit k set when the seat declared a closed kan of 34-kind k in the round."""
    out = np.zeros((len(events.hands_start), 4), dtype=np.int64)
    rows = np.flatnonzero(events.action == CODE["ankan"])
    np.bitwise_or.at(out, (events.round_id[rows], events.seat[rows]), np.int64(1) << (events.tile[rows] // 4))
    return out


def infer_melds(
    tiles: np.ndarray, win: np.ndarray, slot: np.ndarray, n_wins: int, kans_closed: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each win's calls from its melds' tiles: (kind, type) (n_wins, 4) and every called tile (n_wins, 16) 136-ids.

    ``tiles`` (M, 4) are the M melds' 136-ids (-1 padded), ``win`` and ``slot`` (M,) each meld's win and place
    among its calls. A meld of three tiles of one kind is a pon, of three kinds a chi; four tiles are a kan,
    closed when ``kans_closed`` (n_wins,) has the kind's bit (the winner's own ankan), else open (daiminkan or
    kakan).
    """
    kinds = np.where(tiles >= 0, tiles // 4, 99)
    low = kinds.min(axis=1)
    size = (tiles >= 0).sum(axis=1)
    closed = (kans_closed[win] >> np.minimum(low, 33)) & 1 == 1
    is_set = kinds.max(axis=1, initial=0, where=tiles >= 0) == low
    meld_type = np.select([size == 4, is_set], [np.where(closed, CLOSED_KAN, OPEN_KAN), PON], CHI)
    kind = np.full((n_wins, MAX_CALLS), -1, dtype=np.int64)
    types = np.full((n_wins, MAX_CALLS), NO_MELD, dtype=np.int64)
    all_tiles = np.full((n_wins, 4 * MAX_CALLS), -1, dtype=np.int64)
    kind[win, slot], types[win, slot] = low, meld_type
    all_tiles.reshape(-1, MAX_CALLS, 4)[win, slot] = tiles
    return kind, types, all_tiles


def with_winning_tile(hand: np.ndarray, tile: np.ndarray, meld_type: np.ndarray) -> np.ndarray:
    """The closed hands (N, 14) 136-ids, -1 padded, with the winning tile added where a log left it out (a hand
    one tile short of 14 - 3 x calls without that tile: some logs written by other tools do so)."""
    size = (hand >= 0).sum(axis=1)
    short = (size == 13 - 3 * (meld_type != NO_MELD).sum(axis=1)) & ~(hand == tile[:, None]).any(axis=1)
    out = hand.copy()
    out[np.flatnonzero(short), size[short]] = tile[short]
    return out
