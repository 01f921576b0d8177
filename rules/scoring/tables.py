"""Per-suit decomposition tables: every way to split one suit's tiles into melds and at most one pair.

A suit pattern (counts 0-4 of each of its kinds, indexed in base 5: kind ``i`` adds ``count * 5**i``,
as in rules.suit_tables) is *complete* when its tiles split exactly into 0-4 melds (triplets, and
sequences in a number suit) plus at most one pair. For every complete pattern the table lists each
distinct split. A whole hand's splits are then the products of its suits' splits (rules.scoring.decompose).

Meld codes are local to the suit: ``0..n_kinds-1`` a triplet of that kind, ``9 + i`` a sequence
starting at kind ``i`` (number suits, ``i`` 0-6). Splits are padded to 4 melds with -1; a pattern
without a pair has pair -1.

The tables are generated here (``python -m rules.scoring.tables`` writes
``rules/data/scoring_decompositions.npz``, under a second) and loaded from that file; a test pins
their checksum and regenerates them.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from itertools import combinations_with_replacement
from pathlib import Path

import numpy as np

TABLE_FILE = "scoring_decompositions.npz"
"""The generated tables, in ``rules/data``."""

MAX_MELDS = 4
"""A hand has four melds and a pair; a suit holds 0-4 of the melds."""

SEQUENCE_CODE = 9
"""Local meld code of the sequence starting at kind 0 (kind ``i``: ``9 + i``)."""

SUITS = {"number": (9, True), "honor": (7, False)}
"""Suit kind -> (kinds, sequences allowed)."""

FIELDS = ("keys", "start", "count", "melds", "pair")
"""Arrays stored per suit kind: sorted pattern keys, each pattern's first split row and number of
splits, then per split row its melds (local codes, -1 padded) and pair (local kind or -1)."""


def _shapes(n_kinds: int, sequences: bool) -> list[tuple[int, np.ndarray]]:
    """(local code, counts) of every meld of a suit."""
    shapes = []
    for kind in range(n_kinds):
        counts = np.zeros(n_kinds, dtype=np.int64)
        counts[kind] = 3
        shapes.append((kind, counts))
    if sequences:
        for start in range(n_kinds - 2):
            counts = np.zeros(n_kinds, dtype=np.int64)
            counts[start : start + 3] = 1
            shapes.append((SEQUENCE_CODE + start, counts))
    return shapes


def _splits(n_kinds: int, sequences: bool) -> dict[int, set[tuple[tuple[int, ...], int]]]:
    """Pattern key -> the set of its splits (sorted meld codes, pair kind or -1)."""
    weights = 5 ** np.arange(n_kinds, dtype=np.int64)
    shapes = _shapes(n_kinds, sequences)
    out: dict[int, set[tuple[tuple[int, ...], int]]] = {}
    for n_melds in range(MAX_MELDS + 1):
        for combo in combinations_with_replacement(shapes, n_melds):
            base = sum((c for _, c in combo), np.zeros(n_kinds, dtype=np.int64))
            codes = tuple(sorted(code for code, _ in combo))
            for pair in range(-1, n_kinds):
                counts = base.copy()
                if pair >= 0:
                    counts[pair] += 2
                if counts.max() <= 4:
                    out.setdefault(int(counts @ weights), set()).add((codes, pair))
    return out


def build_tables(n_kinds: int, sequences: bool) -> dict[str, np.ndarray]:
    """Return one suit kind's decomposition arrays (see FIELDS), patterns sorted by key."""
    splits = _splits(n_kinds, sequences)
    keys = np.array(sorted(splits), dtype=np.int32)
    rows = [sorted(splits[int(key)]) for key in keys]
    count = np.array([len(r) for r in rows], dtype=np.int8)
    start = (np.cumsum(count, dtype=np.int32) - count).astype(np.int32)
    flat = [split for r in rows for split in r]
    melds = np.full((len(flat), MAX_MELDS), -1, dtype=np.int8)
    for row, (codes, _) in enumerate(flat):
        melds[row, : len(codes)] = codes
    pair = np.array([p for _, p in flat], dtype=np.int8)
    return {"keys": keys, "start": start, "count": count, "melds": melds, "pair": pair}


@cache
def tables() -> dict[str, dict[str, np.ndarray]]:
    """Suit kind ('number', 'honor') -> its decomposition arrays, loaded from rules/data."""
    with resources.files("rules").joinpath("data", TABLE_FILE).open("rb") as handle, np.load(handle) as npz:
        return {suit: {name: npz[f"{suit}_{name}"] for name in FIELDS} for suit in SUITS}


def table_checksum(suit_tables: dict[str, dict[str, np.ndarray]]) -> str:
    """SHA-256 over every array of both suit kinds, in a fixed order (pinned by a test)."""
    digest = hashlib.sha256()
    for suit in SUITS:
        for name in FIELDS:
            digest.update(np.ascontiguousarray(suit_tables[suit][name]).tobytes())
    return digest.hexdigest()


def generate(path: Path) -> str:
    """Build the tables of both suit kinds, write them to ``path`` (npz) and return their checksum."""
    built = {suit: build_tables(n_kinds, sequences) for suit, (n_kinds, sequences) in SUITS.items()}
    np.savez_compressed(path, **{f"{suit}_{name}": arrays[name] for suit, arrays in built.items() for name in FIELDS})
    return table_checksum(built)


if __name__ == "__main__":
    print(generate(Path(__file__).resolve().parents[1] / "data" / TABLE_FILE))
