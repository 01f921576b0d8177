"""The draw_outcomes table: every seat with a hand at each exhaustive draw, its tenpai by Tenhou's rule
(rules.tenhou_draws), its live waits and nagashi; and the (round, seat) tenpai and nagashi that the round's
transition (draw payments, the next round) reads.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.derive.round_arrays import RoundArrays
from rules.analysis import live_waits
from rules.furiten import state_index
from rules.hands import EventArrays, HandStates, last_row_per_round
from rules.nagashi import nagashi_eligible
from rules.tenhou_draws import is_draw_with_hands, tenpai_at_draw
from rules.visibility import Visibility, closed_all_at


@dataclass(frozen=True)
class DrawTenpai:
    """Per (round, seat) at exhaustive draws: tenpai by Tenhou's rule and nagashi eligibility (False elsewhere)."""

    tenpai: np.ndarray
    """(R, 4) bool."""
    nagashi: np.ndarray
    """(R, 4) bool."""


def draw_outcomes(
    rounds: RoundArrays, events: EventArrays, states: HandStates, analysis: dict[str, np.ndarray], vis: Visibility
) -> dict[str, object]:
    """{"draw_outcomes": the table's columns (one row per seat with a hand at each exhaustive draw),
    "draw_tenpai": the DrawTenpai of every round}."""
    n_rounds = len(rounds)
    last = state_index(states, len(events.action)).last(n_rounds)
    drawn = is_draw_with_hands(rounds.draw_kind)[:, None] & (last >= 0)
    round_ids, seats = np.nonzero(drawn)
    rows = last[round_ids, seats]
    formal = analysis["is_tenpai"][rows] == 1
    pure = analysis["is_pure_karaten"][rows] == 1
    # live waits as they stand at the draw: after the round's last event, not the seat's own last discard
    end_row = last_row_per_round(events, np.ones(len(events.action), dtype=bool))[round_ids]
    masks = np.maximum(analysis["waits_mask"][rows], 0)
    live_public, live_actual, _ = live_waits(
        masks, states.counts[rows], vis.public[end_row], closed_all_at(states, round_ids, end_row)
    )
    live_public = np.where(formal, live_public, -1)
    live_actual = np.where(formal, live_actual, -1)
    kind = rounds.draw_kind[round_ids]
    tenpai = tenpai_at_draw(formal, pure)
    nagashi = nagashi_eligible(events, n_rounds)[round_ids, seats]
    columns = {
        "game_id": rounds.game_id[round_ids],
        "round_idx": rounds.round_idx[round_ids],
        "seat": seats,
        "kind": kind,
        "is_tenpai": tenpai,
        "is_tenpai_shown": rounds.is_shown[round_ids, seats],
        "is_formal_tenpai": formal,
        "is_karaten": formal & (live_public == 0),
        "is_pure_karaten": pure,
        "waits_mask": masks,
        "live_waits_public": live_public,
        "waits_in_dead_wall": live_actual,  # the live wall is empty at the draw: the rest is in the dead wall
        "shown_matches_hand": _shown_matches(rounds, round_ids, seats, states.counts[rows]),
        "is_nagashi": nagashi,
        "is_nagashi_logged": (kind == "nagashi_mangan") & (rounds.draw_deltas[round_ids, seats] > 0),
    }
    at_draw = DrawTenpai(np.zeros((n_rounds, 4), dtype=bool), np.zeros((n_rounds, 4), dtype=bool))
    at_draw.tenpai[round_ids, seats] = tenpai
    at_draw.nagashi[round_ids, seats] = nagashi
    return {"draw_outcomes": columns, "draw_tenpai": at_draw}


def _shown_matches(rounds: RoundArrays, round_ids: np.ndarray, seats: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """1 where the shown hand equals the tracked closed tiles, 0 where not, -1 where not shown."""
    equal = (rounds.shown_counts[round_ids, seats] == counts).all(axis=1)
    return np.where(rounds.shown_sizes[round_ids, seats] > 0, equal, -1).astype(np.int8)
