"""Tenhou's payments, in full points: wins, noten payments, nagashi mangan and the final points (owari)."""

from __future__ import annotations

HONBA_EACH = 100
"""Points per honba counter from each other player: on a tsumo each payer adds it (sanma: two payers,
tsumo-son), on a ron the discarder pays them all (300; sanma 200)."""


def ceil100(x: int) -> int:
    """Round up to the next 100 points."""
    return -(-x // 100) * 100


def basic_points(han: int, fu: int, yakuman: int = 0) -> int:
    """Base points of a hand (before the x4 / x6 multipliers); Tenhou: no kiriage, kazoe = one yakuman."""
    if yakuman:
        return 8000 * yakuman
    for min_han, points in ((13, 8000), (11, 6000), (8, 4000), (6, 3000), (5, 2000)):
        if han >= min_han:
            return points
    return min(fu * 2 ** (han + 2), 2000)


def limit_code(han: int, fu: int, yakuman: int = 0) -> int:
    """The third value of AGARI ``ten``: 0 none, 1 mangan, 2 haneman, 3 baiman, 4 sanbaiman, 5 yakuman."""
    return {8000: 5, 6000: 4, 4000: 3, 3000: 2, 2000: 1}.get(basic_points(han, fu, yakuman), 0)


def ron_deltas(
    players: int,
    winner: int,
    discarder: int,
    dealer: int,
    basic: int,
    honba: int,
    sticks: int,
    pao: int | None = None,
) -> tuple[list[int], int]:
    """Per-seat deltas of a ron and the hand value written in ``ten`` (honba and sticks excluded).

    With ``pao`` (a yakuman's responsible player) the value is split half and half with the discarder,
    who alone pays the honba.
    """
    value = ceil100(basic * (6 if winner == dealer else 4))
    honba_points = HONBA_EACH * (players - 1) * honba
    deltas = [0, 0, 0, 0]
    if pao is not None and pao != discarder:
        deltas[pao] -= value // 2
        deltas[discarder] -= value - value // 2 + honba_points
    else:
        deltas[discarder] -= value + honba_points
    deltas[winner] += value + honba_points + 1000 * sticks
    return deltas, value


def tsumo_deltas(
    players: int, winner: int, dealer: int, basic: int, honba: int, sticks: int, pao: int | None = None
) -> tuple[list[int], int]:
    """Per-seat deltas of a tsumo and the hand value written in ``ten``.

    Dealer pays 2x basic, others 1x (all pay 2x when the dealer wins); three-player games have two
    payers (tsumo-son). With ``pao`` the responsible player pays the whole hand as if it were a ron.
    """
    deltas = [0, 0, 0, 0]
    payers = [s for s in range(players) if s != winner]
    if pao is not None:
        value = ceil100(basic * (6 if winner == dealer else 4))
        deltas[pao] -= value + HONBA_EACH * honba * len(payers)
    else:
        value = 0
        for s in payers:
            pay = ceil100(basic * (2 if dealer in (s, winner) else 1))
            value += pay
            deltas[s] -= pay + HONBA_EACH * honba
    deltas[winner] += value + HONBA_EACH * honba * len(payers) + 1000 * sticks
    return deltas, value


def noten_deltas(tenpai: list[bool], players: int) -> list[int]:
    """Noten payments: 3000 in total (4 players) or 2000 (3 players), split between tenpai seats."""
    n_tenpai = sum(tenpai[:players])
    deltas = [0, 0, 0, 0]
    if n_tenpai in (0, players):
        return deltas
    pool = 3000 if players == 4 else 2000
    for s in range(players):
        deltas[s] = pool // n_tenpai if tenpai[s] else -pool // (players - n_tenpai)
    return deltas


def nagashi_deltas(nagashi: list[int], players: int, dealer: int) -> list[int]:
    """Nagashi mangan: each such seat is paid a mangan tsumo (no honba, no sticks)."""
    deltas = [0, 0, 0, 0]
    for seat in nagashi:
        d, _ = tsumo_deltas(players, seat, dealer, 2000, 0, 0)
        deltas = [a + b for a, b in zip(deltas, d, strict=True)]
    return deltas


def final_points(scores: list[int], sticks: int, players: int) -> list[tuple[int, float]]:
    """The ``owari`` pairs (score in hundreds, points) per position.

    Riichi sticks left on the table go to first place; ties rank by seat (closer to the first dealer).
    Points: (score - return) / 1000 rounded on the signed value with .5 going down, plus uma (4 players:
    return 30000, uma +20/+10/-10/-20; 3 players: 40000, +20/0/-20); first place takes the rest so
    the points sum to zero (that is where the oka goes).
    """
    order = sorted(range(players), key=lambda s: (-scores[s], s))
    final = list(scores) + [0] * (4 - len(scores))
    final[order[0]] += 1000 * sticks
    back, uma = (300, [20, 10, -10, -20]) if players == 4 else (400, [20, 0, -20])
    points = [0, 0, 0, 0]
    for rank, seat in enumerate(order[1:], start=1):
        points[seat] = (final[seat] // 100 - back + 4) // 10 + uma[rank]
    points[order[0]] = -sum(points[s] for s in order[1:])
    return [(final[s] // 100, float(points[s])) for s in range(4)]
