"""The compiled numbering of a replayed tenhou.net/6 round (numba): tiles.IdAssigner over replay_kernel's rows.

The same walk as tiles.IdAssigner (see tiles.py for the rules: copies numbered in the order tiles enter the
round, a discard or call takes the id the seat holds, a tsumogiri discard the id just drawn). Where the Python
walk raises a ParseError (a copy too many, a tile given that is not held, a kakan without its pon) the kernel
gives up (status 0) and the caller runs IdAssigner, which raises it.

Output event rows (ID_* columns): action code, seat, tile id (-1 when none), the seat the tile came from, the
meld's size and its ids (sorted); dora reveals without an indicator are left out as IdAssigner leaves them out.
Helpers declared ``@njit(_nrt=False)`` are compiled without numba's reference counting: they allocate nothing (no
array made, no slice assigned from an array, no np.sort), and each call of a helper taking arrays otherwise
increments and decrements every array's count atomically (NRT_incref/NRT_decref were most of these kernels'
time under perf). numba compiles a helper's own callees without it too, so they must not allocate either.
"""

from __future__ import annotations

import numpy as np

from pipeline.sources.tenhou_json.replay_kernel import (
    ACCEPTED,
    ANKAN,
    CHI,
    DAIMINKAN,
    DISCARD,
    DORA,
    DRAW,
    EV_ACTION,
    EV_CODE,
    EV_FROM,
    EV_MELD,
    EV_MELD_N,
    EV_SEAT,
    EV_TSUMOGIRI,
    KAKAN,
    KITA,
    PON,
    RIICHI,
)
from rules.compiled import njit

ID_ACTION, ID_SEAT, ID_TILE, ID_FROM, ID_MELD_N, ID_MELD = 0, 1, 2, 3, 4, 5
ID_WIDTH = 9
MAX_HELD, MAX_MELDS = 24, 8

KIND_OF_CODE = np.full(64, -1, dtype=np.int64)
"""tenhou.net/6 tile code -> 34-kind (-1: not a tile)."""
for _suit in range(3):
    KIND_OF_CODE[11 + 10 * _suit : 20 + 10 * _suit] = np.arange(9) + 9 * _suit
KIND_OF_CODE[41:48] = np.arange(27, 34)
KIND_OF_CODE[51:54] = (4, 13, 22)

# scalars of the walk: the mask slots are per kind, then these
_LAST_GIVEN, _N_OUT, _FAILED = 34, 35, 36


@njit(_nrt=False)
def _new(code: int, red_rule: bool, st: np.ndarray) -> int:
    """An unused id of the tile code (tile_copies.CopyAllocator.allocate); -1 (and the failed flag) when none."""
    kind = KIND_OF_CODE[code] if 0 <= code < 64 else -1
    if kind < 0:
        st[_FAILED] = 1
        return -1
    red = code >= 51
    split = red_rule and (kind == 4 or kind == 13 or kind == 22)
    first, last = (0, 0) if split and red else ((1, 3) if split else (0, 3))
    for copy in range(first, last + 1):
        if not st[kind] & (1 << copy):
            st[kind] |= 1 << copy
            return kind * 4 + copy
    st[_FAILED] = 1
    return -1


@njit(_nrt=False)
def _take(held: np.ndarray, n_held: np.ndarray, seat: int, code: int, red_rule: bool, prefer: int, avoid: int,
          st: np.ndarray) -> int:  # fmt: skip
    """Remove and return a held id of the code (tile_copies.take_copy); -1 (failed) when none is held."""
    kind = KIND_OF_CODE[code] if 0 <= code < 64 else -1
    red = code >= 51
    found, fallback = -1, -1
    for k in range(n_held[seat]):
        t = held[seat, k]
        if prefer >= 0 and t == prefer:
            found = k
            break
    if found < 0:
        for k in range(n_held[seat]):
            t = held[seat, k]
            if t // 4 != kind or (red_rule and (kind == 4 or kind == 13 or kind == 22) and (t % 4 == 0) != red):
                continue
            if fallback < 0:
                fallback = k
            if t != avoid:
                found = k
                break
    if found < 0:
        found = fallback
    if found < 0 or kind < 0:
        st[_FAILED] = 1
        return -1
    tile = held[seat, found]
    for k in range(found, n_held[seat] - 1):
        held[seat, k] = held[seat, k + 1]
    n_held[seat] -= 1
    return tile


@njit(_nrt=False)
def _sorted_into(out: np.ndarray, row: int, ids: np.ndarray, n: int) -> None:
    """Write ``ids[:n]`` sorted as the row's meld (an insertion sort: at most four ids, nothing allocated)."""
    out[row, ID_MELD_N] = n
    for j in range(n):
        tile, at = ids[j], j
        while at > 0 and out[row, ID_MELD + at - 1] > tile:
            out[row, ID_MELD + at] = out[row, ID_MELD + at - 1]
            at -= 1
        out[row, ID_MELD + at] = tile


@njit(_nrt=False)
def _call_ids(ev: np.ndarray, row: int, out: np.ndarray, o: int, held: np.ndarray, n_held: np.ndarray,
              melds: np.ndarray, n_melds: np.ndarray, red_rule: bool, st: np.ndarray,
              ids: np.ndarray) -> int:  # fmt: skip
    """The ids of a chi, pon, daiminkan, kakan or ankan event (row ``o`` of ``out``); returns its tile id (``ids``:
    four ints of room)."""
    action, seat, code = ev[row, EV_ACTION], ev[row, EV_SEAT], ev[row, EV_CODE]
    ids[:] = 0
    n = ev[row, EV_MELD_N]
    if action == KAKAN:
        tile = _take(held, n_held, seat, code, red_rule, -1, -1, st)
        for m in range(n_melds[seat]):
            a, b = melds[seat, m, 0], melds[seat, m, 1]
            if melds[seat, m, 3] < 0 and melds[seat, m, 2] >= 0 and a // 4 == tile // 4 and b // 4 == tile // 4:
                ids[0], ids[1], ids[2], ids[3] = melds[seat, m, 0], melds[seat, m, 1], melds[seat, m, 2], tile
                _sorted_into(out, o, ids, 4)
                for j in range(4):
                    melds[seat, m, j] = out[o, ID_MELD + j]
                return tile
        st[_FAILED] = 1
        return tile
    tile, skipped, k = -1, action == ANKAN, 0
    if action != ANKAN:
        tile = st[_LAST_GIVEN]
        ids[0], k = tile, 1
    for j in range(n):
        c = ev[row, EV_MELD + j]
        if not skipped and c == code:
            skipped = True
            continue
        ids[k] = _take(held, n_held, seat, c, red_rule, -1, -1, st)
        if action == ANKAN and c == code and tile < 0:
            tile = ids[k]
        k += 1
    _sorted_into(out, o, ids, n)
    if n_melds[seat] >= MAX_MELDS:
        st[_FAILED] = 1
        return tile
    melds[seat, n_melds[seat], :] = -1
    for j in range(n):
        melds[seat, n_melds[seat], j] = out[o, ID_MELD + j]
    n_melds[seat] += 1
    return tile


@njit(_nrt=False)
def _reveal(code: int, red_rule: bool, st: np.ndarray, out: np.ndarray, o: int, dora_ids: np.ndarray,
            n_dora: np.ndarray) -> None:  # fmt: skip
    """Number a new dora indicator and write its event as row ``o``."""
    tile = _new(code, red_rule, st)
    dora_ids[n_dora[0]] = tile
    n_dora[0] += 1
    out[o, ID_ACTION], out[o, ID_SEAT], out[o, ID_TILE], out[o, ID_FROM], out[o, ID_MELD_N] = DORA, -1, tile, -1, 0


@njit(_nrt=False)
def _event_ids(ev: np.ndarray, row: int, out: np.ndarray, o: int, held: np.ndarray, n_held: np.ndarray,
               melds: np.ndarray, n_melds: np.ndarray, n_kita: np.ndarray, last_draw: np.ndarray, red_rule: bool,
               st: np.ndarray, ids: np.ndarray) -> None:  # fmt: skip
    """Number one event's tiles (tiles.IdAssigner._event) into row ``o`` (``ids``: _call_ids' room)."""
    action, seat, code = ev[row, EV_ACTION], ev[row, EV_SEAT], ev[row, EV_CODE]
    tile = -1
    out[o, ID_MELD_N] = 0
    if action == DRAW:
        tile = _new(code, red_rule, st)
        if n_held[seat] >= MAX_HELD:
            st[_FAILED] = 1
            return
        held[seat, n_held[seat]] = tile
        n_held[seat] += 1
        last_draw[seat] = tile
    elif action == DISCARD:
        prefer = last_draw[seat] if ev[row, EV_TSUMOGIRI] else -1
        tile = _take(held, n_held, seat, code, red_rule, prefer, last_draw[seat], st)
        st[_LAST_GIVEN] = tile
    elif action in (CHI, PON, DAIMINKAN):
        tile = _call_ids(ev, row, out, o, held, n_held, melds, n_melds, red_rule, st, ids)
    elif action in (KAKAN, ANKAN):
        tile = _call_ids(ev, row, out, o, held, n_held, melds, n_melds, red_rule, st, ids)
        st[_LAST_GIVEN] = tile
    elif action == KITA:
        tile = _take(held, n_held, seat, code, red_rule, -1, -1, st)
        out[o, ID_MELD_N], out[o, ID_MELD] = 1, tile
        n_kita[seat] += 1
        st[_LAST_GIVEN] = tile
    if action != DRAW and action != RIICHI and action != ACCEPTED:
        last_draw[seat] = -1
    out[o, ID_ACTION], out[o, ID_SEAT], out[o, ID_TILE], out[o, ID_FROM] = action, seat, tile, ev[row, EV_FROM]


@njit
def number_round(ev: np.ndarray, hands: np.ndarray, hand_len: np.ndarray, dora: np.ndarray, ura: np.ndarray,
                 robbed_kan_dora: bool, red_rule: bool) -> tuple:  # fmt: skip
    """Number a replayed round (see the module docstring); ``hands``: (4, 13) dealt codes.

    Returns (status 1 / 0 given up, the event rows, hands_start ids (4, 13), dora ids, ura ids, held ids
    (4, MAX_HELD) with their counts, melds (4, MAX_MELDS, 4; -1 past a meld's size) with their counts, kita per
    seat, the last tile given (-1), the dora count mismatch)."""
    st = np.zeros(37, dtype=np.int64)
    st[_LAST_GIVEN] = -1
    start = np.full((4, 13), -1, dtype=np.int64)
    held = np.full((4, MAX_HELD), -1, dtype=np.int64)
    n_held = np.zeros(4, dtype=np.int64)
    for seat in range(4):
        for k in range(hand_len[seat]):
            start[seat, k] = held[seat, k] = _new(hands[seat, k], red_rule, st)
        n_held[seat] = hand_len[seat]
    dora_ids = np.full(len(dora) + 1, -1, dtype=np.int64)
    n_dora = np.zeros(1, dtype=np.int64)
    if len(dora):
        dora_ids[0] = _new(dora[0], red_rule, st)
        n_dora[0] = 1
    out = np.zeros((len(ev) + 1, ID_WIDTH), dtype=np.int64)
    melds = np.full((4, MAX_MELDS, 4), -1, dtype=np.int64)
    n_melds, n_kita, last_draw = np.zeros(4, np.int64), np.zeros(4, np.int64), np.full(4, -1, np.int64)
    ids = np.zeros(4, dtype=np.int64)
    pending, mismatch, o = 1, 0, 0
    for row in range(len(ev)):
        if ev[row, EV_ACTION] == DORA:
            if pending >= len(dora):
                mismatch += 1
                continue
            _reveal(dora[pending], red_rule, st, out, o, dora_ids, n_dora)
            pending += 1
        else:
            _event_ids(ev, row, out, o, held, n_held, melds, n_melds, n_kita, last_draw, red_rule, st, ids)
        o += 1
        if st[_FAILED]:
            return 0, out[:0], start, dora_ids[:0], dora_ids[:0], held, n_held, melds, n_melds, n_kita, -1, 0
    if robbed_kan_dora and pending < len(dora):
        _reveal(dora[pending], red_rule, st, out, o, dora_ids, n_dora)
        pending += 1
        o += 1
    mismatch += max(len(dora) - pending, 0)
    ura_ids = np.full(len(ura), -1, dtype=np.int64)
    for k in range(len(ura)):
        ura_ids[k] = _new(ura[k], red_rule, st)
    status = 0 if st[_FAILED] else 1
    return (status, out[:o], start, dora_ids[: n_dora[0]], ura_ids, held, n_held, melds, n_melds, n_kita,
            st[_LAST_GIVEN], mismatch)  # fmt: skip
