"""Payments at a draw: hand-made rounds for each rule, then every draw of the real logs against the server's deltas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rules.payments import (
    ABORTIVE_KINDS,
    draw_payments,
    nagashi_mangan_payments,
    noten_payments,
    present_seats,
)

SEATS = range(4)


def seats(*true_seats: int) -> list[bool]:
    """A (4,) seat flag row with the given seats set."""
    return [seat in true_seats for seat in SEATS]


@pytest.mark.parametrize(
    ("n_players", "tenpai", "expected"),
    [
        (4, seats(), [0, 0, 0, 0]),
        (4, seats(2), [-1000, -1000, 3000, -1000]),
        (4, seats(0, 3), [1500, -1500, -1500, 1500]),
        (4, seats(0, 1, 2), [1000, 1000, 1000, -3000]),
        (4, seats(0, 1, 2, 3), [0, 0, 0, 0]),
        (3, seats(), [0, 0, 0, 0]),
        (3, seats(1), [-1000, 2000, -1000, 0]),  # sanma pays 2000 in total (sanma2.xml, round 2)
        (3, seats(0, 2), [1000, -2000, 1000, 0]),
        (3, seats(0, 1, 2), [0, 0, 0, 0]),
        (3, seats(1, 3), [-1000, 2000, -1000, 0]),  # the empty sanma seat never counts
    ],
)
def test_noten_payments(n_players: int, tenpai: list[bool], expected: list[int]) -> None:
    assert noten_payments([tenpai], [n_players]).tolist() == [expected]


@pytest.mark.parametrize(
    ("n_players", "dealer", "nagashi", "expected"),
    [
        (4, 0, seats(3), [-4000, -2000, -2000, 8000]),  # non-dealer: a mangan tsumo (pantheon nagashi.xml)
        (4, 3, seats(2), [-2000, -2000, 8000, -4000]),  # (mjx 2019082700gm-00a9-0000-63d1f136, round 3)
        (4, 1, seats(1), [-4000, 12000, -4000, -4000]),  # dealer: 4000 from each
        (4, 0, seats(1, 2), [-8000, 6000, 6000, -4000]),  # two seats each collect
        (3, 0, seats(2), [-4000, -2000, 6000, 0]),  # sanma: no fourth payer
        (3, 2, seats(2), [-4000, -4000, 8000, 0]),
        (4, 0, seats(), [0, 0, 0, 0]),
    ],
)
def test_nagashi_mangan_payments(n_players: int, dealer: int, nagashi: list[bool], expected: list[int]) -> None:
    assert nagashi_mangan_payments([nagashi], [dealer], [n_players]).tolist() == [expected]


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("exhaustive", [1500, -1500, -1500, 1500]),
        ("nagashi_mangan", [-4000, 8000, -2000, -2000]),  # replaces the noten payments
        *[(kind, [0, 0, 0, 0]) for kind in ABORTIVE_KINDS],
    ],
)
def test_draw_payments_by_kind(kind: str, expected: list[int]) -> None:
    tenpai, nagashi = seats(0, 3), seats(1)
    assert draw_payments([kind], [4], [0], [tenpai], [nagashi]).tolist() == [expected]


def test_draw_payments_many_rounds_at_once_sum_to_zero() -> None:
    rng = np.random.default_rng(7)
    n = 2000
    kinds = rng.choice(["exhaustive", "nagashi_mangan", *ABORTIVE_KINDS], n)
    n_players = rng.choice([3, 4], n)
    dealer = rng.integers(0, n_players)
    deltas = draw_payments(kinds, n_players, dealer, rng.random((n, 4)) < 0.5, rng.random((n, 4)) < 0.1)
    assert deltas.shape == (n, 4) and deltas.dtype == np.int64
    assert (deltas.sum(axis=1) == 0).all()
    assert (deltas[n_players == 3, 3] == 0).all()


def test_unknown_draw_kind_and_player_count_raise() -> None:
    with pytest.raises(ValueError, match="ryuukyoku"):
        draw_payments(["exhaustive", "ryuukyoku"], [4, 4], [0, 0], [seats()] * 2, [seats()] * 2)
    with pytest.raises(ValueError, match="n_players"):
        present_seats([5])


DRAWS_SQL = """
with called as (
    select distinct game_id, round_idx, from_seat as seat
    from events
    where action in ('chi', 'pon', 'daiminkan')
),
discards as (
    select game_id, round_idx, seat, bool_and(tile34 in (0, 8, 9, 17, 18, 26) or tile34 >= 27) as only_yaochuu
    from events
    where action = 'discard'
    group by all
),
nagashi as (
    select game_id, round_idx, list(seat) as seats
    from discards
    anti join called using (game_id, round_idx, seat)
    where only_yaochuu
    group by all
),
final as (
    select
        d.game_id, d.round_idx, d.kind, r.dealer, g.n_players, g.source_file,
        g.is_server_log and not g.is_custom_rule as is_standard,
        d.is_shown[1] as tenpai0, d.is_shown[2] as tenpai1, d.is_shown[3] as tenpai2, d.is_shown[4] as tenpai3,
        coalesce(list_contains(n.seats, 0), false) as nagashi0, coalesce(list_contains(n.seats, 1), false) as nagashi1,
        coalesce(list_contains(n.seats, 2), false) as nagashi2, coalesce(list_contains(n.seats, 3), false) as nagashi3,
        d.score_deltas[1] as delta0, d.score_deltas[2] as delta1,
        d.score_deltas[3] as delta2, d.score_deltas[4] as delta3
    from draws d
    join rounds r using (game_id, round_idx)
    join games g using (game_id)
    left join nagashi n using (game_id, round_idx)
)
select * from final order by game_id, round_idx
"""
"""Every draw with its inputs: tenpai = hands shown (exhaustive and nagashi draws), nagashi = seats whose
discards are all terminals and honors and were never called, and the deltas the server recorded."""


def seat_columns(frame: pd.DataFrame, prefix: str) -> np.ndarray:
    """The (N, 4) matrix of columns prefix0..prefix3."""
    return np.stack([frame[f"{prefix}{seat}"].to_numpy() for seat in SEATS], axis=1)


@pytest.fixture(scope="module")
def draws(tenhou_db) -> pd.DataFrame:  # noqa: ANN001
    """The real logs' draws with derived and recorded deltas and whether they agree."""
    frame = tenhou_db.execute(DRAWS_SQL).df()
    tenpai, nagashi = seat_columns(frame, "tenpai"), seat_columns(frame, "nagashi")
    derived = draw_payments(frame["kind"], frame["n_players"], frame["dealer"], tenpai, nagashi)
    frame["agrees"] = (derived == seat_columns(frame, "delta")).all(axis=1)
    return frame


def test_every_draw_of_standard_server_logs_pays_as_derived(draws: pd.DataFrame) -> None:
    standard = draws[draws["is_standard"]]
    assert len(standard) == 187  # exhaustive, nagashi mangan and abortive draws (edited logs and copies apart)
    assert set(standard["kind"]) == {"exhaustive", "nagashi_mangan", *ABORTIVE_KINDS}
    assert standard.loc[~standard["agrees"], ["source_file", "round_idx", "kind"]].empty


def test_sanma_pays_2000_in_total(draws: pd.DataFrame) -> None:
    # the only sanma draw (dnovikoff sanma2.xml, GO type 185, East 2 honba 1): seat 1 alone tenpai
    sanma = draws[draws["n_players"] == 3]
    assert sanma["source_file"].str.endswith("sanma2.xml").all()
    assert seat_columns(sanma, "delta").tolist() == [[-1000, 2000, -1000, 0]]
    assert sanma["agrees"].all()


def test_other_logs_are_reported_not_asserted(draws: pd.DataFrame) -> None:
    other = draws[~draws["is_standard"]]
    disagreeing = other.loc[~other["agrees"], "source_file"].tolist()
    print(f"custom-rule / non-server draws: {other['agrees'].sum()}/{len(other)} agree; disagree: {disagreeing}")
