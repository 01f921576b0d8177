"""The round_transitions table: draw payments and what follows each round, derived and logged.

Derived: rules.payments (from the derived tenpai and nagashi of every seat) and rules.rotation
(from the round's result). Logged: the draw's score changes, and the next stored round of the game.
Rules that changed by date (tenpai-yame, the tonpuu extension) come from rules.tenhou_rules by the game's
start time; a game without a date in the 2009 format (its shuffle inside INIT) is taken as older.
"""

from __future__ import annotations

import numpy as np

from pipeline.derive.draws import DrawTenpai
from pipeline.derive.round_arrays import RoundArrays
from rules.hands import CODE, EventArrays
from rules.payments import draw_payments
from rules.rotation import NextRound, next_round
from rules.tenhou_draws import DRAW_KINDS_WITH_HANDS, exhaustive_kind
from rules.tenhou_rules import rotation_rules


def transition_columns(rounds: RoundArrays, events: EventArrays, at_draw: DrawTenpai) -> dict:
    """Columns of round_transitions from the rounds and the derived (n_rounds, 4) tenpai and nagashi
    of every seat at exhaustive draws (False elsewhere)."""
    n = len(rounds)
    tenpai, nagashi = at_draw.tenpai, at_draw.nagashi
    logged_kind = rounds.draw_kind
    is_draw = logged_kind != ""
    is_exhaustive_kind = np.isin(logged_kind, DRAW_KINDS_WITH_HANDS)
    # an exhaustive draw with a nagashi seat is a nagashi mangan (from the ponds, not the label)
    outcome = np.where(is_draw, np.where(is_exhaustive_kind, exhaustive_kind(nagashi.any(axis=1)), logged_kind), "win")
    dealer, n_players = rounds.dealer, rounds.n_players
    payments = draw_payments(np.where(is_draw, outcome, "exhaustive"), n_players, dealer, tenpai, nagashi)

    accepted = np.bincount(events.round_id[events.action == CODE["riichi_accepted"]], minlength=n)
    nxt = next_round(
        round_wind=rounds.round_wind, kyoku=rounds.kyoku, dealer=dealer, honba=rounds.honba,
        riichi_sticks=rounds.riichi_sticks, n_players=n_players, is_hanchan=rounds.is_hanchan, outcome=outcome,
        winners=rounds.is_winner, dealer_tenpai=tenpai[np.arange(n), dealer], n_riichi_accepted=accepted,
        scores_post=rounds.scores_post.astype(np.int64),
        **rotation_rules(rounds.started_at, rounds.is_old_format, rounds.is_hanchan),
    )  # fmt: skip
    return {
        "game_id": rounds.game_id,
        "round_idx": rounds.round_idx,
        "outcome": outcome.astype(object),
        "draw_payments": [p.tolist() if d else None for p, d in zip(payments, is_draw, strict=True)],
        "draw_payments_logged": rounds.draw_deltas_logged,
        **_next_columns(rounds, nxt),
    }


def _next_columns(rounds: RoundArrays, nxt: NextRound) -> dict:
    """Derived next-round values beside the logged ones (the next stored round of the same game)."""
    game = rounds.game_of_round
    has_next = np.r_[game[1:] == game[:-1], False]
    after = np.minimum(np.arange(len(rounds)) + 1, len(rounds) - 1)
    ends = np.asarray(nxt.game_ends, dtype=bool)
    out = {"ends_game": ends}
    for name, column in (("round_wind", "round_wind"), ("kyoku", "kyoku"), ("dealer", "dealer"),
                         ("honba", "honba"), ("riichi_sticks", "riichi_sticks")):  # fmt: skip
        derived = np.asarray(getattr(nxt, name), dtype=np.int64)
        logged = getattr(rounds, column)[after]
        out[f"next_{name}"] = np.where(ends, -1, derived)
        out[f"next_{name}_logged"] = np.where(has_next, logged, -1)
    is_last = rounds.is_last
    # a game cut short: after its last stored round the log says nothing
    out["ends_game_logged"] = np.where(has_next, 0, np.where(is_last, 1, -1)).astype(np.int8)
    return out
