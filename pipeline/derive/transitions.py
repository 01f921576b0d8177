"""The round_transitions table: draw payments and what follows each round, derived and logged.

Derived: rules.payments (from the derived tenpai and nagashi of every seat) and rules.rotation
(from the round's result). Logged: the draw's score changes, and the next stored round of the game.
Rules that changed by date (tenpai-yame, the tonpuu extension) come from rules.tenhou_rules by the game's
start time; a game without a date in the 2009 format (its shuffle inside INIT) is taken as older.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from pipeline.derive.inputs import RoundInputs, has_quirk, per_seat, seat_sets
from rules.hands import CODE
from rules.payments import draw_payments
from rules.rotation import next_round
from rules.tenhou_rules import rotation_rules


def _rotation_rules(rounds: pa.Table) -> dict[str, np.ndarray]:
    """Per round: next_round's dated arguments, by the game's date (rules.tenhou_rules.rotation_rules)."""
    started = rounds["started_at"].combine_chunks().cast(pa.timestamp("s")).to_numpy(zero_copy_only=False)
    is_hanchan = rounds["is_hanchan"].to_numpy(zero_copy_only=False)
    return rotation_rules(started, has_quirk(rounds, "shuffle_in_init"), is_hanchan)


def transition_columns(inputs: RoundInputs, tenpai: np.ndarray, nagashi: np.ndarray) -> dict:
    """Columns of round_transitions from the rounds and the derived (n_rounds, 4) tenpai and nagashi
    of every seat at exhaustive draws (False elsewhere)."""
    rounds, n = inputs.rounds, inputs.rounds.num_rows
    logged_kind = np.array(rounds["draw_kind"].fill_null("").to_pylist(), dtype=object)
    is_draw = logged_kind != ""
    is_exhaustive_kind = np.isin(logged_kind, ["exhaustive", "nagashi_mangan"])
    # an exhaustive draw with a nagashi seat is a nagashi mangan (from the ponds, not the label)
    derived_kind = np.where(nagashi.any(axis=1), "nagashi_mangan", "exhaustive")
    outcome = np.where(is_draw, np.where(is_exhaustive_kind, derived_kind, logged_kind), "win")
    dealer = rounds["dealer"].to_numpy().astype(np.int64)
    n_players = rounds["n_players"].to_numpy().astype(np.int64)
    payments = draw_payments(np.where(is_draw, outcome, "exhaustive"), n_players, dealer, tenpai, nagashi)

    accepted = np.bincount(inputs.arrays.round_id[inputs.arrays.action == CODE["riichi_accepted"]], minlength=n)
    nxt = next_round(
        round_wind=rounds["round_wind"].to_numpy(), kyoku=rounds["kyoku"].to_numpy(), dealer=dealer,
        honba=rounds["honba"].to_numpy(), riichi_sticks=rounds["riichi_sticks"].to_numpy(), n_players=n_players,
        is_hanchan=rounds["is_hanchan"].to_numpy(zero_copy_only=False), outcome=outcome,
        winners=seat_sets(rounds["winner_seats"], n),
        dealer_tenpai=tenpai[np.arange(n), dealer], n_riichi_accepted=accepted,
        scores_post=per_seat(rounds["scores_post"], n).astype(np.int64), **_rotation_rules(rounds),
    )  # fmt: skip
    return {
        "game_id": rounds["game_id"].to_numpy(zero_copy_only=False),
        "round_idx": rounds["round_idx"].to_numpy(),
        "outcome": outcome.astype(object),
        "draw_payments": [p.tolist() if d else None for p, d in zip(payments, is_draw, strict=True)],
        "draw_payments_logged": rounds["draw_deltas"].to_pylist(),
        **_next_columns(rounds, nxt),
    }


def _next_columns(rounds: pa.Table, nxt) -> dict:  # noqa: ANN001 - a rules.rotation.NextRound
    """Derived next-round values beside the logged ones (the next stored round of the same game)."""
    game = rounds["game_id"].to_numpy(zero_copy_only=False)
    has_next = np.r_[game[1:] == game[:-1], False]
    after = np.minimum(np.arange(rounds.num_rows) + 1, rounds.num_rows - 1)
    ends = np.asarray(nxt.game_ends, dtype=bool)
    out = {"ends_game": ends}
    for name, column in (("round_wind", "round_wind"), ("kyoku", "kyoku"), ("dealer", "dealer"),
                         ("honba", "honba"), ("riichi_sticks", "riichi_sticks")):  # fmt: skip
        derived = np.asarray(getattr(nxt, name), dtype=np.int64)
        logged = rounds[column].to_numpy().astype(np.int64)[after]
        out[f"next_{name}"] = np.where(ends, -1, derived)
        out[f"next_{name}_logged"] = np.where(has_next, logged, -1)
    is_last = rounds["is_last"].to_numpy(zero_copy_only=False)
    # a game cut short: after its last stored round the log says nothing
    out["ends_game_logged"] = np.where(has_next, 0, np.where(is_last, 1, -1)).astype(np.int8)
    return out
