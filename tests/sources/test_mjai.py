"""mjai parser: every real file reads, the tables pass the pipeline's checks and audit, chosen events
have exact values, hidden hands are handled as documented, errors have names.

Real files are read from ../shared/logs/mjai (bot and simulator logs); the game built here (``SYNTHETIC``)
exercises what no real file has: a kakan, gimite-style ``yakus``/``fu``/``fan``/``hora_points``, and a
kyuushu kyuuhai. Its labels were checked against the rules layer (the audit agrees on them).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from game_rows import rows, values

import pipeline.ingest as ing
from pipeline.audit import CheckResult, run_audit
from pipeline.db import connect
from pipeline.derive.run import derive
from pipeline.errors import NotALogError, ParseError, UnknownCodeError
from pipeline.identity import identify
from pipeline.schema import TABLES, to_arrow
from pipeline.sources.base import ParsedGame, concat_buffers
from pipeline.sources.mjai import SOURCE, looks_like, parse
from pipeline.sources.mjai import events as mjai_events
from pipeline.sources.mjai.game_end import final_scores
from pipeline.sources.mjai.header import fingerprint
from pipeline.sources.mjai.stream import read_stream, split_games
from pipeline.statistics import run_checks
from pipeline.store.warehouse import Warehouse

MJAI = "mjai"
RIICHIENV = "mjai/RiichiEnv/tests/data/126_204_0_mjai.jsonl"
AKOCHAN_SAMPLE = "mjai/akochan/haifu_log_sample.json"
AKOCHAN_MATCH = "mjai/akochan/match_result/haifu_log_1000_0.json"
MJAI_APP = "mjai/mjai.app/tests/mjai/bot/data_base_akadora.log"
MAJSOUL_3P = "majsoul/smly-RiichiEnv/tests/data/external_replay/mjsoul_3p_double_ron_excerpt.jsonl"

REAL_FILES = {
    # file: (games, rounds of each game, complete)
    RIICHIENV: (1, 12, True),
    AKOCHAN_SAMPLE: (1, 6, True),
    AKOCHAN_MATCH: (1, 5, True),
    MJAI_APP: (1, 0, False),  # a bot test's event fragment: East 3 from its first draws, no result
}


# --- helpers -------------------------------------------------------------------------------------
def read_one(shared_logs: Path, relative: str) -> ParsedGame:
    path = shared_logs / relative
    (game,) = parse(path.read_bytes(), str(path))
    return game


def encode(events: list[dict[str, Any]]) -> bytes:
    return ("\n".join(json.dumps(e) for e in events) + "\n").encode()


def ev(type_: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, **fields}


def draw(actor: int, pai: str) -> dict[str, Any]:
    return ev("tsumo", actor=actor, pai=pai)


def discard(actor: int, pai: str, tsumogiri: bool = False) -> dict[str, Any]:
    return ev("dahai", actor=actor, pai=pai, tsumogiri=tsumogiri)


def synthetic() -> list[dict[str, Any]]:
    """Two kyoku. East 1: seat 1 chis seat 0's 1m, the dealer pons East and adds the fourth (kakan), seat 2
    declares riichi, seat 3 makes a closed kan of chun, and the dealer rons seat 3's 8m: double East,
    haku, honitsu, a red five, 50 fu, haneman 18000 plus the riichi stick. East 1 honba 1: the dealer
    declares kyuushu kyuuhai on its first draw."""
    hand_1 = [
        ["1m", "2m", "3m", "4m", "5mr", "6m", "7m", "8m", "9m", "E", "E", "P", "P"],
        ["1p", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "2m", "3m", "S", "S", "W"],
        ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "N", "N", "F", "F"],
        ["2m", "3m", "4m", "2p", "3p", "4p", "2s", "3s", "4s", "C", "C", "C", "W"],
    ]
    hand_2 = [
        ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "P", "F", "2m"],
        ["2m", "3m", "4m", "5m", "6m", "7m", "2p", "3p", "4p", "5pr", "6p", "7p", "8p"],
        ["2s", "3s", "4s", "5sr", "6s", "7s", "8s", "3m", "4m", "6m", "7m", "8m", "C"],
        ["1m", "1m", "9m", "9m", "1p", "1p", "9p", "9p", "1s", "1s", "9s", "9s", "E"],
    ]
    after = [44000, 25000, 24000, 7000]
    return [
        ev("start_game", names=["A", "B", "C", "D"], kyoku_first=0, aka_flag=True),
        ev("start_kyoku", bakaze="E", kyoku=1, honba=0, kyotaku=0, oya=0, dora_marker="9s", scores=[25000] * 4,
           tehais=hand_1),
        draw(0, "P"), discard(0, "1m"),
        ev("chi", actor=1, target=0, pai="1m", consumed=["2m", "3m"]), discard(1, "W"),
        draw(2, "E"), discard(2, "E", True),
        ev("pon", actor=0, target=2, pai="E", consumed=["E", "E"]), discard(0, "9m"),
        draw(1, "9p"), discard(1, "9p", True), draw(2, "6s"), discard(2, "6s", True), draw(3, "8p"), discard(3, "W"),
        draw(0, "E"), ev("kakan", actor=0, pai="E", consumed=["E", "E", "E"]),
        draw(0, "7p"), ev("dora", dora_marker="1s"), discard(0, "7p", True),
        draw(1, "2s"), discard(1, "2s", True),
        draw(2, "8s"), ev("reach", actor=2), discard(2, "8s", True), ev("reach_accepted", actor=2),
        draw(3, "C"), ev("ankan", actor=3, consumed=["C", "C", "C", "C"]), ev("dora", dora_marker="2p"),
        draw(3, "5s"), discard(3, "8p"),
        draw(0, "1p"), discard(0, "1p", True), draw(1, "3s"), discard(1, "3s", True),
        draw(2, "9p"), discard(2, "9p", True), draw(3, "8m"), discard(3, "8m", True),
        ev("hora", actor=0, target=3, pai="8m", uradora_markers=["5p"],
           hora_tehais=["2m", "3m", "4m", "5mr", "6m", "7m", "8m", "P", "P", "P"],
           yakus=[["bakaze", 1], ["jikaze", 1], ["sangenpai", 1], ["honiso", 2], ["akadora", 1]], fu=50, fan=6,
           hora_points=18000, deltas=[19000, 0, 0, -18000], scores=after),
        ev("end_kyoku"),
        ev("start_kyoku", bakaze="E", kyoku=1, honba=1, kyotaku=0, oya=0, dora_marker="5p", scores=after,
           tehais=hand_2),
        draw(0, "C"),
        ev("ryukyoku", actor=0, reason="kyushukyuhai", deltas=[0, 0, 0, 0], scores=after),
        ev("end_kyoku"),
        ev("end_game", scores=after),
    ]  # fmt: skip


def parse_events(events: list[dict[str, Any]], name: str = "synthetic.jsonl") -> ParsedGame:
    (game,) = parse(encode(events), name)
    return game


def hidden_view(path: Path) -> list[dict[str, Any]]:
    """The events of a real log as seat 0 sees them: other seats' hands and draws are '?', a tsumo hora
    keeps its winning tile (as bot-view logs write it)."""
    events, last_draw = [], {}
    for line in path.read_text().splitlines():
        event = json.loads(line)
        if event["type"] == "start_kyoku":
            event["tehais"] = [h if s == 0 else ["?"] * 13 for s, h in enumerate(event["tehais"])]
        elif event["type"] == "tsumo":
            last_draw[event["actor"]] = event["pai"]
            event["pai"] = event["pai"] if event["actor"] == 0 else "?"
        elif event["type"] == "hora" and event["actor"] == event["target"]:
            event["pai"] = last_draw[event["actor"]]
        events.append(event)
    return events


# --- every real file -----------------------------------------------------------------------------
def test_every_real_file_parses_into_schema_valid_tables(shared_logs: Path) -> None:
    found = {str(p.relative_to(shared_logs)) for p in (shared_logs / MJAI).rglob("*") if p.is_file()}
    assert found == set(REAL_FILES), "a new file under mjai: add its expected result to REAL_FILES"
    games: list[ParsedGame] = []
    for relative, (n_games, n_rounds, complete) in REAL_FILES.items():
        data = (shared_logs / relative).read_bytes()
        assert looks_like(data), relative
        parsed = parse(data, relative)
        assert [(g.n_rounds, g.is_complete, g.source) for g in parsed] == [(n_rounds, complete, SOURCE)] * n_games
        games += parsed
    for table in TABLES:
        arrow = to_arrow(table, concat_buffers(games, table))
        assert arrow.num_rows == sum(len(values(g.tables[table]["game_id"])) for g in games)


def test_the_compiled_events_table_is_the_numpy_one(shared_logs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the compiled pass makes the events columns at their declared widths; where it declines, numpy makes them in
    # int64: the values stored are the same either way (every real file, the converted Mahjong Soul game too)
    files = [*REAL_FILES, MAJSOUL_3P]
    compiled = [game for f in files for game in parse((shared_logs / f).read_bytes(), f)]
    assert {str(game.tables["events"]["seat"].dtype) for game in compiled if game.n_rounds} == {"int8"}
    monkeypatch.setattr(mjai_events, "ordered_event_columns", lambda *_: None)
    plain = [game for f in files for game in parse((shared_logs / f).read_bytes(), f)]
    assert {str(game.tables["events"]["seat"].dtype) for game in plain} == {"int64"}
    assert sum(len(rows(game, "events")) for game in plain) > 2000
    for a, b in zip(compiled, plain, strict=True):
        assert rows(a, "events") == rows(b, "events"), a.source_file


def test_games_rows_say_bot_written_with_unknown_room(shared_logs: Path) -> None:
    game = read_one(shared_logs, RIICHIENV)
    (row,) = rows(game, "games")
    (events,) = split_games(read_stream((shared_logs / RIICHIENV).read_bytes(), RIICHIENV)[0], RIICHIENV)
    assert row["game_id"] == "fp-" + fingerprint(events)  # no id in the log: named by its events' hash
    assert row["fingerprint"] == game.fingerprint == identify(game).fingerprint
    assert (row["room"], row["is_server_log"], row["is_custom_rule"]) == ("unknown", False, True)
    assert row["is_vs_humans"] is False
    assert (row["n_players"], row["is_hanchan"], row["has_red_fives"], row["rule_code"]) == (4, True, True, 0x08)
    assert row["log_quirks"] == ["bot_written", "game_length_inferred", "win_without_han", "win_without_yaku"]
    (akochan,) = rows(read_one(shared_logs, AKOCHAN_MATCH), "games")
    assert akochan["is_hanchan"] is False
    assert akochan["log_quirks"] == ["bot_written", "fu_unrounded", "win_without_yaku"]


# --- the real logs through the real pipeline --------------------------------------------------------
def ingest_with_mjai(paths: list[Path], root: Path) -> tuple[ing.IngestReport, Any]:
    """Ingest (mjai detected by content like every format), derive, connect."""
    warehouse = Warehouse(root / "warehouse")
    report = ing.ingest(paths, warehouse)
    derive(warehouse)
    return report, connect(warehouse)


@pytest.fixture(scope="module")
def mjai_db(shared_logs: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[ing.IngestReport, Any]:
    """The real mjai logs ingested, derived and connected."""
    return ingest_with_mjai([shared_logs / MJAI], tmp_path_factory.mktemp("mjai"))


def test_ingest_stores_every_game_and_quarantines_only_the_fragment(mjai_db) -> None:
    report, _ = mjai_db
    assert (report.files["ok"], report.games, report.rounds) == (3, 3, 23)
    assert [(Path(p).name, status) for p, status, _ in report.problems] == [("data_base_akadora.log", "quarantined")]
    assert "no complete round" in report.problems[0][2]


def test_every_invariant_check_passes(mjai_db) -> None:
    _, con = mjai_db
    assert {name: violations for name, violations in run_checks(con).items() if violations} == {}


@pytest.fixture(scope="module")
def audit(mjai_db) -> dict[str, CheckResult]:
    return run_audit(mjai_db[1])


@pytest.mark.parametrize(
    ("check", "total"),
    [("abortive_kind", 23), ("draw_payments", 5), ("fu", 4), ("hand_at_end", 29), ("nagashi", 20),
     ("next_round", 23), ("no_ron_in_furiten", 9), ("points", 18), ("tenpai_at_draw", 20),
     ("win_tile_in_waits", 18)],
)  # fmt: skip
def test_audit_agrees_on_every_label_the_logs_carry(audit: dict[str, CheckResult], check: str, total: int) -> None:
    result = audit[check]
    assert result.total == 0  # bot-written: counted apart from server logs
    assert (result.other_agree, result.other_total) == (total, total), result.other_disagreements


def test_audit_compares_han_and_yaku_only_where_the_logs_record_them(mjai_db, audit: dict[str, CheckResult]) -> None:
    _, con = mjai_db
    sql = "select count(*) from wins join games using (game_id) where not list_contains(log_quirks, 'win_without_han')"
    (with_han,) = con.execute(sql).fetchall()[0]
    han = audit["han"]
    assert (han.other_agree, han.other_total) == (with_han, with_han) and with_han >= 4  # akochan's wins with fan
    assert audit["yaku"].other_total == 0  # no real mjai file records yaku


# --- chosen events of the real logs ---------------------------------------------------------------
def test_chi_of_a_red_five_takes_the_discard_of_the_target_seat(shared_logs: Path) -> None:
    game = read_one(shared_logs, RIICHIENV)
    chi = next(e for e in rows(game, "events") if e["action"] == "chi")
    assert (chi["round_idx"], chi["seat"], chi["from_seat"], chi["source_index"]) == (2, 1, 0, 325)
    assert (chi["tile"], chi["tile34"], chi["is_red"], chi["meld_tiles"]) == (88, 22, True, [88, 93, 96])
    given = [e for e in rows(game, "events") if e["round_idx"] == 2 and e["event_idx"] == chi["event_idx"] - 1]
    assert [(g["action"], g["seat"], g["tile"]) for g in given] == [("discard", 0, 88)]


def test_ankan_then_its_dora_then_the_replacement_draw(shared_logs: Path) -> None:
    events = rows(read_one(shared_logs, RIICHIENV), "events")
    at = next(i for i, e in enumerate(events) if e["action"] == "ankan")
    kan, dora, rinshan = events[at : at + 3]
    assert (kan["seat"], kan["tile34"], kan["meld_tiles"], kan["from_seat"]) == (1, 15, [60, 61, 62, 63], None)
    assert (dora["action"], dora["seat"], dora["tile"]) == ("dora", None, 51)
    assert (rinshan["action"], rinshan["seat"], rinshan["is_rinshan"]) == ("draw", 1, True)


def test_reach_then_reach_accepted_pay_a_stick(shared_logs: Path) -> None:
    game = read_one(shared_logs, RIICHIENV)
    first = [e for e in rows(game, "events") if e["round_idx"] == 0 and e["seat"] == 3]
    declared = next(i for i, e in enumerate(first) if e["action"] == "riichi")
    assert [e["action"] for e in first[declared : declared + 3]] == ["riichi", "discard", "riichi_accepted"]
    win = rows(game, "wins")[0]
    assert (win["seat"], win["is_tsumo"], win["riichi_sticks"]) == (3, True, 2)  # seats 3 and 1 paid
    assert win["scores_pre"] == [25000, 24000, 25000, 24000] and win["score_deltas"] == [-4000, -2000, -2000, 10000]
    assert (win["points"], win["limit_name"], win["fu"], win["han"], win["yaku"]) == (8000, "mangan", None, 0, [])


def test_hora_with_fu_and_fan_and_scores_after(shared_logs: Path) -> None:
    wins = rows(read_one(shared_logs, AKOCHAN_MATCH), "wins")
    first, last = wins[0], wins[-1]
    assert (first["seat"], first["is_tsumo"], first["fu"], first["han"]) == (1, True, 20, 6)
    assert first["limit_name"] == "haneman"
    assert first["score_deltas"] == [-6000, 13000, -3000, -3000] and first["points"] == 12000
    assert len(first["ura_indicators"]) == 1 and first["tile34"] == 9  # 1p
    assert (last["seat"], last["from_seat"], last["fu"], last["han"], last["points"]) == (1, 0, 40, 1, 1300)  # 38 fu


def test_ryukyoku_with_tenpais_shows_the_tenpai_hands(shared_logs: Path) -> None:
    (draw_row,) = rows(read_one(shared_logs, AKOCHAN_MATCH), "draws")
    assert (draw_row["round_idx"], draw_row["kind"], draw_row["is_abortive"]) == (3, "exhaustive", False)
    assert draw_row["is_shown"] == [False, False, True, True] and draw_row["n_shown"] == 2
    assert [len(h) for h in draw_row["hands_shown"]] == [0, 0, 7, 13]  # seat 2 made two calls
    assert draw_row["score_deltas"] == [-1500, -1500, 1500, 1500] and draw_row["riichi_sticks"] == 1


def test_ryukyoku_without_tenpais_reads_them_from_the_payments(shared_logs: Path) -> None:
    draws = rows(read_one(shared_logs, RIICHIENV), "draws")
    assert [(d["kind"], d["is_shown"]) for d in draws] == [
        ("exhaustive", [True, True, True, False]), ("exhaustive", [False, True, False, True]),
        ("exhaustive", [True, True, False, True]),
    ]  # fmt: skip


def test_red_fives_are_copy_zero_and_flagged(shared_logs: Path) -> None:
    game = read_one(shared_logs, RIICHIENV)
    red = [e for e in rows(game, "events") if e["is_red"]]
    assert red and {e["tile"] for e in red} <= {16, 52, 88}
    plain = [e for e in rows(game, "events") if e["tile34"] in (4, 13, 22) and not e["is_red"]]
    assert plain and all(e["tile"] % 4 for e in plain)


def test_deltas_come_from_the_next_kyoku_when_the_log_has_none(shared_logs: Path) -> None:
    game = read_one(shared_logs, AKOCHAN_SAMPLE)
    assert "deltas_from_next_round" in rows(game, "games")[0]["log_quirks"]
    wins = rows(game, "wins")
    assert wins[0]["score_deltas"] == [11700, -3900, -3900, -3900] and wins[0]["points"] == 11700
    assert [p["final_score"] for p in rows(game, "players")] == [31500, 14400, 40800, 13300]
    assert [p["final_rank"] for p in rows(game, "players")] == [2, 3, 1, 4]


def test_points_read_from_the_score_changes_are_plain_ints(shared_logs: Path) -> None:
    # a numpy integer among them would send every game with a win down check_storable's value-by-value path
    points = [p for relative in REAL_FILES for p in read_one(shared_logs, relative).tables["wins"]["points"]]
    assert points and {type(p) for p in points} == {int}


def test_sanma_kita_kakan_and_double_ron(shared_logs: Path) -> None:
    path = shared_logs / MAJSOUL_3P
    if not path.is_file():
        pytest.skip(f"{path} not found")
    (game,) = parse(path.read_bytes(), str(path))
    assert (rows(game, "games")[0]["n_players"], game.n_rounds, game.is_complete) == (3, 1, False)
    assert [e["action"] for e in rows(game, "events")].count("kita") == 2
    wins = rows(game, "wins")
    assert [(w["seat"], w["from_seat"], w["tile34"], w["riichi_sticks"]) for w in wins] == [
        (0, 2, 30, 0),
        (1, 2, 30, 0),
    ]
    assert [(w["yaku_names"], w["han"], w["points"]) for w in wins] == [
        (["toitoi", "dora"], 5, 12000), (["sankantsu", "haku", "dora"], 8, 16000)]  # fmt: skip


# --- the synthetic game --------------------------------------------------------------------------
def test_kakan_upgrades_the_pon_and_keeps_its_source_seat() -> None:
    events = rows(parse_events(synthetic()), "events")
    kakan = next(e for e in events if e["action"] == "kakan")
    pon = next(e for e in events if e["action"] == "pon")
    assert (kakan["seat"], kakan["from_seat"], kakan["tile34"]) == (0, 2, 27)
    assert sorted(kakan["meld_tiles"]) == sorted([*pon["meld_tiles"], kakan["tile"]])
    after = events[events.index(kakan) + 1]
    assert (after["action"], after["is_rinshan"]) == ("draw", True)


def test_gimite_style_hora_labels_map_to_tenhou_ids() -> None:
    game = parse_events(synthetic())
    (win,) = rows(game, "wins")
    assert (win["seat"], win["from_seat"], win["tile34"]) == (0, 3, 7)
    assert (win["fu"], win["han"], win["points"]) == (50, 6, 18000)
    assert win["yaku_names"] == ["round_wind_east", "seat_wind_east", "haku", "honitsu", "aka_dora"]
    assert (win["yaku"], win["yaku_han"]) == ([14, 10, 18, 34, 54], [1, 1, 1, 2, 1])
    assert (win["limit_name"], win["riichi_sticks"], win["score_deltas"]) == ("haneman", 1, [19000, 0, 0, -18000])
    assert win["ura_indicators"] == [] and len(win["dora_indicators"]) == 3  # the winner did not riichi
    assert len(win["hand"]) == 11 and [len(m) for m in win["melds"]] == [4]
    assert rows(game, "games")[0]["log_quirks"] == ["bot_written"]


def test_synthetic_labels_agree_with_the_rules_and_a_gzip_copy_is_a_duplicate(tmp_path: Path) -> None:
    plain = tmp_path / "logs" / "synthetic.jsonl"
    plain.parent.mkdir()
    plain.write_bytes(encode(synthetic()))
    (tmp_path / "logs" / "synthetic.jsonl.gz").write_bytes(gzip.compress(plain.read_bytes()))
    report, con = ingest_with_mjai([tmp_path / "logs"], tmp_path)
    assert (report.files["ok"], report.files["duplicate"], report.games) == (1, 1, 1)
    assert {name: v for name, v in run_checks(con).items() if v} == {}
    audit = run_audit(con)
    agreed = {name: (r.other_agree, r.other_total) for name, r in audit.items() if name != "next_round"}
    assert agreed == {"abortive_kind": (2, 2), "draw_payments": (1, 1), "fu": (1, 1), "han": (1, 1),
                      "hand_at_end": (2, 2), "kyuushu_eligible": (1, 1), "nagashi": (0, 0),
                      "no_ron_in_furiten": (1, 1), "points": (1, 1), "server_furiten": (0, 0),
                      "server_waits": (0, 0), "tenpai_at_draw": (0, 0), "win_tile_in_waits": (1, 1),
                      "yaku": (1, 1)}  # fmt: skip


def test_kyuushu_kyuuhai_shows_the_declarer_and_the_game_ends() -> None:
    game = parse_events(synthetic())
    (draw_row,) = rows(game, "draws")
    assert (draw_row["kind"], draw_row["is_abortive"]) == ("kyuushu_kyuuhai", True)
    assert draw_row["is_shown"] == [True, False, False, False]
    assert len(draw_row["hands_shown"][0]) == 14
    assert [r["is_last"] for r in rows(game, "rounds")] == [False, True] and game.is_complete
    assert [p["final_score"] for p in rows(game, "players")] == [44000, 25000, 24000, 7000]


def test_lists_of_events_per_line_read_like_one_event_per_line() -> None:
    events = synthetic()
    batched = ("\n".join(json.dumps(events[i : i + 7]) for i in range(0, len(events), 7)) + "\n").encode()
    (game,) = parse(batched, "synthetic.jsonl")
    plain = parse_events(events)
    for table in TABLES:
        assert rows(game, table) == rows(plain, table), table


def test_a_file_with_two_games_gives_two_games() -> None:
    second = synthetic()
    second[0] = ev("start_game", names=["W", "X", "Y", "Z"], kyoku_first=0, aka_flag=True)
    games = parse(encode(synthetic() + second), "two.jsonl")
    assert len(games) == 2 and games[0].game_id != games[1].game_id  # named by their events: the names differ
    assert [g.n_rounds for g in games] == [g.n_rounds for g in parse(encode(synthetic()), "one.jsonl")] * 2


def test_a_truncated_game_keeps_its_complete_rounds(shared_logs: Path) -> None:
    lines = (shared_logs / RIICHIENV).read_bytes().splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if b'"start_kyoku"' in line]
    (game,) = parse(b"".join(lines[: starts[3] + 20]), "cut.jsonl")
    assert (game.n_rounds, game.is_complete) == (3, False)
    assert [p["final_score"] for p in rows(game, "players")] == [None] * 4
    assert game.fingerprint == read_one(shared_logs, RIICHIENV).fingerprint


def without_end_game(data: bytes) -> bytes:
    """The file's lines less its end_game event (a stream that stops after the last kyoku's result)."""
    return b"".join(line for line in data.splitlines(keepends=True) if b'"end_game"' not in line)


def cut_after_kyoku(data: bytes, n_kyoku: int) -> bytes:
    """The file's lines up to the end_kyoku of its n-th kyoku (1-based)."""
    lines = data.splitlines(keepends=True)
    ends = [i for i, line in enumerate(lines) if b'"end_kyoku"' in line]
    return b"".join(lines[: ends[n_kyoku - 1] + 1])


@pytest.mark.parametrize(
    ("relative", "n_rounds", "final", "ranks"),
    [(RIICHIENV, 12, [2400, 14900, 38800, 43900], [4, 3, 2, 1]),  # South 4: a non-dealer's ron
     (AKOCHAN_MATCH, 5, [24600, 38100, 18600, 18700], [2, 1, 4, 3])],  # East-only, East 4 honba 1: seat 1's ron
)  # fmt: skip
def test_a_game_whose_last_kyoku_ends_it_is_complete_without_end_game(
    shared_logs: Path, relative: str, n_rounds: int, final: list[int], ranks: list[int]
) -> None:
    (game,) = parse(without_end_game((shared_logs / relative).read_bytes()), "no-end-game.jsonl")
    (whole,) = parse((shared_logs / relative).read_bytes(), relative)
    assert (game.n_rounds, game.is_complete) == (n_rounds, True)
    assert [r["is_last"] for r in rows(game, "rounds")] == [False] * (n_rounds - 1) + [True]
    players = rows(game, "players")
    assert [p["final_score"] for p in players] == final == [p["final_score"] for p in rows(whole, "players")]
    assert [p["final_rank"] for p in players] == ranks
    assert [p["final_points"] for p in players] == [None] * 4
    quirks = rows(game, "games")[0]["log_quirks"]
    assert "game_end_inferred" in quirks and "game_end_inferred" not in rows(whole, "games")[0]["log_quirks"]
    assert game.game_id == whole.game_id


@pytest.mark.parametrize(
    ("relative", "n_kyoku"),
    [(RIICHIENV, 11),  # South 3 ends in an exhaustive draw: South 4 follows
     (RIICHIENV, 7),  # East 4 honba 1: East only would end here, but the game goes into South (hanchan)
     (AKOCHAN_MATCH, 4)],  # East 4: the dealer is tenpai at the draw, not first: renchan
)  # fmt: skip
def test_a_stream_stopping_after_a_kyoku_that_does_not_end_the_game_is_incomplete(
    shared_logs: Path, relative: str, n_kyoku: int
) -> None:
    (game,) = parse(cut_after_kyoku((shared_logs / relative).read_bytes(), n_kyoku), "cut.jsonl")
    assert (game.n_rounds, game.is_complete) == (n_kyoku, False)
    assert [p["final_score"] for p in rows(game, "players")] == [None] * 4
    assert not any(r["is_last"] for r in rows(game, "rounds"))


def test_a_last_kyoku_with_unrecorded_score_changes_does_not_make_the_game_complete(shared_logs: Path) -> None:
    # akochan's sample writes no deltas or scores: the last kyoku's changes come from end_game alone
    (game,) = parse(without_end_game((shared_logs / AKOCHAN_SAMPLE).read_bytes()), "no-end-game.jsonl")
    assert (game.n_rounds, game.is_complete) == (6, False)
    assert [p["final_score"] for p in rows(game, "players")] == [None] * 4


def test_the_cut_double_ron_excerpt_stays_incomplete(shared_logs: Path) -> None:
    # East 1: the dealer is one of the two winners (renchan), then the next kyoku's header only
    game = read_one(shared_logs, MAJSOUL_3P)
    assert (game.n_rounds, game.is_complete) == (1, False)
    assert [p["final_score"] for p in rows(game, "players")] == [None] * 3
    (cut,) = parse(cut_after_kyoku((shared_logs / MAJSOUL_3P).read_bytes(), 1), "cut.jsonl")
    assert (cut.n_rounds, cut.is_complete) == (1, False)


def test_riichi_sticks_left_at_the_end_go_to_the_first_place() -> None:
    assert final_scores([30000, 41000, 20000, 8000], 4, 2) == [30000, 43000, 20000, 8000]
    assert final_scores([35000, 35000, 25000, 0], 3, 1) == [36000, 35000, 25000, 0]  # a tie: the lower seat
    assert final_scores([30000, 41000, 20000, 8000], 4, 0) == [30000, 41000, 20000, 8000]


# --- hidden hands --------------------------------------------------------------------------------
def test_hidden_hands_are_not_invented(shared_logs: Path) -> None:
    game = parse_events(hidden_view(shared_logs / RIICHIENV), "hidden.jsonl")
    assert "hidden_hands" in rows(game, "games")[0]["log_quirks"] and game.n_rounds == 12
    hands = rows(game, "rounds")[0]["hands_start"]
    assert len(hands[0]) == 13 and hands[1:] == [[], [], []]
    events = rows(game, "events")
    hidden_draws = [e for e in events if e["action"] == "draw" and e["seat"] != 0]
    assert any(e["tile"] is None for e in hidden_draws)
    assert all(e["tile"] is not None for e in events if e["action"] == "discard")
    # a tsumogiri discard shows the draw before it: same id, flagged tsumogiri
    shown = 0
    for i, event in enumerate(events):
        if event["action"] == "discard" and event["seat"] != 0 and event["is_tsumogiri"]:
            before = next(e for e in reversed(events[:i]) if e["seat"] == event["seat"] and e["action"] != "riichi")
            assert (before["action"], before["tile"]) == ("draw", event["tile"])
            shown += 1
    assert shown > 100
    full = rows(read_one(shared_logs, RIICHIENV), "wins")
    assert [w["score_deltas"] for w in rows(game, "wins")] == [w["score_deltas"] for w in full]
    for table in TABLES:
        to_arrow(table, game.tables[table])


def test_a_hidden_tsumo_without_its_tile_is_a_named_error() -> None:
    events = synthetic()[:2] + [draw(0, "?")]
    events[1] = {**events[1], "tehais": [["?"] * 13] + events[1]["tehais"][1:]}
    events += [ev("hora", actor=0, target=0)]
    with pytest.raises(ParseError, match=r"without the winning tile.*round 0"):
        parse_events(events)


# --- not a log, malformed logs ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "data",
    [b"", b"hello", b'<mjloggm ver="2.3"></mjloggm>', b'{"title": ["", ""], "log": [[[0, 0, 0]]]}',
     b'{"type": "tsumo", "actor": 0, "pai": "1m"}\n', b'{"name": "NewRound", "data": {}}\n',
     gzip.compress(b'{"type": "start_game"}\n', mtime=0)],  # fixed header time: one test id
)  # fmt: skip
def test_other_bytes_are_not_a_log(data: bytes) -> None:
    assert not looks_like(data)
    with pytest.raises(NotALogError):
        parse(data, "other.bin")


def _edit(index: int, **fields: Any):
    def edit(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        events[index] = {**events[index], **fields}
        return events

    return edit


@pytest.mark.parametrize(
    ("edit", "error", "match"),
    [
        (_edit(3, pai="2p"), ParseError, r"gives tile '2p' it does not hold.*round 0.*<dahai>"),
        (_edit(3, pai="5x"), UnknownCodeError, r"unknown tile name '5x'.*round 0"),
        (_edit(4, target=2), ParseError, r"chi of '1m' from seat 2.*round 0"),
        (_edit(44, reason="mystery"), UnknownCodeError, r"unknown ryukyoku reason 'mystery'.*round 1"),
        (_edit(0, kyoku_first=2), UnknownCodeError, r"unknown kyoku_first 2"),
        (_edit(1, bakaze="X"), ParseError, r"bakaze 'X'.*round 0"),
        (lambda e: e[:20] + e[22:], ParseError, r"round 0"),
        (lambda e: e[:44] + [ev("mystery_event")] + e[44:], ParseError, r"mystery_event event inside a kyoku"),
        (lambda e: e + [draw(0, "1m")], ParseError, r"tsumo event after end_game"),
    ],
)
def test_malformed_games_raise_named_errors(edit, error: type, match: str) -> None:
    with pytest.raises(error, match=match) as info:
        parse_events(edit(synthetic()), "bad.jsonl")
    assert str(info.value).startswith("bad.jsonl: ") and "game fp-" in str(info.value)


def test_malformed_json_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match=r"bad.jsonl: malformed JSON line"):
        parse(encode(synthetic())[:-40], "bad.jsonl")
