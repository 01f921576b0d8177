"""The seat_rounds table (written by derive) against the same roll-up counted here in pandas from the fact
tables, on every real Tenhou log: one row per seat at the table per round, each column from its source."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.db import connect, load_sql
from pipeline.derive.run import derive
from pipeline.ingest import ingest
from pipeline.store.warehouse import Warehouse

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"
KEY = ["game_id", "round_idx", "seat"]
OPEN_CALLS = ("chi", "pon", "daiminkan")


def expected_seat_rounds(con) -> pd.DataFrame:  # noqa: ANN001
    """Every seat of every round, rolled up from rounds, players, events and wins."""
    rounds = con.sql("select game_id, round_idx, dealer, scores_pre, scores_post from rounds").df()
    players = con.sql("select game_id, seat from players").df()
    events = con.sql("select game_id, round_idx, seat, action from events where seat is not null").df()
    wins = con.sql("select game_id, round_idx, seat, from_seat, is_tsumo, points from wins").df()
    out = rounds.merge(players, on="game_id")
    out["is_dealer"] = out["dealer"] == out["seat"]
    out["score_change"] = [
        int(post[seat]) - int(pre[seat])
        for pre, post, seat in zip(out["scores_pre"], out["scores_post"], out["seat"], strict=True)
    ]
    riichi = events[events["action"] == "riichi"][KEY].drop_duplicates().assign(has_riichi=True)
    calls = events[events["action"].isin(OPEN_CALLS)].groupby(KEY).size().rename("n_open_calls").reset_index()
    won = wins[KEY + ["points"]].rename(columns={"points": "win_points"}).assign(is_win=True)
    ron = wins[~wins["is_tsumo"]][["game_id", "round_idx", "from_seat"]].drop_duplicates()
    dealt_in = ron.rename(columns={"from_seat": "seat"}).assign(is_deal_in=True)
    for table in (riichi, calls, won, dealt_in):
        table["seat"] = table["seat"].astype(out["seat"].dtype)
        out = out.merge(table, on=KEY, how="left")
    for flag in ("has_riichi", "is_win", "is_deal_in"):
        out[flag] = out[flag].astype("boolean").fillna(False).astype(bool)
    out["n_open_calls"] = out["n_open_calls"].fillna(0).astype(int)
    return out.drop(columns=["dealer", "scores_pre", "scores_post"])


def test_seat_rounds_equal_a_roll_up_of_the_facts(tenhou_db) -> None:  # noqa: ANN001
    expected = expected_seat_rounds(tenhou_db).sort_values(KEY).reset_index(drop=True)
    got = tenhou_db.sql("select * from seat_rounds").df().sort_values(KEY).reset_index(drop=True)
    assert len(got) == len(expected) > 1000
    assert got[KEY].astype(str).equals(expected[KEY].astype(str))
    for column in ("is_dealer", "has_riichi", "is_win", "is_deal_in"):
        assert (got[column].astype(bool) == expected[column]).all(), column
    for column in ("n_open_calls", "score_change"):
        assert (got[column].astype(int) == expected[column]).all(), column
    won = expected["is_win"].to_numpy()
    assert got["win_points"][~won].isna().all()
    assert np.array_equal(got["win_points"][won].astype(int), expected["win_points"][won].astype(int))
    # the table exercises what it describes: riichi, calls, wins, deal-ins, a sanma table's three seats
    assert got["has_riichi"].any() and got["is_deal_in"].any() and (got["n_open_calls"] > 1).any()
    assert (got.groupby(["game_id", "round_idx"]).size() == 3).any()


def test_seat_statistics_wait_for_the_derivation(tmp_path: Path) -> None:
    # a warehouse ingested without deriving has no seat_rounds: the seat mart gives no rows, not rates of 0
    warehouse = Warehouse(tmp_path / "w")
    ingest([SAMPLE], warehouse, derive=False)
    mart = load_sql("marts", "seat_outcomes")
    assert connect(warehouse).sql(mart, params={"by": "all"}).fetchall() == []
    derive(warehouse)
    con = connect(warehouse)
    rows = {r[0]: r[2:4] for r in con.sql(mart, params={"by": "all"}).fetchall()}
    seat_rounds = con.execute("select count(*) from rounds join players using (game_id)").fetchone()[0]
    assert rows["riichi_rate"][1] == seat_rounds > 0 and rows["riichi_rate"][0] > 0
