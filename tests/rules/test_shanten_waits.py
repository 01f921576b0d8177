"""Shanten and waits against the `mahjong` package (the oracle) and hand-checked examples."""

from __future__ import annotations

import numpy as np
import pytest
from mahjong.shanten import Shanten
from mahjong.tile import TilesConverter

from rules.hand_batch import HandBatch
from rules.shanten import regular_distance, shanten, special_shanten_all, suit_indices
from rules.suit_tables import TABLE_FILE, build_table, honor_table, number_table, table_checksum
from rules.waits import n_waits, waits_mask

TABLE_SHA256 = "568a24d423dd4e6ae5179008a95bb73d77c32207cfe7b7e3f6c026731176674e"


def counts_of(mpsz: str) -> np.ndarray:
    return np.array([TilesConverter.one_line_string_to_34_array(mpsz)], dtype=np.int8)


def kinds(mask: int) -> list[int]:
    return [k for k in range(34) if mask >> k & 1]


def test_generated_tables_match_their_checksum() -> None:
    assert table_checksum(number_table(), honor_table()) == TABLE_SHA256


@pytest.mark.slow
def test_tables_regenerate_identically() -> None:
    assert table_checksum(build_table(9, True), build_table(7, False)) == TABLE_SHA256, TABLE_FILE


@pytest.mark.parametrize(
    ("hand", "expected_shanten", "expected_waits"),
    [
        ("123m456p789s1122z", 0, [27, 28]),  # shanpon on East and South
        ("2223334445556m", 0, [0, 2, 3, 4, 5, 6]),  # 1-3-4-5-6-7m
        ("19m19p19s1234567z", 0, [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]),  # 13-sided kokushi
        ("1122m3344p5566s7z", 0, [33]),  # seven pairs, chun tanki
        ("1111m234p567p789s", 1, [0]),  # waits only on a fifth 1m: pure karaten, 1-shanten for real
        ("111m234p567p789s11z", -1, []),  # 14 tiles, complete (waits are not asked for)
        ("13579m2468p1357s", 4, []),
    ],
)
def test_chosen_hands(hand: str, expected_shanten: int, expected_waits: list[int]) -> None:
    counts = counts_of(hand)
    assert shanten(counts)[0] == expected_shanten
    if counts.sum() == 13:
        assert kinds(int(waits_mask(counts)[0])) == expected_waits


def test_open_hand_needs_fewer_melds() -> None:
    # 4 closed tiles after three calls: 23m + 55p waits on 1m and 4m
    counts = counts_of("23m55p")
    assert shanten(counts, 3)[0] == 0
    assert kinds(int(waits_mask(counts, 3)[0])) == [0, 3]


def random_hands(rng: np.random.Generator, n: int, size: int) -> np.ndarray:
    picks = np.argsort(rng.random((n, 136)), axis=1)[:, :size] // 4
    counts = np.zeros((n, 34), dtype=np.int8)
    for k in range(size):
        np.add.at(counts, (np.arange(n), picks[:, k]), 1)
    return counts


def test_shanten_equals_the_mahjong_package_on_random_hands() -> None:
    rng = np.random.default_rng(2026)
    oracle = Shanten()
    for size, n in ((13, 60_000), (14, 20_000), (10, 10_000), (7, 10_000)):
        counts = random_hands(rng, n, size)
        calls = (13 - size) // 3 if size < 13 else 0
        ours = shanten(counts, calls)
        if calls == 0:
            reference = [oracle.calculate_shanten(list(c)) for c in counts]
        else:
            reference = [oracle.calculate_shanten(list(c), use_chiitoitsu=False, use_kokushi=False) for c in counts]
        assert (ours == np.array(reference)).all(), size


def tenpai_hands(rng: np.random.Generator, n: int) -> np.ndarray:
    """Random 13-tile hands one tile away from random complete hands (most are tenpai)."""
    melds = [[k, k, k] for k in range(34)] + [[k, k + 1, k + 2] for s in (0, 9, 18) for k in range(s, s + 7)]
    out = np.zeros((n, 34), dtype=np.int8)
    for row in range(n):
        tiles = [k for m in rng.integers(0, len(melds), 4) for k in melds[m]] + [int(rng.integers(0, 34))] * 2
        counts = np.bincount(tiles, minlength=34)
        if counts.max() > 4:
            counts = np.minimum(counts, 4)
        held = np.flatnonzero(counts)
        counts[rng.choice(held)] -= 1
        while counts.sum() > 13:
            counts[rng.choice(np.flatnonzero(counts))] -= 1
        out[row] = counts
    return out


def test_waits_equal_the_mahjong_package_on_tenpai_hands() -> None:
    rng = np.random.default_rng(7)
    counts = tenpai_hands(rng, 3_000)
    counts = counts[counts.sum(axis=1) == 13]
    oracle = Shanten()
    ours = waits_mask(counts)
    for row, hand in enumerate(counts):
        expected = 0
        near = {k + d for k in np.flatnonzero(hand) for d in (-2, -1, 0, 1, 2)} | set(range(27, 34))
        for kind in sorted(k for k in near if 0 <= k < 34):
            if hand[kind] < 4:
                plus = hand.copy()
                plus[kind] += 1
                if oracle.calculate_shanten(list(plus)) == -1:
                    expected |= 1 << kind
        fifth = [k for k in kinds(int(ours[row])) if hand[k] == 4]
        assert int(ours[row]) & ~sum(1 << k for k in fifth) == expected, TilesConverter.to_one_line_string(
            [k * 4 for k in range(34) for _ in range(hand[k])]
        )
    assert (n_waits(ours) > 0).mean() > 0.5


def test_a_hand_batch_and_a_subset_of_rows_give_the_same_shanten_and_waits() -> None:
    rng = np.random.default_rng(11)
    counts = np.concatenate([tenpai_hands(rng, 1_000), random_hands(rng, 1_000, 13)])
    counts = counts[counts.sum(axis=1) == 13]
    calls = rng.integers(0, 2, len(counts))  # a call stands for nothing here: it only turns the special forms off
    batch = HandBatch.of(counts, calls)
    assert (batch.suit_index == suit_indices(counts)).all()
    assert (batch.distance == regular_distance(suit_indices(counts), calls)).all()
    assert (batch.chiitoitsu == special_shanten_all(counts, calls)[0]).all()
    rows = np.flatnonzero(rng.random(len(counts)) < 0.5)
    full = waits_mask(counts, calls)
    subset = waits_mask(batch, rows=rows)
    assert (subset[rows] == full[rows]).all() and (np.delete(subset, rows) == 0).all()
    assert (full != 0).sum() > 100
    assert (shanten(batch) == shanten(counts, calls)).all()
    taken = batch.take(rows)
    assert len(taken) == len(rows)
    assert (shanten(taken) == shanten(counts[rows], calls[rows])).all()
    assert (waits_mask(taken) == full[rows]).all()


@pytest.mark.slow
def test_shanten_and_waits_equal_the_mahjong_package_on_every_real_hand_state(tenhou_db) -> None:
    rows = tenhou_db.execute(
        "select distinct counts, n_calls, shanten, waits_mask from hand_states where waits_mask is not null"
    ).fetchall()
    assert len(rows) > 40_000
    oracle = Shanten()
    for counts, calls, ours_shanten, ours_waits in rows:
        hand = list(counts)
        closed = calls == 0
        assert oracle.calculate_shanten(hand, use_chiitoitsu=closed, use_kokushi=closed) == ours_shanten, hand
        if ours_shanten != 0:
            continue
        expected = 0
        for kind in sorted({k + d for k in np.flatnonzero(hand) for d in (-2, -1, 0, 1, 2)} | set(range(27, 34))):
            if 0 <= kind < 34 and hand[kind] < 4:
                plus = hand.copy()
                plus[kind] += 1
                if oracle.calculate_shanten(plus, use_chiitoitsu=closed, use_kokushi=closed) == -1:
                    expected |= 1 << kind
        fifth = sum(1 << k for k in kinds(ours_waits) if hand[k] == 4)
        assert ours_waits & ~fifth == expected, hand
