"""The per-player vocabulary marts (player_wins, player_riichi_calls, tenhou_dan) against counts made here, in pandas.

Every count comes from the fact tables' labels: turns, riichi order and acceptance, and calls from ``events``; wins,
deal-ins, their points and score changes from ``wins``; draws and their payments from ``draws``; a round's score
change from ``rounds``; ranks from ``players``; the starting shanten from the dealt hands of ``rounds`` (shanten
by the ``mahjong`` package), the waits of a riichi from its hand rebuilt from the deal and the events. Each mart is
compared, numerator and denominator, for every group of every grouping (each split by mode, as the marts are),
and every mean's standard error against the sample standard deviation of its terms.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fnmatch import fnmatchcase

import numpy as np
import pandas as pd
import pytest
from test_marts import SHANTEN, Expected, _game_group, difference, group_label, hand_after_riichi, measured, seat_keys

from pipeline.db import sql_names
from pipeline.statistics import (
    DERIVED_MARTS,
    GROUPINGS,
    MARTS,
    MODE_SPLIT_MARTS,
    NOT_PROPORTIONS,
    Stat,
    mart_stats,
    topic_of,
)

VOCABULARY_MARTS = ("player_wins", "player_riichi_calls", "tenhou_dan")
"""The marts counted here (tests/test_marts.py counts the others)."""
CALLS = ("chi", "pon", "daiminkan")
"""The actions that open a hand (an ankan does not)."""
ROOM_POINTS = {"ippan": (30, 15), "joukyuu": (60, 15), "tokujou": (75, 30), "houou": (90, 45)}
"""Tenhou's dan points of a 4-player hanchan for 1st and 2nd, per room (4th: -(30 + 15 dan))."""
TENHOU_DAN = ("stable_dan_*", "top_two_rate", "last_avoidance_rate", "average_rank_points_mortal")
"""The statistics of tenhou_dan (a mart of fact tables alone, so not in DERIVED_MARTS)."""
KEY = ["game_id", "round_idx", "seat"]
SE = dict[tuple[str, str], float]
"""(statistic, group) -> standard error of a mean."""


def stable_dan(room: str, n1: int, n2: int, n4: int) -> float:
    """Tenhou's stable dan: the dan k at which n1 * first + n2 * second - n4 * (30 + 15 k) = 0."""
    first, second = ROOM_POINTS[room]
    return ((first * n1 + second * n2) / n4 - 30) / 15


def test_stable_dan_is_the_published_formula() -> None:
    """mahjong-dora2.com's Houou example: 3 firsts, 4 seconds, 3 thirds, 3 fourths give 8-dan, its formula
    ((60 n1 + 30 n2) / n4 - 20) / 10 being this one in Houou."""
    assert stable_dan("houou", 3, 4, 3) == pytest.approx(8.0)
    for n1, n2, n4 in ((10, 7, 5), (1, 0, 3)):
        assert stable_dan("houou", n1, n2, n4) == pytest.approx(((60 * n1 + 30 * n2) / n4 - 20) / 10)


# --- the facts, one row per seat-round -----------------------------------------------------------------
@dataclass(frozen=True)
class Tables:
    """The fact tables the counts are made from."""

    games: pd.DataFrame
    players: pd.DataFrame
    rounds: pd.DataFrame
    events: pd.DataFrame
    wins: pd.DataFrame
    draws: pd.DataFrame


@pytest.fixture(scope="module")
def tables(tenhou_db) -> Tables:  # noqa: ANN001
    """The fact tables of the real-log warehouse."""
    f = lambda sql: tenhou_db.execute(sql).df()  # noqa: E731
    return Tables(
        games=f("select game_id, room, year, source, is_hanchan, n_players from games"),
        players=f("select game_id, seat::int as seat, name, final_rank from players"),
        rounds=f("select game_id, round_idx::int as round_idx, dealer::int as dealer, scores_pre, scores_post, "
                 "hands_start from rounds"),
        events=f("select game_id, round_idx::int as round_idx, event_idx, seat::int as seat, action, tile, meld_tiles "
                 "from events where action not in ('dora', 'disconnect', 'reconnect')"),
        wins=f("select game_id, round_idx::int as round_idx, seat::int as seat, from_seat::int as from_seat, "
               "is_tsumo, points, score_deltas, is_yakuman, yaku_names, yaku_han from wins"),
        draws=f("select game_id, round_idx::int as round_idx, kind, score_deltas from draws"),
    )  # fmt: skip


def _per_seat(frame: pd.DataFrame, sr: pd.DataFrame, column: str, default: object = None) -> pd.Series:
    """``frame``'s column (one row per game, round and seat) aligned to the seat-rounds ``sr``."""
    joined = sr[KEY].merge(frame[[*KEY, column]], on=KEY, how="left")[column]
    return joined if default is None else joined.fillna(default)


def riichi_facts(t: Tables) -> pd.DataFrame:
    """Per riichi declaration: its turn (own discards before it), other seats' declarations before and after it,
    and whether its stick was put down."""
    ev = t.events
    riichi = ev[ev["action"] == "riichi"][[*KEY, "event_idx"]]
    discards = ev[ev["action"] == "discard"][[*KEY, "event_idx"]]
    turns = riichi.merge(discards, on=KEY, suffixes=("", "_d"), how="left")
    turns = turns.assign(before=turns["event_idx_d"] < turns["event_idx"]).groupby(KEY)["before"].sum()
    pairs = riichi.merge(riichi, on=["game_id", "round_idx"], suffixes=("", "_o"))
    pairs = pairs[pairs["seat"] != pairs["seat_o"]]
    order = (
        pairs.assign(before=pairs["event_idx_o"] < pairs["event_idx"], after=pairs["event_idx_o"] > pairs["event_idx"])
        .groupby(KEY)[["before", "after"]]
        .sum()
    )
    accepted = ev[ev["action"] == "riichi_accepted"][KEY].drop_duplicates().assign(accepted=True)
    out = riichi[KEY].merge(turns.rename("riichi_turn").reset_index(), on=KEY, how="left")
    out = out.merge(order.reset_index(), on=KEY, how="left").fillna({"before": 0, "after": 0})
    return out.merge(accepted, on=KEY, how="left").fillna({"accepted": False})


def starting_shanten(t: Tables) -> pd.DataFrame:
    """The shanten of every hand as dealt (13 tiles), by the mahjong package (regular, seven pairs, orphans)."""
    rows = []
    for game_id, round_idx, hands in t.rounds[["game_id", "round_idx", "hands_start"]].itertuples(False):
        for seat, hand in enumerate(hands):
            if len(hand):
                counts = np.bincount(np.asarray(hand, dtype=int) // 4, minlength=34)
                rows.append((game_id, round_idx, seat, SHANTEN.calculate_shanten(counts.tolist())))
    return pd.DataFrame(rows, columns=[*KEY, "starting_shanten"])


def riichi_waits(t: Tables) -> pd.DataFrame:
    """Per riichi declaration whose discard is found: the kinds completing its hand right after it."""
    dealt = {(g, r): hands for g, r, hands in t.rounds[["game_id", "round_idx", "hands_start"]].itertuples(False)}
    ev = t.events[t.events["action"] != "riichi_accepted"]
    declarers = ev.loc[ev["action"] == "riichi", KEY]
    rows = []
    for (game_id, round_idx, seat), seat_events in (
        ev.merge(declarers, on=KEY).sort_values([*KEY, "event_idx"]).groupby(KEY, sort=False)
    ):
        rebuilt = hand_after_riichi(dealt[(game_id, round_idx)][seat], seat_events)
        if rebuilt is not None:
            counts = np.bincount(np.asarray(rebuilt[0], dtype=int) // 4, minlength=34).tolist()
            waits = sum(
                SHANTEN.calculate_shanten([c + (k == kind) for k, c in enumerate(counts)]) == -1 for kind in range(34)
            )
            rows.append((game_id, round_idx, seat, waits))
    return pd.DataFrame(rows, columns=[*KEY, "n_waits"])


def seat_round_facts(t: Tables) -> pd.DataFrame:
    """Every seat-round with what the marts count, each from the fact tables."""
    sr = t.rounds.merge(t.players[["game_id", "seat"]], on="game_id")
    sr["is_dealer"] = sr["seat"] == sr["dealer"]
    sr["score_change"] = [
        post[s] - pre[s] for pre, post, s in zip(sr["scores_pre"], sr["scores_post"], sr["seat"], strict=True)
    ]
    ev = t.events
    per_action = (
        ev.assign(discard=ev["action"] == "discard", call=ev["action"].isin(CALLS), riichi=ev["action"] == "riichi")
        .groupby(KEY)[["discard", "call", "riichi"]]
        .sum()
        .reset_index()
    )
    sr["n_discards"] = _per_seat(per_action, sr, "discard", 0)
    sr["n_calls"] = _per_seat(per_action, sr, "call", 0)
    sr["has_riichi"] = _per_seat(per_action, sr, "riichi", 0) > 0
    riichi = riichi_facts(t)
    for column in ("riichi_turn", "before", "after", "accepted"):
        sr[column] = _per_seat(riichi, sr, column)
    sr["accepted"] = sr["accepted"].fillna(False).astype(bool)
    sr["has_call"] = sr["n_calls"] > 0
    w = t.wins.assign(
        delta=[d[s] for d, s in zip(t.wins["score_deltas"], t.wins["seat"], strict=True)],
        ippatsu=[("ippatsu" in list(n)) for n in t.wins["yaku_names"]],
        ura=[
            any(y == "ura_dora" and h > 0 for y, h in zip(n, hs, strict=True))
            for n, hs in zip(t.wins["yaku_names"], t.wins["yaku_han"], strict=True)
        ],
    )  # fmt: skip
    for column in ("is_tsumo", "points", "delta", "is_yakuman", "ippatsu", "ura"):
        sr["win_" + column] = _per_seat(w, sr, column)
    sr["is_win"] = sr["win_points"].notna()
    winners = sr.loc[sr["is_win"], [*KEY, "is_dealer", "has_riichi", "has_call"]]
    ron = w[~w["is_tsumo"]].merge(winners, on=KEY)
    ron = ron.assign(
        dealt_delta=[d[s] for d, s in zip(ron["score_deltas"], ron["from_seat"], strict=True)],
        dama=~ron["has_riichi"] & ~ron["has_call"],
    )
    off = ron.groupby(["game_id", "round_idx", "from_seat"]).agg(
        n_ron_off=("seat", "size"), dealt_points=("points", "sum"), dealt_delta=("dealt_delta", "sum"),
        to_dealer=("is_dealer", "sum"), to_riichi=("has_riichi", "sum"), to_open=("has_call", "sum"),
        to_dama=("dama", "sum"),
    ).reset_index().rename(columns={"from_seat": "seat"})  # fmt: skip
    for column in ("n_ron_off", "dealt_points", "dealt_delta", "to_dealer", "to_riichi", "to_open", "to_dama"):
        sr[column] = _per_seat(off, sr, column)
    sr["is_deal_in"] = sr["n_ron_off"].notna()
    d = sr[["game_id", "round_idx", "seat"]].merge(t.draws, on=["game_id", "round_idx"], how="left")
    sr["draw_kind"] = d["kind"].to_numpy()
    sr["draw_delta"] = [
        x[s] if isinstance(x, (list, np.ndarray)) else None for x, s in zip(d["score_deltas"], d["seat"], strict=True)
    ]
    sr["starting_shanten"] = _per_seat(starting_shanten(t), sr, "starting_shanten")
    sr["n_waits"] = _per_seat(riichi_waits(t), sr, "n_waits")
    return sr.merge(t.games[["game_id", "n_players", "is_hanchan"]], on="game_id")  # fmt: skip


@pytest.fixture(scope="module")
def facts(tables: Tables) -> pd.DataFrame:
    """Every seat-round with its counted facts."""
    return seat_round_facts(tables)


# --- expected counts -----------------------------------------------------------------------------------
def grouped(frame: pd.DataFrame, t: Tables, by: str) -> pd.DataFrame:
    """``frame`` (with game_id and seat) with its group, split by mode as the marts are ('value|mode')."""
    keys = seat_keys(t, by)
    out = frame.merge(keys, on=["game_id", "seat"])
    mode = _game_group(out, "mode")
    if by in ("all", "mode"):
        return out.assign(group=mode)
    return out.assign(group=out["group"] + "|" + mode)


def record(expected: Expected, se: SE, name: str, rows: pd.DataFrame, group: str, num: pd.Series, den: pd.Series,
           mean: bool = False) -> None:  # fmt: skip
    """Record one statistic of a group: numerator = the sum of ``num`` over the rows where ``den``; a mean also
    records its standard error (the sample standard deviation of the terms over the square root of their count)."""
    n = int(den.sum())
    if n == 0:
        return
    terms = num[den].astype(float)
    total = float(terms.sum())
    expected[(name, group)] = (round(total, 6), n)
    if mean and n > 1:
        se[(name, group)] = float(terms.std(ddof=1)) / math.sqrt(n)


def player_wins(f: pd.DataFrame, group: str, expected: Expected, se: SE) -> None:
    """The player_wins statistics of one group's seat-rounds."""
    win, dealer = f["is_win"], f["is_dealer"]
    riichi_win, open_win = win & f["has_riichi"], win & f["has_call"]
    dama_win = win & ~f["has_riichi"] & ~f["has_call"]
    mortal_delta = f["win_delta"] - 1000 * f["has_riichi"]
    every = pd.Series(True, index=f.index)
    deal_in, turn = f["is_deal_in"], f["n_discards"]
    rows = [
        ("dealer_win_rate", win, dealer, False), ("dealer_win_share", dealer, win, False),
        ("tsumo_share", f["win_is_tsumo"].eq(True), win, False), ("riichi_win_share", f["has_riichi"], win, False),
        ("open_win_share", f["has_call"], win, False), ("dama_win_share", dama_win, win, False),
        ("average_win_turn", turn, win, True), ("average_riichi_win_turn", turn, riichi_win, True),
        ("average_open_win_turn", turn, open_win, True), ("average_dama_win_turn", turn, dama_win, True),
        ("average_win_score_change", mortal_delta, win, True),
        ("average_dealer_win_score_change", mortal_delta, win & dealer, True),
        ("average_non_dealer_win_score_change", mortal_delta, win & ~dealer, True),
        ("average_riichi_win_score_change", mortal_delta, riichi_win, True),
        ("average_open_win_score_change", mortal_delta, open_win, True),
        ("average_dama_win_score_change", mortal_delta, dama_win, True),
        ("ippatsu_rate", f["win_ippatsu"].eq(True), riichi_win, False),
        ("ura_dora_rate", f["win_ura"].eq(True), riichi_win, False),
        ("yakuman_rate", f["win_is_yakuman"].eq(True), every, False),
        ("yakuman_rate_mortal", mortal_delta >= np.where(dealer, 48000, 32000), every, False),
        ("average_deal_in_turn", turn, deal_in, True), ("average_deal_in_points", f["dealt_points"], deal_in, True),
        ("average_deal_in_score_change", f["dealt_delta"], deal_in, True),
        ("average_deal_in_score_change_to_dealer", f["dealt_delta"], f["to_dealer"] > 0, True),
        ("average_deal_in_score_change_to_non_dealer", f["dealt_delta"], f["to_dealer"] == 0, True),
        ("deal_in_to_dealer_share", f["to_dealer"] > 0, deal_in, False),
        ("deal_in_riichi_share", f["has_riichi"], deal_in, False),
        ("deal_in_open_share", f["has_call"], deal_in, False),
        ("seat_draw_rate", f["draw_kind"].notna(), every, False),
        ("average_draw_score_change", f["draw_delta"], f["draw_kind"].notna(), True),
        ("nagashi_mangan_seat_rate", (f["draw_kind"] == "nagashi_mangan") & (f["draw_delta"].astype(float) > 0),
         every, False),
        ("win_efficiency", f["win_points"].fillna(0), every, True),
        ("deal_in_loss", f["dealt_points"].fillna(0), every, True),
        ("net_win_efficiency", f["win_points"].fillna(0) - f["dealt_points"].fillna(0), every, True),
        ("average_round_score_change", f["score_change"], every, True),
        ("average_starting_shanten", f["starting_shanten"], f["starting_shanten"].notna(), True),
        ("average_starting_shanten_dealer", f["starting_shanten"], f["starting_shanten"].notna() & dealer, True),
        ("average_starting_shanten_non_dealer", f["starting_shanten"], f["starting_shanten"].notna() & ~dealer,
         True),
    ]  # fmt: skip
    for name, num, den, mean in rows:
        record(expected, se, name, f, group, num.where(den, 0), den.fillna(False).astype(bool), mean)
    ron_off = f["n_ron_off"].fillna(0)
    n = int(ron_off.sum())
    if n:
        for name, column in (("deal_in_to_riichi_share", "to_riichi"), ("deal_in_to_open_share", "to_open"),
                             ("deal_in_to_dama_share", "to_dama")):  # fmt: skip
            expected[(name, group)] = (int(f[column].fillna(0).sum()), n)


def player_riichi_calls(f: pd.DataFrame, group: str, expected: Expected, se: SE) -> None:
    """The player_riichi_calls statistics of one group's seat-rounds."""
    riichi, call = f["has_riichi"], f["has_call"]
    win, deal_in, drawn = f["is_win"], f["is_deal_in"], f["draw_kind"].notna()
    accepted = f["accepted"]
    win_delta, dealt_delta = f["win_delta"].fillna(0), f["dealt_delta"].fillna(0)
    draw_delta = f["draw_delta"].astype(float).fillna(0)
    mortal_riichi = np.select(
        [win, deal_in, drawn & accepted], [win_delta - 1000 * accepted, dealt_delta, draw_delta - 1000], 0
    )
    mortal_call = np.select([win, deal_in, drawn], [win_delta, dealt_delta, draw_delta], 0)
    known = riichi & f["n_waits"].notna()
    rows = [
        ("first_riichi_rate", f["before"] == 0, riichi, False), ("chasing_riichi_rate", f["before"] > 0, riichi, False),
        ("riichi_chased_rate", f["after"] > 0, riichi, False), ("riichi_chasers_per_riichi", f["after"], riichi, True),
        ("win_rate_after_riichi", win, riichi, False), ("deal_in_rate_after_riichi", deal_in, riichi, False),
        ("deal_in_rate_after_riichi_accepted", deal_in & accepted, riichi, False),
        ("draw_rate_after_riichi", drawn, riichi, False), ("average_riichi_turn", f["riichi_turn"], riichi, True),
        ("average_riichi_balance", f["score_change"], riichi, True),
        ("average_riichi_score_change", pd.Series(mortal_riichi, index=f.index), riichi, True),
        ("average_riichi_win_income", win_delta, riichi & win, True),
        ("average_riichi_deal_in_expense", dealt_delta - 1000 * accepted, riichi & deal_in, True),
        ("multi_wait_riichi_rate", f["n_waits"] >= 2, known, False),
        ("average_calls", f["n_calls"], call, True), ("win_rate_after_call", win, call, False),
        ("deal_in_rate_after_call", deal_in, call, False), ("draw_rate_after_call", drawn, call, False),
        ("average_call_score_change", pd.Series(mortal_call, index=f.index), call, True),
    ]  # fmt: skip
    for name, num, den, mean in rows:
        record(expected, se, name, f, group, num.where(den, 0), den.astype(bool), mean)


def tenhou_dan(seats: pd.DataFrame, group: str, expected: Expected, se: SE) -> None:
    """The tenhou_dan statistics of one group's seats (with a final rank)."""
    rank = seats["final_rank"]
    expected[("top_two_rate", group)] = (int((rank <= 2).sum()), len(seats))
    expected[("last_avoidance_rate", group)] = (int((rank < seats["n_players"]).sum()), len(seats))
    four = seats[seats["n_players"] == 4]
    if len(four):
        points = four["final_rank"].map({1: 90, 2: 45, 3: 0, 4: -135})
        expected[("average_rank_points_mortal", group)] = (int(points.sum()), len(four))
        if len(four) > 1:
            se[("average_rank_points_mortal", group)] = float(points.std(ddof=1)) / math.sqrt(len(four))
    dan = seats[seats["is_dan_table"]]
    for room, in_room in dan.groupby("room"):
        n1, n2, n4 = ((in_room["final_rank"] == k).sum() for k in (1, 2, 4))
        if n4 == 0:
            continue
        first, second = ROOM_POINTS[room]
        name = f"stable_dan_{room}"
        expected[(name, group)] = (round((first * n1 + second * n2) / 15 - 2 * n4, 6), int(n4))
        assert (first * n1 + second * n2) / 15 / n4 - 2 == pytest.approx(stable_dan(room, n1, n2, n4))
        n = len(in_room)
        p1, p2, p4 = n1 / n, n2 / n, n4 / n
        variance = (first**2 * p1 + second**2 * p2) / p4**2 + (first * p1 + second * p2) ** 2 / p4**3
        se[(name, group)] = math.sqrt(variance) / (15 * math.sqrt(n))


def expected_counts(t: Tables, f: pd.DataFrame, by: str) -> tuple[Expected, SE]:
    """Every statistic of the three marts for every group of ``by`` (split by mode), and the means' errors."""
    expected: Expected = {}
    se: SE = {}
    for group, rows in grouped(f, t, by).groupby("group"):
        player_wins(rows, group, expected, se)
        player_riichi_calls(rows, group, expected, se)
    seats = t.players[t.players["final_rank"].notna()].merge(t.games, on="game_id")
    seats = seats.assign(
        is_dan_table=seats["source"].str.startswith("tenhou") & (seats["n_players"] == 4) & seats["is_hanchan"]
        & seats["room"].isin(list(ROOM_POINTS))
    )  # fmt: skip
    for group, rows in grouped(seats[["game_id", "seat", "final_rank", "n_players", "room", "is_dan_table",
                                      "is_hanchan"]], t, by).groupby("group"):  # fmt: skip
        tenhou_dan(rows, group, expected, se)
    return expected, se


# --- the tests -----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def stats(tenhou_db) -> dict[str, list[Stat]]:  # noqa: ANN001
    """The three marts' statistics for each grouping."""
    return {by: [s for mart in VOCABULARY_MARTS for s in mart_stats(tenhou_db, mart, by)] for by in GROUPINGS}


def test_the_marts_are_registered() -> None:
    assert set(VOCABULARY_MARTS) <= set(MARTS) and set(VOCABULARY_MARTS) <= set(sql_names("marts"))
    assert set(VOCABULARY_MARTS) <= MODE_SPLIT_MARTS
    # the marts over seat_rounds need `paipu derive`; tenhou_dan reads players and games alone
    assert {m for m in VOCABULARY_MARTS if m in DERIVED_MARTS} == {"player_wins", "player_riichi_calls"}


@pytest.mark.parametrize("by", GROUPINGS)
def test_counts_equal_the_tables(stats: dict[str, list[Stat]], tables: Tables, facts: pd.DataFrame, by: str) -> None:
    want, _ = expected_counts(tables, facts, by)
    got = measured(stats[by])
    got = {key: (round(float(num), 6), den) for key, (num, den) in got.items()}
    assert len(want) > 60 * (1 if by == "all" else 2), len(want)
    assert not difference(got, want), "\n".join(difference(got, want))


@pytest.mark.parametrize("by", ["all", "room", "player"])
def test_means_carry_their_standard_errors(
    stats: dict[str, list[Stat]], tables: Tables, facts: pd.DataFrame, by: str
) -> None:
    _, want = expected_counts(tables, facts, by)
    checked = 0
    for s in stats[by]:
        key = (s.name, group_label(s.group))
        if key in want:
            assert s.std_error == pytest.approx(want[key], rel=1e-9, abs=1e-9), s
            checked += 1
        elif s.name in NOT_PROPORTIONS and s.denominator > 1:
            pytest.fail(f"a mean without its standard error counted here: {s}")
    assert checked > 30


@pytest.mark.parametrize("by", GROUPINGS)
def test_values_intervals_and_names(stats: dict[str, list[Stat]], by: str) -> None:
    """Proportions carry a 95% interval and no standard error, means the reverse; every statistic is listed in
    DERIVED_MARTS and shown under a topic; every group carries its mode."""
    patterns = [p for mart in VOCABULARY_MARTS for p in DERIVED_MARTS.get(mart, TENHOU_DAN)]
    for s in stats[by]:
        assert any(fnmatchcase(s.name, p) for p in patterns) and topic_of(s.name) != "other", s
        assert s.definition and s.denominator > 0 and s.value == pytest.approx(s.numerator / s.denominator), s
        assert s.group is not None and "mode" in s.group, s
        if s.name in NOT_PROPORTIONS:
            assert s.ci_low is None and s.ci_high is None, s
        else:
            assert 0 <= s.numerator <= s.denominator and 0 <= s.ci_low <= s.value <= s.ci_high <= 1, s
            assert s.std_error is None, s


def test_the_stable_dan_of_a_player_is_the_formula_over_its_ranks(stats: dict[str, list[Stat]], tables: Tables) -> None:
    """A player's stable dan in Houou 4-player hanchan, from its 1st, 2nd and 4th places counted here."""
    seats = tables.players.merge(tables.games, on="game_id")
    houou = seats[(seats["room"] == "houou") & (seats["n_players"] == 4) & seats["is_hanchan"]]
    houou = houou[houou["final_rank"].notna()]
    counts = houou.groupby("name")["final_rank"].agg(lambda r: tuple(int((r == k).sum()) for k in (1, 2, 4)))
    dans = {s.group["player"]: s for s in stats["player"] if s.name == "stable_dan_houou"}
    assert len(dans) >= 5
    for name, s in dans.items():
        n1, n2, n4 = counts[name]
        assert s.value == pytest.approx(stable_dan("houou", n1, n2, n4)), s
    assert all(s.name != "stable_dan_houou" or s.group["mode"] == "4p_hanchan" for s in stats["player"])
