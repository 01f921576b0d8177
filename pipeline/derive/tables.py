"""The derived tables of one part: the rules layer's results as table columns.

Derivations, in order (each adds the columns its docstring lists):
1. rules.hands.hand_states        every seat's closed tiles after every change
2. rules.visibility.visibility   what the table sees and all hands hold, per event
3. rules.analysis.analyse_states shanten, waits, tenpai, live waits, karaten
4. draw outcomes (here)          tenpai by Tenhou's rule at every exhaustive draw, per seat
5. rules.nagashi                 nagashi mangan from the ponds and calls
6. derive.transitions            draw payments (rules.payments), next round (rules.rotation)
7. derive.furiten                furiten intervals and passes, win checks (rules.furiten)
   derive.riichi                 every riichi declaration's hand: waits, karaten, furiten riichi
8. derive.aborts                 abortive draws (rules.aborts), sanchahou from seats able to ron
9. derive.scoring                fu with its components, han and yaku, points of every win (rules.scoring)
10. derive.seats                 per seat and round: riichi, open calls, win, deal-in, score change
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.columns import ColumnValues
from pipeline.derive.furiten import furiten_columns
from pipeline.derive.inputs import RoundInputs, game_ids_of, per_seat
from pipeline.derive.riichi import riichi_columns
from pipeline.derive.scoring import scoring_columns
from pipeline.derive.seats import seat_round_columns
from pipeline.derive.transitions import transition_columns
from rules.analysis import analyse_states, live_waits
from rules.furiten import SeatHistory, discarded_mask, seat_history
from rules.hands import EventArrays, HandStates, hand_states, last_row_per_round, tile_deltas
from rules.nagashi import nagashi_eligible
from rules.visibility import Visibility, closed_all_at, visibility

DRAW_KINDS_WITH_HANDS = ("exhaustive", "nagashi_mangan")
"""Draws at which every seat's tenpai decides payments."""


def _last_states(states: HandStates, n_rounds: int) -> np.ndarray:
    """(n_rounds, 4): index of each seat's last state in each round, -1 for a seat without a hand."""
    group_change = (states.round_id[1:] != states.round_id[:-1]) | (states.seat[1:] != states.seat[:-1])
    ends = np.flatnonzero(np.r_[group_change, True])
    last = np.full((n_rounds, 4), -1, dtype=np.int64)
    last[states.round_id[ends], states.seat[ends]] = ends
    return last


def own_discard_furiten(
    states: HandStates, waits_mask: np.ndarray, history: SeatHistory, events: EventArrays
) -> np.ndarray:
    """Per state between turns: a wait is among the seat's own discards so far (1/0); -1 mid-turn."""
    out = np.full(len(waits_mask), -1, dtype=np.int8)
    between = np.flatnonzero(waits_mask >= 0)
    rows = np.maximum(states.event_row[between], 0)
    so_far = discarded_mask(history, events, rows, states.seat[between], inclusive=True)
    so_far = np.where(states.event_row[between] >= 0, so_far, 0)
    out[between] = (waits_mask[between] & so_far) != 0
    return out


def hand_state_columns(
    inputs: RoundInputs, states: HandStates, analysis: dict[str, np.ndarray], own: np.ndarray
) -> dict:
    """Columns of the hand_states table; ``own`` from own_discard_furiten."""
    round_idx = inputs.rounds["round_idx"].to_numpy()
    return {
        "game_id": game_ids_of(inputs.rounds, states.round_id),
        "round_idx": round_idx[states.round_id],
        "seat": states.seat,
        "event_idx": states.event_idx,
        # stored as 37 digits (34 kind counts, 3 red-five flags): a flat string column writes far faster than
        # lists per row
        "counts": np.concatenate([states.counts, states.red], axis=1).astype(np.uint8) + np.uint8(ord("0")),
        "n_closed": states.n_closed,
        "n_calls": states.n_calls,
        **analysis,
        "is_own_discard_furiten": own,
    }


def draw_outcome_columns(
    inputs: RoundInputs, states: HandStates, analysis: dict[str, np.ndarray], vis: Visibility
) -> dict:
    """Columns of the draw_outcomes table: one row per seat with a hand at each exhaustive draw
    (plus ``_round_id``, the rounds' row of each, for the derivations that follow)."""
    rounds = inputs.rounds
    kind = rounds["draw_kind"].to_numpy(zero_copy_only=False)
    last = _last_states(states, rounds.num_rows)
    drawn = np.isin(kind, DRAW_KINDS_WITH_HANDS)[:, None] & (last >= 0)
    round_ids, seats = np.nonzero(drawn)
    rows = last[round_ids, seats]
    shown = per_seat(rounds["is_shown"], rounds.num_rows, False).astype(bool)[round_ids, seats]
    draw_deltas = per_seat(rounds["draw_deltas"], rounds.num_rows)
    formal = analysis["is_tenpai"][rows] == 1
    pure = analysis["is_pure_karaten"][rows] == 1
    # live waits as they stand at the draw: after the round's last event, not the seat's own last discard
    end_row = last_row_per_round(inputs.arrays, np.ones(len(inputs.arrays.action), dtype=bool))[round_ids]
    masks = np.maximum(analysis["waits_mask"][rows], 0)
    live_public, live_actual, _ = live_waits(
        masks, states.counts[rows], vis.public[end_row], closed_all_at(states, round_ids, end_row)
    )
    live_public = np.where(formal, live_public, -1)
    live_actual = np.where(formal, live_actual, -1)
    return {
        "game_id": rounds["game_id"].to_numpy(zero_copy_only=False)[round_ids],
        "round_idx": rounds["round_idx"].to_numpy()[round_ids],
        "seat": seats,
        "kind": kind[round_ids],
        "is_tenpai": formal & ~pure,
        "is_tenpai_shown": shown,
        "is_formal_tenpai": formal,
        "is_karaten": formal & (live_public == 0),
        "is_pure_karaten": pure,
        "waits_mask": masks,
        "live_waits_public": live_public,
        "waits_in_dead_wall": live_actual,  # the live wall is empty at the draw: the rest is in the dead wall
        "shown_matches_hand": _shown_matches(rounds, round_ids, seats, states.counts[rows]),
        "is_nagashi": nagashi_eligible(inputs.arrays, rounds.num_rows)[round_ids, seats],
        "is_nagashi_logged": (kind[round_ids] == "nagashi_mangan") & (draw_deltas[round_ids, seats] > 0),
        "_round_id": round_ids,
    }


def _shown_matches(rounds: pa.Table, round_ids: np.ndarray, seats: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """1 where the shown hand equals the tracked closed tiles, 0 where not, -1 where not shown."""
    # a round without shown hands (null) shows four empty ones
    lists = rounds["hands_shown"].combine_chunks()
    per_seat_hands = pc.list_flatten(lists)
    lengths = np.zeros((rounds.num_rows, 4), dtype=np.int64)
    shown_rounds = lists.is_valid().to_numpy(zero_copy_only=False)
    lengths[shown_rounds] = pc.list_value_length(per_seat_hands).to_numpy(zero_copy_only=False).reshape(-1, 4)
    tiles = pc.list_flatten(per_seat_hands).to_numpy(zero_copy_only=False).astype(np.int64)
    owner = np.repeat(np.arange(lengths.size), lengths.ravel())
    shown = np.zeros((lengths.size, 34), dtype=np.int16)
    np.add.at(shown, (owner, tiles // 4), 1)
    cell = round_ids * 4 + seats
    equal = (shown[cell] == counts).all(axis=1)
    return np.where(lengths.ravel()[cell] > 0, equal, -1).astype(np.int8)


def derive_part(inputs: RoundInputs) -> dict[str, dict[str, ColumnValues]]:
    """Run the derivations over one part's rounds; return derived table name -> columns."""
    deltas = tile_deltas(inputs.arrays)
    states = hand_states(inputs.arrays, deltas)
    vis = visibility(inputs.arrays, inputs.rounds["dora_indicator"].to_numpy())
    analysis = analyse_states(states, vis)
    outcomes = draw_outcome_columns(inputs, states, analysis, vis)
    history = seat_history(inputs.arrays)
    own = own_discard_furiten(states, analysis["waits_mask"], history, inputs.arrays)
    tenpai = np.zeros((inputs.rounds.num_rows, 4), dtype=bool)
    nagashi = np.zeros_like(tenpai)
    tenpai[outcomes["_round_id"], outcomes["seat"]] = outcomes["is_tenpai"]
    nagashi[outcomes["_round_id"], outcomes["seat"]] = outcomes["is_nagashi"]
    del outcomes["_round_id"]
    return {
        "hand_states": hand_state_columns(inputs, states, analysis, own),
        "draw_outcomes": outcomes,
        "round_transitions": transition_columns(inputs, tenpai, nagashi),
        **furiten_columns(inputs, states, analysis, history, own),
        "riichi": riichi_columns(inputs, states, analysis, own),
        "seat_rounds": seat_round_columns(inputs),
        **scoring_columns(inputs),
    }
