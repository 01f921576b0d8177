"""The statistics marts against the same numbers counted here, in pandas, straight from the tables.

Every count comes from the fact tables' log labels where the log has one: round outcomes and every abort kind
from ``draws.kind``, wins and deal-ins from ``wins``, riichi and calls from ``events``, tenpai at a draw from
``draws.is_shown`` (the hands Tenhou shows), furiten at a riichi or a tsumo from the closed hand rebuilt from
the deal and the events (waits by the ``mahjong`` package); only what the log does not say (karaten, kyuushu
eligibility, furiten passes) is counted from the rules layer's tables. Each mart is compared, numerator and
denominator, for every group of every grouping.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import pandas as pd
import pytest
from mahjong.shanten import Shanten

from pipeline.db import sql_names
from pipeline.statistics import (
    GROUPINGS,
    MARTS,
    NOT_PROPORTIONS,
    Stat,
    is_round_level,
    mart_stats,
    player_stats,
    topic_of,
)

ALL = "<all>"
"""The group of the 'all' grouping (the marts' null group value)."""

PLACEMENT_MEANS = ("average_rank", "average_final_score", "average_final_points")
"""The placements mart's means (each with a standard error)."""
PLACEMENTS = (*PLACEMENT_MEANS, "rank_1_rate", "rank_2_rate", "rank_3_rate", "rank_4_rate", "tobi_rate")
"""Every statistic of the placements mart (split by mode)."""
ABORT_KINDS = ("kyuushu_kyuuhai", "suufon_renda", "suucha_riichi", "suukaikan", "sanchahou")
CALLS = ("chi", "pon", "daiminkan")
Expected = dict[tuple[str, str], tuple[int, int]]
"""(statistic, group) -> (numerator, denominator)."""


@dataclass(frozen=True)
class Facts:
    """The tables the expected counts are made from, as pandas DataFrames."""

    games: pd.DataFrame
    players: pd.DataFrame
    rounds: pd.DataFrame
    draws: pd.DataFrame
    wins: pd.DataFrame
    events: pd.DataFrame
    draw_outcomes: pd.DataFrame
    kyuushu: pd.DataFrame
    furiten_passes: pd.DataFrame
    riichi: pd.DataFrame | None = None
    """Every riichi declaration with furiten from the rebuilt hand (riichi_furiten)."""
    tsumo: pd.DataFrame | None = None
    """Every tsumo win with furiten from the hand shown (tsumo_furiten)."""


def _frame(con, table: str, columns: str, where: str = "true") -> pd.DataFrame:  # noqa: ANN001
    return con.execute(f"select {columns} from {table} where {where}").df()


@pytest.fixture(scope="module")
def facts(tenhou_db) -> Facts:  # noqa: ANN001
    """The fact tables (and the few derived ones the marts need) of the real-log warehouse."""
    f = lambda table, columns, where="true": _frame(tenhou_db, table, columns, where)  # noqa: E731
    facts = Facts(
        games=f("games", "game_id, room, year, source, is_hanchan, n_players, is_server_log"),
        players=f("players", "game_id, seat::int as seat, name, final_score, final_points"),
        rounds=f("rounds", "game_id, round_idx::int as round_idx, round_wind, kyoku, honba, hands_start"),
        draws=f("draws", "game_id, round_idx::int as round_idx, kind, is_shown"),
        wins=f("wins", "game_id, round_idx::int as round_idx, seat::int as seat, from_seat::int as from_seat, "
               "is_tsumo, tile, hand, points, fu, han"),
        events=f("events", "game_id, round_idx::int as round_idx, event_idx, seat::int as seat, action, tile, "
                 "meld_tiles", "action not in ('dora', 'disconnect', 'reconnect', 'riichi_accepted')"),
        draw_outcomes=f("draw_outcomes", "game_id, round_idx::int as round_idx, seat::int as seat, kind, is_tenpai, "
                        "is_karaten, is_pure_karaten"),
        kyuushu=f("kyuushu", "game_id, seat::int as seat, is_eligible, is_declared_logged"),
        furiten_passes=f("furiten_passes", "game_id, seat::int as seat, has_yaku"),
    )  # fmt: skip
    return replace(facts, riichi=riichi_furiten(facts), tsumo=tsumo_furiten(facts))


# --- groups ------------------------------------------------------------------------------------
def _game_group(games: pd.DataFrame, by: str) -> pd.Series:
    if by == "all":
        return pd.Series(ALL, index=games.index)
    if by == "year":
        return games["year"].map(lambda y: "unknown" if pd.isna(y) else str(int(y)))
    if by == "length":
        return games["is_hanchan"].map({True: "hanchan", False: "tonpuu"})
    if by == "mode":
        return games["n_players"].astype(int).astype(str) + "p_" + _game_group(games, "length")
    return games[by]


def seat_keys(f: Facts, by: str) -> pd.DataFrame:
    """game_id, seat, group: every seat's group (the game's; by player, the seat's name)."""
    if by == "player":
        return f.players[["game_id", "seat"]].assign(group=f.players["name"].fillna("unknown"))
    games = f.games[["game_id"]].assign(group=_game_group(f.games, by))
    return f.players[["game_id", "seat"]].merge(games, on="game_id")


def game_keys(f: Facts, by: str) -> pd.DataFrame:
    """game_id, group: every game's group; by player, one row per distinct name seated in the game."""
    if by == "player":
        return seat_keys(f, by)[["game_id", "group"]].drop_duplicates()
    return f.games[["game_id"]].assign(group=_game_group(f.games, by))


def isin(frame: pd.DataFrame, other: pd.DataFrame, columns: list[str], other_columns: list[str] | None = None):  # noqa: ANN201
    """Boolean Series: the frame's row has its (columns) among other's (other_columns)."""
    keys = pd.MultiIndex.from_frame(other[other_columns or columns].set_axis(columns, axis=1))
    return pd.Series(pd.MultiIndex.from_frame(frame[columns]).isin(keys), index=frame.index)


def tally(rows: pd.DataFrame, keys: pd.DataFrame, on: list[str], columns: list[str]) -> pd.DataFrame:
    """Per group: the rows (column n) and the sum of each column, rows joined to their group on ``on``."""
    joined = rows.merge(keys, on=on)
    out = joined.groupby("group")[columns].sum().astype(int) if columns else pd.DataFrame()
    return out.assign(n=joined.groupby("group").size())


def add(expected: Expected, name: str, table: pd.DataFrame, numerator: str, denominator: str) -> None:
    """Record one statistic for every group of ``table`` whose denominator is not 0."""
    for group, row in table.iterrows():
        if row[denominator] > 0:
            expected[(name, group)] = (int(row[numerator]), int(row[denominator]))


# --- expected counts, one topic at a time ---------------------------------------------------------
def round_outcomes(f: Facts, by: str) -> Expected:
    """Round outcomes from draws.kind and wins, per round of each group's games."""
    r = f.rounds.merge(f.draws[["game_id", "round_idx", "kind"]], on=["game_id", "round_idx"], how="left")
    flags = {
        "win_rate": isin(r, f.wins, ["game_id", "round_idx"]),
        "exhaustive_draw_rate": r["kind"] == "exhaustive",
        "nagashi_mangan_rate": r["kind"] == "nagashi_mangan",
        "draw_rate": r["kind"].notna(),
        "abortive_draw_rate": r["kind"].isin(ABORT_KINDS),
        **{f"abortive_rate_{kind}": r["kind"] == kind for kind in ABORT_KINDS},
    }
    study = ~((r["round_wind"] == 0) & (r["kyoku"] == 0) & (r["honba"] == 0))
    study &= ~r["kind"].isin(["kyuushu_kyuuhai", "suufon_renda"])
    r = r.assign(**flags, study=study, study_exhaustive=study & (r["kind"] == "exhaustive"))
    counts = tally(r, game_keys(f, by), ["game_id"], [*flags, "study", "study_exhaustive"])
    counts["games"] = r.merge(game_keys(f, by), on="game_id").groupby("group")["game_id"].nunique()
    expected: Expected = {}
    add(expected, "rounds_per_game", counts, "n", "games")
    for name in flags:
        add(expected, name, counts, name, "n")
    add(expected, "exhaustive_draw_rate_2011_study", counts, "study_exhaustive", "study")
    return expected


def seat_rounds(f: Facts) -> pd.DataFrame:
    """Every seat of every round (game_id, round_idx, seat)."""
    return f.rounds[["game_id", "round_idx"]].merge(f.players[["game_id", "seat"]], on="game_id")


def seat_outcomes(f: Facts, by: str) -> Expected:
    """Wins, deal-ins, riichi and calls per seat-round, from wins and events; points from wins."""
    key = ["game_id", "round_idx", "seat"]
    sr = seat_rounds(f)
    sr["won"] = isin(sr, f.wins, key)
    sr["dealt_in"] = isin(sr, f.wins[~f.wins["is_tsumo"]], key, ["game_id", "round_idx", "from_seat"])
    sr["riichi"] = isin(sr, f.events[f.events["action"] == "riichi"], key)
    sr["called"] = isin(sr, f.events[f.events["action"].isin(CALLS)], key)
    counts = tally(sr, seat_keys(f, by), ["game_id", "seat"], ["won", "dealt_in", "riichi", "called"])
    points = tally(f.wins, seat_keys(f, by), ["game_id", "seat"], ["points"])
    expected: Expected = {}
    for name, column in (("seat_win_rate", "won"), ("deal_in_rate", "dealt_in"), ("riichi_rate", "riichi")):
        add(expected, name, counts, column, "n")
    add(expected, "call_rate", counts, "called", "n")
    add(expected, "average_win_points", points, "points", "n")
    return expected


def tenpai_seats(f: Facts) -> pd.DataFrame:
    """Every seat at an exhaustive draw (draws.kind) with its tenpai: shown by the log in server-written logs;
    in logs written by other tools (whose labels cannot be trusted) the rules layer's."""
    d = f.draws[f.draws["kind"] == "exhaustive"].merge(f.games, on="game_id")
    seats = d.merge(f.players[["game_id", "seat"]], on="game_id")
    shown = pd.Series([bool(s[seat]) for s, seat in zip(seats["is_shown"], seats["seat"], strict=True)])
    derived = seats.merge(f.draw_outcomes, on=["game_id", "round_idx", "seat"], how="left")["is_tenpai"]
    server = seats["is_server_log"]
    assert (shown[server] == derived[server]).all(), "tenpai at draw: the rules layer's differs from the log's"
    return seats.assign(tenpai=shown.where(server, derived).astype(bool))


def tenpai_at_draw(f: Facts, by: str) -> Expected:
    """Tenpai per seat at exhaustive draws, and the share of draws with N seats tenpai (per player count)."""
    seats = tenpai_seats(f)
    expected: Expected = {}
    add(expected, "tenpai_at_draw_rate", tally(seats, seat_keys(f, by), ["game_id", "seat"], ["tenpai"]), "tenpai", "n")
    per_draw = seats.groupby(["game_id", "round_idx", "n_players"], as_index=False)["tenpai"].sum()
    for n_players, draws in per_draw.merge(game_keys(f, by), on="game_id").groupby("n_players"):
        for group, in_group in draws.groupby("group"):
            for n_tenpai in range(n_players + 1):
                name = f"tenpai_share_{n_players}p_{n_tenpai}"
                expected[(name, group)] = (int((in_group["tenpai"] == n_tenpai).sum()), len(in_group))
    return expected


def _rounds_per_group(f: Facts, by: str) -> pd.Series:
    """Rounds per group: by player, the rounds each player played (one per seat held)."""
    if by == "player":
        return tally(seat_rounds(f), seat_keys(f, by), ["game_id", "seat"], [])["n"]
    return tally(f.rounds, game_keys(f, by), ["game_id"], [])["n"]


SHANTEN = Shanten()


def is_furiten(closed: list[int], discarded: set[int]) -> bool:
    """A kind among ``discarded`` completes the closed hand (136-ids): a wait among the seat's own discards."""
    counts = Counter(t // 4 for t in closed)
    hand = [counts[k] for k in range(34)]
    return any(SHANTEN.calculate_shanten([c + (k == kind) for k, c in enumerate(hand)]) == -1 for kind in discarded)


def hand_after_riichi(dealt: list[int], events: pd.DataFrame) -> tuple[list[int], set[int]] | None:
    """The closed hand right after the seat's riichi discard, rebuilt from its deal and its events (in order), and
    the kinds it discarded up to then; None when it declared no riichi."""
    hand, discarded, declared = [int(t) for t in dealt], set(), False
    for action, tile, meld in zip(events["action"], events["tile"], events["meld_tiles"], strict=True):
        if action == "draw":
            hand.append(int(tile))
        elif action in ("discard", "kakan", "kita"):
            hand.remove(int(tile))
        elif action in (*CALLS, "ankan"):  # the called tile was never in the hand
            for t in meld:
                if action == "ankan" or t != tile:
                    hand.remove(int(t))
        if action == "discard":
            discarded.add(int(tile) // 4)
            if declared:
                return hand, discarded
        declared = declared or action == "riichi"
    return None


def riichi_furiten(f: Facts) -> pd.DataFrame:
    """Every riichi declaration (game_id, round_idx, seat) with ``furiten``: its hand right after the riichi
    discard waits on a kind the seat discarded."""
    dealt = {(g, r): hands for g, r, hands in f.rounds[["game_id", "round_idx", "hands_start"]].itertuples(False)}
    declarers = f.events.loc[f.events["action"] == "riichi", ["game_id", "round_idx", "seat"]]
    events = f.events.merge(declarers, on=["game_id", "round_idx", "seat"]).sort_values(
        ["game_id", "round_idx", "seat", "event_idx"]
    )
    rows = []
    for (game_id, round_idx, seat), seat_events in events.groupby(["game_id", "round_idx", "seat"], sort=False):
        hand, discarded = hand_after_riichi(dealt[(game_id, round_idx)][seat], seat_events)
        rows.append((game_id, round_idx, seat, is_furiten(hand, discarded)))
    return pd.DataFrame(rows, columns=["game_id", "round_idx", "seat", "furiten"])


def tsumo_furiten(f: Facts) -> pd.DataFrame:
    """Every tsumo win with ``furiten``: its hand as the log shows it, less the winning tile, waits on a kind the
    winner discarded in the round."""
    discards = f.events[f.events["action"] == "discard"]
    own = discards.groupby(["game_id", "round_idx", "seat"])["tile"].agg(lambda t: {int(x) // 4 for x in t})
    tsumo = f.wins[f.wins["is_tsumo"]]
    furiten = []
    columns = ["game_id", "round_idx", "seat", "tile", "hand"]
    for game_id, round_idx, seat, tile, hand in tsumo[columns].itertuples(False):
        closed = [int(t) for t in hand]
        if int(tile) in closed:  # logs written by other tools may show the hand without it
            closed.remove(int(tile))
        furiten.append(is_furiten(closed, own.get((game_id, round_idx, seat), set())))
    return tsumo.assign(furiten=furiten)


def rules_rates(f: Facts, by: str) -> Expected:
    """Furiten passes, riichi and tsumo in furiten, karaten at draws, kyuushu, per seat."""
    seats = seat_keys(f, by)
    passes = f.furiten_passes.assign(
        with_yaku=f.furiten_passes["has_yaku"].eq(True),
        without_yaku=f.furiten_passes["has_yaku"].eq(False),
        known=f.furiten_passes["has_yaku"].notna(),
    )
    counts = tally(passes, seats, ["game_id", "seat"], ["with_yaku", "without_yaku", "known"])
    counts = counts.reindex(_rounds_per_group(f, by).index, fill_value=0).assign(rounds=_rounds_per_group(f, by))
    expected: Expected = {}
    add(expected, "furiten_passes_per_round", counts, "n", "rounds")
    add(expected, "furiten_passes_with_yaku_per_round", counts, "with_yaku", "rounds")
    add(expected, "furiten_passes_without_yaku_per_round", counts, "without_yaku", "rounds")
    add(expected, "furiten_passes_with_yaku_share", counts, "with_yaku", "known")
    assert len(f.riichi) == (f.events["action"] == "riichi").sum()  # one riichi a seat-round, each with its discard
    add(expected, "riichi_in_furiten_rate", tally(f.riichi, seats, ["game_id", "seat"], ["furiten"]), "furiten", "n")
    add(expected, "tsumo_in_furiten_rate", tally(f.tsumo, seats, ["game_id", "seat"], ["furiten"]), "furiten", "n")
    outcomes = f.draw_outcomes[f.draw_outcomes["kind"] == "exhaustive"]
    outcomes = outcomes.assign(karaten=outcomes["is_tenpai"] & outcomes["is_karaten"])
    draws = tally(outcomes, seats, ["game_id", "seat"], ["is_tenpai", "karaten", "is_pure_karaten"])
    add(expected, "karaten_share_of_tenpai_at_draw", draws, "karaten", "is_tenpai")
    add(expected, "pure_karaten_at_draw_rate", draws, "is_pure_karaten", "n")
    kyuushu = f.kyuushu.assign(declared=f.kyuushu["is_eligible"] & f.kyuushu["is_declared_logged"])
    first_draws = tally(kyuushu, seats, ["game_id", "seat"], ["is_eligible", "declared"])
    add(expected, "kyuushu_eligible_rate", first_draws, "is_eligible", "n")
    add(expected, "kyuushu_declared_rate", first_draws, "declared", "is_eligible")
    return expected


def score_distributions(f: Facts, by: str) -> Expected:
    """Fu and han of every win as the server recorded them, per winner; every value seen in any group."""
    wins = f.wins.merge(seat_keys(f, by), on=["game_id", "seat"]).assign(han=lambda w: w["han"].clip(upper=13))
    totals = wins.groupby("group").size()
    expected: Expected = {}
    for column, prefix in (("fu", "fu_share_"), ("han", "han_share_")):
        counts = wins.groupby(["group", column]).size()
        for value in sorted(wins[column].unique()):
            name = prefix + ("13_plus" if column == "han" and value == 13 else str(int(value)))
            for group, total in totals.items():
                expected[(name, group)] = (int(counts.get((group, value), 0)), int(total))
    return expected


def ranks_from_final_scores(f: Facts) -> pd.DataFrame:
    """Every seat of a game with final scores (Tenhou's owari), its rank made here from those scores: higher score
    first, a tie to the seat nearer the first dealer (the lower seat), as the server breaks it; and its mode."""
    seats = f.players[f.players["final_score"].notna()].merge(
        f.games[["game_id", "n_players", "is_hanchan"]], on="game_id"
    )
    ordered = seats.sort_values(["game_id", "final_score", "seat"], ascending=[True, False, True])
    seats["rank"] = ordered.groupby("game_id").cumcount().reindex(seats.index) + 1
    return seats.assign(mode=_game_group(seats, "mode"))


def placements(f: Facts, by: str) -> Expected:
    """Ranks, tobi, final scores and game points of every seat with final scores, per group of ``by`` and mode
    (a group of several keys is keyed 'value|mode', as ``measured`` keys it)."""
    seats = ranks_from_final_scores(f).merge(seat_keys(f, by), on=["game_id", "seat"])
    if by == "all":
        seats["group"] = seats["mode"]
    elif by != "mode":
        seats["group"] = seats["group"] + "|" + seats["mode"]
    seats = seats.assign(
        tobi=seats["final_score"] < 0, has_points=seats["final_points"].notna(), **{
            f"rank_{k}": seats["rank"] == k for k in range(1, 5)
        }
    )  # fmt: skip
    expected: Expected = {}
    for group, rows in seats.groupby("group"):
        n = len(rows)
        expected[("average_rank", group)] = (int(rows["rank"].sum()), n)
        for k in range(1, int(rows["n_players"].max()) + 1):
            expected[(f"rank_{k}_rate", group)] = (int(rows[f"rank_{k}"].sum()), n)
        expected[("tobi_rate", group)] = (int(rows["tobi"].sum()), n)
        expected[("average_final_score", group)] = (int(rows["final_score"].sum()), n)
        if rows["has_points"].any():
            expected[("average_final_points", group)] = (
                round(float(rows["final_points"].sum()), 6), int(rows["has_points"].sum())
            )  # fmt: skip
    return expected


EXPECTED = {
    "round_outcomes": round_outcomes,
    "seat_outcomes": seat_outcomes,
    "placements": placements,
    "tenpai_at_draw": tenpai_at_draw,
    "rules_rates": rules_rates,
    "score_distributions": score_distributions,
}
"""Each mart and how its counts are made here."""
COUNTED_ELSEWHERE = {mart: "test_player_vocabulary.py" for mart in ("player_wins", "player_riichi_calls", "tenhou_dan")}
"""The marts whose counts another test file makes (the per-player vocabulary): left out of this file's tests."""


def group_label(group: dict | None) -> str:
    """A Stat's group as the recounts key it: ALL, a value, or several keys' values joined by '|'."""
    return ALL if group is None else "|".join(str(v) for v in group.values())


def measured(stats: list[Stat]) -> Expected:
    """(statistic, group label) -> (numerator, denominator); a sum of game points rounded to 6 decimals."""
    return {
        (s.name, group_label(s.group)): (
            round(s.numerator, 6) if isinstance(s.numerator, float) else s.numerator, s.denominator
        )
        for s in stats
    }  # fmt: skip


def difference(got: Expected, want: Expected) -> list[str]:
    """The (statistic, group) whose counts differ, with both counts (at most 20 listed)."""
    keys = sorted(set(got) | set(want), key=str)
    lines = [f"{key}: mart {got.get(key)}, tables {want.get(key)}" for key in keys if got.get(key) != want.get(key)]
    return lines[:20]


# --- the tests -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def stats(tenhou_db) -> dict[str, list[Stat]]:  # noqa: ANN001
    """Every mart's statistics (all_stats) but those of COUNTED_ELSEWHERE, for each grouping."""
    return {by: [s for mart in EXPECTED for s in mart_stats(tenhou_db, mart, by)] for by in GROUPINGS}


def test_every_mart_is_run_and_counted_here() -> None:
    assert sorted(MARTS) == sql_names("marts") == sorted([*EXPECTED, *COUNTED_ELSEWHERE])


@pytest.mark.parametrize("by", GROUPINGS)
def test_mart_counts_equal_the_tables(stats: dict[str, list[Stat]], facts: Facts, by: str) -> None:
    got = measured(stats[by])
    want: Expected = {}
    for mart, expected in EXPECTED.items():
        counted = expected(facts, by)
        assert counted, (mart, by)
        want |= counted
    assert not difference(got, want), "\n".join(difference(got, want))


@pytest.mark.parametrize("by", [g for g in GROUPINGS if g not in ("all", "player")])
def test_groups_partition_the_totals(stats: dict[str, list[Stat]], by: str) -> None:
    """Every group's counts add up to the totals (the placements', split by mode, mode by mode)."""

    def summed(rows: list[Stat]) -> dict[tuple, tuple]:
        sums: dict[tuple, list] = {}
        for s in rows:
            rest = tuple((k, v) for k, v in (s.group or {}).items() if k != by)
            pair = sums.setdefault((s.name, rest), [0, 0])
            pair[0] += s.numerator
            pair[1] += s.denominator
        return {key: (round(num, 6), den) for key, (num, den) in sums.items()}

    for s in stats[by]:
        assert s.group is not None and list(s.group)[0] == by and s.group[by] is not None, s
        assert list(s.group) == ([by] if s.name not in PLACEMENTS or by == "mode" else [by, "mode"]), s
    assert summed(stats[by]) == summed(stats["all"])


def test_players_partition_the_seat_counts(stats: dict[str, list[Stat]]) -> None:
    """A player's seat statistics count only that player's seats: the players' numerators add up to the
    total, and so do the denominators except for the per-round rates (a player's rounds are seat-rounds)."""
    def summed(rows: list[Stat]) -> dict[str, list]:
        sums: dict[str, list] = {}
        for s in rows:  # the placements' modes added up too
            pair = sums.setdefault(s.name, [0, 0])
            pair[0] += s.numerator
            pair[1] += s.denominator
        return sums

    totals, sums = summed(stats["all"]), summed(stats["player"])
    seat_level = [name for name in totals if not is_round_level(name)]
    assert {"seat_win_rate", "average_rank", "rank_1_rate"} <= set(seat_level) and "win_rate" not in seat_level
    for name in seat_level:
        assert sums[name][0] == pytest.approx(totals[name][0]), name
        if not name.endswith("_per_round"):
            assert sums[name][1] == totals[name][1], name
    n_seat_rounds = totals["seat_win_rate"][1]
    assert sums["furiten_passes_per_round"][1] == n_seat_rounds > totals["furiten_passes_per_round"][1]


def test_a_player_profile_is_that_players_rows(tenhou_db, stats: dict[str, list[Stat]]) -> None:  # noqa: ANN001
    busiest = "select name from players group by name order by count(*) desc, name limit 1"
    ((name,),) = tenhou_db.execute(busiest).fetchall()
    counted_here = {s.name for s in stats["player"]}
    profile = [s for s in player_stats(tenhou_db, name) if s.name in counted_here]
    assert profile and all(s.group is not None and s.group["player"] == name for s in profile)
    assert {s.name for s in profile} >= {"seat_win_rate", "average_rank", "rank_1_rate"}
    assert profile == [s for s in stats["player"] if s.group is not None and s.group["player"] == name]
    with pytest.raises(KeyError, match="no player named"):
        player_stats(tenhou_db, name + " (no such player)")


@pytest.mark.parametrize("by", GROUPINGS)
def test_values_and_intervals(stats: dict[str, list[Stat]], by: str) -> None:
    for s in stats[by]:
        assert s.denominator > 0 and s.value == pytest.approx(s.numerator / s.denominator), s
        assert s.definition and topic_of(s.name) != "other", s
        if s.name in NOT_PROPORTIONS:
            assert s.ci_low is None and s.ci_high is None, s
        else:
            assert 0 <= s.numerator <= s.denominator, s
            assert 0 <= s.ci_low <= s.value <= s.ci_high <= 1, s
        if s.name in PLACEMENT_MEANS:  # a mean: its standard error, never an interval
            assert s.std_error is not None or s.denominator == 1, s
        else:
            assert s.std_error is None, s


def test_the_three_draw_definitions_equal_direct_counts(tenhou_db) -> None:  # noqa: ANN001
    stats = {s.name: s for s in mart_stats(tenhou_db, "round_outcomes")}
    rounds = tenhou_db.execute(
        "select r.round_wind, r.kyoku, r.honba, d.kind from rounds r left join draws d using (game_id, round_idx)"
    ).fetchall()
    exhaustive = sum(kind == "exhaustive" for *_, kind in rounds)
    not_won = sum(kind is not None for *_, kind in rounds)
    study = [
        kind
        for wind, kyoku, honba, kind in rounds
        if not (wind == 0 and kyoku == 0 and honba == 0) and kind not in ("kyuushu_kyuuhai", "suufon_renda")
    ]
    assert (stats["exhaustive_draw_rate"].numerator, stats["exhaustive_draw_rate"].denominator) == (
        exhaustive,
        len(rounds),
    )
    assert (stats["draw_rate"].numerator, stats["draw_rate"].denominator) == (not_won, len(rounds))
    assert (
        stats["exhaustive_draw_rate_2011_study"].numerator,
        stats["exhaustive_draw_rate_2011_study"].denominator,
    ) == (study.count("exhaustive"), len(study))


def test_every_seat_is_a_player_row(facts: Facts) -> None:
    """Seat-rounds are rounds x the players rows: every game has one row per seat of its table."""
    seats = facts.players.groupby("game_id").size()
    assert (seats.reindex(facts.games["game_id"]).to_numpy() == facts.games["n_players"].to_numpy()).all()


def test_wilson_interval_matches_a_known_value() -> None:
    from pipeline.statistics import wilson_interval

    # 15 of 100: the Wilson 95% interval is 0.0931 to 0.2328
    low, high = wilson_interval(15, 100)
    assert round(low, 4) == 0.0931 and round(high, 4) == 0.2328
    assert wilson_interval(0, 0) is None
    assert wilson_interval(0, 10)[0] == 0.0


def test_final_rank_is_tenhous_final_scores_ranked_with_its_tie_rule(facts: Facts, tenhou_db) -> None:  # noqa: ANN001
    """players.final_rank is the rank of Tenhou's own final scores (owari), a tie of scores to the seat nearer
    the first dealer; the real logs hold such ties, and only games whose log ends early have no final scores."""
    stored = tenhou_db.execute("select game_id, seat::int as seat, final_rank from players").df()
    ranked = ranks_from_final_scores(facts).merge(stored, on=["game_id", "seat"])
    assert len(ranked) == stored["final_rank"].notna().sum() > 400
    assert (ranked["rank"] == ranked["final_rank"]).all()
    tied = ranked[ranked.duplicated(["game_id", "final_score"], keep=False)]
    assert tied["game_id"].nunique() >= 1  # games with tied final scores: the tie rule is exercised
    unranked = tenhou_db.execute(
        "select count(distinct game_id) filter (where p.final_rank is null), "
        "count(distinct game_id) filter (where p.final_rank is null and g.is_complete) "
        "from players as p join games as g using (game_id)"
    ).fetchall()
    assert unranked[0][1] == 0 and unranked[0][0] >= 1  # the few truncated logs (4 here), left out and said so


def test_placement_means_have_their_standard_errors(stats: dict[str, list[Stat]], facts: Facts) -> None:
    """Each mean's standard error is the sample standard deviation over the square root of its denominator."""
    seats = ranks_from_final_scores(facts)
    for s in stats["all"]:
        if s.name not in PLACEMENT_MEANS:
            continue
        column = {"average_rank": "rank", "average_final_score": "final_score"}.get(s.name, "final_points")
        values = seats.loc[seats["mode"] == s.group["mode"], column].dropna()
        assert s.std_error == pytest.approx(values.std(ddof=1) / len(values) ** 0.5), s


def test_placements_split_sanma_from_four_player_games(stats: dict[str, list[Stat]]) -> None:
    by_mode = {(s.name, s.group["mode"]) for s in stats["all"] if s.name in PLACEMENTS}
    assert ("rank_3_rate", "3p_hanchan") in by_mode and ("rank_4_rate", "3p_hanchan") not in by_mode
    assert ("rank_4_rate", "4p_hanchan") in by_mode


def test_sample_sd_is_stddev_samp_from_exact_integer_sums(tenhou_db) -> None:  # noqa: ANN001
    """macros/sample_sd (the player marts' standard deviations from count, sum and sum of squares) gives what
    stddev_samp gives over the same terms: null below two terms, 0 for equal terms, and the same value to 1e-12 for
    large and negative score changes."""
    terms = [[], [7], [3, 3, 3], [1, 2], [-48_000, 32_000, 1_000, -12_300, 0, 96_000], list(range(-500, 1_000, 7))]
    for values in terms:
        sql = (
            "select sample_sd(count(x), sum(x), sum(x::bigint * x)), stddev_samp(x) "
            "from (select unnest($values::bigint[]) as x)"
        )
        got, want = tenhou_db.execute(sql, {"values": values}).fetchone()
        if want is None:
            assert got is None, values
        else:
            assert got == pytest.approx(want, rel=1e-12, abs=1e-12), values
