"""Points of wins under Tenhou's rules, many at once: base points, limits, hand values, score changes.

Base points: fu x 2^(han + 2) below mangan (no kiriage: 4 han 30 fu is 7700), mangan 2000 from
5 han (or when the formula reaches it), haneman 3000 (6-7 han), baiman 4000 (8-10), sanbaiman 6000
(11-12), yakuman 8000 per yakuman, and kazoe yakuman 8000 at 13+ han without one. A ron is paid
base x 6 (dealer) or x 4 by the discarder; a tsumo base x 2 by the dealer (every payer when the
dealer wins) and x 1 by the others, each rounded up to 100. Sanma has two payers (tsumo loss).

Honba: 100 per counter from each other player: on a tsumo each payer pays 100, on a ron the discarder
pays them all, 300 in 4-player and 200 in sanma (Tenhou's sanma logs: 2009030421gm-00b9-0000-ed4f0295 round 2,
a 5800 ron at 2 honba paid 6200; every one of the 284 sanma rons taking the honba, at honba 1-9, pays 200 a
counter). Riichi sticks: 1000 each to the winner. With several rons on one discard, honba and sticks go to the
winner nearest the discarder in turn order. Pao (daisangen, daisuushii): on a tsumo the liable seat pays the whole hand
as a ron and all the honba; on a ron by another seat it pays half and the honba, the discarder half.
"""

from __future__ import annotations

import numpy as np

LIMIT_NAMES: tuple[str, ...] = ("", "mangan", "haneman", "baiman", "sanbaiman", "yakuman")
"""Limit code (0-5, Tenhou's third ``ten`` value) -> name."""

LIMIT_BASE = np.array([0, 2000, 3000, 4000, 6000, 8000])
"""Base points of each limit code."""

HONBA_EACH, STICK = 100, 1000
"""Points per honba counter from each other player, per riichi stick."""


def honba_ron(n_players: np.ndarray | int) -> np.ndarray | int:
    """Points a discarder pays per honba counter: 100 for each other player (300; sanma 200)."""
    return HONBA_EACH * (np.asarray(n_players) - 1)


def ceil100(points: np.ndarray) -> np.ndarray:
    """Round up to the next 100 points."""
    return -(-np.asarray(points, dtype=np.int64) // 100) * 100


def limit_codes(han: np.ndarray, fu: np.ndarray, n_yakuman: np.ndarray) -> np.ndarray:
    """Limit code of each hand (N,) int8: 0 none, 1 mangan ... 5 yakuman (kazoe at 13+ han)."""
    han = np.asarray(han, dtype=np.int64)
    formula = np.asarray(fu, dtype=np.int64) << np.minimum(han + 2, 20)
    code = np.select(
        [np.asarray(n_yakuman) > 0, han >= 13, han >= 11, han >= 8, han >= 6, (han >= 5) | (formula >= 2000)],
        [5, 5, 4, 3, 2, 1],
        0,
    )
    return code.astype(np.int8)


def basic_points(han: np.ndarray, fu: np.ndarray, n_yakuman: np.ndarray) -> np.ndarray:
    """Base points of each hand (N,) int64 (before the x4 / x6 multipliers); 8000 per yakuman."""
    han = np.asarray(han, dtype=np.int64)
    code = limit_codes(han, fu, n_yakuman)
    formula = np.asarray(fu, dtype=np.int64) << np.clip(han + 2, 0, 20)
    limited = LIMIT_BASE[code] * np.maximum(np.asarray(n_yakuman, dtype=np.int64), 1)
    return np.where(code > 0, limited, formula)


def shares(basic: np.ndarray, winner: np.ndarray, dealer: np.ndarray, n_players: np.ndarray) -> np.ndarray:
    """(N, 4) what each seat pays a tsumo (no honba): 2 x base involving the dealer, else 1 x, rounded up
    to 100; 0 for the winner and seats without a player."""
    seats = np.arange(4)[None, :]
    winner, dealer = np.asarray(winner)[:, None], np.asarray(dealer)[:, None]
    involves_dealer = (seats == dealer) | (winner == dealer)
    pay = ceil100(np.asarray(basic)[:, None] * np.where(involves_dealer, 2, 1))
    present = seats < np.asarray(n_players)[:, None]
    return np.where(present & (seats != winner), pay, 0)


def ron_value(basic: np.ndarray, is_dealer: np.ndarray) -> np.ndarray:
    """What a ron is paid (N,): base x 6 for the dealer, x 4 otherwise, rounded up to 100."""
    return ceil100(np.asarray(basic) * np.where(np.asarray(is_dealer), 6, 4))


def hand_values(
    basic: np.ndarray,
    winner: np.ndarray,
    dealer: np.ndarray,
    is_tsumo: np.ndarray,
    n_players: np.ndarray,
    pao: np.ndarray,
) -> np.ndarray:
    """The hand's value (N,) as Tenhou records it (honba and sticks excluded): the ron payment, or the
    sum of the tsumo shares (a liable seat on a tsumo pays the ron value)."""
    ron = ron_value(basic, np.asarray(winner) == np.asarray(dealer))
    tsumo = shares(basic, winner, dealer, n_players).sum(axis=1)
    return np.where(np.asarray(is_tsumo) & (np.asarray(pao) < 0), tsumo, ron)


def bonus_winners(win_round: np.ndarray, seat: np.ndarray, from_seat: np.ndarray, n_players: np.ndarray) -> np.ndarray:
    """(W,) bool: the win that takes the honba and sticks, the one nearest the discarder in turn order
    among the wins of its round (a tsumo: itself)."""
    win_round = np.asarray(win_round, dtype=np.int64)
    distance = (np.asarray(seat) - np.asarray(from_seat)) % np.asarray(n_players)
    nearest = np.full(win_round.max() + 1 if len(win_round) else 0, 99, dtype=np.int64)
    np.minimum.at(nearest, win_round, distance)
    return distance == nearest[win_round]


def score_deltas(
    basic: np.ndarray,
    winner: np.ndarray,
    from_seat: np.ndarray,
    dealer: np.ndarray,
    is_tsumo: np.ndarray,
    n_players: np.ndarray,
    honba: np.ndarray,
    sticks: np.ndarray,
    pao: np.ndarray,
    takes_bonus: np.ndarray,
) -> np.ndarray:
    """(N, 4) int64 score changes of each win in full points, honba, sticks and pao included.

    ``honba`` and ``sticks`` count only where ``takes_bonus`` (see bonus_winners); ``pao`` is the
    liable seat or -1.
    """
    n = len(basic)
    rows = np.arange(n)
    winner, from_seat, pao = (np.asarray(a, dtype=np.int64) for a in (winner, from_seat, pao))
    is_tsumo = np.asarray(is_tsumo, dtype=bool)
    honba = np.where(takes_bonus, honba, 0).astype(np.int64)
    sticks = np.where(takes_bonus, sticks, 0).astype(np.int64)
    value = ron_value(basic, winner == np.asarray(dealer))
    liable = pao >= 0
    deltas = np.zeros((n, 4), dtype=np.int64)
    # a tsumo without pao: every other seat pays its share and 100 per honba
    plain_tsumo = is_tsumo & ~liable
    share = shares(basic, winner, dealer, n_players)
    deltas -= np.where((share > 0) & plain_tsumo[:, None], share + HONBA_EACH * honba[:, None], 0)
    # a tsumo with pao: the liable seat pays the ron value and every payer's honba
    tsumo_pao = is_tsumo & liable
    np.subtract.at(
        deltas,
        (rows[tsumo_pao], pao[tsumo_pao]),
        (value + honba_ron(n_players) * honba)[tsumo_pao],
    )
    # a ron: the discarder pays, or half of it when another seat is liable (that seat also pays the honba)
    ron = ~is_tsumo
    split = ron & liable & (pao != from_seat)
    ron_honba = honba_ron(n_players) * honba
    discarder_pays = np.where(split, value // 2, value + ron_honba)
    np.subtract.at(deltas, (rows[ron], from_seat[ron]), discarder_pays[ron])
    np.subtract.at(deltas, (rows[split], pao[split]), (value - value // 2 + ron_honba)[split])
    deltas[rows, winner] -= deltas.sum(axis=1)
    deltas[rows, winner] += STICK * sticks
    return deltas
