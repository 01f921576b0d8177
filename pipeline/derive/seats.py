"""The seat_rounds table: one row per seat with a hand in every round, what that seat did and got.

It is a roll-up of the fact tables (events, wins, rounds) and of the hands as dealt, written by derive so that
per-seat statistics (riichi, call, win and deal-in rates, the per-player vocabulary's turns and riichi order)
read ~4 rows per round instead of scanning ~100 events and ~100 hand states per round.
"""

from __future__ import annotations

import numpy as np

from pipeline.derive.inputs import RoundInputs
from pipeline.derive.round_arrays import RoundArrays
from rules.hands import CODE, EventArrays, HandStates

OPEN_CALLS = ("chi", "pon", "daiminkan")
"""Calls that open the hand (an added kan upgrades a pon, a closed kan keeps the hand closed)."""


def seat_round_columns(
    inputs: RoundInputs, rounds: RoundArrays, ev: EventArrays, states: HandStates, analysis: dict[str, np.ndarray]
) -> dict:
    """Columns of the seat_rounds table for the chunk's rounds: one row per (round, seat with a hand), in
    round then seat order (``inputs``: its wins; ``states`` and ``analysis``: the hands, for the shanten dealt)."""
    n_rounds = len(rounds)
    cell = _cells(ev)
    actions = _actions_per_cell(cell, ev.action, n_rounds)
    riichi = actions[:, :, CODE["riichi"]] > 0
    open_calls = actions[:, :, [CODE[name] for name in OPEN_CALLS]].sum(axis=2).astype(np.int16)
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
        **{name: values[round_ids, seats] for name, values in _turn_facts(ev, cell, actions).items()},
        "starting_shanten": _dealt_shanten(states, analysis["shanten"], n_rounds)[round_ids, seats],
    }


def _cells(ev: EventArrays) -> np.ndarray:
    """Each event's (round, seat) cell, round x 4 + seat (a seat of -1, an event by no seat, reads as seat 3: the
    (round, -1) index it had as a pair)."""
    return ev.round_id * 4 + ev.seat % 4


def _actions_per_cell(cell: np.ndarray, action: np.ndarray, n_rounds: int) -> np.ndarray:
    """(n_rounds, 4, 16) int64: the events of each action code in each (round, seat) cell, in one count (a code
    outside 0-14, the -1 of an action the rules do not know, in the last place)."""
    return np.bincount(cell * 16 + (action & 15), minlength=n_rounds * 4 * 16).reshape(n_rounds, 4, 16)


def _per_cell(cell: np.ndarray, mask: np.ndarray, n_rounds: int) -> np.ndarray:
    """(n_rounds, 4) int64: the events of ``mask`` in each (round, seat) cell."""
    return np.bincount(cell[mask], minlength=n_rounds * 4).reshape(n_rounds, 4)


def _turn_facts(ev: EventArrays, cell: np.ndarray, actions: np.ndarray) -> dict[str, np.ndarray]:
    """(n_rounds, 4) each, by name: the seat's discards (a turn is one own discard); the discards before its riichi
    declaration, and the other seats' declarations before and after it (-1: null, no declaration); whether its
    riichi stick was put down (``cell``: each event's _cells; ``actions``: _actions_per_cell)."""
    n_rounds = len(actions)
    shape = (n_rounds, 4)
    discard = ev.action == CODE["discard"]
    n_discards = actions[:, :, CODE["discard"]].astype(np.int16)
    declared = np.flatnonzero(ev.action == CODE["riichi"])
    riichi_at = np.full(n_rounds * 4, np.iinfo(np.int64).max)  # the declaration's event_idx (once_per_round)
    np.minimum.at(riichi_at, cell[declared], ev.event_idx[declared])
    # discards before the declaration: each discard compared with its cell's declaration, counted per cell
    riichi_turn = _per_cell(cell, discard & (ev.event_idx < riichi_at[cell]), n_rounds)
    riichi_at = riichi_at.reshape(shape)
    has_riichi = riichi_at < np.iinfo(np.int64).max
    before = np.zeros(shape, dtype=np.int8)
    after = np.zeros(shape, dtype=np.int8)
    for other in range(4):  # the other seats' declarations of the round, against each seat's own
        theirs = riichi_at[:, other : other + 1]
        counts = has_riichi[:, other : other + 1] & (np.arange(4) != other)
        before += counts & (theirs < riichi_at)
        after += counts & (theirs > riichi_at)
    accepted = actions[:, :, CODE["riichi_accepted"]] > 0
    return {
        "n_discards": n_discards,
        "riichi_turn": np.where(has_riichi, riichi_turn, -1),
        "is_riichi_accepted": accepted,
        "n_riichi_before": np.where(has_riichi, before, -1),
        "n_riichi_after": np.where(has_riichi, after, -1),
    }


def _dealt_shanten(states: HandStates, shanten: np.ndarray, n_rounds: int) -> np.ndarray:
    """(n_rounds, 4): the shanten of each seat's 13 tiles as dealt (0 or more; -1 where it has none: null)."""
    dealt = np.full((n_rounds, 4), -1, dtype=np.int16)
    rows = np.flatnonzero(states.event_idx < 0)
    dealt[states.round_id[rows], states.seat[rows]] = shanten[rows]
    return dealt


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
