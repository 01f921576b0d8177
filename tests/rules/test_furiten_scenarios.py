"""Furiten on small built games: the exact furiten_passes, win_checks, hand_states and furiten rows derived.

Each scenario is a one-round game from the scenario builder (strict: it enforces Tenhou's rules, so it refuses a
ron by a furiten seat), ingested and derived in tmp_path. Seat 0, the dealer, is the tenpai seat under test;
seats 1-3 hold far-from-tenpai hands and discard what they draw unless a test plants a tile. Every draw not
planted is a "safe" tile: a pin or sou that no tenpai seat waits on. The rules (DESIGN.md section 6, and
rules/furiten.py): a pass is a winning tile another seat discards or adds to a kan and the seat does not ron,
or a winning tile the seat draws and discards; own_discard furiten: a wait among its own discards; temporary:
after a pass until the seat's own next discard (a call does not end it); riichi: a pass after riichi, to the end
of the round. Yaku are not taken into account. The asserts on the ``furiten`` interval table skip while it is not
derived; the last tests (xfail) pin two bugs of rules.furiten.find_passes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest

from pipeline.scenario import GameBuilder, RoundBuilder, ScenarioError, one_round
from pipeline.scenario.harness import ingest_and_derive

NOISE = {1: "7m1479p2369s1234z", 2: "8m2368p1478s1234z", 3: "9m1378p2579s1234z"}
"""Far-from-tenpai hands for the seats that only pass: no 1m-6m, no 5p, no dragons."""

PINFU = "23m456p456s789s55p"
"""Seat 0's closed tenpai on 1m-4m (ryanmen): a ron on either is pinfu."""

DORA = "1s"
"""Dora indicator of every scenario (a tile no one waits on)."""

M1, M4, P5, Z6 = 0, 3, 13, 32
"""34-kinds used below: 1m, 4m, 5p, hatsu."""

SAFE_KINDS = tuple(k for k in range(9, 27) if k != P5)
"""34-kinds of the safe draws: pins and sous but 5p."""

PASS = ("event_idx", "tile34", "from_seat", "action", "was_furiten", "in_riichi", "furiten_kind")
WIN = ("is_tsumo", "waits_mask", "is_tile_in_waits", "is_furiten", "furiten_kind")


def bits(*kinds: int) -> int:
    """A 34-bit mask of some kinds."""
    return sum(1 << k for k in kinds)


def safe(rnd: RoundBuilder, avoid: frozenset[int] = frozenset()) -> int:
    """An unused 136-id of a safe kind (not in ``avoid``)."""
    return next(t for t in range(136) if t // 4 in SAFE_KINDS and t // 4 not in avoid and t not in rnd.pool.used)


def go_round(rnd: RoundBuilder, *seats: int, avoid: frozenset[int] = frozenset()) -> None:
    """Each seat draws a safe tile (not in ``avoid``) and discards it."""
    for seat in seats:
        rnd.step(seat, safe(rnd, avoid))


def last_event(rnd: RoundBuilder) -> int:
    """event_idx of the last event written so far (events[0] is INIT)."""
    return len(rnd.events) - 2


def derived(tmp_path: Path, game: GameBuilder) -> duckdb.DuckDBPyConnection:
    """Ingest and derive the game; a connection over its warehouse."""
    return ingest_and_derive(game, tmp_path)


def records(con: duckdb.DuckDBPyConnection, sql: str, params: dict, columns: tuple[str, ...]) -> list[dict[str, Any]]:
    rel = con.sql(sql, params=params)
    names = rel.columns
    return [{c: dict(zip(names, row, strict=True))[c] for c in columns} for row in rel.fetchall()]


def passes(con: duckdb.DuckDBPyConnection, seat: int = 0) -> list[dict[str, Any]]:
    """The seat's furiten_passes rows, in event order."""
    return records(con, "select * from furiten_passes where seat = $seat order by event_idx", {"seat": seat}, PASS)


def a_pass(event_idx: int, tile34: int, from_seat: int, was_furiten: bool, kind: str, *, action: str = "discard",
           in_riichi: bool = False) -> dict[str, Any]:  # fmt: skip
    """An expected furiten_passes row."""
    return {"event_idx": event_idx, "tile34": tile34, "from_seat": from_seat, "action": action,
            "was_furiten": was_furiten, "in_riichi": in_riichi, "furiten_kind": kind}  # fmt: skip


def win_check(con: duckdb.DuckDBPyConnection, seat: int = 0) -> dict[str, Any]:
    """The seat's (only) win_checks row."""
    rows = records(con, "select * from win_checks where seat = $seat", {"seat": seat}, WIN)
    assert len(rows) == 1, rows
    return rows[0]


def own_discard_furiten(con: duckdb.DuckDBPyConnection, event_idx: int | None, seat: int = 0) -> bool | None:
    """hand_states.is_own_discard_furiten of the seat after an event (None: as dealt)."""
    where = "event_idx is null" if event_idx is None else "event_idx = $event"
    params = {"seat": seat} | ({} if event_idx is None else {"event": event_idx})
    rows = con.sql(f"select is_own_discard_furiten from hand_states where seat = $seat and {where}", params=params)
    (value,) = rows.fetchall()
    return value[0]


def intervals(con: duckdb.DuckDBPyConnection, seat: int = 0) -> list[tuple[str, int, int | None]]:
    """The seat's furiten intervals (kind, start_event_idx, end_event_idx); skips if the table is not derived yet."""
    try:
        rel = con.sql(
            "select kind, start_event_idx, end_event_idx from furiten where seat = $seat"
            " order by start_event_idx, kind",
            params={"seat": seat},
        )
    except duckdb.CatalogException:
        pytest.skip("the furiten interval table is not derived yet")
    return rel.fetchall()


# ---- own discard -------------------------------------------------------------------------------------------------
def test_own_discard_furiten_blocks_a_ron_but_not_a_tsumo(tmp_path: Path) -> None:
    game, rnd = one_round({**NOISE, 0: "234m456p456s789s5p"}, dora_indicator=DORA)
    rnd.draw(0, "5p")
    rnd.discard(0, "4m")  # tenpai on 1m-4m with a 4m in its own pond
    made = last_event(rnd)
    go_round(rnd, 1, 2, 3, 0)
    later = last_event(rnd)
    rnd.step(1, "1m")
    passed = last_event(rnd)
    with pytest.raises(ScenarioError, match="furiten"):
        rnd.ron(0, 1)
    go_round(rnd, 2, 3)
    rnd.draw(0, "1m")
    rnd.tsumo(0)
    con = derived(tmp_path, game)
    assert [own_discard_furiten(con, e) for e in (None, made, later)] == [False, True, True]
    assert passes(con) == [a_pass(passed, M1, 1, True, "temporary")]
    assert win_check(con) == {
        "is_tsumo": True, "waits_mask": bits(M1, M4), "is_tile_in_waits": True, "is_furiten": None,
        "furiten_kind": None,
    }  # fmt: skip
    assert intervals(con) == [("own_discard", made, None), ("temporary", passed, None)]


# ---- temporary -------------------------------------------------------------------------------------------------
def test_temporary_furiten_lasts_until_the_seats_own_discard(tmp_path: Path) -> None:
    game, rnd = one_round({**NOISE, 0: PINFU}, dora_indicator=DORA)
    go_round(rnd, 0)
    rnd.step(1, "1m")  # seat 0 lets it go
    first = last_event(rnd)
    rnd.step(2, "4m")  # still furiten: no ron
    second = last_event(rnd)
    with pytest.raises(ScenarioError, match="furiten"):
        rnd.ron(0, 2)
    go_round(rnd, 3, 0)  # seat 0's discard ends it
    ended = last_event(rnd)
    rnd.step(1, "4m")
    rnd.ron(0, 1)
    con = derived(tmp_path, game)
    assert passes(con) == [a_pass(first, M1, 1, False, "temporary"), a_pass(second, M4, 2, True, "temporary")]
    assert win_check(con) == {
        "is_tsumo": False, "waits_mask": bits(M1, M4), "is_tile_in_waits": True, "is_furiten": False,
        "furiten_kind": None,
    }  # fmt: skip
    assert intervals(con) == [("temporary", first, ended)]


def test_temporary_furiten_is_not_ended_by_another_seats_call(tmp_path: Path) -> None:
    game, rnd = one_round({**NOISE, 0: PINFU, 1: "4m1799p1469s1234z"}, dora_indicator=DORA)
    go_round(rnd, 0)
    rnd.step(1, "1m")  # seat 0 lets it go
    first = last_event(rnd)
    rnd.step(2, "9p")
    rnd.pon(1, 2)  # seat 3's turn is skipped; seat 0 has not discarded
    rnd.discard(1, "4m")
    second = last_event(rnd)
    with pytest.raises(ScenarioError, match="furiten"):
        rnd.ron(0, 1)
    go_round(rnd, 2, 3, 0)
    ended = last_event(rnd)
    rnd.step(1, "1m")
    rnd.ron(0, 1)
    con = derived(tmp_path, game)
    assert passes(con) == [a_pass(first, M1, 1, False, "temporary"), a_pass(second, M4, 1, True, "temporary")]
    assert win_check(con)["is_furiten"] is False
    assert intervals(con) == [("temporary", first, ended)]


def test_temporary_furiten_holds_through_the_seats_own_call_until_its_discard(tmp_path: Path) -> None:
    # 1m-4m with three 5p (one red) and a hatsu pair; after a pon of hatsu and the discard of a 5p: 1m-4m, hatsu
    game, rnd = one_round({**NOISE, 0: "23m456p055p789s66z"}, dora_indicator=DORA)
    go_round(rnd, 0)
    rnd.step(1, "1m")  # seat 0 lets it go
    first = last_event(rnd)
    rnd.step(2, "6z")
    rnd.pon(0, 2)
    called = last_event(rnd)
    assert rnd.is_furiten(0)  # the builder agrees: the call does not end it...
    rnd.discard(0, "5p")
    ended = last_event(rnd)  # ...the discard does
    rnd.step(1, "4m")
    rnd.ron(0, 1)
    con = derived(tmp_path, game)
    assert passes(con) == [a_pass(first, M1, 1, False, "temporary")]
    assert win_check(con) == {
        "is_tsumo": False, "waits_mask": bits(M1, M4), "is_tile_in_waits": True, "is_furiten": False,
        "furiten_kind": None,
    }  # fmt: skip
    assert ended == called + 1
    assert intervals(con) == [("temporary", first, ended)]


# ---- added kan (chankan chance) ------------------------------------------------------------------------------------
def kakan_round() -> tuple[GameBuilder, RoundBuilder, int]:
    """Seat 1 pons a 4m before seat 0 is tenpai, then adds the last 4m to it once seat 0 waits on 1m-4m.
    Returns the event_idx of the added kan."""
    game, rnd = one_round({**NOISE, 0: "29m456p456s789s55p", 1: "44m1479p2369s123z"}, dora_indicator=DORA)
    go_round(rnd, 0, 1, 2)
    rnd.step(3, "4m")  # seat 0 is not tenpai yet: no pass
    rnd.pon(1, 3)
    rnd.discard(1, "3z")
    go_round(rnd, 2, 3)
    rnd.draw(0, "3m")
    rnd.discard(0, "9m")  # tenpai on 1m-4m
    rnd.draw(1, "4m")
    rnd.kakan(1)
    return game, rnd, last_event(rnd)


def test_an_added_kan_of_a_winning_tile_not_robbed_is_a_pass(tmp_path: Path) -> None:
    game, rnd, kakan = kakan_round()
    rnd.draw(1, safe(rnd))  # the replacement draw
    rnd.discard(1)
    rnd.dora("9s")
    rnd.step(2, "1m")  # seat 0 is still furiten from the added kan
    second = last_event(rnd)
    with pytest.raises(ScenarioError, match="furiten"):
        rnd.ron(0, 2)
    go_round(rnd, 3)
    rnd.draw(0, "1m")
    rnd.tsumo(0)
    con = derived(tmp_path, game)
    assert passes(con) == [
        a_pass(kakan, M4, 1, False, "temporary", action="kakan"),
        a_pass(second, M1, 2, True, "temporary"),
    ]
    assert win_check(con)["is_furiten"] is None
    assert intervals(con) == [("temporary", kakan, None)]  # no discard by seat 0 after it


def test_robbing_an_added_kan_is_no_pass(tmp_path: Path) -> None:
    game, rnd, _ = kakan_round()
    rnd.ron(0, 1)  # chankan
    con = derived(tmp_path, game)
    assert passes(con) == []
    assert win_check(con) == {
        "is_tsumo": False, "waits_mask": bits(M1, M4), "is_tile_in_waits": True, "is_furiten": False,
        "furiten_kind": None,
    }  # fmt: skip


# ---- riichi --------------------------------------------------------------------------------------------------------
def test_a_pass_in_riichi_is_furiten_to_the_end_of_the_round(tmp_path: Path) -> None:
    game, rnd = one_round({**NOISE, 0: PINFU}, dora_indicator=DORA)
    rnd.draw(0, safe(rnd))
    rnd.riichi(0)
    rnd.step(1, "1m")  # seat 0 could ron it (riichi, pinfu) and lets it go
    first = last_event(rnd)
    go_round(rnd, 2, 3, 0)  # its own discard does not end riichi furiten
    rnd.step(1, "4m")
    second = last_event(rnd)
    with pytest.raises(ScenarioError, match="furiten"):
        rnd.ron(0, 1)
    go_round(rnd, 2, 3)
    rnd.draw(0, "1m")
    rnd.tsumo(0)
    con = derived(tmp_path, game)
    assert passes(con) == [
        a_pass(first, M1, 1, False, "riichi", in_riichi=True),
        a_pass(second, M4, 1, True, "riichi", in_riichi=True),
    ]
    assert win_check(con)["is_furiten"] is None
    assert intervals(con) == [("riichi", first, None)]


def test_the_riichi_discard_ends_temporary_furiten_and_a_later_pass_is_riichi_furiten(tmp_path: Path) -> None:
    game, rnd = one_round({**NOISE, 0: PINFU}, dora_indicator=DORA)
    go_round(rnd, 0)
    rnd.step(1, "1m")  # seat 0 lets it go before riichi
    first = last_event(rnd)
    go_round(rnd, 2, 3)
    rnd.draw(0, safe(rnd))
    rnd.riichi(0)
    declared = last_event(rnd)  # the riichi discard
    rnd.step(1, "4m")
    second = last_event(rnd)
    go_round(rnd, 2, 3)
    rnd.draw(0, "1m")
    rnd.tsumo(0)
    con = derived(tmp_path, game)
    assert passes(con) == [
        a_pass(first, M1, 1, False, "temporary"),
        a_pass(second, M4, 1, False, "riichi", in_riichi=True),
    ]
    assert intervals(con) == [("temporary", first, declared), ("riichi", second, None)]


# ---- no yaku ---------------------------------------------------------------------------------------------------------
def test_a_pass_on_a_tile_without_yaku_still_makes_furiten(tmp_path: Path) -> None:
    # after a pon of 9m: an open shanpon on 5p (no yaku) and hatsu (yakuhai)
    game, rnd = one_round({**NOISE, 0: "99m55p66z789s456p4z"}, dora_indicator=DORA)
    go_round(rnd, 0)
    rnd.step(1, "9m")
    rnd.pon(0, 1)
    rnd.discard(0, "4z")
    rnd.step(1, "0p")  # the red one: dora is no yaku
    no_yaku = last_event(rnd)
    with pytest.raises(ScenarioError, match="no yaku"):
        rnd.ron(0, 1)
    rnd.step(2, "6z")  # hatsu would have a yaku, but seat 0 let a winning tile go
    second = last_event(rnd)
    with pytest.raises(ScenarioError, match="furiten"):
        rnd.ron(0, 2)
    go_round(rnd, 3, 0)
    rnd.step(1, "6z")
    rnd.ron(0, 1)
    con = derived(tmp_path, game)
    assert passes(con) == [a_pass(no_yaku, P5, 1, False, "temporary"), a_pass(second, Z6, 2, True, "temporary")]
    has_yaku = con.sql("select has_yaku from furiten_passes where seat = 0 order by event_idx").fetchall()
    assert has_yaku == [(False,), (True,)]  # the open shanpon on 5p has no yaku; hatsu is yakuhai
    assert win_check(con) == {
        "is_tsumo": False, "waits_mask": bits(P5, Z6), "is_tile_in_waits": True, "is_furiten": False,
        "furiten_kind": None,
    }  # fmt: skip


# ---- declined tsumo ------------------------------------------------------------------------------------------------
def test_discarding_the_winning_tile_just_drawn_is_a_pass_by_the_seat_itself(tmp_path: Path) -> None:
    game, rnd = one_round({**NOISE, 0: PINFU}, dora_indicator=DORA)
    go_round(rnd, 0)
    tenpai = last_event(rnd)
    go_round(rnd, 1, 2, 3)
    rnd.step(0, "1m")  # draws its winning 1m and discards it
    declined = last_event(rnd)
    rnd.step(1, "4m")
    passed = last_event(rnd)
    with pytest.raises(ScenarioError, match="furiten"):
        rnd.ron(0, 1)
    go_round(rnd, 2, 3)
    rnd.draw(0, "4m")
    rnd.tsumo(0)
    con = derived(tmp_path, game)
    assert passes(con) == [a_pass(declined, M1, 0, False, "own_discard"), a_pass(passed, M4, 1, True, "temporary")]
    assert [own_discard_furiten(con, e) for e in (tenpai, declined)] == [False, True]
    assert win_check(con)["is_furiten"] is None
    assert intervals(con) == [("own_discard", declined, None), ("temporary", passed, None)]


# ---- ron ----------------------------------------------------------------------------------------------------------
def test_a_ron_is_no_pass(tmp_path: Path) -> None:
    game, rnd = one_round({**NOISE, 0: PINFU}, dora_indicator=DORA)
    go_round(rnd, 0)
    rnd.step(1, "4m")
    rnd.ron(0, 1)
    con = derived(tmp_path, game)
    assert passes(con) == []
    assert win_check(con) == {
        "is_tsumo": False, "waits_mask": bits(M1, M4), "is_tile_in_waits": True, "is_furiten": False,
        "furiten_kind": None,
    }  # fmt: skip


def test_a_double_ron_is_no_pass_for_either_winner(tmp_path: Path) -> None:
    game, rnd = one_round({**NOISE, 0: PINFU, 2: "56m123p234s678s99p"}, dora_indicator=DORA)  # seat 2: 4m-7m
    go_round(rnd, 0)
    rnd.step(1, "4m")
    rnd.ron(2, 1)  # in turn order from the discarder
    rnd.ron(0, 1)
    con = derived(tmp_path, game)
    assert con.sql("select count(*) from furiten_passes").fetchall() == [(0,)]
    assert [win_check(con, s)["is_furiten"] for s in (0, 2)] == [False, False]


# ---- known bugs ---------------------------------------------------------------------------------------------------
def test_discarding_after_a_pon_a_tile_drawn_a_turn_earlier_is_no_declined_tsumo(tmp_path: Path) -> None:
    game, rnd = one_round({**NOISE, 0: "234p456s789s777z1z"}, dora_indicator=DORA)  # tanki on 1z
    rnd.draw(0, "5p")  # no winning tile...
    rnd.discard(0, "1z")  # ...kept: 2345p waits on 2p-5p
    go_round(rnd, 1, 2, avoid=frozenset({10, P5}))
    rnd.step(3, "7z")
    rnd.pon(0, 3)
    rnd.discard(0, "5p")  # the 5p drawn at event 0: no tsumo was declined (tanki on 7z now)
    discarded = last_event(rnd)
    rnd.run_out()  # no 7z is left: seat 0 cannot pass again
    con = derived(tmp_path, game)
    assert own_discard_furiten(con, discarded) is False
    assert passes(con) == []  # derived: [a_pass(discarded, P5, 0, False, "own_discard")]


def test_the_seats_declaring_a_triple_ron_do_not_pass(tmp_path: Path) -> None:
    hands = {0: PINFU, 1: "23m678p123s789s55s", 2: "56m123p234s678s99p", 3: "9m1379p1269s1234z"}  # 0-2 wait on 4m
    game, rnd = one_round(hands, dora_indicator=DORA)
    go_round(rnd, 0, 1, 2)
    rnd.step(3, "4m")
    rnd.abort("ron3", seats=[0, 1, 2])
    con = derived(tmp_path, game)
    assert con.sql("select abort_kind, n_could_ron_last from abort_checks").fetchall() == [("sanchahou", 3)]
    # derived: one 'temporary' pass row (and interval) for each of seats 0, 1 and 2 at seat 3's 4m
    assert con.sql("select seat from furiten_passes").fetchall() == []
    assert [intervals(con, seat) for seat in (0, 1, 2)] == [[], [], []]
