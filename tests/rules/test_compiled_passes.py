"""The compiled rules passes (rules/kernels_*.py behind rules.hands.hand_states, rules.visibility, rules.analysis and
rules.furiten): pinned values on hand-made rounds, malformed ones included (compiled_passes_expected: what the numpy
passes they replaced computed), and brute-force references (naive_replay) on well-formed hand-made rounds and on
rounds of every source of the real logs (../shared/logs; skipped without them)."""

from __future__ import annotations

from pathlib import Path

import compiled_passes_expected as expected
import naive_replay as naive
import numpy as np
import pytest

from pipeline.derive.inputs import part_tables, read_inputs, split_inputs
from pipeline.ingest import ingest
from pipeline.store.warehouse import Warehouse
from rules.analysis import analyse_states, live_waits, state_live_waits
from rules.furiten import current_waits, own_discard_furiten, seat_history
from rules.hands import CODE, EventArrays, add_counts, events_of_rounds, hand_states
from rules.visibility import closed_all_at, visibility
from rules.waits import KIND_BITS


def ints(text: str) -> list[int]:
    """The ints of a space-separated string."""
    return [int(word) for word in text.split()]


def matrix(rows: str | list[str]) -> list[list[int]]:
    """A matrix from a string per row, or from one string of rows separated by commas."""
    return [ints(row) for row in (rows.split(",") if isinstance(rows, str) else rows)]


def make_events(rounds: list[tuple[list[list[int]], list[tuple]]], red: list[bool]) -> EventArrays:
    """EventArrays of rounds given as (dealt hands per seat (empty: no hand), events (seat, action, tile, melds))."""
    round_id, seat, action, tile, melds, event_idx = [], [], [], [], [], []
    hands = np.full((len(rounds), 4, 13), -1, dtype=np.int64)
    for r, (dealt, events) in enumerate(rounds):
        for s, hand in enumerate(dealt):
            hands[r, s, : len(hand)] = hand
        for i, (who, what, which, meld) in enumerate(events):
            round_id.append(r)
            event_idx.append(i)
            seat.append(who)
            action.append(CODE.get(what, -1))
            tile.append(which)
            melds.append(meld)
    return EventArrays(
        round_id=np.array(round_id, dtype=np.int64),
        event_idx=np.array(event_idx, dtype=np.int64),
        seat=np.array(seat, dtype=np.int64),
        action=np.array(action, dtype=np.int64),
        tile=np.array(tile, dtype=np.int64),
        from_seat=np.full(len(round_id), -1, dtype=np.int64),
        meld_offsets=np.concatenate([[0], np.cumsum([len(m) for m in melds])]).astype(np.int64),
        meld_values=np.array([t for m in melds for t in m], dtype=np.int64),
        hands_start=hands,
        has_red_fives=np.array(red),
    )


TENPAI = [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48]
"""1m-9m 1p-4p: tenpai on 1p and 4p."""

HANDS = [
    [0, 1, 2, 36, 37, 38, 72, 73, 74, 108, 109, 112, 113],  # 111m 111p 111s 11z 22z: tenpai on 1z and 2z
    [4, 5, 6, 40, 41, 42, 76, 77, 78, 116, 117, 120, 121],
    [8, 9, 10, 44, 45, 46, 80, 81, 82, 124, 125, 128, 129],
    [12, 13, 14, 48, 49, 50, 84, 85, 86, 132, 133, 110, 114],
]
"""Four dealt hands of distinct tiles."""

EDGE = [
    (HANDS, [
        (0, "draw", -1, []),  # an unknown tile on the first row: its flat cell wraps to the last state's red 5s
        (0, "discard", 111, []),  # 1z discarded: its own wait (own-discard furiten)
        (1, "draw", 16, []), (1, "discard", 16, []),  # the red 5m
        (2, "pon", 16, [16, 17, 18]),  # the called tile is not from the hand
        (2, "discard", -1, []),  # an unknown discard: a wrapped cell, a first-discard cell of kind -1
        (3, "riichi", -1, []), (3, "draw", 52, []), (3, "discard", 52, []),  # the red 5p
        (-1, "dora", 60, []),
        (0, "draw", 3, []), (0, "ankan", 0, [0, 1, 2, 3]), (0, "draw", 108, []), (0, "discard", 108, []),
        (1, "draw", 39, []), (1, "kakan", 39, [36, 37, 38, 39]),  # a kakan of tiles never called: negative counts
        (1, "discard", 88, []), (2, "disconnect", -1, []),
    ]),
    ([HANDS[0], HANDS[1], HANDS[2], []], [
        (0, "draw", 88, []), (0, "kita", 88, []),  # the red 5s, in a round without red fives
        (0, "draw", 135, []), (0, "discard", 135, []),
        (-1, "discard", 134, []),  # a discard by no seat: its cells wrap to the previous round's seat 3
        (1, "draw", 2, []), (1, "discard", 2, []), (2, "chi", 2, [2, 5, 9]), (2, "discard", -1, []),
    ]),
    ([TENPAI, [], [], []], []),  # a round without events
    (HANDS, [(0, "draw", 120, []), (0, "discard", 120, [])]),
]  # fmt: skip
"""Malformed rounds exercising the passes' rare paths (expected.EDGE_*)."""

EDGE_DORA = np.array([60, 64, -1, 0])
"""The EDGE rounds' first dora indicators (a missing one, -1, reads kind 33)."""

SEAT3 = [12, 13, 14, 48, 49, 50, 20, 85, 86, 132, 133, 110, 114]
"""HANDS[3] with a 6m for a 4s."""

BUILT = [
    ([HANDS[0], HANDS[1], HANDS[2], SEAT3], [
        (0, "draw", 111, []), (0, "discard", 111, []), (1, "draw", 115, []), (1, "discard", 115, []),
        (2, "draw", 16, []), (2, "discard", 16, []), (3, "chi", 16, [12, 16, 20]), (3, "discard", 132, []),
        (0, "draw", 24, []), (0, "riichi", -1, []), (0, "discard", 24, []), (1, "draw", 39, []),
        (1, "discard", 39, []), (-1, "dora", 64, []), (2, "draw", 118, []), (2, "discard", 118, []),
    ]),
    ([TENPAI, [], [], []], []),
    ([HANDS[0], HANDS[1], HANDS[2], []], [
        (0, "draw", 120, []), (0, "kita", 120, []), (0, "draw", 122, []), (0, "discard", 122, []),
        (2, "draw", 11, []), (2, "ankan", 8, [8, 9, 10, 11]), (2, "draw", 100, []), (2, "discard", 100, []),
    ]),
]  # fmt: skip
"""Well-formed rounds: calls, a riichi, a later dora, a deal-only round, sanma with a kita (expected.BUILT_*)."""

BUILT_DORA = np.array([60, 4, 96])
"""The BUILT rounds' first dora indicators."""


def fixed_waits(n: int) -> np.ndarray:
    """Waits for n states, reaching every branch: mid-turn (-1), none (0), or three kinds (always 1z)."""
    i = np.arange(n)
    some = KIND_BITS[(7 * i) % 34] | KIND_BITS[(11 * i + 3) % 34] | KIND_BITS[27]
    return np.where(i % 3 == 0, -1, np.where(i % 5 == 1, 0, some))


# ---- pinned values on the malformed rounds --------------------------------------------------------------------------
@pytest.mark.parametrize("red", [True, False])
def test_hand_states_of_malformed_rounds(red: bool) -> None:
    states = hand_states(make_events(EDGE, [red, False, red, red]))
    for name, values in expected.EDGE_STATES.items():
        assert getattr(states, name).tolist() == ints(values), name
    assert states.counts.tolist() == matrix(expected.EDGE_COUNTS)
    assert states.red.tolist() == matrix(expected.EDGE_RED[red])
    assert states.suit_index.tolist() == matrix(expected.EDGE_SUIT_INDEX)
    dtypes = (states.counts.dtype, states.red.dtype, states.n_calls.dtype, states.n_closed.dtype)
    assert dtypes == (np.int8, np.int8, np.int8, np.int16)


def test_visibility_and_closed_hands_of_malformed_rounds() -> None:
    events = make_events(EDGE, [True, False, True, True])
    vis = visibility(events, EDGE_DORA)
    assert vis.public.dtype == np.int8 and vis.public.tolist() == matrix(expected.EDGE_PUBLIC)
    assert vis.public_start.tolist() == matrix(expected.EDGE_PUBLIC_START)
    n_rounds = len(EDGE)
    rid = np.r_[np.arange(n_rounds), events.round_id]
    row = np.r_[np.full(n_rounds, -1), np.arange(len(events.action))]
    assert closed_all_at(hand_states(events), rid, row).tolist() == matrix(expected.EDGE_CLOSED_ALL)


def test_furiten_passes_of_malformed_rounds() -> None:
    events = make_events(EDGE, [True, False, True, True])
    states = hand_states(events)
    history = seat_history(events)
    for name, (keys, items, stride) in expected.EDGE_HISTORY.items():
        index = getattr(history, name)
        assert (index.keys.tolist(), index.items.tolist(), index.stride) == (ints(keys), ints(items), stride), name
    assert history.discarded.tolist() == ints(expected.EDGE_DISCARDED)
    waits = fixed_waits(len(states.seat))
    assert current_waits(states, waits, events).tolist() == matrix(expected.EDGE_CURRENT_WAITS)
    own = own_discard_furiten(states, waits, history, events)
    assert own.dtype == np.int8 and own.tolist() == ints(expected.EDGE_OWN_FURITEN)
    live = state_live_waits(states, visibility(events, EDGE_DORA), waits, np.flatnonzero(waits > 0))
    assert [values.tolist() for values in live] == [ints(values) for values in expected.EDGE_LIVE]


def test_analysis_of_built_rounds() -> None:
    events = make_events(BUILT, [True, False, True])
    analysis = analyse_states(hand_states(events), visibility(events, BUILT_DORA))
    for name, values in expected.BUILT_ANALYSIS.items():
        assert analysis[name].tolist() == ints(values), name


def test_rounds_without_events_and_ids_out_of_range() -> None:
    states = hand_states(make_events([([TENPAI, [], [], []], [])], [True]))
    assert states.event_row.tolist() == [-1] and states.n_closed.tolist() == [13]
    assert states.counts[0].tolist() == [1] * 13 + [0] * 21
    assert states.suit_index[0].tolist() == [488281, 156, 0, 0]  # 5 ** 0 + ... + 5 ** 8; 1 + 5 + 25 + 125
    with pytest.raises(IndexError):
        hand_states(make_events([(HANDS, [(0, "draw", 136, [])])], [True]))
    with pytest.raises(IndexError):
        hand_states(make_events([([[*HANDS[0][:12], 200], [], [], []], [])], [True]))  # a dealt id too


def test_live_waits_of_given_counts() -> None:
    own = np.zeros((3, 34), dtype=np.int8)
    own[0, 27], own[1, 27], own[2, [0, 8]] = 2, 4, 4
    public = np.zeros((3, 34), dtype=np.int8)
    public[0, 27], public[2, 0] = 1, -3  # a negative count (a malformed log) is no wrap
    closed = own.copy()
    closed[0, 27] = 3
    masks = np.array([KIND_BITS[27], KIND_BITS[27], KIND_BITS[0] | KIND_BITS[8]])
    got = live_waits(masks, own, public, closed)
    assert [values.tolist() for values in got] == [[1, 0, 3], [0, 0, 3], [False, True, True]]


def test_add_counts_puts_an_unknown_kind_on_the_previous_cell() -> None:
    counts = add_counts(np.array([0, 2, 3]), np.array([-1, -1, 4]), np.array([1, 1, -1]), (4, 6))
    assert counts.tolist() == [[0] * 6, [0] * 5 + [1], [0] * 6, [0, 0, 0, 0, -1, 1]]


# ---- brute-force references -----------------------------------------------------------------------------------------
def check_against_replay(events: EventArrays, dora: np.ndarray, where: str) -> None:
    """Every pass against naive_replay on well-formed events."""
    states = hand_states(events)
    replayed = naive.replay_hands(events)
    fields = ("round_id", "seat", "event_row", "event_idx", "after_action", "n_calls")
    for name in fields:
        assert getattr(states, name).tolist() == [getattr(s, name) for s in replayed], f"{where} {name}"
    counts = np.array([s.counts for s in replayed]).reshape(-1, 37)
    assert np.array_equal(states.counts, counts[:, :34]) and np.array_equal(states.red, counts[:, 34:]), where
    assert states.n_closed.tolist() == counts[:, :34].sum(axis=1).tolist(), where
    assert states.suit_index.tolist() == [naive.suit_index(c) for c in counts], where
    vis = visibility(events, dora)
    public, start = naive.replay_public(events, dora)
    assert np.array_equal(vis.public, public) and np.array_equal(vis.public_start, start), where
    rounds = naive.by_round(replayed)
    sample = np.arange(0, len(events.action), 7)  # every 7th event: a plain loop per moment is slow
    expected_closed = [naive.closed_all([s for _, s in rounds[int(events.round_id[e])]], events.round_id[e], e)
                       for e in sample]  # fmt: skip
    assert closed_all_at(states, events.round_id[sample], sample).tolist() == np.array(expected_closed).tolist()
    analysis = analyse_states(states, vis)
    waits = analysis["waits_mask"]
    for i in np.flatnonzero(waits > 0).tolist():
        state = replayed[i]
        shown = public[state.event_row] if state.event_row >= 0 else start[state.round_id]
        closed = naive.closed_all([s for _, s in rounds[state.round_id]], state.round_id, state.event_row)
        live = (analysis["live_waits_public"][i], analysis["live_waits_actual"][i], analysis["is_pure_karaten"][i])
        assert live == naive.live_waits(int(waits[i]), state.counts, shown, closed), f"{where} state {i}"
    history = seat_history(events)
    for name, actions in (("riichi", ("riichi",)), ("discards", ("discard",)), ("changes", naive.HAND_CHANGES)):
        index = getattr(history, name)
        assert (index.keys.tolist(), index.items.tolist()) == naive.seat_rows(events, actions), f"{where} {name}"
    keys, discarded = naive.first_discards(events)
    assert history.first_discards.keys.tolist() == keys and history.discarded.tolist() == discarded, where
    for masks in (waits, fixed_waits(len(waits))):
        assert np.array_equal(current_waits(states, masks, events), naive.current_waits(events, replayed, masks))
        own = own_discard_furiten(states, masks, history, events).tolist()
        assert own == naive.own_discard_furiten(events, replayed, masks), where


def test_passes_equal_a_plain_replay_of_built_rounds() -> None:
    check_against_replay(make_events(BUILT, [True, False, True]), BUILT_DORA, "built")
    check_against_replay(make_events(BUILT[:1], [False]), BUILT_DORA[:1], "built, no red fives")


@pytest.fixture(scope="module")
def real_samples(shared_logs: Path, tmp_path_factory: pytest.TempPathFactory) -> list:
    """(events, dora indicators) of the first 20 rounds of every part of a warehouse of ../shared/logs (every
    source), as paipu derive reads them."""
    warehouse = Warehouse(tmp_path_factory.mktemp("passes") / "warehouse")
    ingest([shared_logs], warehouse)
    games = warehouse.root / "games"
    samples = []
    for part in warehouse.table_files("games"):
        chunk = next(split_inputs(read_inputs(part_tables(warehouse.root, part.relative_to(games)))))
        rounds = np.arange(min(20, chunk.rounds.num_rows))
        events, _ = events_of_rounds(chunk.arrays, rounds)
        samples.append((events, chunk.rounds["dora_indicator"].to_numpy()[rounds], str(part.relative_to(games))))
    assert len(samples) > 3
    return samples


def test_passes_equal_a_plain_replay_of_real_rounds(real_samples: list) -> None:
    for events, dora, where in real_samples:
        check_against_replay(events, dora, where)
