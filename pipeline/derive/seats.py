"""The seat_rounds table: one row per seat with a hand in every round, what that seat did and got.

It is a roll-up of the fact tables (events, wins, rounds), written by derive so that per-seat statistics
(riichi, call, win and deal-in rates) read ~4 rows per round instead of scanning ~100 events per round.
"""

from __future__ import annotations

import numpy as np

from pipeline.derive.inputs import RoundInputs
from pipeline.derive.round_arrays import RoundArrays
from rules.hands import CODE, EventArrays, is_action

OPEN_CALLS = ("chi", "pon", "daiminkan")
"""Calls that open the hand (an added kan upgrades a pon, a closed kan keeps the hand closed)."""


def seat_round_columns(inputs: RoundInputs, rounds: RoundArrays, ev: EventArrays) -> dict:
    """Columns of the seat_rounds table for the chunk's rounds: one row per (round, seat with a hand), in
    round then seat order (``inputs``: its wins)."""
    n_rounds = len(rounds)
    riichi = np.zeros((n_rounds, 4), dtype=bool)
    declared = ev.action == CODE["riichi"]
    riichi[ev.round_id[declared], ev.seat[declared]] = True
    open_calls = np.zeros((n_rounds, 4), dtype=np.int16)
    called = is_action(ev.action, OPEN_CALLS)
    np.add.at(open_calls, (ev.round_id[called], ev.seat[called]), 1)
    won, dealt_in, win_points = _win_flags(inputs, n_rounds)
    seated = ev.hands_start[:, :, 0] >= 0  # a sanma round's empty seat has no hand
    round_ids, seats = np.nonzero(seated)
    # everything the seat paid and received in the round: the win or draw, honba, riichi sticks and deposits
    score_change = rounds.scores_post - rounds.scores_pre
    return {
        "game_id": rounds.game_codes(round_ids),
        "round_idx": rounds.round_idx[round_ids],
        "seat": seats,
        "is_dealer": rounds.dealer[round_ids] == seats,
        "has_riichi": riichi[round_ids, seats],
        "n_open_calls": open_calls[round_ids, seats],
        "is_win": won[round_ids, seats],
        "win_points": np.where(won[round_ids, seats], win_points[round_ids, seats], -1),  # -1: null
        "is_deal_in": dealt_in[round_ids, seats],
        "score_change": score_change[round_ids, seats],
    }


def _win_flags(inputs: RoundInputs, n_rounds: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n_rounds, 4) each: the seat won; a ron was won off the seat (a multiple ron once); the points of the
    seat's win (0 where it did not win)."""
    wins = inputs.wins
    shape = (n_rounds, 4)
    won, dealt_in, points = np.zeros(shape, bool), np.zeros(shape, bool), np.zeros(shape, np.int32)
    at = inputs.win_round
    found = at >= 0
    seat = wins["seat"].to_numpy()[found]
    won[at[found], seat] = True
    points[at[found], seat] = wins["points"].to_numpy()[found]
    ron = found & ~wins["is_tsumo"].to_numpy(zero_copy_only=False)
    dealt_in[at[ron], wins["from_seat"].to_numpy()[ron]] = True
    return won, dealt_in, points
