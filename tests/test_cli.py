"""The ``paipu`` command line through typer's CliRunner: output, documented exit codes, no tracebacks.

Exit codes: 0 success, 1 check violations, 2 usage error, 3 some files quarantined, 4 warehouse/SQL
error, 5 not derived (stats, audit), 130 interrupted. The runner mixes stderr into ``result.output``;
``result.stdout`` holds stdout alone.
"""

from __future__ import annotations

import csv
import functools
import gzip
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from fnmatch import fnmatchcase
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.cli.frame import domain_errors
from pipeline.cli.render import MAX_GROUPS_SHOWN
from pipeline.db import connect, sql_names
from pipeline.ingest import IngestReport
from pipeline.schema import ALL_TABLES
from pipeline.statistics import (
    DERIVED_MARTS,
    GROUPINGS,
    MODE_SPLIT_MARTS,
    NOT_DERIVED,
    NOT_PROPORTIONS,
    TOPICS,
    mart_stats,
)  # fmt: skip
from pipeline.store.warehouse import Warehouse

PLAIN = "mjx/tests_py/resources/mjlog/2020052700gm-00a9-0000-75a4695c.mjlog"
"""A plain mjlog: one complete game of 9 rounds."""
GZIPPED = "Tenhou-Paifu-Logger/test/test_data/2022060222gm-0001-0000-f47dd061&tw=3.mjlog"
"""A gzip-compressed mjlog (truncated below to make a corrupt file)."""

STAT_KEYS = (
    "name", "group", "numerator", "denominator", "value", "definition", "ci_low", "ci_high", "std_error", "note",
)  # fmt: skip
PLACEMENT_NAMES = {
    "average_rank", "rank_1_rate", "rank_2_rate", "rank_3_rate", "rank_4_rate", "tobi_rate", "average_final_score",
    "average_final_points",
}  # fmt: skip
"""The placements mart's statistics."""


@pytest.fixture(scope="module")
def mode_split_names(tenhou_db) -> set[str]:  # noqa: ANN001
    """The statistics of the marts grouped by mode besides --by (statistics.MODE_SPLIT_MARTS)."""
    return {s.name for mart in MODE_SPLIT_MARTS for s in mart_stats(tenhou_db, mart, "all")}
RATE_NAMES = {"exhaustive_draw_rate", "win_rate", "abortive_rate_kyuushu_kyuuhai"}

runner = CliRunner()


def run(*args: str | Path):  # noqa: ANN201 - click's Result
    """Invoke ``paipu`` and check that nothing escaped as an exception or a traceback."""
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def inputs(shared_logs: Path, tmp_path: Path) -> Path:
    """A folder holding one real game twice: plain, and gzip-compressed under another name."""
    folder = tmp_path / "in"
    folder.mkdir()
    data = (shared_logs / "tenhou-xml" / PLAIN).read_bytes()
    (folder / Path(PLAIN).name).write_bytes(data)
    (folder / "copy.mjlog.gz").write_bytes(gzip.compress(data))
    return folder


@pytest.fixture(scope="module")
def real_wh(tenhou_warehouse: tuple[Warehouse, IngestReport]) -> Path:
    """Folder of the warehouse ingested from every real log."""
    return tenhou_warehouse[0].root


# --- ingest ------------------------------------------------------------------------------------
def test_ingest_prints_counts_and_exits_0(inputs: Path, tmp_path: Path) -> None:
    warehouse = tmp_path / "warehouse"
    result = run("ingest", inputs, "-w", warehouse)
    assert result.exit_code == 0, result.output
    for pattern in (r"\b1 ok\b", r"\b1 duplicate\b", r"\b0 quarantined\b", r"games: 1\b", r"rounds: 9\b"):
        assert re.search(pattern, result.output), (pattern, result.output)
    assert Warehouse(warehouse).exists()

    again = run("ingest", inputs, "-w", warehouse, "--batch-size", "1")
    assert again.exit_code == 0, again.output
    assert re.search(r"\b0 ok\b", again.output) and re.search(r"\b2 unchanged\b", again.output), again.output


def test_ingest_rehash_reads_a_file_whose_size_and_time_were_kept(inputs: Path, tmp_path: Path) -> None:
    warehouse = tmp_path / "warehouse"
    run("ingest", inputs, "-w", warehouse)
    copy = inputs / "copy.mjlog.gz"
    stamp = copy.stat()
    copy.write_bytes(b"not a log".ljust(stamp.st_size, b"!"))  # other bytes of the same size, then the same time
    os.utime(copy, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    trusted = run("ingest", inputs, "-w", warehouse)
    assert re.search(r"\b2 unchanged\b", trusted.output), trusted.output
    rehashed = run("ingest", inputs, "-w", warehouse, "--rehash")
    assert rehashed.exit_code == 0, rehashed.output
    assert re.search(r"\b1 not a log\b", rehashed.output) and re.search(r"\b1 unchanged\b", rehashed.output)


def test_ingest_exits_3_when_a_file_is_quarantined_and_writes_the_rest(
    inputs: Path, shared_logs: Path, tmp_path: Path
) -> None:
    gz = (shared_logs / "tenhou-xml" / GZIPPED).read_bytes()
    (inputs / "broken.mjlog.gz").write_bytes(gz[: len(gz) // 2])
    warehouse = tmp_path / "warehouse"
    result = run("ingest", inputs, "-w", warehouse)
    assert result.exit_code == 3, result.output
    assert re.search(r"\b1 quarantined\b", result.output) and re.search(r"\b1 ok\b", result.output), result.output
    assert "broken.mjlog.gz" in result.output
    con = connect(Warehouse(warehouse))
    assert con.execute("select count(*) from games").fetchone() == (1,)
    assert con.execute("select status from manifest where path like '%broken.mjlog.gz'").fetchone() == ("quarantined",)


def test_ingest_exits_2_for_a_missing_path_and_writes_nothing(inputs: Path, tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder"
    warehouse = tmp_path / "warehouse"
    result = run("ingest", inputs, missing, "-w", warehouse)
    assert result.exit_code == 2, result.output
    assert "no-such-folder" in result.output.replace("\n", "")  # rich may wrap a long path
    assert not Warehouse(warehouse).exists()


def test_ingest_with_no_path_is_a_usage_error(tmp_path: Path) -> None:
    result = run("ingest", "-w", tmp_path / "warehouse")
    assert result.exit_code == 2


def test_ingest_exits_4_when_the_warehouse_cannot_be_written(inputs: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = run("ingest", inputs, "-w", blocker)
    assert result.exit_code == 4, result.output


# --- sql ---------------------------------------------------------------------------------------
ROOMS_QUERY = "select room, count(*) as n from games group by room order by room"


def test_sql_json(real_wh: Path, tenhou_db) -> None:  # noqa: ANN001
    result = run("sql", ROOMS_QUERY, "-w", real_wh, "--format", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert rows == [{"room": room, "n": n} for room, n in tenhou_db.execute(ROOMS_QUERY).fetchall()]
    assert sum(r["n"] for r in rows) == tenhou_db.execute("select count(*) from games").fetchall()[0][0]


def test_sql_csv(real_wh: Path, tenhou_db) -> None:  # noqa: ANN001
    result = run("sql", ROOMS_QUERY, "-w", real_wh, "-f", "csv")
    assert result.exit_code == 0, result.output
    table = list(csv.reader(io.StringIO(result.stdout)))
    assert table[0] == ["room", "n"]
    assert [(room, int(n)) for room, n in table[1:]] == tenhou_db.execute(ROOMS_QUERY).fetchall()


def test_sql_table(real_wh: Path, tenhou_db) -> None:  # noqa: ANN001
    result = run("sql", ROOMS_QUERY, "-w", real_wh)
    assert result.exit_code == 0, result.output
    assert "room" in result.output
    for room, n in tenhou_db.execute(ROOMS_QUERY).fetchall():
        assert re.search(rf"\b{room}\b.*\b{n}\b", result.output), (room, n)


def test_sql_runs_a_sql_file(real_wh: Path, tmp_path: Path, tenhou_db) -> None:  # noqa: ANN001
    query = tmp_path / "count_games.sql"
    query.write_text("-- how many games are stored\nselect count(*) as n_games from games\n", encoding="utf-8")
    result = run("sql", query, "-w", real_wh, "-f", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [{"n_games": tenhou_db.execute("select count(*) from games").fetchall()[0][0]}]


def test_sql_rejects_an_unknown_format(real_wh: Path) -> None:
    result = run("sql", "select 1", "-w", real_wh, "-f", "xml")
    assert result.exit_code == 2, result.output


@pytest.mark.parametrize("query", ["selec 1", "select * from no_such_table"])
def test_a_bad_query_exits_4_with_an_error(real_wh: Path, query: str) -> None:
    result = run("sql", query, "-w", real_wh)
    assert result.exit_code == 4, result.output
    assert result.output.lstrip().startswith("error:"), result.output


@pytest.mark.parametrize("query", ["selec 1", "select * from no_such_table"])
def test_a_bad_query_error_is_one_line(real_wh: Path, query: str) -> None:
    result = run("sql", query, "-w", real_wh)
    assert result.exit_code == 4
    assert len(result.output.strip().splitlines()) == 1, result.output


@pytest.mark.parametrize(
    "command", [["sql", "select 1"], ["stats"], ["stats", "--json"], ["check"], ["check", "--json"]]
)
def test_commands_exit_4_without_a_warehouse(tmp_path: Path, command: list[str]) -> None:
    result = run(*command, "-w", tmp_path / "nothing-here")
    assert result.exit_code == 4, result.output
    assert "no warehouse" in result.output


def test_an_error_naming_a_long_path_stays_on_one_line(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 120) / ("e" * 120) / "nothing-here"
    result = run("stats", "-w", deep)
    assert result.exit_code == 4
    assert len(result.output.strip().splitlines()) == 1, result.output


# --- stats -------------------------------------------------------------------------------------
@functools.cache
def stats_json(real_wh: Path, by: str, *options: str) -> list[dict]:
    """The statistics ``paipu stats --json`` prints (each invocation run once: the warehouse does not change)."""
    result = run("stats", "-w", real_wh, "--by", by, "--json", *options)
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert list(payload) == ["stats"]
    return payload["stats"]


def test_stats_json_has_the_documented_shape(real_wh: Path, mode_split_names: set[str]) -> None:
    stats = stats_json(real_wh, "all")
    assert stats and mode_split_names >= PLACEMENT_NAMES
    for stat in stats:
        assert list(stat) == list(STAT_KEYS), stat
        assert isinstance(stat["name"], str) and isinstance(stat["definition"], str) and stat["definition"]
        split = stat["name"] in mode_split_names
        assert stat["group"] == ({"mode": stat["group"]["mode"]} if split else None), stat
        numerator_type = float if stat["name"] == "average_final_points" else int
        assert type(stat["numerator"]) in (numerator_type, float if split else int), stat
        assert type(stat["denominator"]) is int
        assert isinstance(stat["value"], float) and stat["note"] is None
        assert stat["denominator"] > 0 and stat["value"] == pytest.approx(stat["numerator"] / stat["denominator"])
        if stat["name"] in NOT_PROPORTIONS:
            assert stat["ci_low"] is None and stat["ci_high"] is None, stat
        else:  # a 95% interval around the proportion
            assert 0 <= stat["numerator"] <= stat["denominator"], stat
            assert 0 <= stat["ci_low"] <= stat["value"] <= stat["ci_high"] <= 1, stat
    names = [(s["name"], str(s["group"])) for s in stats]
    assert len(names) == len(set(names))
    assert {name for name, _ in names} >= RATE_NAMES | PLACEMENT_NAMES


def test_stats_agree_with_the_tables(real_wh: Path, tenhou_db) -> None:  # noqa: ANN001
    stats = {s["name"]: s for s in stats_json(real_wh, "all")}
    count = lambda sql: tenhou_db.execute(sql).fetchall()[0][0]  # noqa: E731
    n_rounds = count("select count(*) from rounds")
    expected = {
        "win_rate": count("select count(*) from rounds where end_kind = 'win'"),
        "exhaustive_draw_rate": count("select count(*) from draws where kind = 'exhaustive'"),
        "abortive_rate_kyuushu_kyuuhai": count("select count(*) from draws where kind = 'kyuushu_kyuuhai'"),
    }
    for name, numerator in expected.items():
        assert (stats[name]["numerator"], stats[name]["denominator"]) == (numerator, n_rounds), name
    assert stats["abortive_rate_kyuushu_kyuuhai"]["numerator"] > 0  # the real logs hold kyuushu kyuuhai draws
    assert stats["rounds_per_game"]["denominator"] == count("select count(*) from games")
    # per seat-round: rounds x the players at the table
    n_seat_rounds = count("select sum(n_rounds * n_players) from games")
    n_wins = count("select count(*) from wins")
    assert (stats["seat_win_rate"]["numerator"], stats["seat_win_rate"]["denominator"]) == (n_wins, n_seat_rounds)
    assert stats["riichi_rate"]["numerator"] == count("select count(*) from events where action = 'riichi'")
    assert (stats["average_win_points"]["numerator"], stats["average_win_points"]["denominator"]) == (
        count("select sum(points) from wins"),
        n_wins,
    )
    # fu and han distributions: the server's own labels give the same counts (scoring agrees on every win)
    n_scored = count("select count(*) from wins_scored where points is not null")
    assert (stats["fu_share_30"]["numerator"], stats["fu_share_30"]["denominator"]) == (
        count("select count(*) from wins_scored where points is not null and fu = 30"),
        n_scored,
    )
    assert stats["han_share_13_plus"]["numerator"] == count("select count(*) from wins where han >= 13")
    assert sum(s["numerator"] for name, s in stats.items() if name.startswith("han_share_")) == n_scored


@pytest.mark.parametrize("by", [g for g in GROUPINGS if g not in ("all", "player")])
def test_stats_by_group_partition_the_totals(real_wh: Path, by: str, mode_split_names: set[str]) -> None:
    """The groups' counts add up to the totals (the placements', grouped by mode besides, mode by mode)."""

    def summed(stats: list[dict]) -> dict[tuple, tuple]:
        sums: dict[tuple, list] = {}
        for stat in stats:
            rest = tuple((k, v) for k, v in (stat["group"] or {}).items() if k != by)
            num_den = sums.setdefault((stat["name"], rest), [0, 0])
            num_den[0] += stat["numerator"]
            num_den[1] += stat["denominator"]
        return {key: (round(num, 6), den) for key, (num, den) in sums.items()}

    grouped = stats_json(real_wh, by)
    assert grouped
    for stat in grouped:
        assert list(stat) == list(STAT_KEYS)
        split = stat["name"] in mode_split_names and by != "mode"
        assert isinstance(stat["group"], dict) and list(stat["group"]) == ([by, "mode"] if split else [by])
        assert stat["group"][by] is not None
    assert summed(grouped) == summed(stats_json(real_wh, "all"))  # a game lies in one group


def test_stats_by_room_names_the_rooms(real_wh: Path, tenhou_db) -> None:  # noqa: ANN001
    rooms = {s["group"]["room"] for s in stats_json(real_wh, "room")}
    assert rooms == {r for (r,) in tenhou_db.execute("select distinct room from games").fetchall()}


def test_stats_by_length_names_hanchan_and_tonpuu(real_wh: Path, tenhou_db) -> None:  # noqa: ANN001
    lengths = {s["group"]["length"] for s in stats_json(real_wh, "length")}
    stored = {"hanchan" if h else "tonpuu" for (h,) in tenhou_db.execute("select is_hanchan from games").fetchall()}
    assert lengths == stored == {"hanchan", "tonpuu"}


def test_stats_by_player_names_every_player(real_wh: Path, tenhou_db) -> None:  # noqa: ANN001
    stats = stats_json(real_wh, "player")
    names = {name for (name,) in tenhou_db.execute("select distinct coalesce(name, 'unknown') from players").fetchall()}
    assert {s["group"]["player"] for s in stats} == names
    # a seat statistic counts the player's own seats: their seat-rounds add up to every seat-round
    seat_rounds = sum(s["denominator"] for s in stats if s["name"] == "seat_win_rate")
    assert seat_rounds == tenhou_db.execute("select sum(n_rounds * n_players) from games").fetchall()[0][0]


def test_stats_player_prints_one_players_profile(real_wh: Path, tenhou_db) -> None:  # noqa: ANN001
    busiest = "select name from players group by name order by count(*) desc, name limit 1"
    ((name,),) = tenhou_db.execute(busiest).fetchall()
    profile = stats_json(real_wh, "all", "--player", name)
    assert profile and all(s["group"]["player"] == name for s in profile)
    assert profile == [s for s in stats_json(real_wh, "player") if s["group"]["player"] == name]
    table = run("stats", "-w", real_wh, "--player", name)
    assert table.exit_code == 0, table.output
    assert f"player={name}" in table.output and "seat_win_rate" in table.output


def test_stats_compares_players_side_by_side(real_wh: Path, tenhou_db) -> None:  # noqa: ANN001
    busiest = "select name from players group by name order by count(*) desc, name limit 2"
    names = [name for (name,) in tenhou_db.execute(busiest).fetchall()]
    both = stats_json(real_wh, "all", "--player", names[0], "--player", names[1])
    assert both == [s for name in names for s in stats_json(real_wh, "all", "--player", name)]
    table = run("stats", "-w", real_wh, "--player", names[0], "--player", names[1])
    assert table.exit_code == 0, table.output
    header = next(line for line in table.output.splitlines() if f"player={names[0]}" in line)
    assert f"player={names[1]}" in header  # one column each, side by side
    wide = list(csv.reader(io.StringIO(run("stats", "-w", real_wh, "--player", names[0], "--player", names[1],
                                           "--csv").stdout)))  # fmt: skip
    columns = wide[0]
    assert columns[0] == "name" and f"player={names[1]} value" in columns
    values = {row[0]: row for row in wide[1:]}
    win = next(s for s in both if s["name"] == "seat_win_rate" and s["group"] == {"player": names[1]})
    assert float(values["seat_win_rate"][columns.index(f"player={names[1]} value")]) == pytest.approx(win["value"])


def test_stats_wide_gives_a_column_per_group(real_wh: Path) -> None:
    long = stats_json(real_wh, "room")
    wide = list(csv.reader(io.StringIO(run("stats", "-w", real_wh, "--by", "room", "--wide", "--csv").stdout)))
    columns, rows = wide[0], {row[0]: row for row in wide[1:]}
    assert len(rows) == len({s["name"] for s in long})
    for stat in long:
        label = ", ".join(f"{k}={v}" for k, v in stat["group"].items())
        cell = rows[stat["name"]][columns.index(f"{label} value")]
        assert float(cell) == pytest.approx(stat["value"]), (stat["name"], label)
        if stat["ci_low"] is not None:
            assert float(rows[stat["name"]][columns.index(f"{label} ci_low")]) == pytest.approx(stat["ci_low"])
    table = run("stats", "-w", real_wh, "--by", "room", "--wide")
    assert table.exit_code == 0 and "seat_win_rate" in table.output, table.output  # headers fold at 80 columns
    for args in (["--wide", "--json"], ["--player", "x", "--by", "room"]):
        refused = run("stats", "-w", real_wh, *args)
        assert refused.exit_code == 2 and len(refused.output.strip().splitlines()) == 1, refused.output


def test_stats_player_not_in_the_warehouse_exits_1(real_wh: Path) -> None:
    result = run("stats", "-w", real_wh, "--player", "no such player, surely")
    assert result.exit_code == 1, result.output
    assert "no player named 'no such player, surely'" in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output


HOUOU_4P_HANCHAN = "n_players = 4 and is_hanchan and room = 'houou'"
"""A --where over the games view: the Houou room's 4-player hanchan."""


def test_stats_where_placements_equal_tenhous_final_scores(real_wh: Path, tenhou_db) -> None:  # noqa: ANN001
    """By player over the Houou 4-player hanchan, each player's average rank and rank rates are the counts of
    Tenhou's own final scores (owari) ranked here, a tie to the seat nearer the first dealer."""
    stats = stats_json(real_wh, "player", "--where", HOUOU_4P_HANCHAN)
    ranks = tenhou_db.execute(
        "select coalesce(p.name, 'unknown') as player, "
        "row_number() over (partition by p.game_id order by p.final_score desc, p.seat) as rank "
        "from players as p join games as g using (game_id) "
        "where g.n_players = 4 and g.is_hanchan and g.room = 'houou' and p.final_score is not null"
    ).df()
    want = {}
    for player, rows in ranks.groupby("player"):
        want[("average_rank", player)] = (int(rows["rank"].sum()), len(rows))
        for k in range(1, 5):
            want[(f"rank_{k}_rate", player)] = (int((rows["rank"] == k).sum()), len(rows))
    got = {
        (s["name"], s["group"]["player"]): (s["numerator"], s["denominator"])
        for s in stats
        if s["name"] == "average_rank" or s["name"].startswith("rank_")
    }
    assert got == want and len({player for _, player in want}) > 100
    assert {s["group"]["mode"] for s in stats if s["name"] in PLACEMENT_NAMES} == {"4p_hanchan"}


def test_stats_where_filters_every_mart(real_wh: Path, tenhou_db) -> None:  # noqa: ANN001
    count = lambda sql: tenhou_db.execute(sql).fetchall()[0][0]  # noqa: E731
    every = {(s["name"], str(s["group"])): s for s in stats_json(real_wh, "all")}
    assert {(s["name"], str(s["group"])): s for s in stats_json(real_wh, "all", "--where", "true")} == every
    houou = {s["name"]: s for s in stats_json(real_wh, "all", "--where", HOUOU_4P_HANCHAN) if s["group"] is None}
    games = "select game_id from games where n_players = 4 and is_hanchan and room = 'houou'"
    assert houou["rounds_per_game"]["denominator"] == count(f"select count(*) from ({games})")
    assert houou["rounds_per_game"]["numerator"] == count(f"select count(*) from rounds where game_id in ({games})")
    assert houou["seat_win_rate"]["denominator"] == count(
        f"select count(*) from seat_rounds where game_id in ({games})"
    )
    assert houou["fu_share_30"]["denominator"] < every[("fu_share_30", "None")]["denominator"]
    for name in ("riichi_in_furiten_rate", "tenpai_at_draw_rate", "kyuushu_eligible_rate"):
        assert houou[name]["denominator"] < every[(name, "None")]["denominator"], name
    none = run("stats", "-w", real_wh, "--where", "false", "--json")
    assert none.exit_code == 0 and json.loads(none.stdout) == {"stats": []}


@pytest.mark.parametrize(
    "predicate",
    ["room = ", "no_such_column = 1", "room", "true) union all select * from games where (true", "true; select 1",
     "true -- comment", "room::int = 1", "count(*) > 1", ""],
)  # fmt: skip
def test_stats_rejects_a_bad_where_in_one_line(real_wh: Path, predicate: str) -> None:
    result = run("stats", "-w", real_wh, "--where", predicate)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: --where") and len(result.output.strip().splitlines()) == 1, result.output


def test_stats_by_several_keys(real_wh: Path, tenhou_db, mode_split_names: set[str]) -> None:  # noqa: ANN001
    stats = stats_json(real_wh, "room,year")
    pairs = {
        (room, "unknown" if year is None else str(year))
        for room, year in tenhou_db.execute("select distinct room, year from games").fetchall()
    }
    for stat in stats:
        keys = ["room", "year", "mode"] if stat["name"] in mode_split_names else ["room", "year"]
        assert list(stat["group"]) == keys, stat
    assert {(s["group"]["room"], s["group"]["year"]) for s in stats} == pairs
    by_room = {(s["name"], s["group"]["room"]): s for s in stats_json(real_wh, "room") if s["name"] == "win_rate"}
    for (name, room), stat in by_room.items():  # the years of a room add up to the room
        parts = [s for s in stats if s["name"] == name and s["group"]["room"] == room]
        assert sum(s["numerator"] for s in parts) == stat["numerator"]
        assert sum(s["denominator"] for s in parts) == stat["denominator"]
    players = stats_json(real_wh, "player,length")
    seat_rounds = sum(s["denominator"] for s in players if s["name"] == "seat_win_rate")
    assert seat_rounds == tenhou_db.execute("select sum(n_rounds * n_players) from games").fetchall()[0][0]
    result = run("stats", "-w", real_wh, "--by", "room,year", "--csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0]) == ["name", "room", "year", "mode", *STAT_KEYS[2:]] and len(rows) == len(stats)
    assert [(r["room"], r["year"]) for r in rows] == [(s["group"]["room"], s["group"]["year"]) for s in stats]


@pytest.mark.parametrize(
    "options",
    [["--by", "weather"], ["--by", "room,weather"], ["--by", "room,room"], ["--by", "all,room"], ["--json", "--csv"],
     ["--by", "room", "--player", "NoName"]],
)  # fmt: skip
def test_stats_rejects_bad_options(real_wh: Path, options: list[str]) -> None:
    result = run("stats", "-w", real_wh, *options)
    assert result.exit_code == 2, result.output
    assert result.output.lstrip().startswith("error:"), result.output


def test_stats_csv_has_one_row_per_statistic(real_wh: Path) -> None:
    stats = stats_json(real_wh, "room")
    result = run("stats", "-w", real_wh, "--by", "room", "--csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert rows and list(rows[0]) == ["name", "room", "mode", *STAT_KEYS[2:]]  # one column per group key
    assert len(rows) == len(stats)
    for row, stat in zip(rows, stats, strict=True):
        assert row["room"] == stat["group"]["room"]
        assert row["mode"] == stat["group"].get("mode", "")
        assert (row["name"], float(row["numerator"]), int(row["denominator"])) == (
            stat["name"],
            stat["numerator"],
            stat["denominator"],
        )
        assert float(row["value"]) == stat["value"] and row["definition"] == stat["definition"] and row["note"] == ""
        assert row["ci_low"] == ("" if stat["ci_low"] is None else repr(stat["ci_low"]))


def test_stats_table_lists_every_statistic_under_its_topic(real_wh: Path) -> None:
    result = run("stats", "-w", real_wh)
    assert result.exit_code == 0, result.output
    for stat in stats_json(real_wh, "all"):
        assert stat["name"] in result.output
    for topic, _ in TOPICS:
        assert re.search(rf"^{topic}\b", result.output, re.MULTILINE), topic


def test_stats_table_by_player_shows_the_largest_groups(real_wh: Path) -> None:
    result = run("stats", "-w", real_wh, "--by", "player")
    assert result.exit_code == 0, result.output
    assert f"showing the {MAX_GROUPS_SHOWN} groups with the most seat-rounds" in result.output
    # the same players in every topic (the placements' groups: a shown player's modes, one or more each)
    shown = {name.strip() for name in re.findall(r"player=([^,│\n]*)", result.output)}
    assert len(shown) == MAX_GROUPS_SHOWN
    assert len(re.findall(r", mode=", result.output)) >= MAX_GROUPS_SHOWN


# --- check -------------------------------------------------------------------------------------
def test_check_exits_0_on_the_real_logs(real_wh: Path) -> None:
    result = run("check", "-w", real_wh)
    assert result.exit_code == 0, result.output
    for name in sql_names("checks"):
        assert re.search(rf"^{name}: ok\b", result.output, re.MULTILINE), (name, result.output)


def test_check_json_names_every_check(real_wh: Path) -> None:
    result = run("check", "-w", real_wh, "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert list(payload) == ["checks"]
    assert sorted(payload["checks"]) == sql_names("checks") and payload["checks"]
    for name, violations in payload["checks"].items():
        for violation in violations:  # only known inconsistencies of logs written by other tools
            assert violation["check"] == name and violation["is_server_log"] is False, violation
            assert {"game_id", "round_idx", "detail"} <= set(violation)


def test_version() -> None:
    result = run("version")
    assert result.exit_code == 0 and re.fullmatch(r"\d+\.\d+\.\d+\S*", result.stdout.strip()), result.output


def test_ingest_format_forces_the_reader(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parents[1] / "data" / "sample"
    result = run("ingest", "-w", tmp_path / "w", "--no-derive", "--format", "tenhou_json", sample)
    # the sample is Tenhou XML: read as tenhou.net/6 JSON, no file is a log of that format
    assert result.exit_code == 0, result.output
    statuses = {row[0] for row in connect(Warehouse(tmp_path / "w")).execute("select status from manifest").fetchall()}
    assert statuses == {"not_a_log"}
    assert run("ingest", "-w", tmp_path / "w", "--format", "nope", sample).exit_code == 2


def test_audit_markdown_is_the_truth_table(real_wh: Path) -> None:
    result = run("audit", "-w", real_wh, "--markdown")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("| check | server-written, standard rules | share | custom rule | converted | edited |")
    rows = {line.split(" | ")[0].strip("|` "): line.split(" | ") for line in lines[2:]}
    assert set(rows) == set(sql_names("audit"))
    agree, total = rows["points"][1].replace(",", "").split("/")
    assert int(agree) == int(total) > 900 and rows["points"][2] == "100.00%"


# --- not derived -------------------------------------------------------------------------------------------------
@pytest.fixture
def underived(inputs: Path, tmp_path: Path) -> Path:
    """A warehouse of one real game ingested with --no-derive."""
    warehouse = tmp_path / "underived"
    assert run("ingest", inputs, "-w", warehouse, "--no-derive").exit_code == 0
    return warehouse


def test_stats_without_derived_tables_say_not_derived_and_exit_5(underived: Path) -> None:
    result = run("stats", "-w", underived)
    assert result.exit_code == 5, result.output
    assert re.search(r"furiten_passes_per_round\W+not derived: run `paipu derive`", result.output), result.output
    assert "0.00/100" not in result.output and "win_rate" in result.output  # the facts' statistics are measured
    assert "not derived: 1 of 1 games parts have no derived tables" in result.output
    stats = {s["name"]: s for s in json.loads(run("stats", "-w", underived, "--json").stdout)["stats"]}
    assert stats["furiten_passes_per_round"] | {"definition": None} == {
        "name": "furiten_passes_per_round", "group": None, "numerator": None, "denominator": None, "value": None,
        "definition": None, "ci_low": None, "ci_high": None, "std_error": None, "note": NOT_DERIVED,
    }  # fmt: skip
    assert stats["win_rate"]["note"] is None and stats["win_rate"]["denominator"] == 9
    assert {name for name, s in stats.items() if s["note"]} == {n for names in DERIVED_MARTS.values() for n in names}
    assert run("stats", "-w", underived, "--csv").exit_code == 5


def test_audit_without_derived_tables_says_not_derived_and_exits_5(underived: Path) -> None:
    result = run("audit", "-w", underived)
    assert result.exit_code == 5, result.output
    assert "0/0" not in result.output
    for name in sql_names("audit"):
        assert re.search(rf"^{name}: not derived: run `paipu derive`$", result.output, re.MULTILINE), name
    checks = json.loads(run("audit", "-w", underived, "--json").stdout)["checks"]
    assert {c["note"] for c in checks.values()} == {NOT_DERIVED} and {c["total"] for c in checks.values()} == {None}
    markdown = run("audit", "-w", underived, "--markdown")
    assert markdown.exit_code == 5 and "| `points` | not derived: run `paipu derive` |" in markdown.stdout


def test_derive_then_stats_and_audit_are_measured(underived: Path) -> None:
    assert run("derive", "-w", underived).exit_code == 0
    assert run("stats", "-w", underived).exit_code == 0
    assert run("audit", "-w", underived).exit_code == 0


def test_derived_marts_name_their_statistics(tenhou_db) -> None:  # noqa: ANN001
    for mart, patterns in DERIVED_MARTS.items():
        names = {s.name for s in mart_stats(tenhou_db, mart)}
        assert names, mart
        assert {n for n in names if not any(fnmatchcase(n, p) for p in patterns)} == set(), mart
        assert {p for p in patterns if not any(fnmatchcase(n, p) for n in names)} == set(), mart


# --- usage errors: one line, exit 2 ----------------------------------------------------------------------------
def assert_usage_error(result, *needles: str) -> None:  # noqa: ANN001 - click's Result
    """Exit 2 with one line on stderr saying ``needles``."""
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("error: "), result.output
    for needle in needles:
        assert needle in result.output, (needle, result.output)


@pytest.mark.parametrize("where", ["path", "warehouse"])
def test_an_empty_path_is_a_usage_error(
    inputs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    monkeypatch.chdir(inputs)  # an empty path would have meant this folder
    args = ["ingest", "", "-w", tmp_path / "w"] if where == "path" else ["ingest", inputs, "-w", ""]
    assert_usage_error(run(*args), "an empty path")
    assert not Warehouse(tmp_path / "w").exists() and not Warehouse(inputs).exists()


@pytest.mark.parametrize(
    "args",
    [["ingest"], ["ingest", ".", "--bogus"], ["ingest", ".", "--batch-size", "0"], ["stats", "--by"], ["nosuch"]],
)
def test_command_line_mistakes_are_one_line(args: list[str]) -> None:
    assert_usage_error(run(*args), "--help")


@pytest.mark.parametrize("query", ["", "   ", ";", "/* only a comment */"])
def test_an_empty_query_is_a_usage_error(real_wh: Path, query: str) -> None:
    assert_usage_error(run("sql", query, "-w", real_wh), "query")


def test_sql_files_that_do_not_hold_a_query_are_usage_errors(real_wh: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty.sql"
    empty.write_text("\n  \n", encoding="utf-8")
    assert_usage_error(run("sql", empty, "-w", real_wh), "empty query", "empty.sql")
    missing = tmp_path / "no_such_query.sql"
    assert_usage_error(run("sql", missing, "-w", real_wh), "no such .sql file", "no_such_query.sql")
    (tmp_path / "folder.sql").mkdir()
    assert_usage_error(run("sql", tmp_path / "folder.sql", "-w", real_wh), "not a file")


@pytest.mark.parametrize("command", [["ingest", "."], ["derive"]])
def test_a_bad_scheduler_is_a_usage_error(real_wh: Path, command: list[str]) -> None:
    assert_usage_error(run(*command, "-w", real_wh, "--scheduler", "bogus"), "--scheduler", "'bogus'")


# --- sql output: plain text, whole cells, --limit ----------------------------------------------------------------
HOSTILE = "select '[/x] [bold]' || chr(27) || '[31mred' || chr(10) || 'next' as \"[b]name\", repeat('z', 300) as long"


def test_sql_table_prints_values_as_plain_text(real_wh: Path) -> None:
    result = run("sql", HOSTILE, "-w", real_wh)
    assert result.exit_code == 0, result.output
    assert "[b]name" in result.stdout and "[/x] [bold]\\x1b[31mred\\x0anext" in result.stdout, result.stdout
    assert "\x1b" not in result.stdout and "…" not in result.stdout
    assert "z" * 300 in result.stdout  # not a terminal: every cell whole, however wide


def test_sql_limit_shows_that_many_rows(real_wh: Path, tenhou_db) -> None:  # noqa: ANN001
    query = "select game_id from games order by game_id"
    limited = run("sql", query, "-w", real_wh, "--limit", "3", "-f", "json")
    assert limited.exit_code == 0, limited.output
    expected = [{"game_id": g} for (g,) in tenhou_db.execute(query + " limit 3").fetchall()]
    assert json.loads(limited.stdout) == expected
    assert "showing the first 3 rows" in limited.output
    table = run("sql", query, "-w", real_wh, "--limit", "2")
    shown = [g for (g,) in tenhou_db.execute(query).fetchall() if g in table.stdout]
    assert shown == [r["game_id"] for r in expected[:2]]
    whole = run("sql", "select 1 as one", "-w", real_wh, "--limit", "5")
    assert whole.exit_code == 0 and "showing" not in whole.output


# --- Ctrl-C ----------------------------------------------------------------------------------------------------
REPO = Path(__file__).resolve().parents[1]


def test_an_error_raised_by_ctrl_c_on_its_way_out_is_an_interruption(capsys: pytest.CaptureFixture[str]) -> None:
    """What an interrupted command's cleanup raises (seen in CI: OSError EBADF from a worker pool's pipes) ends
    it as interrupted (exit 130), not as an internal error (exit 70); the same error without Ctrl-C is one."""

    def interrupted_then_broken() -> None:
        try:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, to this process alone
            time.sleep(5)
        except KeyboardInterrupt:
            raise OSError(9, "Bad file descriptor") from None

    def broken() -> None:
        raise OSError(9, "Bad file descriptor")

    before = signal.getsignal(signal.SIGINT)  # Python's own handler, or SIG_IGN when started in the background
    for function, code, said in ((interrupted_then_broken, 130, "interrupted: rerun to finish"),
                                 (broken, 70, "internal error: OSError")):  # fmt: skip
        with pytest.raises(typer.Exit) as done:
            domain_errors(function)()
        assert done.value.exit_code == code and said in capsys.readouterr().err
    assert signal.getsignal(signal.SIGINT) is before  # the handler the process had is back


@pytest.mark.e2e
@pytest.mark.parametrize("to", ["group", "main"])
def test_ctrl_c_during_an_ingest_exits_130_and_a_rerun_finishes(shared_logs: Path, tmp_path: Path, to: str) -> None:
    """SIGINT to the process group (a terminal's Ctrl-C: the workers get it too) or to the main process alone."""
    root = tmp_path / "w"
    command = [sys.executable, "-m", "pipeline", "ingest", str(shared_logs / "tenhou-xml"), "-w", str(root)]
    process = subprocess.Popen(
        [*command, "-j", "2", "--batch-size", "2"], cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not (root / "manifest").is_dir() and time.monotonic() < deadline:  # a first batch is published
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    (os.killpg if to == "group" else os.kill)(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, (out, err)
    assert err.strip().splitlines()[-1] == "interrupted: rerun to finish", err
    assert "Traceback" not in out + err
    rerun = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 3, rerun.stderr  # pantheon's hanchan_with_noname.xml: quarantined (round_has_play)
    manifest = run("sql", "select count(*) as n, count(distinct path) as paths from manifest", "-w", root, "-f", "json")
    assert json.loads(manifest.stdout) == [{"n": 218, "paths": 218}]


def test_schema_prints_every_table_with_its_documented_columns() -> None:
    result = run("schema")
    assert result.exit_code == 0, result.output
    for table, columns in ALL_TABLES.items():
        assert f"\n{table} ({len(columns)} columns)\n" in f"\n{result.stdout}"
        for column in columns:
            assert re.search(rf"^  {re.escape(column.name)} +\S.*: {re.escape(column.description)}$", result.stdout,
                             re.MULTILINE), (table, column.name)  # fmt: skip
    one = run("schema", "wins")
    assert one.exit_code == 0 and one.stdout.startswith("wins (") and "\nrounds (" not in one.stdout
    unknown = run("schema", "weather")
    assert unknown.exit_code == 2 and "no table or view 'weather'" in unknown.output


def test_sql_macros_name_tiles_waits_and_winds(real_wh: Path) -> None:
    query = (
        "select tile_name(4, false), tile_name(4, true), tile_name(33, false), waits_tiles(9 | (1 << 27)), "
        "seat_wind(2, 1, 4), seat_wind(0, 1, 3)"
    )
    result = run("sql", query, "-w", real_wh, "--format", "json")
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.stdout)[0].values()) == ["5m", "0m", "7z", ["1m", "4m", "1z"], "S", "W"]
