"""Contract tests over the derivations: outputs aligned to inputs, declared columns produced, no round leaking
into another, and hand invariants on the real logs (checked against a naive replay written here).

Inputs are the real-log warehouse's parts (fixture ``tenhou_warehouse``, ingested and derived once), read the
way ``paipu derive`` reads them.
"""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from naive_replay import moves

from pipeline.derive.inputs import RoundInputs, part_tables, read_inputs
from pipeline.derive.registry import derive_part
from pipeline.schema import DERIVED_TABLES, arrow_schema
from rules.analysis import analyse_states
from rules.hands import CODE, EventArrays, HandStates, hand_states
from rules.nagashi import nagashi_eligible
from rules.tenhou_draws import DRAW_KINDS_WITH_HANDS
from rules.visibility import Visibility, closed_all_at, visibility

HAND_CHANGING = ("draw", "discard", "chi", "pon", "daiminkan", "kakan", "ankan", "kita")
"""Actions that add tiles to or take tiles from a closed hand."""

RED_FIVES = {16: 0, 52: 1, 88: 2}
"""136-id of each red five -> its column in HandStates.red."""


@pytest.fixture(scope="module")
def parts(tenhou_warehouse) -> list[tuple[Path, RoundInputs]]:  # noqa: ANN001
    """Every games part of the real-log warehouse with its derivation inputs."""
    warehouse = tenhou_warehouse[0]
    games_root = warehouse.root / "games"
    out = []
    for part in warehouse.table_files("games"):
        relative = part.relative_to(games_root)
        out.append((relative, read_inputs(part_tables(warehouse.root, relative))))
    assert out
    return out


def dora_of(inputs: RoundInputs) -> np.ndarray:
    return inputs.rounds["dora_indicator"].to_numpy()


def run_rules(inputs: RoundInputs) -> tuple[HandStates, Visibility, dict[str, np.ndarray]]:
    states = hand_states(inputs.arrays)
    vis = visibility(inputs.arrays, dora_of(inputs))
    return states, vis, analyse_states(states, vis)


@pytest.fixture(scope="module")
def ruled(parts) -> list[tuple[Path, RoundInputs, HandStates, Visibility, dict[str, np.ndarray]]]:  # noqa: ANN001
    """Every part with its hand states, visibility and analysis."""
    return [(relative, inputs, *run_rules(inputs)) for relative, inputs in parts]


# ---- output aligned to the input ---------------------------------------------------------------------------------
def test_hand_states_one_deal_per_seat_and_one_state_per_hand_changing_event(ruled) -> None:  # noqa: ANN001
    for _, inputs, states, _, _ in ruled:
        events = inputs.arrays
        n = len(states.round_id)
        assert {f.name: len(getattr(states, f.name)) for f in fields(HandStates)} == dict.fromkeys(
            [f.name for f in fields(HandStates)], n
        )
        assert np.array_equal(np.lexsort((states.event_row, states.seat, states.round_id)), np.arange(n))
        deal = states.event_row == -1
        dealt_round, dealt_seat = np.nonzero((events.hands_start >= 0).any(axis=2))
        assert sorted(zip(states.round_id[deal], states.seat[deal], strict=True)) == sorted(
            zip(dealt_round, dealt_seat, strict=True)
        )
        rows = states.event_row[~deal]
        changing = np.flatnonzero(np.isin(events.action, [CODE[a] for a in HAND_CHANGING]))
        assert np.array_equal(np.sort(rows), changing)
        assert np.array_equal(states.seat[~deal], events.seat[rows])
        assert np.array_equal(states.round_id[~deal], events.round_id[rows])
        assert np.array_equal(states.event_idx[~deal], events.event_idx[rows])
        assert (states.event_idx[deal] == -1).all()


def test_analysis_and_derived_columns_have_the_length_of_their_rows(ruled) -> None:  # noqa: ANN001
    for _, inputs, states, vis, analysis in ruled:
        n = len(states.round_id)
        assert {k: len(v) for k, v in analysis.items()} == dict.fromkeys(analysis, n)
        n_events = len(inputs.arrays.action)
        assert vis.public.shape == (n_events, 34)
        n_rounds = inputs.rounds.num_rows
        assert vis.public_start.shape == (n_rounds, 34)
        tables = derive_part(inputs)
        for table, columns in tables.items():
            lengths = {name: len(values) for name, values in columns.items()}
            assert len(set(lengths.values())) == 1, f"{table}: {lengths}"
        assert len(tables["hand_states"]["seat"]) == n
        kinds = inputs.rounds["draw_kind"].to_numpy(zero_copy_only=False)
        with_hands = (inputs.arrays.hands_start >= 0).any(axis=2)
        assert len(tables["draw_outcomes"]["seat"]) == with_hands[np.isin(kinds, DRAW_KINDS_WITH_HANDS)].sum()


# ---- declared columns produced -------------------------------------------------------------------------------
def test_derive_part_returns_exactly_the_declared_columns(parts) -> None:  # noqa: ANN001
    tables = derive_part(parts[0][1])
    assert {t: sorted(c) for t, c in tables.items()} == {
        t: sorted(c.name for c in cols) for t, cols in DERIVED_TABLES.items()
    }


def test_written_parquet_has_the_declared_columns_and_types(tenhou_warehouse) -> None:  # noqa: ANN001
    warehouse = tenhou_warehouse[0]
    n_parts = len(warehouse.table_files("games"))
    for table in DERIVED_TABLES:
        declared = arrow_schema(table)
        files = warehouse.table_files(table)
        assert 0 < len(files) <= n_parts, table
        for path in files:
            schema = pq.read_schema(path)
            assert schema.names == declared.names, path
            assert [f.type for f in schema] == [f.type for f in declared], path


# ---- nothing leaks from one round into another ---------------------------------------------------------------
def reorder_rounds(events: EventArrays, order: np.ndarray) -> tuple[EventArrays, np.ndarray]:
    """The rounds ``order`` (original round ids, any subset) as a new EventArrays numbered 0.. in that order;
    also the original row of each new event row."""
    n_events, n_rounds = len(events.action), len(events.hands_start)
    assert n_events != n_rounds
    rows = np.concatenate([np.flatnonzero(events.round_id == r) for r in order])
    new_id = np.full(n_rounds, -1)
    new_id[order] = np.arange(len(order))
    starts, lengths = events.meld_offsets[rows], np.diff(events.meld_offsets)[rows]
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    take = np.repeat(starts - offsets[:-1], lengths) + np.arange(offsets[-1])
    changes: dict[str, np.ndarray] = {"meld_offsets": offsets, "meld_values": events.meld_values[take]}
    for f in fields(EventArrays):
        value = getattr(events, f.name)
        if f.name in changes:
            continue
        if f.name == "round_id":
            changes[f.name] = new_id[value[rows]]
        elif len(value) == n_events:
            changes[f.name] = value[rows]
        else:
            assert len(value) == n_rounds, f.name
            changes[f.name] = value[order]
    return replace(events, **changes), rows


def by_state(states: HandStates, analysis: dict[str, np.ndarray], original_round: np.ndarray) -> dict:
    """Every state column keyed and sorted by (original round, seat, event_idx)."""
    key = original_round[states.round_id]
    order = np.lexsort((states.event_idx, states.seat, key))
    columns = {"round": key, "seat": states.seat, "event_idx": states.event_idx, "counts": states.counts,
               "red": states.red, "n_calls": states.n_calls, **analysis}  # fmt: skip
    return {name: np.asarray(values)[order] for name, values in columns.items()}


def test_shuffling_and_dropping_rounds_changes_no_other_rounds_results(ruled) -> None:  # noqa: ANN001
    rng = np.random.default_rng(7)
    for relative, inputs, states, vis, analysis in ruled:
        events, n_rounds = inputs.arrays, inputs.rounds.num_rows
        if n_rounds < 3:
            continue
        # the rounds shuffled, one of them left out
        order = np.delete(rng.permutation(n_rounds), int(rng.integers(n_rounds)))
        moved, rows = reorder_rounds(events, order)
        states_m = hand_states(moved)
        vis_m = visibility(moved, dora_of(inputs)[order])
        kept = np.isin(states.round_id, order)
        sub = HandStates(*(getattr(states, f.name)[kept] for f in fields(HandStates)))
        expected = by_state(sub, {k: v[kept] for k, v in analysis.items()}, np.arange(n_rounds))
        got = by_state(states_m, analyse_states(states_m, vis_m), order)
        for name, values in expected.items():
            np.testing.assert_array_equal(got[name], values, err_msg=f"{relative}: {name}")
        np.testing.assert_array_equal(vis_m.public, vis.public[rows])
        np.testing.assert_array_equal(vis_m.public_start, vis.public_start[order])
        # all hands after each moved event: as after the same event in place
        np.testing.assert_array_equal(
            closed_all_at(states_m, moved.round_id, np.arange(len(moved.round_id))),
            closed_all_at(states, events.round_id[rows], rows),
        )
        np.testing.assert_array_equal(nagashi_eligible(moved, len(order)), nagashi_eligible(events, n_rounds)[order])


def test_all_hands_at_every_event_equal_a_running_sum_of_every_tile_in_and_out(ruled) -> None:  # noqa: ANN001
    for relative, inputs, states, _, _ in ruled:
        events = inputs.arrays
        n_rounds, n_events = len(events.hands_start), len(events.round_id)
        # reference: the dealt tiles, then each event's tiles in and out, summed round by round in a plain loop
        dealt = np.zeros((n_rounds, 34), dtype=np.int64)
        dealt_round = np.nonzero(events.hands_start >= 0)[0]
        np.add.at(dealt, (dealt_round, events.hands_start[events.hands_start >= 0] // 4), 1)
        step = np.zeros((n_events, 34), dtype=np.int64)
        for e in range(n_events):
            for tile, delta in moves(events, e):  # naive_replay's reading of each event's tiles
                step[e, tile // 4] += delta
        expected = np.zeros_like(step)
        for i in range(n_events):
            same_round = i > 0 and events.round_id[i] == events.round_id[i - 1]
            expected[i] = (expected[i - 1] if same_round else dealt[events.round_id[i]]) + step[i]
        np.testing.assert_array_equal(closed_all_at(states, events.round_id, np.arange(n_events)), expected, relative)
        np.testing.assert_array_equal(closed_all_at(states, np.arange(n_rounds), np.full(n_rounds, -1)), dealt)


def test_first_state_of_every_round_and_seat_is_its_dealt_hand(ruled) -> None:  # noqa: ANN001
    for _, inputs, states, _, _ in ruled:
        first = np.flatnonzero(
            np.r_[True, (states.round_id[1:] != states.round_id[:-1]) | (states.seat[1:] != states.seat[:-1])]
        )
        assert (states.event_row[first] == -1).all()
        dealt = inputs.rounds["hands_start"].to_pylist()
        has_red = inputs.rounds["has_red_fives"].to_pylist()
        for i in first.tolist():
            hand = dealt[states.round_id[i]][states.seat[i]]
            assert len(hand) == 13
            np.testing.assert_array_equal(states.counts[i], np.bincount(np.array(hand) // 4, minlength=34))
            red = [0, 0, 0]
            for t in hand:
                if t in RED_FIVES and has_red[states.round_id[i]]:
                    red[RED_FIVES[t]] += 1
            assert states.red[i].tolist() == red


def test_counts_stay_real_hands_and_never_exceed_four_copies_with_the_table(ruled) -> None:  # noqa: ANN001
    for relative, inputs, states, vis, _ in ruled:
        assert states.counts.min() >= 0 and states.counts.max() <= 4, relative
        assert states.red.min() >= 0 and states.red.max() <= 1, relative
        assert (states.red <= states.counts[:, [4, 13, 22]]).all(), relative
        events = inputs.arrays
        n_rounds = len(events.hands_start)
        closed = closed_all_at(states, events.round_id, np.arange(len(events.round_id)))
        closed_start = closed_all_at(states, np.arange(n_rounds), np.full(n_rounds, -1))
        for public, closed_all in ((vis.public, closed), (vis.public_start, closed_start)):
            assert public.min() >= 0 and closed_all.min() >= 0, relative
            assert (public.astype(int) + closed_all).max() <= 4, relative
        # a tile once visible stays visible for the rest of its round
        same_round = inputs.arrays.round_id[1:] == inputs.arrays.round_id[:-1]
        assert (np.diff(vis.public.astype(int), axis=0)[same_round] >= 0).all(), relative


# ---- invariants on the real logs -----------------------------------------------------------------------------
def test_every_state_after_a_discard_holds_thirteen_tiles_counting_calls(tenhou_db) -> None:  # noqa: ANN001
    n_discards, bad = tenhou_db.sql(
        """
        select count(*), count(*) filter (where h.n_closed + 3 * h.n_calls != 13)
        from events as e
        left join hand_states as h using (game_id, round_idx, seat, event_idx)
        where e.action = 'discard'
        """
    ).fetchall()[0]
    assert n_discards > 50_000 and bad == 0


def test_state_rows_are_sane_in_the_written_table(tenhou_db) -> None:  # noqa: ANN001
    bad = tenhou_db.sql(
        """
        select count(*) from hand_states
        where list_min(counts) < 0 or list_max(counts) > 4 or n_closed != list_sum(counts)
           or list_min(red_fives) < 0 or red_fives[1] > counts[5] or red_fives[2] > counts[14]
           or red_fives[3] > counts[23]
        """
    ).fetchall()[0][0]
    deals = tenhou_db.sql(
        "select count(*), count(distinct (game_id, round_idx, seat)) from hand_states where event_idx is null"
    ).fetchall()[0]
    seats_dealt = tenhou_db.sql(
        "select sum(len(list_filter(hands_start, lambda h: len(h) > 0))) from rounds"
    ).fetchall()[0][0]
    assert bad == 0 and deals == (seats_dealt, seats_dealt)


def naive_replay(dealt: list[list[int]], events: list[dict]) -> list[tuple[int, int | None, list[int], int]]:
    """(seat, event_idx, held 136-ids, calls) after the deal and after each event changing a hand, in the
    order they happen, by replaying the round tile by tile."""
    held = {seat: list(hand) for seat, hand in enumerate(dealt) if hand}
    calls = dict.fromkeys(held, 0)
    out = [(seat, None, sorted(hand), 0) for seat, hand in held.items()]
    for e in events:
        seat, action, tile = e["seat"], e["action"], e["tile"]
        if action == "draw":
            held[seat].append(tile)
        elif action in ("discard", "kakan", "kita"):
            held[seat].remove(tile)
        elif action in ("chi", "pon", "daiminkan", "ankan"):
            own = list(e["meld_tiles"])
            if action != "ankan":
                own.remove(tile)  # the called tile came from another seat's pond
            for t in own:
                held[seat].remove(t)
            calls[seat] += 1
        else:
            continue
        out.append((seat, e["event_idx"], sorted(held[seat]), calls[seat]))
    return out


def test_hand_states_equal_a_naive_replay_of_chosen_rounds(tenhou_db) -> None:  # noqa: ANN001
    chosen = tenhou_db.sql(
        """
        select distinct on (action) action, game_id, round_idx from events
        where action in ('chi', 'kakan', 'daiminkan', 'ankan', 'kita')
        order by action, game_id, round_idx
        """
    ).fetchall()
    assert len(chosen) == 5, chosen
    for action, game_id, round_idx in chosen:
        key = {"game": game_id, "round": round_idx}
        where = "where game_id = $game and round_idx = $round"
        dealt, has_red = tenhou_db.sql(
            f"select hands_start, has_red_fives from rounds join games using (game_id) {where}", params=key
        ).fetchall()[0]
        events = tenhou_db.sql(f"select * from events {where} order by event_idx", params=key).to_arrow_table()
        expected = naive_replay(dealt, events.to_pylist())
        assert action in events["action"].to_pylist()
        states = tenhou_db.sql(
            f"select seat, event_idx, counts, red_fives, n_calls from hand_states {where}", params=key
        ).to_arrow_table()
        got = {(r["seat"], r["event_idx"]): r for r in states.to_pylist()}
        assert len(got) == len(expected) == states.num_rows, (action, game_id, round_idx)
        for seat, event_idx, held, calls in expected:
            row = got[(seat, event_idx)]
            assert row["counts"] == np.bincount(np.array(held, dtype=int) // 4, minlength=34).tolist()
            assert row["red_fives"] == [int(has_red and red in held) for red in RED_FIVES]
            assert row["n_calls"] == calls, (action, game_id, round_idx, seat, event_idx)


def test_waits_are_asked_after_discards_and_deals_and_not_after_draws_or_open_calls(tenhou_db) -> None:  # noqa: ANN001
    rows = tenhou_db.sql(
        """
        select coalesce(e.action, 'deal'), count(*), count(h.waits_mask)
        from hand_states as h
        left join events as e using (game_id, round_idx, seat, event_idx)
        where e.action is null or e.action in ('discard', 'draw', 'chi', 'pon')
        group by all
        """
    ).fetchall()
    with_waits = {made_by: (n, n_waits) for made_by, n, n_waits in rows}
    for made_by in ("deal", "discard"):
        assert with_waits[made_by][1] == with_waits[made_by][0], made_by
    for made_by in ("draw", "chi", "pon"):
        assert with_waits[made_by][1] == 0, made_by


def test_states_waiting_for_a_replacement_draw_have_no_waits(tenhou_db) -> None:  # noqa: ANN001
    n_states, with_waits = tenhou_db.sql(
        """
        select count(*), count(h.waits_mask)
        from hand_states as h
        join events as e using (game_id, round_idx, seat, event_idx)
        where e.action in ('ankan', 'daiminkan', 'kakan', 'kita')
        """
    ).fetchall()[0]
    assert n_states > 0 and with_waits == 0


# ---- a game derives the same whatever games share its part -----------------------------------------------------
def test_every_game_derives_alone_as_in_its_part(parts) -> None:  # noqa: ANN001
    """derive_part over a whole part equals derive_part game by game, table by table (a round without
    events once broke the sorted search keys of the games before it)."""
    import pyarrow as pa  # noqa: PLC0415

    from pipeline.derive.inputs import split_inputs  # noqa: PLC0415
    from pipeline.schema import to_arrow  # noqa: PLC0415

    for relative, inputs in parts:
        whole = derive_part(inputs)
        alone = [derive_part(game) for game in split_inputs(inputs, games_per_chunk=1)]
        assert len(alone) == len(set(inputs.rounds["game_id"].to_pylist()))
        for table in DERIVED_TABLES:
            together = to_arrow(table, whole[table])
            one_by_one = pa.concat_tables([to_arrow(table, game[table]) for game in alone])
            # rows compared as sets (the furiten table lists a part's intervals kind by kind)
            keys = [(c, "ascending") for c in together.column_names if not pa.types.is_nested(together[c].type)]
            assert together.sort_by(keys).equals(one_by_one.sort_by(keys)), (relative, table)


def test_a_part_read_in_slices_derives_as_read_whole(tenhou_warehouse) -> None:  # noqa: ANN001
    """game_slices (how derive bounds its memory on a merged part) cuts every fact table by the same games, in
    game id order: deriving slice by slice gives the rows of the whole part (in the same order, but for the
    furiten table, which lists a chunk's intervals kind by kind; slices of GAMES_PER_READ games are cut into
    the same chunks as the whole part)."""
    from pipeline.derive.inputs import game_slices, split_inputs  # noqa: PLC0415
    from pipeline.schema import to_arrow  # noqa: PLC0415

    warehouse = tenhou_warehouse[0]
    sliced_at_least_once = False
    for part in warehouse.table_files("games"):
        tables = part_tables(warehouse.root, part.relative_to(warehouse.root / "games"))
        slices = list(game_slices(tables, games_per_slice=3))
        sliced_at_least_once |= len(slices) > 1
        assert sum(piece["games"].num_rows for piece in slices) == tables["games"].num_rows
        whole = [derive_part(chunk) for chunk in split_inputs(read_inputs(tables))]
        sliced = [derive_part(chunk) for piece in slices for chunk in split_inputs(read_inputs(piece))]
        for table in DERIVED_TABLES:
            expected = pa.concat_tables([to_arrow(table, out[table]) for out in whole])
            got = pa.concat_tables([to_arrow(table, out[table]) for out in sliced])
            if table == "furiten":
                keys = [(c, "ascending") for c in got.column_names]
                got, expected = got.sort_by(keys), expected.sort_by(keys)
            assert got.equals(expected), (part, table)
    assert sliced_at_least_once
