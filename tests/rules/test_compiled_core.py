"""The compiled core: shipped suit class tables, numba's cache folder, lazy numba, kernels against numpy."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest

from rules.compiled import KERNEL_PACKAGES, source_stamp
from rules.shanten import regular_distance, shanten, special_shanten, suit_indices
from rules.suit_classes import SuitClasses, build_suit_classes, classes_checksum, suit_classes
from rules.tiles import TERMINALS_HONORS_34
from rules.waits import KIND_BITS, chiitoitsu_waits, kind_masks, kokushi_waits, regular_waits, waits_mask

CLASSES_SHA256 = "c24a5b8b64bea4501a83b979cb705c626db20d9afbfbf80891c62e30aee97c6b"
REPO = Path(__file__).resolve().parents[2]


def run_python(code: str, **env: str | None) -> str:
    """Run ``code`` in a fresh interpreter (the repository first on the path) with ``env`` changes (None: unset)."""
    environ = {**os.environ, "PYTHONPATH": str(REPO)}
    for name, value in env.items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value
    done = subprocess.run([sys.executable, "-c", code], env=environ, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_shipped_class_tables_match_their_checksum() -> None:
    assert classes_checksum(suit_classes()) == CLASSES_SHA256


def test_class_tables_rebuild_identically_from_the_distance_tables() -> None:
    built, shipped = build_suit_classes(), suit_classes()
    for field in fields(SuitClasses):
        ours, theirs = getattr(built, field.name), getattr(shipped, field.name)
        assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs), field.name
    assert classes_checksum(built) == CLASSES_SHA256


def test_numba_cache_defaults_to_the_user_cache_folder(tmp_path: Path) -> None:
    code = "from rules.compiled import configure_cache; print(configure_cache())"
    stamp = source_stamp()
    assert run_python(code, NUMBA_CACHE_DIR=None, XDG_CACHE_HOME=str(tmp_path)) == str(
        tmp_path / "paipu" / "numba" / stamp
    )
    home = run_python(code, NUMBA_CACHE_DIR=None, XDG_CACHE_HOME=None, HOME=str(tmp_path))
    assert home == str(tmp_path / ".cache" / "paipu" / "numba" / stamp)


def test_the_cache_folder_changes_with_any_source_file(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    for package in KERNEL_PACKAGES:
        (root / package / "sub").mkdir(parents=True)
        (root / package / "sub" / "kernels.py").write_text("x = 1\n")
    code = "import rules.compiled as c; c.SOURCE_ROOT = __import__('pathlib').Path({root!r}); print(c.source_stamp())"
    before = run_python(code.format(root=str(root)))
    callee = root / "pipeline" / "sub" / "kernels.py"
    callee.write_text("x = 22\n")  # a callee edited: another size (and time)
    after = run_python(code.format(root=str(root)))
    assert len(before) == 16 and before != after
    assert run_python(code.format(root=str(root))) == after  # the same source, the same folder


def test_a_cache_folder_the_user_chose_is_kept(tmp_path: Path) -> None:
    code = "from rules.compiled import configure_cache; print(configure_cache())"
    assert run_python(code, NUMBA_CACHE_DIR=str(tmp_path / "mine"), XDG_CACHE_HOME=str(tmp_path)) == str(
        tmp_path / "mine"
    )


def test_importing_the_rules_does_not_import_numba() -> None:
    code = "import sys, rules.analysis, rules.shanten, rules.waits; print('numba' in sys.modules)"
    assert run_python(code) == "False"


@pytest.mark.slow
def test_kernels_compile_into_the_user_cache_folder(tmp_path: Path) -> None:
    code = (
        "import numpy as np; from rules.shanten import shanten; from rules.waits import waits_mask; "
        "c = np.zeros((1, 34), np.int8); c[0, :13] = 1; print(int(shanten(c)[0]), int(waits_mask(c)[0]))"
    )
    assert run_python(code, NUMBA_CACHE_DIR=None, XDG_CACHE_HOME=str(tmp_path)) == "0 4608"  # 1-9m 1-4p: 1p, 4p
    cached = list((tmp_path / "paipu" / "numba").rglob("*.nbi"))
    assert {p.name.split(".")[1].split("-")[0] for p in cached} >= {"_shanten_kernel", "_waits_kernel"}


@pytest.mark.slow
def test_each_kernel_compiles_once_per_argument_types(tmp_path: Path) -> None:
    # constants passed to a callee are not compiled as literals, the callers pass one dtype and writable arrays
    code = (
        "import numpy as np; import rules.shanten as s, rules.waits as w; from rules.hand_batch import HandBatch; "
        "c = np.zeros((2, 34), np.int8); c[:, :13] = 1; calls = np.zeros(2, np.int64); "
        "w.waits_mask(c); w.waits_mask(HandBatch.of(c, calls)); w.regular_waits(c, calls); s.shanten(c); "
        "s.regular_distance(s.suit_indices(c), calls); "
        "print(*(len(f.signatures) for f in (s.distance_of_classes, s.suit_index_of, w._with_suit, w._waits_kernel)))"
    )
    assert run_python(code, NUMBA_CACHE_DIR=str(tmp_path)) == "1 1 1 1"


def random_hands(rng: np.random.Generator, n: int, size: int) -> np.ndarray:
    """(n, 34) int8 counts of ``size`` tiles drawn from a full set."""
    kinds = np.argsort(rng.random((n, 136)), axis=1)[:, :size] // 4
    counts = np.zeros((n, 34), dtype=np.int8)
    np.add.at(counts, (np.repeat(np.arange(n), size), kinds.ravel()), 1)
    return counts


def special_hands(rng: np.random.Generator, n: int) -> np.ndarray:
    """Hands near seven pairs or thirteen orphans: many are tenpai in those forms."""
    counts = np.zeros((n, 34), dtype=np.int8)
    for row in range(n):
        if row % 2:  # six pairs and a single
            kinds = rng.choice(34, 7, replace=False)
            counts[row, kinds[:6]] = 2
            counts[row, kinds[6]] = 1
        else:  # twelve or thirteen orphans, one maybe paired
            kinds = rng.permutation(TERMINALS_HONORS_34)
            counts[row, kinds[: 12 + row % 4 // 2]] = 1
            counts[row, kinds[0]] += 13 - counts[row].sum()
    return counts


def numpy_special_shanten(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Seven pairs and thirteen orphans counted with numpy over the 34 kinds (the reference)."""
    pairs, kinds = np.count_nonzero(counts >= 2, axis=1), np.count_nonzero(counts, axis=1)
    orphans = counts[:, TERMINALS_HONORS_34]
    return 6 - pairs + np.maximum(0, 7 - kinds), 13 - np.count_nonzero(orphans, axis=1) - (orphans >= 2).any(axis=1)


def test_special_shanten_and_waits_equal_numpy_counting() -> None:
    rng = np.random.default_rng(19)
    counts = np.concatenate([special_hands(rng, 2_000), random_hands(rng, 2_000, 13), random_hands(rng, 500, 14)])
    seven, thirteen = special_shanten(counts)
    reference = numpy_special_shanten(counts)
    assert np.array_equal(seven, reference[0]) and np.array_equal(thirteen, reference[1])
    assert (seven == 0).sum() > 500 and (thirteen == 0).sum() > 500
    thirteen_tiles = counts.sum(axis=1) == 13
    # closed 13-tile hands: every wait of the special forms is among waits_mask's
    special = chiitoitsu_waits(counts) | kokushi_waits(counts)
    masks = waits_mask(counts[thirteen_tiles])
    assert np.array_equal(masks & special[thirteen_tiles], special[thirteen_tiles])
    # a hand with a call has no special form
    assert np.array_equal(waits_mask(counts[thirteen_tiles], 1), regular_waits(counts[thirteen_tiles], 1))


def near_complete_hands(rng: np.random.Generator, n: int) -> np.ndarray:
    """13-tile hands made from four random melds and a pair by taking one tile away (most are tenpai)."""
    melds = [[k] * 3 for k in range(34)] + [[k, k + 1, k + 2] for s in (0, 9, 18) for k in range(s, s + 7)]
    counts = np.zeros((n, 34), dtype=np.int8)
    for row in range(n):
        tiles = [k for m in rng.integers(0, len(melds), 4) for k in melds[m]] + [int(rng.integers(0, 34))] * 2
        hand = np.minimum(np.bincount(tiles, minlength=34), 4)
        while hand.sum() > 13:
            hand[rng.choice(np.flatnonzero(hand))] -= 1
        counts[row] = hand
    return counts[counts.sum(axis=1) == 13]


def test_regular_waits_equal_the_kinds_whose_tile_completes_the_hand() -> None:
    rng = np.random.default_rng(5)
    counts = np.concatenate([near_complete_hands(rng, 1_500), random_hands(rng, 500, 13)])
    masks = regular_waits(counts, 0)
    expected = np.zeros(len(counts), dtype=np.int64)
    for kind in range(34):
        room = counts[:, kind] < 4
        plus = counts.copy()
        plus[room, kind] += 1
        complete = regular_distance(suit_indices(plus), 0) == 0  # four melds and a pair, regular form only
        expected |= np.where(room & complete, KIND_BITS[kind], 0)
    fifth = kind_masks(counts == 4)  # a fifth copy's wait: tried by test_shanten_waits against the oracle
    assert np.array_equal(masks & ~fifth, expected)
    assert (expected != 0).sum() > 500
    # waits_mask looks only at hands near tenpai: the same regular waits
    assert np.array_equal(waits_mask(counts, 1), regular_waits(counts, 1))


def test_kernels_take_any_integer_dtype_and_layout() -> None:
    rng = np.random.default_rng(3)
    counts = random_hands(rng, 1_000, 13)
    calls = rng.integers(0, 2, len(counts))
    wide = np.asfortranarray(counts.astype(np.int64))
    assert np.array_equal(shanten(wide, calls.astype(np.int8)), shanten(counts, calls))
    assert np.array_equal(waits_mask(wide, calls.astype(np.int32)), waits_mask(counts, calls))
    assert np.array_equal(suit_indices(wide), suit_indices(counts))
    assert shanten(counts[:0]).shape == (0,) and waits_mask(counts[:0]).shape == (0,)


def test_counts_outside_0_to_4_are_refused_not_read_out_of_bounds() -> None:
    counts = np.zeros((2, 34), dtype=np.int8)
    counts[1, 8] = 5  # a fifth 9m: its suit index is past the number-suit tables
    calls = (lambda: shanten(counts), lambda: waits_mask(counts), lambda: regular_distance(suit_indices(counts), 0))
    for call in calls:
        with pytest.raises(ValueError, match="0-4"):
            call()
