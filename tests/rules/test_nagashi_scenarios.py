"""Nagashi mangan by a seat that called: the real logs have none, so it is built here.

Seat 1 pons a haku early, then discards only terminals and honors, none of them called; the wall runs
out. Tenhou pays nagashi mangan (RYUUKYOKU type="nm"): the rules layer must find it from the ponds
and calls, pay it instead of noten payments, and agree with the label.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.audit import run_audit
from pipeline.scenario import RoundBuilder, one_round
from pipeline.scenario.harness import ingest_and_derive
from rules.tiles import TERMINALS_HONORS_34

ORPHANS = set(TERMINALS_HONORS_34.tolist())
HANDS = {
    0: "2346m2346p3467s5z",
    1: "19m19p19s1234556z",
    2: "2345m2345p2345s6m",
    3: "5678m5678p5678s7p",
}


def unused(rnd: RoundBuilder, orphan: bool, strict: bool = True) -> int:
    """An unused 136-id of a terminal/honor (or of a simple; if ``strict`` is off, of either when none is left)."""
    free = [t for t in range(136) if t not in rnd.pool.used]
    wanted = [t for t in free if (t // 4 in ORPHANS) == orphan]
    return (wanted or ([] if strict else free))[0]


def play_to_the_end(rnd: RoundBuilder) -> None:
    """Everyone draws and discards the drawn tile: seat 1 only terminals and honors, the others simples
    while there are any."""
    while rnd.draws_left > 0:
        seat = rnd.turn
        rnd.step(seat, unused(rnd, orphan=seat == 1, strict=seat == 1))


def test_nagashi_mangan_after_calling_is_derived_paid_and_audited(tmp_path: Path) -> None:
    game, rnd = one_round(HANDS, dora_indicator="5s")
    rnd.step(0, unused(rnd, orphan=False), "5z")  # the dealer lets a haku go
    rnd.pon(1, 0)  # seat 1 calls it: its own call does not spoil nagashi mangan
    rnd.discard(1, "1m")
    play_to_the_end(rnd)
    rnd.exhaustive_draw()
    assert 'type="nm"' in game.to_xml()
    con = ingest_and_derive(game, tmp_path)
    outcomes = con.execute(
        "select seat, is_nagashi, is_nagashi_logged from draw_outcomes order by seat"
    ).fetchall()
    # seat 0 discarded the called haku: no nagashi for it
    assert outcomes == [(0, False, False), (1, True, True), (2, False, False), (3, False, False)]
    transition = con.execute("select outcome, draw_payments, draw_payments_logged from round_transitions").fetchall()
    # a non-dealer's nagashi mangan: the dealer pays 4000, the others 2000 each
    assert transition == [("nagashi_mangan", [-4000, 8000, -2000, -2000], [-4000, 8000, -2000, -2000])]
    audit = run_audit(con)
    for check in ("nagashi", "draw_payments", "tenpai_at_draw"):
        result = audit[check]
        # builder-written games are not server logs: their figures land in other_logs
        assert result.other_total > 0 and result.other_agree == result.other_total, check
