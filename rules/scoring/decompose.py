"""Every reading of many winning hands at once: the melds and the pair, and where the winning tile sits.

A *decomposition* splits a hand into four melds (its called melds first, then the closed tiles'
melds) and a pair. Each suit's closed tiles are looked up in the per-suit tables
(rules.scoring.tables); a hand's decompositions are the products of its suits' splits, expanded
with ``np.repeat`` (a mixed-radix digit per suit picks each split). A *reading* is a decomposition
plus the closed meld or pair the winning tile completed, which fixes the wait (ryanmen, kanchan,
...). Seven pairs and thirteen orphans are readings of their own (``form``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.scoring.inputs import (
    CHI,
    CHIITOITSU,
    CLOSED_KAN,
    KANCHAN,
    KOKUSHI,
    NO_MELD,
    OPEN_KAN,
    PENCHAN,
    PON,
    REGULAR,
    RYANMEN,
    SHANPON,
    TANKI,
    THIRTEEN_SIDED,
    Hands,
)
from rules.scoring.tables import SEQUENCE_CODE, tables
from rules.tiles import TERMINALS_HONORS_34

PAIR_SLOT = 4
"""``win_slot`` of a reading whose winning tile completed the pair (slots 0-3 are the melds)."""

SUIT_BASE = (0, 9, 18, 27)
"""First 34-kind of man, pin, sou, honors."""

_SUIT_MATRIX = np.zeros((34, 8), dtype=np.int32)
for _suit, _base in enumerate(SUIT_BASE):
    _size = 9 if _suit < 3 else 7
    _SUIT_MATRIX[_base : _base + _size, _suit] = 5 ** np.arange(_size)  # kind i of the suit weighs 5**i
    _SUIT_MATRIX[_base : _base + _size, 4 + _suit] = 1  # and counts one tile of the suit


@dataclass
class Readings:
    """One row per reading (R rows), grouped by win in win order.

    ``win`` (R,) row of the hand; ``form`` REGULAR/CHIITOITSU/KOKUSHI; per meld slot (R, 4), called
    melds first: ``kind`` lowest 34-kind (-1: none, every slot of a non-regular form),
    ``is_sequence``, ``is_kan``, ``is_open`` (chi, pon, open kan), ``is_called``, and
    ``is_concealed`` (a concealed triplet or kan for the ankou count: closed kans, and closed
    triplets except one completed by a ron); ``pair`` 34-kind (-1: none); ``win_slot`` slot the
    winning tile completed (PAIR_SLOT: the pair; -1: other forms); ``wait`` wait code.
    """

    win: np.ndarray
    form: np.ndarray
    kind: np.ndarray
    is_sequence: np.ndarray
    is_kan: np.ndarray
    is_open: np.ndarray
    is_called: np.ndarray
    is_concealed: np.ndarray
    pair: np.ndarray
    win_slot: np.ndarray
    wait: np.ndarray

    def __len__(self) -> int:
        """Number of rows."""
        return len(self.win)


@dataclass
class _Decompositions:
    """Regular decompositions (M rows): hand row, per slot kind/sequence flag, pair."""

    win: np.ndarray
    kind: np.ndarray
    is_sequence: np.ndarray
    pair: np.ndarray


def packed_calls(hands: Hands) -> tuple[np.ndarray, np.ndarray]:
    """Called melds moved to the first slots (kind, type), (N, 4) each; empty slots after them."""
    order = np.argsort(hands.meld_type == NO_MELD, axis=1, kind="stable")
    kind = np.take_along_axis(np.asarray(hands.meld_kind, dtype=np.int8), order, axis=1)
    kind_type = np.take_along_axis(np.asarray(hands.meld_type, dtype=np.int8), order, axis=1)
    return kind, kind_type


def _suit_lookup(indices: np.ndarray, suit: int) -> tuple[np.ndarray, np.ndarray]:
    """(first split row, number of splits; 0 when incomplete) of one suit of every hand."""
    table = tables()["number" if suit < 3 else "honor"]
    keys = table["keys"]
    pos = np.minimum(np.searchsorted(keys, indices[:, suit]), len(keys) - 1)
    found = keys[pos] == indices[:, suit]
    return table["start"][pos], np.where(found, table["count"][pos], 0).astype(np.int64)


def suit_indices_and_sizes(closed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N, 4) base-5 table index of each suit (as rules.shanten.suit_indices) and (N, 4) tiles in each suit."""
    both = np.asarray(closed).astype(np.int32) @ _SUIT_MATRIX  # an integer product: exact, no float detour
    return both[:, :4].astype(np.int64), both[:, 4:]


def _decompositions(closed: np.ndarray, n_calls: np.ndarray) -> _Decompositions:
    """Every regular decomposition of the closed tiles (the call slots left empty)."""
    indices, sizes = suit_indices_and_sizes(closed)
    looked = [_suit_lookup(indices, suit) for suit in range(4)]
    n_pairs = (sizes % 3 == 2).sum(axis=1)
    total = np.where(n_pairs == 1, np.prod([count for _, count in looked], axis=0), 0)
    win = np.repeat(np.arange(len(closed)), total)
    # position of each decomposition within its hand, read as mixed-radix digits, one per suit
    local = np.arange(len(win)) - np.repeat(np.cumsum(total) - total, total)
    m = len(win)
    kind = np.full((m, 4), -1, dtype=np.int8)
    is_sequence = np.zeros((m, 4), dtype=bool)
    pair = np.full(m, -1, dtype=np.int8)
    slot = np.asarray(n_calls, dtype=np.int64)[win]
    for suit, (start, count) in enumerate(looked):
        radix = count[win]
        split = start[win] + local % np.maximum(radix, 1)
        local = local // np.maximum(radix, 1)
        table = tables()["number" if suit < 3 else "honor"]
        codes = table["melds"][split].astype(np.int64)
        for j in range(4):
            has = np.flatnonzero(codes[:, j] >= 0)
            code = codes[has, j]
            is_seq = code >= SEQUENCE_CODE
            kind[has, slot[has] + j] = SUIT_BASE[suit] + np.where(is_seq, code - SEQUENCE_CODE, code)
            is_sequence[has, slot[has] + j] = is_seq
        slot = slot + (codes >= 0).sum(axis=1)
        local_pair = table["pair"][split]
        pair = np.where(local_pair >= 0, SUIT_BASE[suit] + local_pair, pair).astype(np.int8)
    return _Decompositions(win, kind, is_sequence, pair)


def _with_calls(dec: _Decompositions, call_kind: np.ndarray, call_type: np.ndarray) -> dict[str, np.ndarray]:
    """Per-slot arrays of the decompositions with the called melds put in their first slots."""
    kinds = call_kind[dec.win]
    types = call_type[dec.win]
    called = types != NO_MELD
    return {
        "kind": np.where(called, kinds, dec.kind).astype(np.int8),
        "is_sequence": np.where(called, types == CHI, dec.is_sequence),
        "is_kan": called & ((types == OPEN_KAN) | (types == CLOSED_KAN)),
        "is_open": called & ((types == CHI) | (types == PON) | (types == OPEN_KAN)),
        "is_called": called,
    }


def _wait_of_sequence(start: np.ndarray, win_tile: np.ndarray) -> np.ndarray:
    """Wait code of a sequence starting at ``start`` completed by ``win_tile``: kanchan in the middle,
    penchan on the 3 of 123 or the 7 of 789, else ryanmen."""
    position = win_tile - start
    number = start % 9
    edge = ((position == 2) & (number == 0)) | ((position == 0) & (number == 6))
    return np.where(position == 1, KANCHAN, np.where(edge, PENCHAN, RYANMEN))


def regular_readings(hands: Hands) -> Readings:
    """Readings of the regular form: each decomposition once per closed meld or pair holding the winning tile."""
    call_kind, call_type = packed_calls(hands)
    n_calls = (call_type != NO_MELD).sum(axis=1)
    dec = _decompositions(hands.closed, n_calls)
    slots = _with_calls(dec, call_kind, call_type)
    win_tile = np.asarray(hands.win_tile, dtype=np.int64)[dec.win][:, None]
    kind = slots["kind"].astype(np.int64)
    in_sequence = slots["is_sequence"] & (kind <= win_tile) & (win_tile <= kind + 2)
    in_triplet = ~slots["is_sequence"] & (kind == win_tile)
    holds = (in_sequence | in_triplet) & ~slots["is_called"] & (kind >= 0)
    holds = np.concatenate([holds, (dec.pair == win_tile[:, 0])[:, None]], axis=1)
    rows, win_slot = np.nonzero(holds)
    take = {name: values[rows] for name, values in slots.items()}
    meld_slot = np.minimum(win_slot, 3)
    slot_kind = take["kind"][np.arange(len(rows)), meld_slot].astype(np.int64)
    slot_sequence = take["is_sequence"][np.arange(len(rows)), meld_slot]
    tile = win_tile[rows, 0]
    wait = np.where(win_slot == PAIR_SLOT, TANKI, np.where(slot_sequence, _wait_of_sequence(slot_kind, tile), SHANPON))
    is_tsumo = np.asarray(hands.is_tsumo, dtype=bool)[dec.win[rows]]
    # a triplet completed by a ron counts as open (minkou) for fu and the ankou count
    ron_triplet = (np.arange(4)[None, :] == win_slot[:, None]) & ~is_tsumo[:, None]
    is_concealed = ~take["is_sequence"] & ~take["is_open"] & (take["kind"] >= 0) & ~ron_triplet
    return Readings(
        win=dec.win[rows],
        form=np.full(len(rows), REGULAR, dtype=np.int8),
        is_concealed=is_concealed,
        pair=dec.pair[rows],
        win_slot=win_slot.astype(np.int8),
        wait=wait.astype(np.int8),
        **take,
    )


def _special_readings(win: np.ndarray, form: int, wait: np.ndarray) -> Readings:
    """Readings without melds (seven pairs, thirteen orphans) for the hands at ``win``."""
    n = len(win)
    no_slots = np.zeros((n, 4), dtype=bool)
    return Readings(
        win=win,
        form=np.full(n, form, dtype=np.int8),
        kind=np.full((n, 4), -1, dtype=np.int8),
        is_sequence=no_slots,
        is_kan=no_slots,
        is_open=no_slots,
        is_called=no_slots,
        is_concealed=no_slots,
        pair=np.full(n, -1, dtype=np.int8),
        win_slot=np.full(n, -1, dtype=np.int8),
        wait=np.asarray(wait, dtype=np.int8),
    )


def special_readings(hands: Hands) -> list[Readings]:
    """Seven-pairs readings (seven distinct pairs, no calls; always tanki) and thirteen-orphans ones
    (thirteen-sided when the winning tile's kind is the paired one)."""
    closed = np.asarray(hands.closed)
    no_calls = (np.asarray(hands.meld_type) == NO_MELD).all(axis=1)
    seven = no_calls & ((closed == 2).sum(axis=1) == 7)
    orphans = closed[:, TERMINALS_HONORS_34]
    kokushi = no_calls & (orphans >= 1).all(axis=1) & (orphans.sum(axis=1) == 14)
    win_count = closed[np.arange(len(closed)), np.asarray(hands.win_tile, dtype=np.int64)]
    chiitoitsu_rows = np.flatnonzero(seven)
    kokushi_rows = np.flatnonzero(kokushi)
    kokushi_wait = np.where(win_count[kokushi_rows] == 2, THIRTEEN_SIDED, TANKI)
    return [
        _special_readings(chiitoitsu_rows, CHIITOITSU, np.full(len(chiitoitsu_rows), TANKI)),
        _special_readings(kokushi_rows, KOKUSHI, kokushi_wait),
    ]


def concat_readings(parts: list[Readings]) -> Readings:
    """Join reading sets and order them by win (stable: each set keeps its order)."""
    names = Readings.__dataclass_fields__
    joined = {name: np.concatenate([getattr(p, name) for p in parts]) for name in names}
    order = np.argsort(joined["win"], kind="stable")
    return Readings(**{name: values[order] for name, values in joined.items()})


def readings(hands: Hands) -> Readings:
    """Every reading of every hand (regular, seven pairs, thirteen orphans), grouped by win in order.

    A hand that is not complete has no reading.
    """
    return concat_readings([regular_readings(hands), *special_readings(hands)])
