"""Karaten, live waits and wait masks on small built games: exact derived values at chosen states and at the draw.

Each scenario is a one-round game from the scenario builder, played to an exhaustive draw, ingested and derived
in tmp_path. Seats 1-3 hold far-from-tenpai hands and discard what they draw; every drawn tile is chosen so
the copies of the waits that show up are exactly the ones a test plants. Builder-written games are not server
logs (their SHUFFLE seed), so the audit counts them under ``other_logs``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest

from pipeline.audit import run_audit
from pipeline.scenario import GameBuilder, RoundBuilder, one_round
from pipeline.scenario.harness import ingest_and_derive

NOISE = {1: "9m147p369s123457z", 2: "8m258p147s123467z", 3: "7m369p258s123567z"}
"""Far-from-tenpai hands for the seats that only pass: no 1m-6m; together one copy of 7m-9m and of each pin and sou."""

M1, M3, M4, M5 = 0, 2, 3, 4
"""34-kinds used below."""

SIMPLES = frozenset(k for k in range(27) if k % 9 not in (0, 8))
"""34-kinds 2-8 of each suit: drawn first, so no seat is left with only terminals in its pond (nagashi)."""

OUTCOME = (
    "is_formal_tenpai", "is_tenpai", "is_tenpai_shown", "is_karaten", "is_pure_karaten",
    "waits_mask", "live_waits_public", "waits_in_dead_wall",
)  # fmt: skip
STATE = ("n_closed", "n_calls", "shanten", "waits_mask", "is_tenpai", "live_waits_public", "live_waits_actual",
         "is_karaten", "is_pure_karaten")  # fmt: skip


def bits(*kinds: int) -> int:
    """A 34-bit mask of some kinds."""
    return sum(1 << k for k in kinds)


def safe_tile(rnd: RoundBuilder, avoid: set[int]) -> int:
    """An unused 136-id of a kind outside ``avoid``, simples first."""
    free = (t for t in range(136) if t not in rnd.pool.used and t // 4 not in avoid)
    return min(free, key=lambda t: (t // 4 not in SIMPLES, t))


def play_out(rnd: RoundBuilder, avoid: set[int], last: str | None = None) -> list[int]:
    """Everyone draws a safe tile and discards it until the wall is empty; ``last`` is the final tile
    drawn (and discarded). Returns the seats the builder writes as tenpai."""
    if rnd.phase == "discard":
        rnd.discard(rnd.turn)
    while rnd.draws_left > 0:
        planted = last if rnd.draws_left == 1 and last is not None else None
        rnd.step(rnd.turn, planted if planted is not None else safe_tile(rnd, avoid))
    return rnd.exhaustive_draw()


def last_event(rnd: RoundBuilder) -> int:
    """event_idx of the last event written so far (events[0] is INIT)."""
    return len(rnd.events) - 2


def derived(tmp_path: Path, game: GameBuilder) -> duckdb.DuckDBPyConnection:
    """Ingest and derive the game; a connection over its warehouse."""
    return ingest_and_derive(game, tmp_path)


def _row(con: duckdb.DuckDBPyConnection, sql: str, params: dict, columns: tuple[str, ...]) -> dict[str, Any]:
    rel = con.sql(sql, params=params)
    rows = rel.fetchall()
    assert len(rows) == 1, f"{len(rows)} rows for {params}"
    record = dict(zip(rel.columns, rows[0], strict=True))
    return {c: record[c] for c in columns}


def outcome(con: duckdb.DuckDBPyConnection, seat: int) -> dict[str, Any]:
    """The seat's draw_outcomes row (karaten columns)."""
    return _row(con, "select * from draw_outcomes where seat = $seat", {"seat": seat}, OUTCOME)


def state(con: duckdb.DuckDBPyConnection, seat: int, event_idx: int | None = None) -> dict[str, Any]:
    """The seat's hand state after an event (None: as dealt)."""
    where = "event_idx is null" if event_idx is None else "event_idx = $event"
    params = {"seat": seat} | ({} if event_idx is None else {"event": event_idx})
    return _row(con, f"select * from hand_states where seat = $seat and {where}", params, STATE)


def tenpai_audit(con: duckdb.DuckDBPyConnection) -> tuple[int, int, list]:
    """tenpai_at_draw over builder-written logs: (agree, total, disagreements)."""
    result = run_audit(con)["tenpai_at_draw"]
    assert result.total == 0, "builder-written games are not server logs"
    return result.other_agree, result.other_total, result.other_disagreements


# ---- karaten ----------------------------------------------------------------------------------------------------
def test_pure_karaten_is_formal_tenpai_but_noten_by_tenhous_rule(tmp_path: Path) -> None:
    game, rnd = one_round({**NOISE, 0: "1111m234p567p789s"}, dora_indicator="9p")  # waits on a fifth 1m only
    assert play_out(rnd, avoid={M1}) == []  # the log shows no hand
    con = derived(tmp_path, game)
    assert outcome(con, 0) == {
        "is_formal_tenpai": True, "is_tenpai": False, "is_tenpai_shown": False, "is_karaten": True,
        "is_pure_karaten": True, "waits_mask": bits(M1), "live_waits_public": 0, "waits_in_dead_wall": 0,
    }  # fmt: skip
    assert state(con, 0) == {
        "n_closed": 13, "n_calls": 0, "shanten": 1, "waits_mask": bits(M1), "is_tenpai": True,
        "live_waits_public": 0, "live_waits_actual": 0, "is_karaten": True, "is_pure_karaten": True,
    }  # fmt: skip
    assert tenpai_audit(con) == (4, 4, [])


def own_kan_round() -> tuple[GameBuilder, RoundBuilder]:
    """Seat 0 declares an ankan of 5m and is left with 46m: every 5m is in its own kan."""
    game, rnd = one_round({**NOISE, 0: "055m46m123p789s44z"}, dora_indicator="9p")
    rnd.draw(0, "5m")
    rnd.ankan(0)
    rnd.dora("6s")
    rnd.draw(0, safe_tile(rnd, {M5}))
    rnd.discard(0)
    return game, rnd


def test_waits_all_in_the_own_kan_are_tenpai_but_karaten(tmp_path: Path) -> None:
    game, rnd = own_kan_round()
    after_rinshan_discard = last_event(rnd)
    play_out(rnd, avoid={M5})
    con = derived(tmp_path, game)
    assert state(con, 0, after_rinshan_discard) == {
        "n_closed": 10, "n_calls": 1, "shanten": 0, "waits_mask": bits(M5), "is_tenpai": True,
        "live_waits_public": 0, "live_waits_actual": 0, "is_karaten": True, "is_pure_karaten": False,
    }  # fmt: skip
    got = outcome(con, 0)
    del got["is_tenpai_shown"]  # what the builder writes: see the next test
    assert got == {
        "is_formal_tenpai": True, "is_tenpai": True, "is_karaten": True, "is_pure_karaten": False,
        "waits_mask": bits(M5), "live_waits_public": 0, "waits_in_dead_wall": 0,
    }  # fmt: skip


def test_builder_writes_the_own_kan_wait_as_tenpai(tmp_path: Path) -> None:
    game, rnd = own_kan_round()
    assert play_out(rnd, avoid={M5}) == [0]
    assert tenpai_audit(derived(tmp_path, game)) == (4, 4, [])


def test_waits_all_visible_in_ponds_calls_and_dora_are_tenpai_and_karaten(tmp_path: Path) -> None:
    hands = {**NOISE, 0: "12m345p678p345s55z", 1: "34m147p369s12345z"}  # seat 0 waits on 3m
    game, rnd = one_round(hands, dora_indicator="3m")  # 3m visible: 1 (indicator)
    rnd.draw(0, "5m")
    rnd.discard(0, "5m")
    first = last_event(rnd)
    rnd.chi(1, "34m")  # 2: shown in seat 1's chi
    rnd.discard(1, "9s")
    rnd.step(2, "3m")  # 3: in a pond
    rnd.step(3, "3m")  # 4: in a pond
    assert play_out(rnd, avoid={M3}) == [0]
    con = derived(tmp_path, game)
    # at seat 0's first discard: only the indicator is visible; seat 1 holds another 3m
    at_first = state(con, 0, first)
    assert (at_first["live_waits_public"], at_first["live_waits_actual"]) == (4 - 1, 4 - 1 - 1)
    assert outcome(con, 0) == {
        "is_formal_tenpai": True, "is_tenpai": True, "is_tenpai_shown": True, "is_karaten": True,
        "is_pure_karaten": False, "waits_mask": bits(M3), "live_waits_public": 0, "waits_in_dead_wall": 0,
    }  # fmt: skip
    assert tenpai_audit(con) == (4, 4, [])


def test_live_waits_at_the_draw_count_the_last_discard(tmp_path: Path) -> None:
    game, rnd = one_round({**NOISE, 0: "12m345p678p345s55z"}, dora_indicator="3m")  # waits on 3m
    rnd.step(0, safe_tile(rnd, {M3}))
    rnd.step(1, "3m")
    rnd.step(2, "3m")
    assert play_out(rnd, avoid={M3}, last="3m") == [0]  # seat 1 draws and discards the last 3m last
    con = derived(tmp_path, game)
    got = outcome(con, 0)
    assert (got["live_waits_public"], got["waits_in_dead_wall"], got["is_karaten"]) == (0, 0, True)


# ---- live waits -------------------------------------------------------------------------------------------------
def test_live_waits_public_counts_tiles_in_other_hands_actual_does_not(tmp_path: Path) -> None:
    hands = {**NOISE, 0: "23m456p789s456s66z", 2: "14m258p147s12347z"}  # seat 0 waits on 1m-4m; seat 2 holds both
    game, rnd = one_round(hands, dora_indicator="1m")
    rnd.step(0, safe_tile(rnd, {M1, M4}))
    rnd.step(1, "4m")
    play_out(rnd, avoid={M1, M4})
    con = derived(tmp_path, game)
    dealt = state(con, 0)
    assert (dealt["live_waits_public"], dealt["live_waits_actual"]) == (8 - 1, 8 - 1 - 2)
    got = outcome(con, 0)
    assert (got["live_waits_public"], got["waits_in_dead_wall"]) == (8 - 2, 8 - 2 - 2)
    assert (got["is_tenpai"], got["is_karaten"], got["waits_mask"]) == (True, False, bits(M1, M4))


def test_two_sided_wait_live_counts_are_eight_minus_the_visible_copies(tmp_path: Path) -> None:
    game, rnd = one_round({**NOISE, 0: "23m456p789s456s66z"}, dora_indicator="4m")  # waits on 1m-4m
    rnd.step(0, safe_tile(rnd, {M1, M4}))
    first = last_event(rnd)
    rnd.step(1, "1m")
    rnd.step(2, safe_tile(rnd, {M1, M4}))
    rnd.step(3, "1m")
    play_out(rnd, avoid={M1, M4})
    con = derived(tmp_path, game)
    visible_at_first, visible_at_end = 1, 3  # the indicator; then two 1m in ponds (no other hand holds any)
    assert state(con, 0, first) == {
        "n_closed": 13, "n_calls": 0, "shanten": 0, "waits_mask": bits(M1, M4), "is_tenpai": True,
        "live_waits_public": 8 - visible_at_first, "live_waits_actual": 8 - visible_at_first,
        "is_karaten": False, "is_pure_karaten": False,
    }  # fmt: skip
    assert outcome(con, 0) == {
        "is_formal_tenpai": True, "is_tenpai": True, "is_tenpai_shown": True, "is_karaten": False,
        "is_pure_karaten": False, "waits_mask": bits(M1, M4),
        "live_waits_public": 8 - visible_at_end, "waits_in_dead_wall": 8 - visible_at_end,
    }  # fmt: skip


# ---- wait masks of the special forms -----------------------------------------------------------------------------
THIRTEEN_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@pytest.mark.parametrize(
    ("hand", "waits"),
    [
        # regular: 1m 11+123+234+456+567, 4m 44+123+123+456+567, 7m 123+123+456+456+77; seven pairs: 7m
        ("1122334455667m", (0, 3, 6)),
        ("1122m3344p5566s7z", (33,)),  # seven pairs only: chun tanki
        ("19m19p19s1234567z", THIRTEEN_ORPHANS),  # thirteen-sided kokushi
        ("19m19p19s1234566z", (33,)),  # kokushi with a pair: the missing chun
    ],
)
def test_waits_mask_of_seven_pairs_and_thirteen_orphans(tmp_path: Path, hand: str, waits: tuple[int, ...]) -> None:
    game, rnd = one_round({**NOISE, 0: hand})
    play_out(rnd, avoid=set())
    con = derived(tmp_path, game)
    dealt = state(con, 0)
    assert (dealt["shanten"], dealt["waits_mask"], dealt["is_tenpai"]) == (0, bits(*waits), True)
    assert outcome(con, 0)["waits_mask"] == bits(*waits)
