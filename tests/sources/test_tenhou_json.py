"""tenhou.net/6 JSON parser: every real file reads, chosen events have exact values, errors have names.

Real files are read from ../shared/logs/tenhou-json; the small documents built here (a three-player
round with kita, malformed variants) exercise what no real file has.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from game_rows import rows, values

from pipeline.errors import NotALogError, ParseError, UnknownCodeError
from pipeline.schema import TABLES, to_arrow
from pipeline.sources.base import ParsedGame, concat_buffers
from pipeline.sources.majsoul import parse as parse_majsoul
from pipeline.sources.tenhou_json import event_table, looks_like, parse
from pipeline.sources.tenhou_json.codes import parse_call, parse_score, parse_yaku

JSON_LOGS = "tenhou-json"
MJLOG2JSON = "tenhou-json/mjlog2json/data"
REVIEWER = "tenhou-json/mjai-reviewer/convlog/tests/testdata"
SANMA = "corpus/tenhou-json/mjai-reviewer3p/convlog/tests/testdata"
"""Three-player tenhou.net/6 files: a whole Tenhou sanma Houou game and Mahjong Soul sanma rounds converted."""
MAJSOUL_RULES = ["majsoul_rules", "rule:assumed_ranked", "rule:double_yakuman", "rule:ron_on_kita",
                 "rule:sanma_ron_honba_200", "rule:triple_ron_wins", "third_party_json"]  # fmt: skip
"""log_quirks of a converted Mahjong Soul sanma game: Mahjong Soul's ranked rules are assumed."""


# --- helpers -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def json_logs(shared_folder) -> Path:  # noqa: ANN001 - conftest's function fixture
    """../shared/logs, when it holds the tenhou.net/6 logs (skip without them; fail under CI=true)."""
    return shared_folder(JSON_LOGS, "tenhou.net/6 logs").parent


@pytest.fixture(scope="module")
def sanma_logs(shared_folder) -> Path:  # noqa: ANN001 - conftest's function fixture
    """../shared/logs, when it holds the three-player tenhou.net/6 files of the corpus."""
    return shared_folder(SANMA, "three-player tenhou.net/6 logs").parents[len(Path(SANMA).parts) - 1]


def read_one(shared_logs: Path, relative: str) -> ParsedGame:
    path = shared_logs / relative
    (game,) = parse(path.read_bytes(), str(path))
    return game


def events_of(game: ParsedGame, round_idx: int) -> list[dict]:
    return [e for e in rows(game, "events") if e["round_idx"] == round_idx]


def sanma_document() -> dict[str, Any]:
    """A three-player round: the dealer draws a second North, sets it aside (kita), draws a replacement
    tile, discards; seats 1 and 2 draw and discard; the dealer draws again and wins by tsumo."""
    return {
        "title": ["", ""], "name": ["A", "B", "C", ""], "rule": {"disp": "三鳳南喰赤", "aka": 1},
        "log": [[
            [0, 0, 0], [35000, 35000, 35000, 0], [41], [],
            [11, 11, 19, 19, 21, 22, 23, 31, 32, 33, 41, 42, 44], [44, 24, 43], ["f44", 41],
            [11, 19, 24, 25, 26, 34, 35, 36, 43, 43, 45, 45, 46], [27], [60],
            [21, 22, 23, 27, 28, 29, 37, 38, 39, 46, 46, 47, 47], [47], [60],
            [], [], [],
            ["和了", [2000, -1000, -1000, 0], [0, 0, 0, "30符2飜1000点∀", "門前清自摸和(1飜)", "ドラ(1飜)"]],
        ]],
    }  # fmt: skip


def encode(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode()


# --- every real file -------------------------------------------------------------------------------
def test_every_real_file_parses_into_schema_valid_tables(json_logs: Path) -> None:
    files = sorted((json_logs / JSON_LOGS).rglob("*.json"))
    assert len(files) >= 55
    games: list[ParsedGame] = []
    for path in files:
        assert looks_like(path.read_bytes()), path
        parsed = parse(path.read_bytes(), str(path))
        document = json.loads(path.read_text(encoding="utf-8"))
        assert [g.n_rounds for g in parsed] == [len(document["log"])], path
        games += parsed
    for table in TABLES:
        arrow = to_arrow(table, concat_buffers(games, table))
        assert arrow.num_rows == sum(len(values(g.tables[table]["game_id"])) for g in games)


def test_the_compiled_events_table_is_the_numpy_one(json_logs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the compiled pass makes the events columns at their declared widths (tenhou.net/6 and Mahjong Soul share
    # EventColumns); where it declines, numpy makes them in int64: the values stored are the same either way
    files = sorted((json_logs / JSON_LOGS).rglob("*.json"))
    majsoul_files = sorted(p for p in (json_logs / "majsoul").rglob("*") if p.is_file() and p.suffix != ".md")

    def parsed() -> list[ParsedGame]:
        games = [game for path in files for game in parse(path.read_bytes(), str(path))]
        for path in majsoul_files:
            try:
                games += parse_majsoul(path.read_bytes(), str(path))
            except (NotALogError, ParseError):
                continue  # not a game record (the folder's manifest)
        return games

    compiled = parsed()
    assert {str(g.tables["events"]["seat"].dtype) for g in compiled if g.n_rounds} == {"int8"}
    assert {g.source for g in compiled} == {"tenhou_json", "majsoul"}
    monkeypatch.setattr(event_table, "ordered_event_columns", lambda *_: None)
    plain = parsed()
    assert {str(g.tables["events"]["seat"].dtype) for g in plain if g.n_rounds} == {"int64"}
    assert sum(len(rows(g, "events")) for g in plain) > 20_000
    for a, b in zip(compiled, plain, strict=True):
        assert rows(a, "events") == rows(b, "events"), a.source_file


def test_tenhou_written_documents_keep_their_log_id_and_labels(json_logs: Path) -> None:
    game = read_one(json_logs, f"{MJLOG2JSON}/2019081518gm-00a9-0000-cce9d00c.json")
    (row,) = rows(game, "games")
    assert row["game_id"] == "2019081518gm-00a9-0000-cce9d00c" and row["rule_code"] == 169
    assert (row["room"], row["is_hanchan"], row["is_server_log"], row["is_complete"]) == ("houou", True, True, True)
    players = rows(game, "players")
    assert [p["dan"] for p in players] == [17, 19, 16, 16]  # 八段 十段 七段 七段
    assert [p["final_score"] for p in players] == [18400, 30000, 11400, 40200]
    assert (players[0]["n_disconnects"], players[0]["n_reconnects"]) == (1, 1)


def test_the_log_ids_lobby_is_the_games_over_the_documents_lobby_field(json_logs: Path) -> None:
    # ref 2018020420gm-0001-14423-3290b527 with "lobby": 0 in the document: a game of lobby 14423, not the public one
    format6 = "tenhou-json/pantheon/Mimir/tests/helpers/onlineLog/testdata/format6"
    game = read_one(json_logs, f"{format6}/doubleron_and_honba.json")
    (row,) = rows(game, "games")
    assert (row["game_id"], row["lobby"], row["room"]) == ("2018020420gm-0001-14423-3290b527", 14423, "private")


def test_converted_majsoul_game_is_marked_third_party(json_logs: Path) -> None:
    game = read_one(json_logs, "tenhou-json/MajsoulPaipuConvert/tests/fixtures/sample_tenhou.json")
    (row,) = rows(game, "games")
    assert row["game_id"].startswith("fp-")  # the ref is an all-zero placeholder
    assert row["room"] == "jade" and row["has_red_fives"] and row["is_custom_rule"]
    assert row["log_quirks"] == ["majsoul_rules", "rule:assumed_ranked", "rule:double_yakuman",
                                 "rule:triple_ron_wins", "third_party_json"]  # fmt: skip
    assert not row["is_server_log"]
    assert [p["dan"] for p in rows(game, "players")] == [None] * 4


# --- chosen events ---------------------------------------------------------------------------------
def test_chi_takes_the_discard_of_the_previous_seat(json_logs: Path) -> None:
    # round 0, seat 1 takes 'c375336': chi of 7s from seat 0 with red 5s (53) and 6s
    game = read_one(json_logs, f"{MJLOG2JSON}/2019021004gm-00a9-0000-e2f6516d.json")
    events = events_of(game, 0)
    (i,) = [i for i, e in enumerate(events) if e["action"] == "chi" and e["seat"] == 1]
    chi, before = events[i], events[i - 1]
    assert (before["action"], before["seat"], before["tile34"]) == ("discard", 0, 24)
    assert (chi["from_seat"], chi["tile"], chi["tile34"]) == (0, before["tile"], 24)
    assert [t // 4 for t in chi["meld_tiles"]] == [22, 23, 24] and 88 in chi["meld_tiles"]  # red 5s
    assert events[i + 1]["action"] == "discard" and events[i + 1]["is_tsumogiri"] is False


def test_kakan_then_replacement_draw_then_dora_then_discard(json_logs: Path) -> None:
    # the last round: seat 1 adds chun to its pon of chun called from seat 2 ('k474747...')
    game = read_one(json_logs, f"{MJLOG2JSON}/2023053016gm-0029-0000-e54b3b98.json")
    events = events_of(game, 11)
    (i,) = [i for i, e in enumerate(events) if e["action"] == "kakan"]
    kakan = events[i]
    assert (kakan["seat"], kakan["tile34"], kakan["from_seat"]) == (1, 33, 2)
    assert [t // 4 for t in kakan["meld_tiles"]] == [33] * 4
    after = [(e["action"], e["seat"]) for e in events[i + 1 : i + 4]]
    assert after == [("draw", 1), ("dora", None), ("discard", 1)]
    assert events[i + 1]["is_rinshan"] is True


def test_ankan_of_fives_with_the_red_one_reveals_dora_before_the_replacement_draw(json_logs: Path) -> None:
    # round 1, seat 1 gives '151515a51': closed kan of 5m, the red one included
    game = read_one(json_logs, f"{MJLOG2JSON}/2023053016gm-0029-0000-e54b3b98.json")
    events = events_of(game, 1)
    (i,) = [i for i, e in enumerate(events) if e["action"] == "ankan"]
    ankan = events[i]
    assert (ankan["seat"], ankan["tile"], ankan["is_red"], ankan["meld_tiles"]) == (1, 16, True, [16, 17, 18, 19])
    assert [e["action"] for e in events[i + 1 : i + 3]] == ["dora", "draw"]
    assert events[i + 2]["is_rinshan"] is True and game.tables["rounds"]["dora_indicator"][1] // 4 != 30


def test_riichi_with_tsumogiri_60(json_logs: Path) -> None:
    # round 5, seat 1 draws 8m and gives 'r60': riichi, the drawn tile discarded, the stick accepted
    game = read_one(json_logs, f"{MJLOG2JSON}/2019021004gm-00a9-0000-e2f6516d.json")
    events = events_of(game, 5)
    (i,) = [i for i, e in enumerate(events) if e["action"] == "riichi" and e["seat"] == 1]
    draw, discard = events[i - 1], events[i + 1]
    assert (draw["action"], draw["tile34"]) == ("draw", 7)
    assert (discard["action"], discard["tile"], discard["is_tsumogiri"]) == ("discard", draw["tile"], True)
    assert (events[i + 2]["action"], events[i + 2]["seat"]) == ("riichi_accepted", 1)


def test_double_ron(json_logs: Path) -> None:
    # round 3: seats 3 and 1 both ron seat 2's 5p; the nearer winner takes the riichi stick
    game = read_one(json_logs, f"{MJLOG2JSON}/2019103023gm-00a9-0000-f90e0fe9.json")
    wins = [w for w in rows(game, "wins") if w["round_idx"] == 3]
    assert [(w["win_idx"], w["seat"], w["from_seat"], w["tile34"]) for w in wins] == [(0, 3, 2, 13), (1, 1, 2, 13)]
    assert [(w["points"], w["limit_name"], w["riichi_sticks"]) for w in wins] == [(11600, "", 1), (12000, "haneman", 0)]
    assert [w["score_deltas"] for w in wins] == [[0, 0, -11600, 12600], [0, 12000, -12000, 0]]
    assert wins[1]["scores_pre"] == [21000, 20000, 22400, 36600]  # after the first winner's payment
    assert [w["yaku_names"] for w in wins] == [["round_wind_east", "seat_wind_east", "dora"],
                                               ["tanyao", "dora", "aka_dora"]]  # fmt: skip
    assert game.tables["rounds"]["n_winners"][3] == 2


def test_confusing_pon_waits_for_the_second_identical_discard(json_logs: Path) -> None:
    # seat 3's take '1616p16' pons 6m from seat 0, who discards 6m twice; ponning the first one leaves
    # the lists unplayable, so the pon is on the second
    game = read_one(json_logs, f"{REVIEWER}/confusing_nakis_1.json")
    events = events_of(game, 0)
    six_man = [i for i, e in enumerate(events) if e["action"] == "discard" and e["seat"] == 0 and e["tile34"] == 5]
    assert len(six_man) == 2
    (pon,) = [i for i, e in enumerate(events) if e["action"] == "pon" and e["seat"] == 3]
    assert pon == six_man[1] + 1 and events[pon]["from_seat"] == 0
    assert events[six_man[0] + 1]["action"] != "pon"


def test_chankan_on_a_second_kakan_reveals_no_dora(json_logs: Path) -> None:
    # seat 0 adds to its pon of 6p, draws a replacement tile, adds to its pon of 2m: seat 3 robs it
    game = read_one(json_logs, f"{REVIEWER}/double_kakan_then_chankan.json")
    events = events_of(game, 0)
    assert [(e["action"], e["seat"], e["tile34"]) for e in events[-3:]] == [
        ("kakan", 0, 14), ("draw", 0, 5), ("kakan", 0, 1),
    ]  # fmt: skip
    assert not [e for e in events if e["action"] == "dora"]  # an open kan's indicator waits for a discard
    (win,) = rows(game, "wins")
    assert (win["seat"], win["from_seat"], win["tile"], win["yaku_names"]) == (3, 0, events[-1]["tile"],
                                                                             ["chankan", "pinfu"])  # fmt: skip
    assert "dora_count_mismatch" not in game.tables["games"]["log_quirks"][0]


def test_red_fives_are_copy_zero_and_flagged(json_logs: Path) -> None:
    game = read_one(json_logs, f"{MJLOG2JSON}/2019021004gm-00a9-0000-e2f6516d.json")
    document = json.loads((json_logs / f"{MJLOG2JSON}/2019021004gm-00a9-0000-e2f6516d.json").read_text("utf-8"))
    dealt_red = sum(c in (51, 52, 53) for kyoku in document["log"] for seat in range(4) for c in kyoku[4 + 3 * seat])
    hands = game.tables["rounds"]["hands_start"]
    assert sum(t in (16, 52, 88) for hand in hands for seat in hand for t in seat) == dealt_red
    reds = [e for e in rows(game, "events") if e["is_red"]]
    assert reds and all(e["tile"] in (16, 52, 88) for e in reds)


def test_sanma_kita_and_three_seats() -> None:
    (game,) = parse(encode(sanma_document()), "sanma.json")
    assert game.tables["games"]["n_players"] == [3] and len(game.tables["players"]["seat"]) == 3
    assert game.tables["rounds"]["hands_start"][0][3] == []
    events = events_of(game, 0)
    assert [(e["action"], e["seat"]) for e in events] == [
        ("draw", 0), ("kita", 0), ("draw", 0), ("discard", 0), ("draw", 1), ("discard", 1),
        ("draw", 2), ("discard", 2), ("draw", 0),
    ]  # fmt: skip
    kita = events[1]
    assert kita["tile34"] == 30 and kita["meld_tiles"] == [kita["tile"]] and events[2]["is_rinshan"] is True
    (win,) = rows(game, "wins")
    assert (win["seat"], win["is_tsumo"], win["points"], win["n_kita"], win["melds"]) == (0, True, 2000, 1, [])


# --- three-player files ------------------------------------------------------------------------------
def kita_events(game: ParsedGame) -> list[tuple[int, int]]:
    return [(e["round_idx"], e["seat"]) for e in rows(game, "events") if e["action"] == "kita"]


def win_labels(game: ParsedGame) -> list[tuple]:
    return [(w["round_idx"], w["seat"], w["from_seat"], w["fu"], w["han"], w["points"], w["limit_name"],
             w["yaku_names"], w["yaku_han"], w["n_kita"], w["score_deltas"]) for w in rows(game, "wins")]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "n_rounds", "n_kita", "quirks"),
    [("double_nukidora", 12, 30, []), ("chankan", 3, 6, MAJSOUL_RULES), ("kokushi_ankan", 1, 2, MAJSOUL_RULES),
     ("kokushi_peinuki", 4, 13, MAJSOUL_RULES)],
)  # fmt: skip
def test_every_sanma_file_reads_with_three_seats_and_its_kita(
    sanma_logs: Path, name: str, n_rounds: int, n_kita: int, quirks: list[str]
) -> None:
    game = read_one(sanma_logs, f"{SANMA}/{name}.json")
    (row,) = rows(game, "games")
    assert (row["n_players"], row["n_rounds"], row["log_quirks"]) == (3, n_rounds, quirks)
    assert len(rows(game, "players")) == 3
    assert all(hands[3] == [] and len(hands[0]) == 13 for hands in game.tables["rounds"]["hands_start"])
    assert all(scores[3] == 0 for scores in game.tables["rounds"]["scores_pre"])
    assert len(kita_events(game)) == n_kita
    events = rows(game, "events")
    for i, kita in enumerate(events):
        if kita["action"] != "kita":
            continue
        assert kita["tile34"] == 30 and kita["meld_tiles"] == [kita["tile"]] and kita["from_seat"] is None
        after = events[i + 1] if i + 1 < len(events) else None
        if after is not None and after["round_idx"] == kita["round_idx"]:  # the replacement draw
            assert (after["action"], after["seat"], after["is_rinshan"]) == ("draw", kita["seat"], True)
    for table in TABLES:
        assert to_arrow(table, concat_buffers([game], table)).num_rows == len(values(game.tables[table]["game_id"]))


def test_tenhou_sanma_game_calls_count_positions_round_four_seats(sanma_logs: Path) -> None:
    # round 0: seat 0 takes '42p4242' (position 2: seat 2, its previous player) and '4545p45' (position 4:
    # seat 1); seat 2 takes 'p414141' (position 0: seat 1)
    game = read_one(sanma_logs, f"{SANMA}/double_nukidora.json")
    (row,) = rows(game, "games")
    assert (row["game_id"], row["rule_code"], row["room"], row["is_server_log"]) == (
        "2021010217gm-00b9-0000-3eb2e915", 185, "houou", True,
    )  # fmt: skip
    pons = [(e["seat"], e["from_seat"], e["tile34"]) for e in events_of(game, 0) if e["action"] == "pon"]
    assert pons == [(2, 1, 27), (0, 2, 28), (0, 1, 31)]
    assert sorted(kita_events(game)[:5]) == [(0, 0), (1, 0), (1, 0), (1, 1), (1, 2)]  # 'f44' in the discard lists


def test_tenhou_sanma_wins_keep_their_labels_with_kita_among_the_dora(sanma_logs: Path) -> None:
    game = read_one(sanma_logs, f"{SANMA}/double_nukidora.json")
    labels = win_labels(game)
    assert [label[:3] for label in labels] == [(0, 0, 2), (2, 2, 2), (3, 1, 0), (4, 2, 1), (5, 1, 2), (6, 1, 2),
                                               (9, 2, 2), (11, 0, 0)]  # fmt: skip
    # '満貫12000点': a dealer ron, fu not written; 'ドラ(1飜)' is the kita
    assert labels[0][3:] == (None, 5, 12000, "mangan", ["chun", "haku", "honitsu", "dora"], [1, 1, 2, 1], 1,
                             [12000, 0, -12000, 0])  # fmt: skip
    # '30符2飜500-1000点' in sanma: 500 + 1000 (tsumo loss), two honba of 100 from each of two players
    assert labels[1][3:] == (30, 2, 1500, "", ["menzen_tsumo", "dora"], [1, 1], 1, [-1200, -700, 2900, 0])
    # '自風 南(1飜)', 'ドラ(2飜)': two kita; a honba is 100 from each other player (a ron pays 200)
    assert labels[3][3:] == (30, 3, 3900, "", ["seat_wind_south", "dora"], [1, 2], 2, [0, -4100, 4100, 0])
    assert labels[4][7:9] == (["riichi", "dora", "ura_dora"], [1, 4, 0])  # the 0-han ura dora restored
    (draws, shown) = zip(*[(d["kind"], d["is_shown"][:3]) for d in rows(game, "draws")], strict=True)
    assert draws == ("exhaustive", "exhaustive", "exhaustive", "kyuushu_kyuuhai")
    assert shown[0] == [True, True, False]  # '流局' [1000, 1000, -2000]: two tenpai seats
    assert rows(game, "players")[1]["final_score"] == 47200 and game.tables["rounds"]["is_last"][-1]


def test_majsoul_sanma_wins_name_wind_yaku_without_their_wind(sanma_logs: Path) -> None:
    game = read_one(sanma_logs, f"{SANMA}/kokushi_peinuki.json")
    labels = win_labels(game)
    # '混一色', '役牌:場風牌', '役牌:自風牌': the dealer (seat 1) of East 2 has East as both winds
    assert labels[1][:9] == (1, 1, 0, 30, 4, 11600, "", ["honitsu", "round_wind_east", "seat_wind_east"],
                             [2, 1, 1])  # fmt: skip
    # East 2, 1 honba: seat 2 sits after the dealer (seat 1): South; '抜きドラ(2飜)' joins the dora
    assert labels[2][:10] == (2, 2, 0, 30, 3, 3900, "", ["seat_wind_south", "dora"], [1, 2], 2)
    # '30符4飜2000-3900点': 'ドラ(1飜)' and '抜きドラ(1飜)' are one dora entry of 2 han
    assert labels[0][7:10] == (["menzen_tsumo", "dora", "aka_dora"], [1, 2, 1], 1)


def test_kokushi_robs_a_kita(sanma_logs: Path) -> None:
    # East 3: seat 0 (in riichi) sets its third North aside: seat 2 wins on it with kokushi
    game = read_one(sanma_logs, f"{SANMA}/kokushi_peinuki.json")
    last = events_of(game, 3)[-1]
    assert (last["action"], last["seat"], last["tile34"]) == ("kita", 0, 30)
    win = [w for w in rows(game, "wins") if w["round_idx"] == 3][0]
    assert (win["seat"], win["from_seat"], win["is_tsumo"], win["tile"]) == (2, 0, False, last["tile"])
    assert (win["yaku_names"], win["yaku_han"], win["is_yakuman"], win["points"]) == (["kokushi_musou"], [13], True,
                                                                                      48000)  # fmt: skip
    assert win["tile"] in win["hand"] and len(win["hand"]) == 14


def test_kokushi_robs_a_closed_kan_whose_indicator_is_not_turned(sanma_logs: Path) -> None:
    game = read_one(sanma_logs, f"{SANMA}/kokushi_ankan.json")
    events = events_of(game, 0)
    # seat 1 sets a North aside, draws its replacement tile (a fourth hatsu) and kans hatsu closed
    assert [(e["action"], e["seat"], e["tile34"]) for e in events[-3:]] == [("kita", 1, 30), ("draw", 1, 32),
                                                                              ("ankan", 1, 32)]  # fmt: skip
    assert not [e for e in events if e["action"] == "dora"]  # the JSON lists one indicator: no kan dora
    (win,) = rows(game, "wins")
    assert (win["seat"], win["from_seat"], win["tile"], win["yaku_names"]) == (0, 1, events[-1]["tile"],
                                                                             ["kokushi_musou"])  # fmt: skip
    assert (win["n_kita"], win["score_deltas"]) == (1, [48000, -48000, 0, 0])
    assert "dora_count_mismatch" not in rows(game, "games")[0]["log_quirks"]


def test_majsoul_sanma_chankan_and_kita(sanma_logs: Path) -> None:
    game = read_one(sanma_logs, f"{SANMA}/chankan.json")
    labels = win_labels(game)
    # '倍満4000-8000点', 'ドラ(3飜)' + '抜きドラ(1飜)' = one dora entry of 4
    assert labels[0][3:10] == (None, 8, 12000, "baiman", ["menzen_tsumo", "riichi", "dora", "aka_dora", "ura_dora"],
                               [1, 1, 4, 1, 1], 1)  # fmt: skip
    # East 2: seat 1 adds a red 5p to its pon ('k52252525'); seat 2 robs it
    events = events_of(game, 1)
    assert (events[-1]["action"], events[-1]["seat"], events[-1]["is_red"]) == ("kakan", 1, True)
    assert labels[1][:8] == (1, 2, 1, 40, 3, 5200, "", ["chankan", "dora", "aka_dora"])
    assert kita_events(game) == [(0, 2), (1, 1), (1, 0), (1, 0), (2, 1), (2, 1)]  # East 2: the dealer (seat 1) first


def test_every_yaku_name_of_every_real_json_file_is_known(json_logs: Path) -> None:
    files = sorted(json_logs.rglob("*.json"))
    n_wins = 0
    for path in files:
        if looks_like(path.read_bytes()):
            n_wins += sum(len(values(g.tables["wins"]["game_id"])) for g in parse(path.read_bytes(), str(path)))
    assert n_wins >= 300


# --- the format's pieces ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "kind", "tile", "from_rel"),
    [
        ("c141516", "chi", 14, 3), ("p474747", "pon", 47, 3), ("47p4747", "pon", 47, 2), ("1515p51", "pon", 51, 1),
        ("m39393939", "daiminkan", 39, 3), ("13m131313", "daiminkan", 13, 2), ("151551m15", "daiminkan", 15, 1),
        ("k51151515", "kakan", 51, 3), ("3636k3636", "kakan", 36, 1), ("151515a51", "ankan", 51, 0),
        ("r60", "riichi", 60, 0), ("f44", "kita", 44, 0),
    ],
)  # fmt: skip
def test_call_strings(text: str, kind: str, tile: int, from_rel: int) -> None:
    call = parse_call(text)
    assert (call.kind, call.tile, call.from_rel) == (kind, tile, from_rel)


@pytest.mark.parametrize(
    ("text", "is_tsumo", "n_players", "expected"),
    [
        ("30符3飜3900点", False, 4, (30, 3, "", 3900)), ("満貫2000-4000点", True, 4, (0, 0, "mangan", 8000)),
        ("30符2飜1000点∀", True, 4, (30, 2, "", 3000)), ("役満16000-32000点", True, 4, (0, 0, "yakuman", 64000)),
        ("満貫2000-4000点", True, 3, (0, 0, "mangan", 6000)), ("跳満18000点", False, 4, (0, 0, "haneman", 18000)),
    ],
)  # fmt: skip
def test_score_strings(text: str, is_tsumo: bool, n_players: int, expected: tuple) -> None:
    assert tuple(parse_score(text, is_tsumo, n_players)) == expected


def test_yaku_entries_in_japanese_and_english() -> None:
    assert parse_yaku("立直(1飜)") == (1, 1, False)
    assert parse_yaku("役牌 發(1飜)") == (19, 1, False)
    assert parse_yaku("国士無双１３面(役満)") == (48, 13, True)
    assert parse_yaku("Ura Dora(0飜)") == (53, 0, False)
    with pytest.raises(UnknownCodeError, match="謎"):
        parse_yaku("謎(1飜)")


@pytest.mark.parametrize(
    ("entry", "yaku_id"),
    [
        # Mahjong Soul's Japanese fan names, as tensoul-style converters write them
        ("役牌 白(1飜)", 18), ("役牌 發(1飜)", 19), ("役牌 中(1飜)", 20), ("役牌:中(1飜)", 20),
        ("ダブル立直(2飜)", 21), ("断幺九(1飜)", 8), ("断么九(1飜)", 8), ("混全帯么九(2飜)", 23),
        ("純全帯幺九(3飜)", 33), ("槍槓(1飜)", 3), ("搶槓(1飜)", 3), ("海底摸月(1飜)", 5), ("海底自摸(1飜)", 5),
        ("対々和(2飜)", 28), ("一発(1飜)", 2), ("抜きドラ(2飜)", 52), ("天和(役満)", 37), ("地和(役満)", 38),
        ("四暗刻単騎(役満)", 41), ("純正九蓮宝燈(役満)", 46), ("国士無双十三面待ち(役満)", 48), ("大四喜(役満)", 49),
        ("四暗刻単騎待ち(ダブル役満)", 41), ("国士無双１３面(役満)", 48),
        # their English names
        ("Fully Concealed Hand(1飜)", 0), ("Robbing a Kan(1飜)", 3), ("After a Kan(1飜)", 4),
        ("Under the River(1飜)", 6), ("White Dragon(1飜)", 18), ("All Simples(1飜)", 8), ("Pinfu(1飜)", 7),
        ("Ippatsu(1飜)", 2), ("Red Five(1飜)", 54), ("Kita(1飜)", 52), ("Blessing of Heaven(役満)", 37),
        ("Big Three Dragons(役満)", 39), ("Four Concealed Triplets(役満)", 40),
        ("Single-wait Four Concealed Triplets(役満)", 41), ("All Honors(役満)", 42), ("All Green(役満)", 43),
        ("All Terminals(役満)", 44), ("Nine Gates(役満)", 45), ("True Nine Gates(役満)", 46),
        ("Thirteen Orphans(役満)", 47), ("Thirteen-wait Thirteen Orphans(役満)", 48), ("Four Big Winds(役満)", 49),
        ("Four Little Winds(役満)", 50), ("Four Quads(役満)", 51),
        # Tenhou's winds with their wind, and NAGA-style ones
        ("場風 南(1飜)", 15), ("自風 西(1飜)", 12), ("自風北(1飜)", 13),
    ],
)  # fmt: skip
def test_converter_yaku_names(entry: str, yaku_id: int) -> None:
    assert parse_yaku(entry)[0] == yaku_id


def test_wind_yaku_without_their_wind_take_the_winners_winds() -> None:
    assert parse_yaku("役牌:自風牌(1飜)", seat_wind=2, round_wind=1) == (12, 1, False)
    assert parse_yaku("役牌:場風牌(1飜)", seat_wind=2, round_wind=1) == (15, 1, False)
    assert parse_yaku("Seat Wind(1飜)", seat_wind=3, round_wind=0) == (13, 1, False)
    assert parse_yaku("Prevalent Wind(2飜)", seat_wind=0, round_wind=0) == (14, 2, False)
    with pytest.raises(ParseError, match="役牌:自風牌"):
        parse_yaku("役牌:自風牌(1飜)")
    with pytest.raises(UnknownCodeError, match="八連荘"):  # Mahjong Soul's local yakuman: no Tenhou id
        parse_yaku("八連荘(役満)")


@pytest.mark.parametrize(("disp", "han"), [("三鳳南喰赤", 13), ("三玉の間赤", 26)])
def test_a_double_yakuman_written_as_one_counts_twice_under_majsoul_rules(disp: str, han: int) -> None:
    doc = sanma_document()
    doc["rule"]["disp"] = disp
    doc["log"][0][-1][2][3:] = ["役満16000点∀", "純正九蓮宝燈(役満)"]
    (game,) = parse(encode(doc), "double.json")
    (win,) = rows(game, "wins")
    assert (win["yaku_names"], win["yaku_han"], win["limit_name"]) == (["junsei_chuuren_poutou"], [han], "yakuman")
    assert ("rule:double_yakuman" in rows(game, "games")[0]["log_quirks"]) == (han == 26)


@pytest.mark.parametrize(
    ("text", "is_tsumo", "n_players", "expected"),
    [
        ("切り上げ満貫8000点", False, 4, (0, 0, "mangan", 8000)),
        ("30符4飜満貫7700点", False, 4, (30, 4, "mangan", 7700)),
        ("Mangan 2000-4000点", True, 4, (0, 0, "mangan", 8000)), ("30Fu2Han1000点", False, 4, (30, 2, "", 1000)),
        ("Counted Yakuman 48000点", False, 3, (0, 0, "yakuman", 48000)),
    ],
)  # fmt: skip
def test_converter_score_strings(text: str, is_tsumo: bool, n_players: int, expected: tuple) -> None:
    assert tuple(parse_score(text, is_tsumo, n_players)) == expected


def test_json_lines_of_one_game_read_as_the_whole_document(json_logs: Path) -> None:
    path = json_logs / f"{MJLOG2JSON}/2019103023gm-00a9-0000-f90e0fe9.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    lines = [{**document, "log": document["log"][i : i + 3]} for i in range(0, len(document["log"]), 3)]
    data = "\n".join(json.dumps(line, ensure_ascii=False) for line in lines).encode()
    (joined,) = parse(data, "lines.json")
    (whole,) = parse(path.read_bytes(), str(path))
    for table in TABLES:
        if table != "games":
            assert rows(joined, table) == rows(whole, table), table


# --- errors ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "data", [b"", b"hello", b'{"type": "start_game"}\n{"type": "end_game"}\n', b'<mjloggm ver="2.3"></mjloggm>',
             b'{"name": "NewRound", "data": {}}', b"\xff\xfe"],
)  # fmt: skip
def test_other_bytes_are_not_a_log(data: bytes) -> None:
    assert not looks_like(data)
    with pytest.raises(NotALogError):
        parse(data, "other.bin")


def test_lists_that_cannot_be_interleaved_name_the_file_game_and_round() -> None:
    doc = sanma_document()
    doc["log"][0][9] = [60, 60]  # seat 1 gives more tiles than it takes
    with pytest.raises(ParseError, match="playable order") as info:
        parse(encode(doc), "broken.json")
    assert info.value.round_idx == 0 and info.value.game_id.startswith("fp-")
    assert "broken.json" in str(info.value)


@pytest.mark.parametrize(
    ("edit", "error", "match"),
    [
        (lambda k: k.__setitem__(-1, ["謎"]), UnknownCodeError, "unknown result"),
        (lambda k: k[5].__setitem__(0, "x44"), UnknownCodeError, "call letter"),
        (lambda k: k[5].__setitem__(0, 99), ParseError, "tile code 99"),
        (lambda k: k.__setitem__(4, k[4][:12]), ParseError, "dealt 12 tiles"),
        (lambda k: k[-1][2].__setitem__(3, "nonsense"), UnknownCodeError, "score string"),
        (lambda k: k.__setitem__(0, [0]), ParseError, "header"),
        (lambda k: k[8].__setitem__(0, "c272829"), ParseError, "chi .* three-player"),
        (lambda k: k[6].__setitem__(0, "f43"), ParseError, "kita sets aside a North"),
        (lambda k: k[-1][2].__setitem__(5, "八連荘(役満)"), UnknownCodeError, "八連荘"),
    ],
)  # fmt: skip
def test_malformed_kyoku_raises_a_named_error(edit, error: type, match: str) -> None:
    doc = copy.deepcopy(sanma_document())
    edit(doc["log"][0])
    with pytest.raises(error, match=match) as info:
        parse(encode(doc), "bad.json")
    assert info.value.round_idx == 0 and "bad.json" in str(info.value)


def test_truncated_json_is_a_parse_error() -> None:
    data = encode(sanma_document())
    with pytest.raises(ParseError, match="malformed JSON"):
        parse(data[: len(data) // 2], "cut.json")
