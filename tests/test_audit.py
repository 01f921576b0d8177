"""`paipu audit` on the real logs: every derived value agrees with what Tenhou recorded.

Two pantheon test logs whose GO header was rewritten to an East-only game (type 1) although the game was
played as a hanchan are classed edited (log_class.sql), with the reason in their quirks: west.xml names its
log 2017030413gm-0009-3821-485c5dae (type 9, lobby 3821), doubleron_and_riichi.xml has its wall seed blanked.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.audit import run_audit

HEADER_REWRITTEN = {"west.xml": "header_not_log_id", "doubleron_and_riichi.xml": "empty_shuffle_seed"}


@pytest.fixture(scope="module")
def audit(tenhou_db):
    return run_audit(tenhou_db)


def source_file(db, game_id: str) -> str:
    return Path(db.execute("select source_file from games where game_id = $g", {"g": game_id}).fetchall()[0][0]).name


@pytest.mark.parametrize(
    ("check", "minimum_total"),
    [
        ("tenpai_at_draw", 650),
        ("hand_at_end", 1250),
        ("draw_payments", 185),
        ("nagashi", 600),
        ("next_round", 1100),
        ("no_ron_in_furiten", 550),
        ("win_tile_in_waits", 900),
        ("abortive_kind", 1100),
        ("kyuushu_eligible", 13),
        ("fu", 900),
        ("han", 900),
        ("yaku", 900),
        ("points", 900),
    ],
)
def test_every_check_agrees_on_standard_server_logs(audit, tenhou_db, check: str, minimum_total: int) -> None:
    result = audit[check]
    assert result.total >= minimum_total
    assert result.disagreements == []


@pytest.mark.parametrize(("file", "quirk"), sorted(HEADER_REWRITTEN.items()))
def test_logs_whose_header_was_rewritten_are_classed_edited(tenhou_db, file: str, quirk: str) -> None:
    sql = """
        select log_class(source, is_server_log, is_custom_rule, log_quirks), log_quirks from games
        where source_file like '%/' || $f
    """
    (log_class, quirks), = tenhou_db.execute(sql, {"f": file}).fetchall()
    assert (log_class, quirk in quirks) == ("edited", True)


def test_the_edited_logs_next_rounds_are_counted_apart(audit) -> None:
    edited = audit["next_round"].other_by_class["edited"]
    # west.xml rounds 6, 8-11, 13, 15, 16; doubleron_and_riichi.xml 5-7; chips_tonpusen.xml 1-2 (its header
    # says type 1601, lobby 1111, where the log id it names says 00a9, 0000)
    assert edited[1] - edited[0] == 13


def test_logs_written_by_other_tools_are_counted_apart(audit) -> None:
    # the bot-written tenhou-python-bot fixtures 23-25 show hands without the winning tile
    assert audit["hand_at_end"].other_total > audit["hand_at_end"].other_agree
