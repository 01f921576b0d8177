"""Points (rules.scoring.points): base points and limits, hand values, and score changes with honba, riichi
sticks, double ron and pao, in Tenhou's rules (the real-log test checks them on every logged win too)."""

from __future__ import annotations

import numpy as np
import pytest

from rules.scoring.points import LIMIT_NAMES, basic_points, bonus_winners, hand_values, limit_codes, score_deltas


def one(values: list[int] | int) -> np.ndarray:
    """A one-row array."""
    return np.array([values])


@pytest.mark.parametrize(
    ("han", "fu", "n_yakuman", "basic", "limit"),
    [
        (1, 30, 0, 240, ""),
        (2, 25, 0, 400, ""),
        (3, 60, 0, 1920, ""),  # no kiriage mangan: 7700 for a non-dealer ron
        (4, 30, 0, 1920, ""),
        (4, 40, 0, 2000, "mangan"),  # the formula reaches mangan
        (3, 70, 0, 2000, "mangan"),
        (5, 30, 0, 2000, "mangan"),
        (6, 30, 0, 3000, "haneman"),
        (7, 30, 0, 3000, "haneman"),
        (8, 30, 0, 4000, "baiman"),
        (10, 30, 0, 4000, "baiman"),
        (11, 30, 0, 6000, "sanbaiman"),
        (12, 30, 0, 6000, "sanbaiman"),
        (13, 30, 0, 8000, "yakuman"),  # kazoe yakuman
        (20, 40, 0, 8000, "yakuman"),  # kazoe: never more than one yakuman
        (13, 40, 1, 8000, "yakuman"),
        (26, 40, 2, 16000, "yakuman"),  # two yakuman add up
        (39, 60, 3, 24000, "yakuman"),
    ],
)
def test_base_points_and_limits(han: int, fu: int, n_yakuman: int, basic: int, limit: str) -> None:
    assert basic_points(one(han), one(fu), one(n_yakuman)).tolist() == [basic]
    assert LIMIT_NAMES[limit_codes(one(han), one(fu), one(n_yakuman))[0]] == limit


@pytest.mark.parametrize(
    ("basic", "winner", "dealer", "tsumo", "players", "value"),
    [
        (240, 1, 0, False, 4, 1000),  # 1 han 30 fu non-dealer ron
        (240, 0, 0, False, 4, 1500),  # dealer ron
        (240, 1, 0, True, 4, 1100),  # 300 / 500 tsumo
        (240, 0, 0, True, 4, 1500),  # 500 all
        (320, 1, 0, True, 4, 1500),  # 2 han 20 fu (pinfu tsumo): 400 / 700
        (1920, 1, 0, False, 4, 7700),
        (1920, 0, 0, True, 4, 11700),  # 3900 all
        (2000, 1, 0, True, 4, 8000),
        (2000, 1, 0, True, 3, 6000),  # sanma: tsumo loss, the dealer 4000 and the other non-dealer 2000
        (3000, 1, 1, True, 3, 12000),  # sanma dealer haneman tsumo: 6000 from each of two
        (8000, 2, 0, False, 4, 32000),
    ],
)
def test_hand_values(basic: int, winner: int, dealer: int, tsumo: bool, players: int, value: int) -> None:
    got = hand_values(one(basic), one(winner), one(dealer), one(tsumo), one(players), one(-1))
    assert got.tolist() == [value]


def deltas(basic: int, winner: int, from_seat: int, dealer: int = 0, players: int = 4, honba: int = 0,
           sticks: int = 0, pao: int = -1, bonus: bool = True) -> list[int]:  # fmt: skip
    """Score changes of one win."""
    return score_deltas(
        one(basic), one(winner), one(from_seat), one(dealer), one(winner == from_seat), one(players), one(honba),
        one(sticks), one(pao), one(bonus),
    )[0].tolist()  # fmt: skip


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"basic": 240, "winner": 1, "from_seat": 2}, [0, 1000, -1000, 0]),
        ({"basic": 240, "winner": 1, "from_seat": 2, "honba": 2, "sticks": 1}, [0, 2600, -1600, 0]),
        ({"basic": 240, "winner": 1, "from_seat": 1, "honba": 2}, [-700, 1700, -500, -500]),  # 100 per honba each
        ({"basic": 1920, "winner": 0, "from_seat": 0, "honba": 1, "sticks": 2}, [14000, -4000, -4000, -4000]),
        # sanma: two payers, 100 per honba each (fp-9ec0dbdd960c1ba8 round 3: 6200 each at 2 honba)
        ({"basic": 3000, "winner": 1, "from_seat": 1, "dealer": 1, "players": 3, "honba": 2, "sticks": 1},
         [-6200, 13400, -6200, 0]),
        ({"basic": 960, "winner": 0, "from_seat": 0, "dealer": 1, "players": 3, "honba": 3},
         [3600, -2300, -1300, 0]),
        # pao on a tsumo: the liable seat pays everything as a ron, and the honba of every payer
        ({"basic": 8000, "winner": 2, "from_seat": 2, "pao": 3, "honba": 1, "sticks": 1}, [0, 0, 33300, -32300]),
        # pao on a ron by another seat: half each, the liable seat pays the honba
        ({"basic": 8000, "winner": 1, "from_seat": 2, "pao": 3}, [0, 32000, -16000, -16000]),
        ({"basic": 8000, "winner": 1, "from_seat": 2, "pao": 3, "honba": 2}, [0, 32600, -16000, -16600]),
        # the liable seat deals in itself: a plain ron
        ({"basic": 8000, "winner": 1, "from_seat": 3, "pao": 3, "honba": 1}, [0, 32300, 0, -32300]),
        # a second winner of a double ron takes no honba or sticks
        ({"basic": 240, "winner": 1, "from_seat": 2, "honba": 2, "sticks": 1, "bonus": False}, [0, 1000, -1000, 0]),
    ],
)  # fmt: skip
def test_score_deltas(kwargs: dict[str, int], expected: list[int]) -> None:
    got = deltas(**kwargs)
    assert got == expected
    assert sum(got) == 1000 * kwargs.get("sticks", 0) * kwargs.get("bonus", True)  # only the sticks come from outside


def test_double_ron_sticks_and_honba_go_to_the_winner_nearest_the_discarder() -> None:
    # round 0: seat 2 discards, seats 3 and 1 ron (3 is next in turn); round 1: seat 0 discards, 1 and 3 ron;
    # round 2: a tsumo; round 3 (sanma, seats 0-2): seat 2 discards, seats 1 and 0 ron (0 is next after 2)
    rounds = np.array([0, 0, 1, 1, 2, 3, 3])
    seat = np.array([1, 3, 3, 1, 2, 1, 0])
    from_seat = np.array([2, 2, 0, 0, 2, 2, 2])
    players = np.array([4, 4, 4, 4, 4, 3, 3])
    bonus = bonus_winners(rounds, seat, from_seat, players)
    assert bonus.tolist() == [False, True, False, True, True, False, True]
    paid = score_deltas(
        np.full(7, 2000), seat, from_seat, np.zeros(7), seat == from_seat, players, np.full(7, 2), np.full(7, 1),
        np.full(7, -1), bonus,
    )  # fmt: skip
    assert paid[0].tolist() == [0, 8000, -8000, 0]
    assert paid[1].tolist() == [0, 0, -8600, 9600]
