"""The furiten_passes and win_checks tables: furiten and waits around every pass and every win.

win_checks: for each win, the winner's waits just before the winning tile arrived (from the
winner's last hand state, evaluated even right after a kan), whether the tile is one of them, and
for a ron whether the winner was furiten (own discard, temporary, riichi).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from pipeline.columns import Coded
from pipeline.derive.inputs import RoundInputs
from pipeline.derive.round_arrays import RoundArrays
from rules.furiten import FURITEN_KINDS, RELEASES, Passes, SeatHistory, furiten_before, furiten_intervals, state_before
from rules.hand_batch import HandBatch
from rules.hands import CODE, EventArrays, HandStates, events_of_rounds, is_action, last_row_per_round
from rules.scoring import Context, has_yaku, melds_before, ron_hands
from rules.scoring.situation import situations
from rules.waits import KIND_BITS, waits_mask


def win_rows(inputs: RoundInputs, round_of_win: np.ndarray) -> np.ndarray:
    """Event row at which each win's tile arrived: the round's last draw (tsumo) or last discard/kakan."""
    ev = inputs.arrays
    last_draw = last_row_per_round(ev, ev.action == CODE["draw"])
    last_release = last_row_per_round(ev, is_action(ev.action, RELEASES))
    tsumo = inputs.wins["is_tsumo"].to_numpy(zero_copy_only=False)
    return np.where(tsumo, last_draw[round_of_win], last_release[round_of_win])


def win_check_columns(inputs: RoundInputs, states: HandStates, waits: np.ndarray, history: SeatHistory,
                      passes: tuple[np.ndarray, np.ndarray]) -> dict:  # fmt: skip
    """Columns of win_checks."""
    wins, round_of_win = inputs.wins, inputs.win_round
    seats = wins["seat"].to_numpy().astype(np.int64)
    rows = win_rows(inputs, round_of_win)
    before = state_before(states, inputs.arrays, rows, seats)
    # the batch of those hands alone (the states' analysis does not make one of all the states)
    masks = waits_mask(HandBatch.of(states.counts[before], states.n_calls[before], states.suit_index[before]))
    tile34 = wins["tile"].to_numpy().astype(np.int64) // 4
    own, temporary, riichi, _ = furiten_before(inputs.arrays, passes, waits, history, rows, seats)
    ron = ~wins["is_tsumo"].to_numpy(zero_copy_only=False)
    kind = np.where(own, 0, np.where(riichi, 2, np.where(temporary, 1, -1)))
    return {
        "game_id": wins["game_id"].to_numpy(zero_copy_only=False),
        "round_idx": wins["round_idx"].to_numpy(),
        "win_idx": wins["win_idx"].to_numpy(),
        "seat": seats,
        "is_tsumo": ~ron,
        "waits_mask": masks,
        "is_tile_in_waits": (masks & KIND_BITS[tile34]) != 0,
        "is_furiten": np.where(ron, own | temporary | riichi, -1).astype(np.int8),
        "furiten_kind": Coded(np.where(ron, kind, -1).astype(np.int8), FURITEN_KINDS),
        "is_own_discard_furiten": own,
    }


def pass_has_yaku(inputs: RoundInputs, states: HandStates, passes: Passes) -> np.ndarray:
    """Per pass: would the win it let go have had a yaku (dora aside), 1/0 (rules.scoring.has_yaku).

    The hand is the passer's closed tiles just before the tile came plus that tile, with the melds it
    had called; a passed tsumo (the seat's own draw, let go by its tsumogiri) is scored as a tsumo at that draw,
    the rest as rons."""
    ev, rounds = inputs.arrays, inputs.round_arrays
    rows, seats = passes.event_row, passes.seat
    before = state_before(states, ev, rows, seats)
    rid = ev.round_id[rows]
    is_tsumo = passes.from_seat == seats
    # a declined tsumo is passed at its tsumogiri discard: the state before that is the draw's, which holds the
    # drawn tile already; the hand is the one before the draw, and the win would have been at the draw
    state_row = np.where(before >= 0, states.event_row[np.maximum(before, 0)], -1)
    is_draw = (state_row >= 0) & (ev.action[np.maximum(state_row, 0)] == CODE["draw"])
    at_draw = is_draw & (ev.tile[np.maximum(state_row, 0)] == passes.tile)
    counts = states.counts[before].copy()
    counts[np.flatnonzero(at_draw), passes.tile[at_draw] // 4] -= 1
    win_rows = np.where(at_draw, state_row, rows)
    # the melds and situations look within each pass's round only: read from the rounds with passes (few)
    with_passes = np.unique(rid)
    own_events, own_rows = events_of_rounds(ev, with_passes)
    local_rows, local_rid = np.searchsorted(own_rows, win_rows), np.searchsorted(with_passes, rid)
    hands = ron_hands(counts, passes.tile // 4, *melds_before(own_events, local_rows, seats))
    hands = replace(hands, is_tsumo=is_tsumo)
    dealer, n_players = rounds.dealer[rid], rounds.n_players[rid]
    flags = situations(own_events, local_rid, seats, is_tsumo, dealer, n_players, win_row=local_rows)
    context = Context.plain(
        len(rows),
        seat_wind=(seats - dealer) % n_players,
        round_wind=rounds.round_wind[rid],
        has_kuitan=rounds.has_kuitan[rid],
        **flags,
    )
    return has_yaku(hands, context).astype(np.int8)


def declared_ron(rounds: RoundArrays) -> np.ndarray:
    """(n_rounds, 4) the seats that declared ron on the round's last discard: the winners, or the three of a
    triple-ron abort (Tenhou shows their hands)."""
    return rounds.is_ron_winner | ((rounds.draw_kind == "sanchahou")[:, None] & rounds.is_shown)


def pass_columns(inputs: RoundInputs, states: HandStates, classified: Passes) -> dict:
    """Columns of the furiten_passes table, one row per pass (rules.furiten.classify_passes)."""
    ev, rounds = inputs.arrays, inputs.round_arrays
    rid = ev.round_id[classified.event_row]
    kind_codes = np.select([classified.kind == k for k in FURITEN_KINDS], range(len(FURITEN_KINDS)), -1)
    return {
        "game_id": rounds.game_id[rid],
        "round_idx": rounds.round_idx[rid],
        "event_idx": ev.event_idx[classified.event_row],
        "seat": classified.seat,
        "tile": classified.tile,
        "tile34": classified.tile // 4,
        "from_seat": classified.from_seat,
        "action": Coded((ev.action[classified.event_row] == CODE["kakan"]).astype(np.int8), ("discard", "kakan")),
        "was_furiten": classified.was_furiten,
        "in_riichi": classified.in_riichi,
        "furiten_kind": Coded(kind_codes.astype(np.int8), FURITEN_KINDS),
        "has_yaku": pass_has_yaku(inputs, states, classified),
    }


def interval_columns(
    rounds: RoundArrays, ev: EventArrays, states: HandStates, own: np.ndarray, classified: Passes,
    history: SeatHistory,
) -> dict:  # fmt: skip
    """Columns of the furiten table: every furiten interval (rules.furiten.furiten_intervals)."""
    intervals = furiten_intervals(ev, states, own, classified, history)
    return {
        "game_id": rounds.game_id[intervals.round_id],
        "round_idx": rounds.round_idx[intervals.round_id],
        "seat": intervals.seat,
        "kind": Coded(intervals.kind, FURITEN_KINDS),
        "start_event_idx": ev.event_idx[intervals.start_row],
        "end_event_idx": np.where(intervals.end_row >= 0, ev.event_idx[np.maximum(intervals.end_row, 0)], -1),
    }
