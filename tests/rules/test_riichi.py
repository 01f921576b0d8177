"""The riichi table on the real logs: every declaration is found with its discard, and the server only lets a
tenpai hand declare riichi, so every declared hand must be tenpai."""

from __future__ import annotations


def test_every_riichi_declaration_has_its_discard_and_a_tenpai_hand(tenhou_db) -> None:  # noqa: ANN001
    declared = tenhou_db.execute("select count(*) from events where action = 'riichi'").fetchall()[0][0]
    rows = tenhou_db.execute(
        """
        select count(*), count(discard_event_idx), count(*) filter (where is_tenpai),
               count(*) filter (where discard_event_idx = event_idx + 1)
        from riichi
        """
    ).fetchall()[0]
    assert declared > 500
    assert rows == (declared, declared, declared, declared)


def test_furiten_riichi_matches_the_hand_state_after_the_discard(tenhou_db) -> None:  # noqa: ANN001
    mismatches = tenhou_db.execute(
        """
        select count(*) from riichi as r
        join hand_states as h
          on h.game_id = r.game_id and h.round_idx = r.round_idx and h.seat = r.seat
         and h.event_idx = r.discard_event_idx
        where r.is_own_discard_furiten is distinct from h.is_own_discard_furiten
           or r.waits_mask is distinct from h.waits_mask
        """
    ).fetchall()[0][0]
    furiten = tenhou_db.execute("select count(*) filter (where is_own_discard_furiten) from riichi").fetchall()[0][0]
    assert mismatches == 0 and furiten > 0
