"""Decompositions and fu (rules.scoring): the per-suit tables, every reading of a hand, each fu component.

Hands are written in MPSZ: ``closed`` holds the closed tiles with the winning tile, ``calls`` the called melds.
Fu are checked component by component (rules.scoring.fu.COMPONENTS); components absent from a case are 0.
"""

from __future__ import annotations

import numpy as np
import pytest

from rules.scoring import Context, score_wins
from rules.scoring.decompose import readings
from rules.scoring.fu import COMPONENTS
from rules.scoring.inputs import FORMS, WAITS, hand_of, stack_hands
from rules.scoring.tables import SUITS, build_tables, table_checksum, tables

TABLE_SHA256 = "8d555162a2816a09c6999b241741c4d0782687adae47c7f6411b40972471a744"


def fu_of(closed: str, win: str, calls: tuple[str, ...] = (), tsumo: bool = False, **context: int) -> dict[str, int]:
    """The chosen reading's non-zero fu components, plus 'total'."""
    scores = score_wins(hand_of(closed, win, calls, tsumo), Context.plain(1, **context))
    parts = {name: int(v) for name, v in zip(COMPONENTS, scores.fu_parts[0], strict=True) if v}
    return {**parts, "total": int(scores.fu[0])}


def test_decomposition_tables_match_their_checksum() -> None:
    assert table_checksum(tables()) == TABLE_SHA256


def test_decomposition_tables_regenerate_identically() -> None:
    built = {suit: build_tables(n_kinds, sequences) for suit, (n_kinds, sequences) in SUITS.items()}
    assert table_checksum(built) == TABLE_SHA256


@pytest.mark.parametrize(
    ("closed", "win", "expected"),
    [
        # three identical sequences or three triplets; the winning 3m closes a 123m (penchan) or 333m
        ("111222333m456p77z", "3m", {("penchan", "regular"): 3, ("shanpon", "regular"): 1}),
        # 234p 234p 567p 567p 88p (5p closes either 567p: ryanmen), 234p 234p 678p 678p 55p (tanki),
        # 345p 345p 678p 678p 22p (5p closes either 345p: ryanmen), and seven pairs
        ("22334455667788p", "5p", {("ryanmen", "regular"): 4, ("tanki", "regular"): 1, ("tanki", "chiitoitsu"): 1}),
        ("19m19p19s12345677z", "7z", {("thirteen_sided", "kokushi"): 1}),  # all 13 kinds held before the 7z
        ("19m19p19s1234567z1m", "7z", {("tanki", "kokushi"): 1}),  # 1m paired before: the 7z was the only wait
        ("123m456p789s1234z", "4z", {}),  # not complete: no reading
    ],
)  # fmt: skip
def test_every_reading_of_a_hand(closed: str, win: str, expected: dict[tuple[str, str], int]) -> None:
    found = readings(hand_of(closed, win))
    counted: dict[tuple[str, str], int] = {}
    for wait, form in zip(found.wait, found.form, strict=True):
        key = (WAITS[wait], FORMS[form])
        counted[key] = counted.get(key, 0) + 1
    assert counted == expected


def test_called_melds_come_first_and_are_never_the_winning_slot() -> None:
    found = readings(hand_of("234m567p88s", "8s", ("pon 888s", "chi 789s")))
    assert len(found) == 1
    assert found.is_called[0].tolist() == [True, True, False, False]
    assert found.win_slot[0] == 4  # the pair: tanki (the 8s pon is called)


FU_CASES = [
    # the seed's worked example: closed 555m (4), open 666s (2), two chows, dragon pair (2), tanki (2), tsumo (2)
    pytest.param("555m234p678p77z", "7z", ("pon 666s",), True, {},
                 {"base": 20, "closed_triplet_simple": 4, "open_triplet_simple": 2, "value_pair": 2, "wait": 2,
                  "tsumo": 2, "rounding": 8, "total": 40}, id="seed-32-rounds-to-40"),
    pytest.param("234m567p234456s88m", "4s", (), True, {}, {"base": 20, "total": 20}, id="pinfu-tsumo-20"),
    pytest.param("234m567p234456s88m", "4s", (), False, {}, {"base": 20, "closed_ron": 10, "total": 30},
                 id="pinfu-ron-30"),
    pytest.param("1122m3344p5566s77z", "7z", (), False, {}, {"chiitoitsu": 25, "total": 25}, id="chiitoitsu-25"),
    pytest.param("1122m3344p5566s77z", "7z", (), True, {}, {"chiitoitsu": 25, "total": 25}, id="chiitoitsu-tsumo-25"),
    pytest.param("234m567p34566s", "5s", ("chi 678p",), False, {}, {"base": 20, "open_pinfu": 10, "total": 30},
                 id="open-pinfu-shape-30"),
    pytest.param("234m567p34566s", "5s", ("chi 678p",), True, {}, {"base": 20, "tsumo": 2, "rounding": 8,
                 "total": 30}, id="open-pinfu-shape-tsumo-30"),
    pytest.param("234m567p345s678s11z", "8s", (), False, {"seat_wind": 0, "round_wind": 0},
                 {"base": 20, "value_pair": 4, "closed_ron": 10, "rounding": 6, "total": 40}, id="double-wind-pair-4"),
    pytest.param("234m567p345s678s22z", "8s", (), False, {"seat_wind": 1, "round_wind": 0},
                 {"base": 20, "value_pair": 2, "closed_ron": 10, "rounding": 8, "total": 40}, id="seat-wind-pair-2"),
    pytest.param("234m567p345s678s11z", "8s", (), False, {"seat_wind": 1, "round_wind": 0},
                 {"base": 20, "value_pair": 2, "closed_ron": 10, "rounding": 8, "total": 40}, id="round-wind-pair-2"),
    pytest.param("234m567p345s678s77z", "8s", (), False, {}, {"base": 20, "value_pair": 2, "closed_ron": 10,
                 "rounding": 8, "total": 40}, id="dragon-pair-2"),
    pytest.param("234m567p345s678s44z", "8s", (), False, {"seat_wind": 1, "round_wind": 0},
                 {"base": 20, "closed_ron": 10, "total": 30}, id="guest-wind-pair-0"),
    pytest.param("234m567p345s88m", "5s", ("open_kan 5555p",), False, {},
                 {"base": 20, "open_kan_simple": 8, "rounding": 2, "total": 30}, id="open-kan-simple-8"),
    pytest.param("234m567p345s88m", "5s", ("open_kan 9999s",), False, {},
                 {"base": 20, "open_kan_terminal": 16, "rounding": 4, "total": 40}, id="open-kan-terminal-16"),
    pytest.param("234m567p345s88m", "5s", ("closed_kan 2222m",), False, {},
                 {"base": 20, "closed_kan_simple": 16, "closed_ron": 10, "rounding": 4, "total": 50},
                 id="closed-kan-simple-16"),
    pytest.param("234m567p345s88m", "5s", ("closed_kan 1111z",), False, {"seat_wind": 1, "round_wind": 1},
                 {"base": 20, "closed_kan_terminal": 32, "closed_ron": 10, "rounding": 8, "total": 70},
                 id="closed-kan-honor-32"),
    pytest.param("234m567p345s88m", "5s", ("pon 444p",), False, {},
                 {"base": 20, "open_triplet_simple": 2, "rounding": 8, "total": 30}, id="open-triplet-simple-2"),
    pytest.param("234m567p345s88m", "5s", ("pon 111p",), False, {},
                 {"base": 20, "open_triplet_terminal": 4, "rounding": 6, "total": 30}, id="open-triplet-terminal-4"),
    pytest.param("444m567p345s88m123m", "3m", (), False, {},
                 {"base": 20, "closed_triplet_simple": 4, "wait": 2, "closed_ron": 10, "rounding": 4, "total": 40},
                 id="closed-triplet-simple-4-penchan-2"),
    pytest.param("999m567p345s88m123p", "2p", (), False, {},
                 {"base": 20, "closed_triplet_terminal": 8, "wait": 2, "closed_ron": 10, "total": 40},
                 id="closed-triplet-terminal-8-kanchan-2"),
    # a shanpon completed by a ron: that triplet counts as open (9s: 4 fu), the other one concealed (1z: 8 fu)
    pytest.param("234m567p55m111z999s", "9s", (), False, {"seat_wind": 1, "round_wind": 1},
                 {"base": 20, "open_triplet_terminal": 4, "closed_triplet_terminal": 8, "closed_ron": 10,
                  "rounding": 8, "total": 50}, id="ron-shanpon-triplet-is-open"),
    pytest.param("234m567p55m111z999s", "9s", (), True, {"seat_wind": 1, "round_wind": 1},
                 {"base": 20, "closed_triplet_terminal": 16, "tsumo": 2, "rounding": 2, "total": 40},
                 id="tsumo-shanpon-triplets-are-closed"),
    # 123m or 345m may hold the winning 3m: the penchan reading (2 fu more) is worth more on this tsumo
    pytest.param("123345m999p789s22p", "3m", (), True, {"is_riichi": True},
                 {"base": 20, "closed_triplet_terminal": 8, "wait": 2, "tsumo": 2, "rounding": 8, "total": 40},
                 id="wait-reading-with-more-fu"),
    pytest.param("19m19p19s1234567z1m", "1m", (), False, {}, {"total": 0}, id="kokushi-0-as-tenhou-records"),
]  # fmt: skip


@pytest.mark.parametrize(("closed", "win", "calls", "tsumo", "context", "expected"), FU_CASES)
def test_fu_components(
    closed: str, win: str, calls: tuple[str, ...], tsumo: bool, context: dict[str, int], expected: dict[str, int]
) -> None:
    assert fu_of(closed, win, calls, tsumo, **context) == expected


def test_fu_components_add_up_for_many_hands_at_once() -> None:
    hands = [hand_of(closed, win, calls, tsumo) for closed, win, calls, tsumo, *_ in (c.values for c in FU_CASES)]
    scores = score_wins(stack_hands(hands), Context.plain(len(hands)))
    assert np.array_equal(scores.fu_parts.sum(axis=1), scores.fu)
    assert ((scores.fu % 10 == 0) | (scores.fu == 25)).all()
