"""Next dealer, honba, riichi sticks and game end: hand-made rounds for each rule, then every round of the real logs
against the round that really followed it (and the game's recorded end)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rules.payments import ABORTIVE_KINDS
from rules.rotation import NextRound, advance_seat, dealer_is_first, next_round
from rules.tenhou_rules import rotation_rules

EVEN = [25000, 25000, 25000, 25000]
NO_WIN = {"winners": []}
NOTEN_DRAW = {"outcome": "exhaustive", "winners": []}


def one_round(**overrides: object) -> NextRound:
    """next_round of one hand-made round: 4-player hanchan East 1, dealer 0, seat 1 wins, unless overridden."""
    values: dict[str, object] = {
        "round_wind": 0, "kyoku": 0, "dealer": 0, "honba": 0, "riichi_sticks": 0, "n_players": 4,
        "is_hanchan": True, "outcome": "win", "winners": [1], "dealer_tenpai": False, "n_riichi_accepted": 0,
        "scores_post": EVEN, "has_tenpai_yame": True,
    }  # fmt: skip
    values.update(overrides)
    values["winners"] = [seat in values["winners"] for seat in range(4)]  # type: ignore[operator]
    arrays = {name: np.asarray([value]) for name, value in values.items()}
    return NextRound(*(field[0].item() for field in next_round(**arrays)))


@pytest.mark.parametrize(
    ("case", "overrides", "dealer", "honba", "riichi_sticks"),
    [
        ("non-dealer win", {"honba": 3, "riichi_sticks": 2}, 1, 0, 0),
        ("dealer win", {"winners": [0], "honba": 3, "riichi_sticks": 2}, 0, 4, 0),
        ("double ron with the dealer", {"winners": [0, 2], "honba": 1}, 0, 2, 0),
        ("double ron without the dealer", {"winners": [1, 2], "honba": 1}, 1, 0, 0),
        ("exhaustive, dealer tenpai", {"outcome": "exhaustive", "winners": [], "dealer_tenpai": True}, 0, 1, 0),
        ("exhaustive, dealer noten", {**NOTEN_DRAW, "riichi_sticks": 1}, 1, 1, 1),
        ("riichi sticks stay", {**NOTEN_DRAW, "riichi_sticks": 1, "n_riichi_accepted": 2}, 1, 1, 3),
        ("nagashi, dealer tenpai", {"outcome": "nagashi_mangan", "winners": [], "dealer_tenpai": True}, 0, 1, 0),
        ("nagashi, dealer noten", {"outcome": "nagashi_mangan", "winners": [], "honba": 2}, 1, 3, 0),
        *[
            (kind, {"outcome": kind, "winners": [], "riichi_sticks": 1, "n_riichi_accepted": 4}, 0, 1, 5)
            for kind in ABORTIVE_KINDS
        ],
    ],
)
def test_dealer_honba_and_sticks(case: str, overrides: dict, dealer: int, honba: int, riichi_sticks: int) -> None:
    result = one_round(**overrides)
    assert (result.dealer, result.honba, result.riichi_sticks) == (dealer, honba, riichi_sticks), case
    assert not result.game_ends


@pytest.mark.parametrize(
    ("round_wind", "kyoku", "n_players", "keeps", "expected"),
    [
        (0, 1, 4, False, (0, 2, 2)),
        (0, 3, 4, False, (1, 0, 0)),  # East 4 -> South 1
        (1, 3, 4, False, (2, 0, 0)),  # South 4 -> West 1 (the extension)
        (0, 2, 3, False, (1, 0, 0)),  # sanma East 3 -> South 1
        (1, 3, 4, True, (1, 3, 3)),
    ],
)
def test_advance_seat(round_wind: int, kyoku: int, n_players: int, keeps: bool, expected: tuple) -> None:
    result = advance_seat([round_wind], [kyoku], [kyoku], [n_players], [keeps])
    assert tuple(int(a[0]) for a in result) == expected


@pytest.mark.parametrize(
    ("scores", "dealer", "n_players", "expected"),
    [
        ([20000, 30000, 10000, 40000], 3, 4, True),
        ([20000, 40000, 10000, 40000], 3, 4, False),  # a tie goes to the lower seat
        ([40000, 20000, 10000, 30000], 0, 4, True),
        ([40000, 20000, 40000, 0], 0, 3, True),
        ([30000, 40000, 35000, 99999], 2, 3, False),
        ([30000, 20000, 35000, 99999], 2, 3, True),  # the empty sanma seat never ranks
    ],
)
def test_dealer_is_first(scores: list[int], dealer: int, n_players: int, expected: bool) -> None:
    assert dealer_is_first([scores], [dealer], [n_players]).tolist() == [expected]


SOUTH_4 = {"round_wind": 1, "kyoku": 3, "dealer": 3}
DEALER_TOP = {"scores_post": [20000, 20000, 20000, 40000]}  # dealer (seat 3 in South 4) first with 40000
WEST_1 = {"round_wind": 2, "kyoku": 0, "dealer": 0}
WEST_4 = {"round_wind": 2, "kyoku": 3, "dealer": 3}
TONPUU_EAST_4 = {"is_hanchan": False, "round_wind": 0, "kyoku": 3, "dealer": 3}
SANMA_SOUTH_3 = {"n_players": 3, "round_wind": 1, "kyoku": 2, "dealer": 2}
TENPAI_DRAW = {"outcome": "exhaustive", "winners": [], "dealer_tenpai": True}


@pytest.mark.parametrize(
    ("case", "overrides", "ends"),
    [
        ("tobi", {"scores_post": [-100, 45100, 30000, 25000]}, True),
        ("0 points is not tobi", {"scores_post": [0, 45000, 30000, 25000]}, False),
        ("dealer top before the last round", {"winners": [0], "scores_post": [50000, 10000, 20000, 20000]}, False),
        ("last round passes, 30000 reached", {**SOUTH_4, "scores_post": [30000, 25000, 25000, 20000]}, True),
        ("last round passes, 30000 not reached", {**SOUTH_4, "scores_post": [29900, 25100, 25000, 20000]}, False),
        ("agari-yame", {**SOUTH_4, **DEALER_TOP, "winners": [3]}, True),
        ("dealer wins, not first", {**SOUTH_4, "winners": [3], "scores_post": [40000, 20000, 10000, 30000]}, False),
        ("dealer wins, tied first", {**SOUTH_4, "winners": [3], "scores_post": [35000, 20000, 10000, 35000]}, False),
        ("dealer first below 30000", {**SOUTH_4, "winners": [3], "scores_post": [25000, 24000, 22000, 29000]}, False),
        ("tenpai-yame", {**SOUTH_4, **DEALER_TOP, **TENPAI_DRAW}, True),
        ("before tenpai-yame (2009)", {**SOUTH_4, **DEALER_TOP, **TENPAI_DRAW, "has_tenpai_yame": False}, False),
        ("nagashi tenpai-yame", {**SOUTH_4, **DEALER_TOP, **TENPAI_DRAW, "outcome": "nagashi_mangan"}, True),
        ("no yame on an abortive draw", {**SOUTH_4, **DEALER_TOP, **NO_WIN, "outcome": "kyuushu_kyuuhai"}, False),
        ("tenpai dealer not first", {**SOUTH_4, **TENPAI_DRAW, "scores_post": [31000, 20000, 20000, 29000]}, False),
        ("extension: nobody at 30000", {**WEST_1, "scores_post": [29900, 29900, 20200, 20000]}, False),
        ("extension: 30000 reached", {**WEST_1, "scores_post": [27900, 24600, 17500, 30000]}, True),
        (
            "extension: renchan, 30000 elsewhere",
            {**WEST_1, "winners": [0, 1], "scores_post": [26000, 31000, 0, 0]},
            False,
        ),
        ("West 4 is the very last", {**WEST_4}, True),
        ("West 4 renchan goes on", {**WEST_4, "winners": [3]}, False),
        ("tonpuu East 4, 30000 reached", {**TONPUU_EAST_4, "scores_post": [30000, 25000, 25000, 20000]}, True),
        ("tonpuu East 4 -> South", {**TONPUU_EAST_4}, False),
        ("tonpuu South 4 is the very last", {**TONPUU_EAST_4, "round_wind": 1}, True),
        ("sanma South 3, 40000 reached", {**SANMA_SOUTH_3, "scores_post": [40000, 35000, 30000, 0]}, True),
        ("sanma South 3, 40000 not reached", {**SANMA_SOUTH_3, "scores_post": [39000, 36000, 30000, 0]}, False),
    ],
)
def test_game_ends(case: str, overrides: dict, ends: bool) -> None:
    assert one_round(**overrides).game_ends == ends, case


def test_unknown_outcome_raises() -> None:
    with pytest.raises(ValueError, match="tsumo"):
        one_round(outcome="tsumo")


ROUNDS_SQL = """
with accepted as (
    select game_id, round_idx, count(*) as n_riichi_accepted
    from events
    where action = 'riichi_accepted'
    group by all
),
winners as (
    select game_id, round_idx, list(seat) as seats
    from wins
    group by all
),
final as (
    select
        r.game_id, r.round_idx, r.round_wind, r.kyoku, r.dealer, r.honba, r.riichi_sticks, r.is_last,
        g.source_file, g.started_at, g.n_players, g.is_hanchan, g.is_complete,
        list_contains(g.log_quirks, 'shuffle_in_init') as is_old_format,
        g.is_server_log and not g.is_custom_rule as is_standard,
        coalesce(d.kind, 'win') as outcome,
        coalesce(d.is_shown[r.dealer + 1], false) as dealer_tenpai,
        coalesce(a.n_riichi_accepted, 0) as n_riichi_accepted,
        coalesce(list_contains(w.seats, 0), false) as win0, coalesce(list_contains(w.seats, 1), false) as win1,
        coalesce(list_contains(w.seats, 2), false) as win2, coalesce(list_contains(w.seats, 3), false) as win3,
        r.scores_post[1] as score0, r.scores_post[2] as score1, r.scores_post[3] as score2, r.scores_post[4] as score3,
        lead(r.round_idx) over game_order is not null as has_next,
        lead(r.round_wind) over game_order as next_round_wind,
        lead(r.kyoku) over game_order as next_kyoku,
        lead(r.dealer) over game_order as next_dealer,
        lead(r.honba) over game_order as next_honba,
        lead(r.riichi_sticks) over game_order as next_riichi_sticks
    from rounds r
    join games g using (game_id)
    left join draws d using (game_id, round_idx)
    left join accepted a using (game_id, round_idx)
    left join winners w using (game_id, round_idx)
    window game_order as (partition by r.game_id order by r.round_idx)
)
select * from final order by game_id, round_idx
"""
"""Every round with its inputs (dealer tenpai = the dealer's hand shown at the draw) and the next round stored."""

PLAYED_AS_HANCHAN = {
    "pantheon/Mimir/tests/helpers/onlineLog/testdata/west.xml": "its comment names log 2017030413gm-0009-...: 0x09",
    "pantheon/Mimir/tests/helpers/onlineLog/testdata/doubleron_and_riichi.xml": "East 4 ends with 36400, South follows",
}
"""Server logs whose header pantheon rewrote to <GO type="1" lobby="0" /> (tonpuu), though they were played as hanchan:
both go on into South with a player above 30000 after East 4, and west.xml goes to West exactly as a hanchan does."""

LOG_DATES = {
    "bug1.xml": "2009-02-20", "bug2.xml": "2009-02-21", "bug3.xml": "2009-02-21", "bug4.xml": "2009-02-23",
    "bug5.xml": "2009-04-03", "bug6.xml": "2009-04-09", "bug7.xml": "2009-07-16", "bug8.xml": "2009-08-29",
    "bug9.xml": "2009-09-15", "shuffle.xml": "2009-03-17", "bye.xml": "2009-06-18", "pao.xml": "2010-01-22",
}  # fmt: skip
"""Dates of the dnovikoff-tenhou logs, from their README (the files carry no log id)."""

def real_inputs(frame: pd.DataFrame) -> dict[str, object]:
    """next_round's arguments for the rounds of ``frame`` (with the corrections documented above)."""
    file = frame["source_file"].str.split("tenhou-xml/").str[-1]
    readme_date = pd.to_datetime(file.str.split("/").str[-1].map(LOG_DATES).where(file.str.startswith("dnovikoff")))
    played_on = frame["started_at"].fillna(readme_date)
    is_hanchan = frame["is_hanchan"].to_numpy() | file.isin(PLAYED_AS_HANCHAN).to_numpy()
    dated = rotation_rules(played_on.to_numpy(dtype="datetime64[s]"), frame["is_old_format"].to_numpy(dtype=bool),
                           is_hanchan)  # fmt: skip
    columns = ("round_wind", "kyoku", "dealer", "honba", "riichi_sticks", "n_players", "outcome", "dealer_tenpai")
    return {
        **{name: frame[name].to_numpy() for name in (*columns, "n_riichi_accepted")},
        "is_hanchan": is_hanchan,
        "winners": np.stack([frame[f"win{seat}"].to_numpy() for seat in range(4)], axis=1),
        "scores_post": np.stack([frame[f"score{seat}"].to_numpy() for seat in range(4)], axis=1),
        **dated,
    }


@pytest.fixture(scope="module")
def rounds(tenhou_db) -> pd.DataFrame:  # noqa: ANN001
    """The real logs' rounds with the derived next round, the stored one, and whether they agree."""
    frame = tenhou_db.execute(ROUNDS_SQL).df()
    derived = next_round(**real_inputs(frame))
    fields = ("round_wind", "kyoku", "dealer", "honba", "riichi_sticks")
    same = [(frame[f"next_{f}"] == getattr(derived, f)).fillna(False).to_numpy(dtype=bool) for f in fields]
    frame["next_agrees"] = np.logical_and.reduce(same)  # False where there is no next round
    frame["game_ends"] = derived.game_ends
    frame["end_known"] = frame["has_next"] | frame["is_complete"]  # an incomplete game's stored last round: unknown
    frame["end_agrees"] = frame["game_ends"] == (frame["is_complete"] & ~frame["has_next"])
    frame["file"] = frame["source_file"].str.split("tenhou-xml/").str[-1]
    return frame


def test_stored_round_order_is_consistent(rounds: pd.DataFrame) -> None:
    assert not (rounds["is_last"] & rounds["has_next"]).any()
    assert (rounds["is_last"] == (rounds["is_complete"] & ~rounds["has_next"])).all()


def test_every_next_round_of_standard_server_logs_is_as_derived(rounds: pd.DataFrame) -> None:
    standard = rounds[rounds["is_standard"] & rounds["has_next"]]
    assert len(standard) == 997  # the edited logs (log_class.sql) and the copies of stored games apart
    assert standard.loc[~standard["next_agrees"], ["file", "round_idx"]].empty


def test_every_game_end_of_standard_server_logs_is_as_derived(rounds: pd.DataFrame) -> None:
    standard = rounds[rounds["is_standard"] & rounds["end_known"]]
    assert len(standard) == 1109
    assert standard.loc[~standard["end_agrees"], ["file", "round_idx"]].empty


@pytest.mark.parametrize(
    ("file", "round_idx", "game_ends", "what"),
    [
        ("tenhou-python-bot/project/system_testing/fixtures/30.txt", 8, True, "tenpai-yame: South 4, dealer first"),
        ("dnovikoff-tenhou/log/test_data/bug1.xml", 9, False, "2009: dealer tenpai and first at South 4 goes on"),
        ("dnovikoff-tenhou/log/test_data/bug4.xml", 12, True, "agari-yame already in 2009"),
        ("tenhou-python-bot/project/system_testing/fixtures/2.txt", 8, True, "tenpai-yame in the extension (tonpuu)"),
        ("mjx/tests_py/resources/mjlog/2011020416gm-00a9-0000-025480d4.mjlog", 9, True, "West 1: exactly 30000 ends"),
        ("mjx/tests_py/resources/mjlog/2020060723gm-00a9-0000-58807e27.mjlog", 14, True, "West 4 ends below 30000"),
        ("mjx/tests_py/resources/mjlog/2020060723gm-00a9-0000-58807e27.mjlog", 9, False, "West 1 kyuushu: go on"),
        ("pantheon/Mimir/tests/helpers/onlineLog/testdata/west.xml", 15, False, "South 4, 29800 first: West"),
    ],
)
def test_chosen_game_ends(rounds: pd.DataFrame, file: str, round_idx: int, game_ends: bool, what: str) -> None:
    (row,) = rounds[(rounds["file"] == file) & (rounds["round_idx"] == round_idx)].itertuples()
    assert (row.game_ends, row.end_agrees) == (game_ends, True), what


def test_the_real_logs_cover_every_rule(rounds: pd.DataFrame) -> None:
    standard = rounds[rounds["is_standard"] & rounds["has_next"]]
    n_winners = standard[[f"win{seat}" for seat in range(4)]].sum(axis=1)
    dealer_won = np.choose(standard["dealer"], [standard[f"win{seat}"] for seat in range(4)])
    assert ((n_winners > 1) & dealer_won).sum() >= 4  # multiple ron with the dealer
    assert ((n_winners > 1) & ~dealer_won).sum() >= 1
    assert set(standard["outcome"]) == {"win", "exhaustive", "nagashi_mangan", *ABORTIVE_KINDS}
    draws = standard[standard["outcome"] != "win"]
    assert (draws["dealer_tenpai"] & (draws["outcome"] == "exhaustive")).sum() >= 50
    assert (draws["n_riichi_accepted"] > 0).sum() >= 50
    assert rounds.loc[rounds["is_standard"] & rounds["is_last"], "round_wind"].max() == 2  # games that went West


def test_other_logs_are_reported_not_asserted(rounds: pd.DataFrame) -> None:
    other = rounds[~rounds["is_standard"]]
    bad_next = other.loc[other["has_next"] & ~other["next_agrees"], "file"].value_counts().to_dict()
    bad_end = other.loc[other["end_known"] & ~other["end_agrees"], "file"].value_counts().to_dict()
    print(
        f"custom-rule / non-server: next {other['next_agrees'].sum()}/{other['has_next'].sum()} agree {bad_next}; "
        f"end {(other['end_known'] & other['end_agrees']).sum()}/{other['end_known'].sum()} agree {bad_end}"
    )
