"""Score changes of drawn rounds under Tenhou's rules, many rounds at once.

Inputs are arrays with one entry per round (``(N,)``) or per round and seat (``(N, 4)``, seats 0-3
absolute, seat 0 = first dealer). A 3-player (sanma) round keeps four seat positions; the fourth
(seat 3) is empty and never pays or receives. Outputs are ``(N, 4)`` int64 score deltas in full
points.

Tenhou's rules, as its logs record them (checked in tests/rules/test_payments.py):

* Exhaustive draw: noten payments. 4-player: 3000 in total (1 tenpai +3000 / -1000 each; 2: +-1500;
  3: +1000 / -3000). 3-player: 2000 in total (1 tenpai +2000 / -1000 each; 2: +1000 each / -2000).
  Nobody or everybody tenpai: no payment.
* Nagashi mangan: replaces the noten payments. Each seat with nagashi receives a mangan tsumo: a
  non-dealer 4000 from the dealer and 2000 from each other non-dealer, the dealer 4000 from each.
* Abortive draws (kyuushu kyuuhai, suufon renda, suucha riichi, suukaikan, sanchahou): no payment.
* Honba and riichi sticks are never paid at a draw: the sticks stay on the table.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

N_SEATS = 4
"""Seat positions of every round (sanma leaves seat 3 empty)."""

EXHAUSTIVE = "exhaustive"
NAGASHI_MANGAN = "nagashi_mangan"
ABORTIVE_KINDS = ("kyuushu_kyuuhai", "suufon_renda", "suucha_riichi", "suukaikan", "sanchahou")
"""Kinds of abortive draw (tochuu ryuukyoku), as in the draws table."""

DRAW_KINDS = (EXHAUSTIVE, NAGASHI_MANGAN, *ABORTIVE_KINDS)
"""Every kind of draw, as in the draws table's ``kind`` column."""

NOTEN_POOL = {4: 3000, 3: 2000}
"""Total noten payment by number of players (full points)."""

MANGAN_TSUMO_DEALER_SHARE = 4000
"""What the dealer pays a non-dealer's mangan tsumo, and what each seat pays the dealer's."""

MANGAN_TSUMO_NON_DEALER_SHARE = 2000
"""What a non-dealer pays another non-dealer's mangan tsumo."""


def present_seats(n_players: ArrayLike) -> np.ndarray:
    """Take n_players (N,) (3 or 4); return (N, 4) bool, True for the seats that hold a player."""
    n = np.asarray(n_players, dtype=np.int64)
    if n.size and not np.isin(n, (3, 4)).all():
        raise ValueError(f"n_players must be 3 or 4, got {np.unique(n[~np.isin(n, (3, 4))]).tolist()}")
    return np.arange(N_SEATS)[None, :] < n[:, None]


def noten_payments(tenpai: ArrayLike, n_players: ArrayLike) -> np.ndarray:
    """Noten payments of exhaustive draws.

    Takes ``tenpai`` (N, 4) bool (the empty sanma seat is ignored) and ``n_players`` (N,);
    returns (N, 4) int64 deltas in full points: the pool (3000, sanma 2000) shared by the tenpai
    seats and paid in equal parts by the noten seats; zero when nobody or everybody is tenpai.
    """
    present = present_seats(n_players)
    n = present.sum(axis=1)
    is_tenpai = np.asarray(tenpai, dtype=bool) & present
    n_tenpai = is_tenpai.sum(axis=1)
    pool = np.where(n == 3, NOTEN_POOL[3], NOTEN_POOL[4])
    is_paid = (n_tenpai > 0) & (n_tenpai < n)  # somebody tenpai and somebody noten
    gain = np.where(is_paid, pool // np.maximum(n_tenpai, 1), 0)
    loss = np.where(is_paid, pool // np.maximum(n - n_tenpai, 1), 0)
    deltas = np.where(is_tenpai, gain[:, None], np.where(present, -loss[:, None], 0))
    return deltas.astype(np.int64)


def nagashi_mangan_payments(nagashi: ArrayLike, dealer: ArrayLike, n_players: ArrayLike) -> np.ndarray:
    """Payments of nagashi mangan draws.

    Takes ``nagashi`` (N, 4) bool (the seats with nagashi mangan), ``dealer`` (N,) seat and
    ``n_players`` (N,); returns (N, 4) int64 deltas in full points: each nagashi seat receives a
    mangan tsumo (4000 from or to the dealer, 2000 between non-dealers); several seats each collect.
    """
    present = present_seats(n_players)
    has_nagashi = np.asarray(nagashi, dtype=bool) & present
    dealer = np.asarray(dealer, dtype=np.int64)
    deltas = np.zeros(has_nagashi.shape, dtype=np.int64)
    for receiver in range(N_SEATS):
        for payer in range(N_SEATS):
            if payer == receiver:
                continue
            involves_dealer = (dealer == receiver) | (dealer == payer)
            share = np.where(involves_dealer, MANGAN_TSUMO_DEALER_SHARE, MANGAN_TSUMO_NON_DEALER_SHARE)
            paid = np.where(has_nagashi[:, receiver] & present[:, payer], share, 0)
            deltas[:, receiver] += paid
            deltas[:, payer] -= paid
    return deltas


def as_names(values: ArrayLike) -> np.ndarray:
    """Take names (N,) (a list, numpy or pandas array of str); return them as a numpy str array."""
    names = np.asarray(values)
    return names if names.dtype.kind == "U" else names.astype(str)


def is_one_of(names: np.ndarray, vocabulary: tuple[str, ...]) -> np.ndarray:
    """Take a str array (N,) and a few names; return (N,) bool, True where the name is one of them."""
    found = np.zeros(names.shape, dtype=bool)
    for name in vocabulary:
        found |= names == name
    return found


def check_names(values: ArrayLike, vocabulary: tuple[str, ...], what: str) -> np.ndarray:
    """Take names (N,) and the known ones; return them as a str array, raising ValueError naming any unknown one."""
    names = as_names(values)
    known = is_one_of(names, vocabulary)
    if not known.all():
        raise ValueError(f"unknown {what} {np.unique(names[~known]).tolist()}; known: {list(vocabulary)}")
    return names


def draw_payments(
    kind: ArrayLike,
    n_players: ArrayLike,
    dealer: ArrayLike,
    tenpai: ArrayLike,
    nagashi: ArrayLike,
) -> np.ndarray:
    """Score changes of drawn rounds under Tenhou's rules.

    Takes per round: ``kind`` (N,) 'exhaustive', 'nagashi_mangan' or an abortive kind (see
    ``DRAW_KINDS``), ``n_players`` (N,) 3 or 4, ``dealer`` (N,) seat, ``tenpai`` (N, 4) bool and
    ``nagashi`` (N, 4) bool. Returns (N, 4) int64 deltas in full points: noten payments after an
    exhaustive draw, the nagashi mangan payments instead of them, nothing after an abortive draw.
    Honba and riichi sticks are not paid at a draw. Raises ValueError on an unknown kind.
    """
    kinds = check_names(kind, DRAW_KINDS, "kind of draw")
    noten = noten_payments(tenpai, n_players)
    mangan = nagashi_mangan_payments(nagashi, dealer, n_players)
    is_exhaustive = (kinds == EXHAUSTIVE)[:, None]
    is_nagashi = (kinds == NAGASHI_MANGAN)[:, None]
    return np.where(is_nagashi, mangan, np.where(is_exhaustive, noten, 0)).astype(np.int64)
