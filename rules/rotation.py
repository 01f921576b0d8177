"""What follows a round under Tenhou's rules, many rounds at once: next dealer, honba, riichi sticks, game end.

Inputs are arrays with one entry per round (``(N,)``) or per round and seat (``(N, 4)``, absolute
seats 0-3, seat 0 = first dealer, sanma's seat 3 empty). Every output depends on its own round only,
so rounds of many games can be passed together in any order.

Tenhou's rules (each checked against the real logs in tests/rules/test_rotation.py):

* The dealer keeps the seat (renchan) after a win of the dealer (also as one of several winners of a
  multiple ron), after an exhaustive draw or nagashi mangan with the dealer tenpai, and after any
  abortive draw. Otherwise the seat passes to the next seat, and after the last kyoku of a wind the
  next wind begins.
* Honba: +1 after a draw of any kind or a dealer win; 0 after a win by non-dealers only.
* Riichi sticks: the winner takes them (0 after a win); after a draw they stay, plus the riichi
  accepted in the round.
* The game ends when a score goes below 0 (tobi), or at or after the last round of its length
  (East 4 for tonpuu, South 4 for hanchan; the 3rd kyoku in sanma):
  - when the dealer keeps the seat, only if the dealer is first (ties go to the lower seat) with at
    least the target score, after a dealer win (agari-yame) or a tenpai draw (tenpai-yame, which
    Tenhou introduced in June 2010: before, the dealer went on; rules.tenhou_rules); never after an abortive draw;
    a non-dealer reaching the target during a renchan does not end the game;
  - when the seat passes, if somebody has the target score (30000; sanma 40000), or the round was
    the last of the extension winds (``extension_winds``: today one, South for tonpuu, West for hanchan;
    a 2009 tonpuu went on into West: rules.tenhou_rules); otherwise the extension (sudden death) goes on.
  Scores are taken after the round with the riichi sticks deposited in it already deducted.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from rules.payments import (
    ABORTIVE_KINDS,
    DRAW_KINDS,
    EXHAUSTIVE,
    N_SEATS,
    NAGASHI_MANGAN,
    check_names,
    is_one_of,
    present_seats,
)

WIN = "win"
"""Outcome of a round won by one or more players."""

OUTCOMES = (WIN, *DRAW_KINDS)
"""How a round can end: 'win' or a kind of draw (see rules.payments.DRAW_KINDS)."""

TARGET_SCORE = {4: 30000, 3: 40000}
"""Score (full points) somebody must reach for the game to end after its last regular round."""


class NextRound(NamedTuple):
    """What follows each round: (N,) arrays aligned to the input rounds."""

    round_wind: np.ndarray  # prevailing wind of the next round (0 East, 1 South, 2 West)
    kyoku: np.ndarray  # kyoku of the next round within its wind (0-based)
    dealer: np.ndarray  # dealer seat of the next round
    honba: np.ndarray  # honba counter at the start of the next round
    riichi_sticks: np.ndarray  # riichi sticks on the table at the start of the next round
    dealer_keeps: np.ndarray  # the dealer keeps the seat (renchan)
    game_ends: np.ndarray  # the game ends after this round (the next-round values are then moot)


def check_outcomes(outcome: ArrayLike) -> np.ndarray:
    """Take outcomes (N,) ('win' or a kind of draw); return them as a str array, ValueError on an unknown one."""
    return check_names(outcome, OUTCOMES, "round outcome")


def dealer_won(winners: ArrayLike, dealer: ArrayLike) -> np.ndarray:
    """Take winners (N, 4) bool and dealer (N,) seat; return (N,) bool, True when the dealer is among the winners."""
    winners = np.asarray(winners, dtype=bool)
    return winners[np.arange(len(winners)), np.asarray(dealer, dtype=np.int64)]


def dealer_keeps_seat(
    outcome: ArrayLike, winners: ArrayLike, dealer: ArrayLike, dealer_tenpai: ArrayLike
) -> np.ndarray:
    """Whether the dealer keeps the seat (renchan).

    Takes ``outcome`` (N,) 'win' or a kind of draw, ``winners`` (N, 4) bool, ``dealer`` (N,) seat and
    ``dealer_tenpai`` (N,) bool (read at exhaustive and nagashi mangan draws only); returns (N,) bool.
    """
    outcomes = check_outcomes(outcome)
    tenpai_at_draw = is_one_of(outcomes, (EXHAUSTIVE, NAGASHI_MANGAN)) & np.asarray(dealer_tenpai, dtype=bool)
    is_abortive = is_one_of(outcomes, ABORTIVE_KINDS)
    return ((outcomes == WIN) & dealer_won(winners, dealer)) | tenpai_at_draw | is_abortive


def next_honba(outcome: ArrayLike, honba: ArrayLike, winners: ArrayLike, dealer: ArrayLike) -> np.ndarray:
    """Take outcome (N,), honba (N,), winners (N, 4) and dealer (N,); return the next round's honba (N,) int64.

    +1 after any draw or a dealer win, 0 after a win by non-dealers only.
    """
    outcomes = check_outcomes(outcome)
    honba = np.asarray(honba, dtype=np.int64)
    is_reset = (outcomes == WIN) & ~dealer_won(winners, dealer)
    return np.where(is_reset, 0, honba + 1)


def next_riichi_sticks(outcome: ArrayLike, riichi_sticks: ArrayLike, n_riichi_accepted: ArrayLike) -> np.ndarray:
    """Riichi sticks on the table at the start of the next round.

    Takes ``outcome`` (N,), ``riichi_sticks`` (N,) at the start of the round and ``n_riichi_accepted`` (N,)
    (sticks put on the table during it); returns (N,) int64: 0 after a win, the sum after a draw.
    """
    outcomes = check_outcomes(outcome)
    on_table = np.asarray(riichi_sticks, dtype=np.int64) + np.asarray(n_riichi_accepted, dtype=np.int64)
    return np.where(outcomes == WIN, 0, on_table)


def advance_seat(
    round_wind: ArrayLike, kyoku: ArrayLike, dealer: ArrayLike, n_players: ArrayLike, keeps: ArrayLike
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Take round_wind, kyoku, dealer, n_players and keeps (N,); return the next (round_wind, kyoku, dealer).

    Unless the dealer keeps the seat it passes to the next seat; after the last kyoku of a wind the
    next wind begins at kyoku 0.
    """
    wind, kyoku, dealer = (np.asarray(a, dtype=np.int64) for a in (round_wind, kyoku, dealer))
    n = np.asarray(n_players, dtype=np.int64)
    keeps = np.asarray(keeps, dtype=bool)
    moved = kyoku + 1
    wraps = moved == n
    next_wind = np.where(keeps, wind, wind + wraps)
    next_kyoku = np.where(keeps, kyoku, np.where(wraps, 0, moved))
    next_dealer = np.where(keeps, dealer, (dealer + 1) % n)
    return next_wind, next_kyoku, next_dealer


def dealer_is_first(scores: ArrayLike, dealer: ArrayLike, n_players: ArrayLike) -> np.ndarray:
    """Take scores (N, 4), dealer (N,) and n_players (N,); return (N,) bool: the dealer ranks first.

    Ties go to the lower seat (the earlier first dealer), as in Tenhou's final ranking.
    """
    scores = np.asarray(scores, dtype=np.int64)
    dealer = np.asarray(dealer, dtype=np.int64)
    present = present_seats(n_players)
    dealer_score = scores[np.arange(len(scores)), dealer][:, None]
    seats = np.arange(N_SEATS)[None, :]
    beats_dealer = (scores > dealer_score) | ((scores == dealer_score) & (seats < dealer[:, None]))
    return ~(beats_dealer & present).any(axis=1)


def round_position(round_wind: ArrayLike, kyoku: ArrayLike, n_players: ArrayLike) -> np.ndarray:
    """Take round_wind, kyoku and n_players (N,); return the 0-based kyoku count from East 1 (N,) int64."""
    n = np.asarray(n_players, dtype=np.int64)
    return np.asarray(round_wind, dtype=np.int64) * n + np.asarray(kyoku, dtype=np.int64)


def yame_allowed(outcome: ArrayLike, has_tenpai_yame: ArrayLike = True) -> np.ndarray:
    """Take outcome (N,) and has_tenpai_yame (N,) or a bool; return (N,) bool: the round can end the game by yame.

    A dealer win can (agari-yame); a tenpai draw (exhaustive or nagashi mangan) can when the game has
    tenpai-yame (Tenhou since June 2010); an abortive draw cannot.
    """
    outcomes = check_outcomes(outcome)
    is_tenpai_draw = is_one_of(outcomes, (EXHAUSTIVE, NAGASHI_MANGAN))
    return (outcomes == WIN) | (is_tenpai_draw & np.asarray(has_tenpai_yame, dtype=bool))


def game_ends(
    *,
    round_wind: ArrayLike,
    kyoku: ArrayLike,
    dealer: ArrayLike,
    n_players: ArrayLike,
    is_hanchan: ArrayLike,
    outcome: ArrayLike,
    keeps: ArrayLike,
    scores_post: ArrayLike,
    has_tenpai_yame: ArrayLike = True,
    extension_winds: ArrayLike = 1,
) -> np.ndarray:
    """Whether the game ends after each round (tobi, agari-yame / tenpai-yame, end of length or extension).

    Takes (N,) arrays round_wind, kyoku, dealer, n_players, is_hanchan, outcome, keeps (the dealer keeps
    the seat), ``scores_post`` (N, 4), the scores after the round with deposited riichi sticks deducted,
    ``has_tenpai_yame`` ((N,) or one bool; False for Tenhou games before June 2010) and ``extension_winds``
    ((N,) or one int: the winds after the last regular one the game may go on into); returns (N,) bool.
    See the module docstring for the rules.
    """
    n = np.asarray(n_players, dtype=np.int64)
    scores = np.asarray(scores_post, dtype=np.int64)
    present = present_seats(n)
    target = np.where(n == 3, TARGET_SCORE[3], TARGET_SCORE[4])
    last_regular = np.where(np.asarray(is_hanchan, dtype=bool), 2 * n - 1, n - 1)  # position of South/East 4
    position = round_position(round_wind, kyoku, n)
    is_tobi = ((scores < 0) & present).any(axis=1)
    dealer_score = scores[np.arange(len(scores)), np.asarray(dealer, dtype=np.int64)]
    dealer_top = dealer_is_first(scores, dealer, n) & (dealer_score >= target)
    is_yame = yame_allowed(outcome, has_tenpai_yame) & dealer_top
    someone_at_target = np.where(present, scores, np.iinfo(np.int64).min).max(axis=1) >= target
    passes_end = someone_at_target | (position >= last_regular + n * np.asarray(extension_winds, dtype=np.int64))
    ends_in_final = np.where(np.asarray(keeps, dtype=bool), is_yame, passes_end)
    return is_tobi | ((position >= last_regular) & ends_in_final)


def next_round(
    *,
    round_wind: ArrayLike,
    kyoku: ArrayLike,
    dealer: ArrayLike,
    honba: ArrayLike,
    riichi_sticks: ArrayLike,
    n_players: ArrayLike,
    is_hanchan: ArrayLike,
    outcome: ArrayLike,
    winners: ArrayLike,
    dealer_tenpai: ArrayLike,
    n_riichi_accepted: ArrayLike,
    scores_post: ArrayLike,
    has_tenpai_yame: ArrayLike = True,
    extension_winds: ArrayLike = 1,
) -> NextRound:
    """What follows each round: next round_wind, kyoku, dealer, honba, riichi sticks, renchan and game end.

    Takes per round (N,): round_wind, kyoku, dealer, honba and riichi_sticks at the start, n_players (3/4),
    is_hanchan, outcome ('win' or a kind of draw), dealer_tenpai (read at exhaustive and nagashi mangan
    draws), n_riichi_accepted (sticks put on the table in the round); per round and seat (N, 4): winners
    (bool; several on a multiple ron) and scores_post (after the round, deposited sticks deducted);
    has_tenpai_yame and extension_winds as in game_ends (rules.tenhou_rules gives both by the game's date).
    Returns a ``NextRound`` of (N,) arrays aligned to the input.
    """
    outcome = check_outcomes(outcome)  # once: the helpers then take the str array as it is
    keeps = dealer_keeps_seat(outcome, winners, dealer, dealer_tenpai)
    wind, next_kyoku, next_dealer = advance_seat(round_wind, kyoku, dealer, n_players, keeps)
    ends = game_ends(
        round_wind=round_wind,
        kyoku=kyoku,
        dealer=dealer,
        n_players=n_players,
        is_hanchan=is_hanchan,
        outcome=outcome,
        keeps=keeps,
        scores_post=scores_post,
        has_tenpai_yame=has_tenpai_yame,
        extension_winds=extension_winds,
    )
    return NextRound(
        round_wind=wind,
        kyoku=next_kyoku,
        dealer=next_dealer,
        honba=next_honba(outcome, honba, winners, dealer),
        riichi_sticks=next_riichi_sticks(outcome, riichi_sticks, n_riichi_accepted),
        dealer_keeps=keeps,
        game_ends=ends,
    )
