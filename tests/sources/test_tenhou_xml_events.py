"""Exact values for chosen events of chosen real games, checked by hand against the XML."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.sources.tenhou_xml import parse
from pipeline.sources.tenhou_xml.melds import decode_meld

MJX = "tenhou-xml/mjx/tests_py/resources/mjlog"


def read_game(shared_logs: Path, relative: str):
    path = shared_logs / relative
    (game,) = parse(path.read_bytes(), str(path))
    return game


def event_at(game, source_index: int) -> dict:
    """The events row of the element at ``source_index`` (element 0 is <mjloggm>)."""
    events = game.tables["events"]
    row = list(events["source_index"]).index(source_index)
    out = {}
    for name in ("round_idx", "event_idx", "seat", "tile", "tile34", "from_seat", "meld_tiles"):
        value = events[name][row]
        out[name] = value.tolist() if hasattr(value, "tolist") else value
    out["action"] = events["action"].categories[events["action"].codes[row]]
    return out


def test_chi_decodes_tiles_and_the_seat_called_from(shared_logs: Path) -> None:
    # <F10/> then <N who="3" m="4175"/>: seat 3 chis 3m (id 10) from seat 2 with 2m (5) and 4m (12)
    game = read_game(shared_logs, f"{MJX}/2020052700gm-00a9-0000-75a4695c.mjlog")
    assert event_at(game, 256) == {
        "round_idx": 1, "event_idx": 102, "seat": 3, "tile": 10, "tile34": 2, "from_seat": 2,
        "meld_tiles": [5, 10, 12], "action": "chi",
    }  # fmt: skip


def test_kakan_adds_the_fourth_tile_to_a_pon(shared_logs: Path) -> None:
    # <U135/> then <N who="1" m="51313"/>: seat 1 adds chun (135) to its pon of chun taken from seat 2
    game = read_game(shared_logs, "tenhou-xml/mjlog2json/data/2023053016gm-0029-0000-e54b3b98.xml")
    event = event_at(game, 1192)
    assert event["action"] == "kakan"
    assert (event["seat"], event["tile"], event["from_seat"]) == (1, 135, 2)
    assert event["meld_tiles"] == [132, 133, 134, 135]
    # the replacement draw after the kan is marked rinshan
    events = game.tables["events"]
    row = list(events["source_index"]).index(1193)
    assert events["is_rinshan"][row] == 1


def test_double_ron_gives_two_wins_in_one_round(shared_logs: Path) -> None:
    game = read_game(shared_logs, "tenhou-xml/mjx/tests_cpp/resources/mjlog/2010091009gm-00a9-0000-83af2648&tw=2.mjlog")
    wins = game.tables["wins"]
    rows = [i for i, r in enumerate(wins["round_idx"]) if r == 7]
    assert [wins["win_idx"][i] for i in rows] == [0, 1]
    assert [(wins["seat"][i], wins["from_seat"][i]) for i in rows] == [(3, 2), (0, 2)]
    assert [wins["yaku_names"][i] for i in rows] == [
        ["daisangen"],
        ["riichi", "chankan", "pinfu", "dora", "ura_dora"],
    ]
    assert [wins["score_deltas"][i] for i in rows] == [[0, 0, -32000, 33000], [7700, 0, -7700, 0]]
    rounds = game.tables["rounds"]
    assert rounds["n_winners"][7] == 2 and rounds["end_kind"][7] == "win"


def test_pao_win_names_the_liable_seat(shared_logs: Path) -> None:
    game = read_game(shared_logs, "tenhou-xml/pantheon/Mimir/tests/helpers/onlineLog/testdata/pao_ron.xml")
    wins = game.tables["wins"]
    (row,) = [i for i, pao in enumerate(wins["pao_seat"]) if pao is not None]
    assert (wins["seat"][row], wins["from_seat"][row], wins["pao_seat"][row]) == (1, 2, 3)
    assert wins["is_yakuman"][row] and wins["yaku_names"][row] == ["daisangen"]
    assert wins["points"][row] == 32000 and wins["limit_name"][row] == "yakuman"
    # a ron with pao: the discarder and the liable seat pay half each
    assert wins["score_deltas"][row] == [0, 32000, -16000, -16000]


def test_sanma_kita_and_three_seats(shared_logs: Path) -> None:
    game = read_game(shared_logs, "tenhou-xml/dnovikoff-tenhou/log/test_data/sanma2.xml")
    assert game.tables["games"]["n_players"] == [3]
    assert len(game.tables["players"]["seat"]) == 3
    event = event_at(game, 190)
    assert event["action"] == "kita" and event["seat"] == 0
    assert event["tile34"] == 30 and event["meld_tiles"] == [121]
    assert game.tables["rounds"]["hands_start"][0][3] == []


def test_bye_and_reconnect_are_events_and_counted_per_player(shared_logs: Path) -> None:
    game = read_game(shared_logs, "tenhou-xml/dnovikoff-tenhou/log/test_data/bye.xml")
    assert event_at(game, 184)["action"] == "disconnect"
    assert event_at(game, 191)["action"] == "reconnect"
    assert event_at(game, 191)["seat"] == 1
    players = game.tables["players"]
    assert players["n_disconnects"] == [0, 1, 0, 0] and players["n_reconnects"] == [0, 1, 0, 0]
    assert players["name"][1] == "@馬杉寧香"  # percent-decoded UTF-8


@pytest.mark.parametrize(
    ("code", "action", "tiles", "from_rel"),
    [
        (4175, "chi", (5, 10, 12), 3),
        (51313, "kakan", (132, 133, 134, 135), 1),
    ],
)
def test_meld_codes_seen_in_real_logs(code: int, action: str, tiles: tuple[int, ...], from_rel: int) -> None:
    meld = decode_meld(code)
    assert (meld.action, meld.tiles, meld.from_rel) == (action, tiles, from_rel)
