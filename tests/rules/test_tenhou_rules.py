"""Tenhou's sanma rules and its rules by date, each on the real log that shows it (../shared/logs/corpus/tenhou-xml:
339 games of 2017-01-01, 55 of them sanma, and 359 Houou games of March 2009 in the old format), and the audit of
those logs: every check agrees on every server-written standard-rule game."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

from pipeline.audit import run_audit
from pipeline.db import connect
from pipeline.derive.run import derive
from pipeline.ingest import ingest
from pipeline.store.warehouse import Warehouse
from rules.tenhou_rules import RULE_CHANGES, extension_winds, rules_in_force


@pytest.fixture(scope="module")
def corpus_db(shared_folder, tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN001
    """A DuckDB connection over a derived warehouse of every file of ../shared/logs/corpus/tenhou-xml."""
    folder: Path = shared_folder("corpus/tenhou-xml", "the 2009 and 2017 Tenhou logs")
    warehouse = Warehouse(tmp_path_factory.mktemp("corpus") / "warehouse")
    ingest([folder], warehouse)
    derive(warehouse)
    return connect(warehouse)


@pytest.fixture(scope="module")
def corpus_audit(corpus_db):  # noqa: ANN001
    return run_audit(corpus_db)


def one_row(db, sql: str, **params: object) -> tuple:  # noqa: ANN001
    """The one row a query returns."""
    (row,) = db.execute(sql, params).fetchall()
    return row


def test_every_check_agrees_on_the_2009_and_2017_logs(corpus_audit) -> None:  # noqa: ANN001
    minimum = {"points": 4900, "han": 4900, "yaku": 4900, "fu": 4800, "next_round": 5800, "tenpai_at_draw": 2800,
               "draw_payments": 800, "abortive_kind": 5800, "no_ron_in_furiten": 2500, "hand_at_end": 6000}  # fmt: skip
    for check, result in corpus_audit.items():
        assert result.total >= minimum.get(check, 0), check
        assert result.disagreements == [], check
        assert result.agree == result.total, check


def test_sanma_wins_are_most_of_what_the_audit_checked(corpus_db) -> None:  # noqa: ANN001
    n_sanma_wins = one_row(corpus_db, "select count(*) from wins join games using (game_id) where n_players = 3")[0]
    assert n_sanma_wins >= 1200


def test_a_sanma_ron_pays_200_a_honba(corpus_db) -> None:  # noqa: ANN001
    sql = """
        select r.honba, w.points, w.score_deltas, s.score_deltas
        from wins w join rounds r using (game_id, round_idx) join wins_scored s using (game_id, round_idx, win_idx)
        where game_id = $g and round_idx = $r
    """
    honba, points, logged, derived = one_row(corpus_db, sql, g="2009030421gm-00b9-0000-ed4f0295", r=2)
    assert (honba, points) == (2, 5800)
    assert logged == derived == [7200, -6200, 0, 0]  # 5800 + 2 x 200, and a riichi stick


def test_a_kita_after_the_riichi_breaks_ippatsu(corpus_db) -> None:  # noqa: ANN001
    sql = """
        select w.yaku, s.yaku, (select count(*) from events e where e.game_id = w.game_id
                                and e.round_idx = w.round_idx and e.action = 'kita'
                                and e.event_idx > (select min(event_idx) from events e2 where e2.game_id = w.game_id
                                                   and e2.round_idx = w.round_idx and e2.action = 'riichi'
                                                   and e2.seat = w.seat))
        from wins w join wins_scored s using (game_id, round_idx, win_idx)
        where game_id = $g and round_idx = $r
    """
    logged, derived, kita_since = one_row(corpus_db, sql, g="2017010102gm-00b9-0000-f634a67e", r=1)
    assert kita_since >= 1
    assert 1 in logged and 2 not in logged  # riichi, no ippatsu
    assert sorted(derived) == sorted(logged)


def test_the_declarers_own_kita_breaks_double_riichi(corpus_db) -> None:  # noqa: ANN001
    sql = """
        select w.yaku, s.yaku from wins w join wins_scored s using (game_id, round_idx, win_idx)
        where game_id = $g and round_idx = $r
    """
    logged, derived = one_row(corpus_db, sql, g="2017010105gm-00b9-0000-f3973b44", r=3)
    assert 1 in logged and 21 not in logged  # riichi, not double riichi
    assert sorted(derived) == sorted(logged)


def test_a_2009_tonpuu_goes_on_into_west(corpus_db) -> None:  # noqa: ANN001
    sql = """
        select r.round_wind, r.kyoku, t.ends_game, t.next_round_wind, t.next_round_wind_logged
        from rounds r join round_transitions t using (game_id, round_idx) where game_id = $g and round_idx = $r
    """
    wind, kyoku, ends, next_wind, next_wind_logged = one_row(corpus_db, sql, g="2009030812gm-00e1-0000-270195f3", r=7)
    assert (wind, kyoku, ends) == (1, 3, False)  # South 4, nobody at 30000: on into West
    assert next_wind == next_wind_logged == 2


def test_a_2017_tonpuu_ends_at_south_4(corpus_db) -> None:  # noqa: ANN001
    sql = """
        select r.round_wind, r.kyoku, list_max(r.scores_post), t.ends_game, r.is_last
        from rounds r join round_transitions t using (game_id, round_idx) where game_id = $g and r.is_last
    """
    wind, kyoku, top, ends, is_last = one_row(corpus_db, sql, g="2017010103gm-00e1-0000-b5b4f454")
    assert (wind, kyoku, ends, is_last) == (1, 3, True, True)
    assert top < 30000


def test_the_rules_in_force_change_at_their_dates() -> None:
    for change in RULE_CHANGES:
        hours = np.array([change.since.replace(hour=change.since.hour - 1), change.since], dtype="datetime64[h]")
        values = rules_in_force(hours, [False, False])[change.rule]
        assert values.tolist() == [change.before, change.after], change.rule
        assert change.evidence and change.meaning


def test_undated_games_take_their_rules_from_the_log_format() -> None:
    in_force = rules_in_force(np.array(["NaT", "NaT"], dtype="datetime64[h]"), [True, False])
    assert in_force["has_tenpai_yame"].tolist() == [0, 1]
    assert extension_winds([False, False], in_force).tolist() == [2, 1]
    assert extension_winds([True, True], in_force).tolist() == [1, 1]


def test_tenpai_yame_is_in_force_by_the_june_2010_game_that_ended() -> None:
    games = [datetime(2010, 6, 1, 6), datetime(2010, 6, 8, 0)]  # went on / ended (issue 17)
    assert rules_in_force(np.array(games, dtype="datetime64[h]"), [False, False])["has_tenpai_yame"].tolist() == [0, 1]
