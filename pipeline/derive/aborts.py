"""The abort_checks and kyuushu tables: abortive draws derived from the events (rules.aborts).

Sanchahou is derived here: three seats other than the discarder could ron the round's last
released tile (it is among their waits and they are not furiten), which Tenhou aborts. Games whose
format records the rule 'rule:triple_ron_wins' (Mahjong Soul) play three rons as three wins: no
sanchahou is derived for them.
"""

from __future__ import annotations

import numpy as np

from pipeline.derive.round_arrays import RoundArrays
from rules.aborts import derive_aborts
from rules.furiten import RELEASES, SeatHistory, furiten_before
from rules.hands import EventArrays, is_action, last_row_per_round
from rules.tenhou_draws import DRAW_KINDS_WITH_HANDS
from rules.waits import KIND_BITS


def could_ron_last(
    rounds: RoundArrays, ev: EventArrays, waits: np.ndarray, history: SeatHistory, passes: tuple
) -> np.ndarray:
    """(n_rounds,) seats that could ron the round's last discard or added kan (waits, not furiten)."""
    n_rounds = len(rounds)
    last = last_row_per_round(ev, is_action(ev.action, RELEASES))
    with_release = np.flatnonzero(last >= 0)
    rows = np.repeat(last[with_release], 4)
    seats = np.tile(np.arange(4), len(with_release))
    bit = KIND_BITS[ev.tile[rows] // 4]
    own, temporary, riichi, _ = furiten_before(ev, passes, waits, history, rows, seats)
    can = ((waits[rows, seats] & bit) != 0) & (ev.seat[rows] != seats) & ~(own | temporary | riichi)
    return np.bincount(np.repeat(with_release, 4)[can], minlength=n_rounds).astype(np.int64)


def abort_columns(rounds: RoundArrays, events: EventArrays, could_ron: np.ndarray) -> dict[str, dict]:
    """Columns of abort_checks (per round) and kyuushu (per seat's first draw)."""
    aborts = derive_aborts(events, rounds.n_winners, np.where(rounds.has_triple_ron_wins, 0, could_ron))
    logged = rounds.draw_kind  # object: str
    abortive_logged = np.where(np.isin(logged, ["", *DRAW_KINDS_WITH_HANDS]), "", logged)
    game_ids, round_idx, shown = rounds.game_id, rounds.round_idx, rounds.is_shown
    round_ids, seats = np.nonzero(aborts.first_draw_event_idx >= 0)
    return {
        "abort_checks": {
            "game_id": game_ids,
            "round_idx": round_idx,
            "abort_kind": np.where(aborts.kind == "", None, aborts.kind),
            "abort_kind_logged": np.where(abortive_logged == "", None, abortive_logged),
            "abort_event_idx": aborts.abort_event_idx,
            "n_riichi_accepted": aborts.n_riichi_accepted,
            "n_kans": aborts.n_kans,
            "n_kan_seats": aborts.n_kan_seats,
            "is_four_kans_one_seat": aborts.four_kans_one_seat,
            "n_could_ron_last": could_ron,
        },
        "kyuushu": {
            "game_id": rounds.game_codes(round_ids),
            "round_idx": round_idx[round_ids],
            "seat": seats,
            "first_draw_event_idx": aborts.first_draw_event_idx[round_ids, seats],
            "is_uninterrupted": aborts.first_draw_uninterrupted[round_ids, seats],
            "n_orphan_kinds": aborts.n_orphan_kinds[round_ids, seats],
            "is_eligible": aborts.kyuushu_eligible[round_ids, seats],
            "is_declared": aborts.kyuushu_declared[round_ids, seats],
            "is_declared_logged": (logged[round_ids] == "kyuushu_kyuuhai") & shown[round_ids, seats],
        },
    }
