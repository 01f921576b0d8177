"""The compiled play of one mjai kyoku (numba): replay.KyokuReplay's draws, discards, calls, kita, riichi and
dora over the events encoded as integers (fast.py), for a kyoku whose every hand is shown.

The kernel applies the events in order, each one only after checking what KyokuReplay checks for it (an actor
of the table, 13 tiles before a draw, a tile the seat holds, a call of the tile just given, a copy left to
number...). It stops before the first event it cannot apply (a result, end_kyoku, a hidden tile, anything
KyokuReplay would refuse) and says how many it applied: KyokuReplay goes on from there with the same state,
so it raises its own errors, naming the event. Input rows (IN_* columns): type (T_*), actor, tile, target,
tsumogiri, the consumed tiles' count and codes; a tile is ``34-kind * 2 + red`` (fast.TILE_CODES), -1 when not
a tile name, -3 when absent (an ankan's pai). State (``st``): the last tile given, its giver, the last actor,
the draws, a tsumogiri flag that did not hold, the seats, red fives in play.
Helpers declared ``@njit(_nrt=False)`` are compiled without numba's reference counting: they allocate nothing (no
array made, no slice assigned from an array, no np.sort), and each call of a helper taking arrays otherwise
increments and decrements every array's count atomically (NRT_incref/NRT_decref were most of these kernels'
time under perf). numba compiles a helper's own callees without it too, so they must not allocate either.
"""

from __future__ import annotations

import numpy as np

from pipeline.sources.mjai.tiles import KINDS, UNKNOWN
from rules.compiled import njit
from rules.hands import CODE

T_TSUMO, T_DAHAI, T_CHI, T_PON, T_DAIMINKAN, T_KAKAN, T_ANKAN, T_KITA, T_REACH, T_ACCEPTED, T_DORA, T_NONE = range(12)
IN_TYPE, IN_ACTOR, IN_TILE, IN_TARGET, IN_TSUMOGIRI, IN_N, IN_CONSUMED = 0, 1, 2, 3, 4, 5, 6
IN_WIDTH = 10
OUT_INDEX, OUT_ACTION, OUT_SEAT, OUT_TILE, OUT_FROM, OUT_MELD_N, OUT_MELD = 0, 1, 2, 3, 4, 5, 6
OUT_WIDTH = 10
ST_GIVEN, ST_GIVER, ST_ACTOR, ST_DRAWS, ST_MISMATCH, ST_PLAYERS, ST_RED = range(7)
MAX_HELD, MAX_MELDS = 32, 8
TILE_CODES: dict[str, int] = {name: kind * 2 + red for name, (kind, red) in KINDS.items()} | {UNKNOWN: -2}
"""mjai tile name -> kernel tile code (34-kind * 2 + red; -2 for a hidden tile)."""
TYPES = {"tsumo": T_TSUMO, "dahai": T_DAHAI, "chi": T_CHI, "pon": T_PON, "daiminkan": T_DAIMINKAN, "kakan": T_KAKAN,
         "ankan": T_ANKAN, "nukidora": T_KITA, "kita": T_KITA, "reach": T_REACH, "reach_accepted": T_ACCEPTED,
         "dora": T_DORA, "none": T_NONE}  # fmt: skip
"""Event type -> kernel type (the events the play applies)."""
_ACTION = np.array([CODE[a] for a in ("draw", "discard", "chi", "pon", "daiminkan", "kakan", "ankan", "kita",
                                      "riichi", "riichi_accepted", "dora")], dtype=np.int64)  # fmt: skip


@njit
def _copy_of(tile: int, code: int, red_rule: int) -> bool:
    """tile_copies.is_copy_of for a tile code (kind * 2 + red)."""
    kind = code >> 1
    if tile < 0 or tile // 4 != kind:
        return False
    return not red_rule or not (kind == 4 or kind == 13 or kind == 22) or (tile % 4 == 0) == (code & 1 == 1)


@njit(_nrt=False)
def _new(code: int, used: np.ndarray, red_rule: int) -> int:
    """An unused id of the tile (tile_copies.CopyAllocator.allocate), -1 when every copy is out."""
    kind = code >> 1
    split = red_rule and (kind == 4 or kind == 13 or kind == 22)
    first, last = (0, 0) if split and code & 1 else ((1, 3) if split else (0, 3))
    for copy in range(first, last + 1):
        if not used[kind] & (1 << copy):
            used[kind] |= 1 << copy
            return kind * 4 + copy
    return -1


@njit(_nrt=False)
def _find(hand: np.ndarray, n: int, code: int, red_rule: int, prefer: int, avoid: int) -> int:
    """The position in the hand of the copy mjai's tiles.take removes, -1 when the hand holds none."""
    if prefer >= 0 and _copy_of(prefer, code, red_rule):
        for k in range(n):
            if hand[k] == prefer:
                return k
    found = -1
    for k in range(n):
        if _copy_of(hand[k], code, red_rule):
            if hand[k] != avoid:
                return k
            if found < 0:
                found = k
    return found


@njit(_nrt=False)
def _remove(hand: np.ndarray, n: int, k: int) -> int:
    """Remove position ``k`` (order kept); return the tile."""
    tile = hand[k]
    for j in range(k, n - 1):
        hand[j] = hand[j + 1]
    hand[n - 1] = -1
    return tile


@njit(_nrt=False)
def _take_all(ev: np.ndarray, hand: np.ndarray, n: int, red_rule: int, out: np.ndarray) -> int:
    """Take the consumed tiles from a copy of the hand into ``out``; the tiles taken, -1 when one is missing."""
    for j in range(ev[IN_N]):
        code = ev[IN_CONSUMED + j]
        if code < 0:
            return -1
        k = _find(hand, n - j, code, red_rule, -1, -1)
        if k < 0:
            return -1
        out[j] = _remove(hand, n - j, k)
    return ev[IN_N]


@njit(_nrt=False)
def _emit(out: np.ndarray, o: int, index: int, kind: int, seat: int, tile: int, frm: int, st: np.ndarray) -> int:
    """Write an event row (no meld); return the next row."""
    out[o, OUT_INDEX], out[o, OUT_ACTION], out[o, OUT_SEAT] = index, _ACTION[kind], seat
    out[o, OUT_TILE], out[o, OUT_FROM], out[o, OUT_MELD_N] = tile, frm, 0
    if seat >= 0:
        st[ST_ACTOR] = seat
    return o + 1


@njit
def _meld_row(out: np.ndarray, o: int, tiles: np.ndarray, n: int) -> None:
    """Write the sorted meld of row ``o``."""
    out[o, OUT_MELD_N] = n
    ordered = np.sort(tiles[:n])
    for j in range(n):  # a loop, not a slice assignment: that pulls numba's error formatting in (~1 s)
        out[o, OUT_MELD + j] = ordered[j]


@njit
def _call(ev: np.ndarray, index: int, held: np.ndarray, n_held: np.ndarray, melds: np.ndarray, n_melds: np.ndarray,
          meld_from: np.ndarray, last_draw: np.ndarray, out: np.ndarray, o: int, st: np.ndarray) -> int:  # fmt: skip
    """Chi, pon or daiminkan of the tile just given (KyokuReplay._call); the next row, -1 when refused."""
    seat, target, code = ev[IN_ACTOR], ev[IN_TARGET], ev[IN_TILE]
    if not 0 <= target < st[ST_PLAYERS] or code < 0 or not 0 <= ev[IN_N] <= 3 or n_melds[seat] >= MAX_MELDS:
        return -1
    if target != st[ST_GIVER] or target == seat or not _copy_of(st[ST_GIVEN], code, st[ST_RED]):
        return -1
    hand = held[seat].copy()
    tiles = np.zeros(5, dtype=np.int64)
    n = _take_all(ev, hand, n_held[seat], st[ST_RED], tiles[1:])
    if n < 0:
        return -1
    held[seat], n_held[seat] = hand, n_held[seat] - n
    tiles[0] = st[ST_GIVEN]
    _emit(out, o, index, ev[IN_TYPE], seat, st[ST_GIVEN], target, st)
    _meld_row(out, o, tiles, n + 1)
    melds[seat, n_melds[seat], :] = -1
    melds[seat, n_melds[seat], : n + 1] = out[o, OUT_MELD : OUT_MELD + n + 1]
    meld_from[seat, n_melds[seat]] = target
    n_melds[seat] += 1
    st[ST_GIVEN], st[ST_GIVER], last_draw[seat] = -1, -1, -1
    return o + 1


@njit
def _own(ev: np.ndarray, index: int, held: np.ndarray, n_held: np.ndarray, melds: np.ndarray, n_melds: np.ndarray,
         meld_from: np.ndarray, n_kita: np.ndarray, last_draw: np.ndarray, out: np.ndarray, o: int,
         st: np.ndarray) -> int:  # fmt: skip
    """Kakan, ankan or kita from the hand (KyokuReplay._kakan, _ankan, _nukidora); the next row, -1 when refused."""
    seat, code, kind, red = ev[IN_ACTOR], ev[IN_TILE], ev[IN_TYPE], st[ST_RED]
    tiles = np.zeros(4, dtype=np.int64)
    if kind == T_ANKAN:
        hand = held[seat].copy()
        if ev[IN_N] != 4 or code < -3 or -3 < code < 0 or n_melds[seat] >= MAX_MELDS:
            return -1
        if _take_all(ev, hand, n_held[seat], red, tiles) < 0:
            return -1
        held[seat], n_held[seat] = hand, n_held[seat] - 4
        tile = tiles[0]
        if code >= 0:
            for j in range(4):
                if _copy_of(tiles[j], code, red):
                    tile = tiles[j]
                    break
        _emit(out, o, index, kind, seat, tile, -1, st)
        _meld_row(out, o, tiles, 4)
        melds[seat, n_melds[seat], :] = out[o, OUT_MELD : OUT_MELD + 4]
        meld_from[seat, n_melds[seat]] = seat
        n_melds[seat] += 1
    else:
        k = _find(held[seat], n_held[seat], code, red, -1, -1) if code >= 0 else -1
        if k < 0:
            return -1
        tile, m = held[seat, k], -1
        if kind == T_KAKAN:
            for i in range(n_melds[seat]):
                a, b = melds[seat, i, 0], melds[seat, i, 1]
                if melds[seat, i, 3] < 0 and melds[seat, i, 2] >= 0 and a // 4 == tile // 4 and b // 4 == tile // 4:
                    m = i
                    break
            if m < 0:
                return -1
        _remove(held[seat], n_held[seat], k)
        n_held[seat] -= 1
        if kind == T_KAKAN:
            _emit(out, o, index, kind, seat, tile, meld_from[seat, m], st)
            tiles[:3], tiles[3] = melds[seat, m, :3], tile
            _meld_row(out, o, tiles, 4)
            melds[seat, m, :] = out[o, OUT_MELD : OUT_MELD + 4]
        else:
            _emit(out, o, index, kind, seat, tile, -1, st)
            out[o, OUT_MELD_N], out[o, OUT_MELD] = 1, tile
            n_kita[seat] += 1
    st[ST_GIVEN], st[ST_GIVER], last_draw[seat] = out[o, OUT_TILE], seat, -1
    return o + 1


@njit
def play(events: np.ndarray, index: np.ndarray, held: np.ndarray, n_held: np.ndarray, used: np.ndarray,
         melds: np.ndarray, n_melds: np.ndarray, meld_from: np.ndarray, n_kita: np.ndarray, last_draw: np.ndarray,
         draw_pos: np.ndarray, st: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Apply the events in order until one cannot be (see the module docstring); the state arrays are updated in
    place. Returns (events applied, event rows, dora ids revealed, seats whose riichi was accepted)."""
    n = len(events)
    out = np.zeros((n, OUT_WIDTH), dtype=np.int64)
    dora = np.zeros(n, dtype=np.int64)
    accepted = np.zeros(n, dtype=np.int64)
    o = n_dora = n_accepted = 0
    red = st[ST_RED]
    for e in range(n):
        ev = events[e]
        kind, seat, code = ev[IN_TYPE], ev[IN_ACTOR], ev[IN_TILE]
        if kind == T_NONE:
            continue
        if kind < 0 or (kind != T_DORA and not 0 <= seat < st[ST_PLAYERS]):
            return e, out[:o], dora[:n_dora], accepted[:n_accepted]
        nxt = -1
        if kind == T_TSUMO:
            if n_held[seat] + 3 * n_melds[seat] == 13 and code >= 0 and n_held[seat] < MAX_HELD:
                tile = _new(code, used, red)
                if tile >= 0:
                    held[seat, n_held[seat]] = tile
                    n_held[seat] += 1
                    st[ST_DRAWS] += 1
                    last_draw[seat], draw_pos[seat] = tile, o
                    nxt = _emit(out, o, index[e], kind, seat, tile, -1, st)
        elif kind == T_DAHAI:
            drawn, tsumogiri = last_draw[seat], ev[IN_TSUMOGIRI] == 1
            k = _find(held[seat], n_held[seat], code, red, drawn if tsumogiri else -1, -1 if tsumogiri else drawn)
            if code >= 0 and k >= 0:
                tile = _remove(held[seat], n_held[seat], k)
                n_held[seat] -= 1
                if tsumogiri and tile != drawn:
                    st[ST_MISMATCH] = 1
                last_draw[seat], draw_pos[seat] = -1, -1
                st[ST_GIVEN], st[ST_GIVER] = tile, seat
                nxt = _emit(out, o, index[e], kind, seat, tile, -1, st)
        elif kind in (T_CHI, T_PON, T_DAIMINKAN):
            nxt = _call(ev, index[e], held, n_held, melds, n_melds, meld_from, last_draw, out, o, st)
        elif kind in (T_KAKAN, T_ANKAN, T_KITA):
            nxt = _own(ev, index[e], held, n_held, melds, n_melds, meld_from, n_kita, last_draw, out, o, st)
        elif kind == T_REACH:
            nxt = _emit(out, o, index[e], kind, seat, -1, -1, st)
        elif kind == T_ACCEPTED:
            accepted[n_accepted] = seat
            n_accepted += 1
            nxt = _emit(out, o, index[e], kind, seat, -1, -1, st)
        elif kind == T_DORA and code >= 0:
            tile = _new(code, used, red)
            if tile >= 0:
                dora[n_dora] = tile
                n_dora += 1
                nxt = _emit(out, o, index[e], kind, -1, tile, -1, st)
        if nxt < 0:
            return e, out[:o], dora[:n_dora], accepted[:n_accepted]
        o = nxt
    return n, out[:o], dora[:n_dora], accepted[:n_accepted]


@njit
def play_game(rows: np.ndarray, index: np.ndarray, starts: np.ndarray, ends: np.ndarray, deals: np.ndarray,
              st0: np.ndarray) -> tuple[np.ndarray, ...]:  # fmt: skip
    """Deal and play every kyoku of a game in one call: kyoku ``j`` deals ``deals[j]`` (each seat's 13 tile codes,
    then the first dora indicator's code at ``deals[j, 0, 13]``) and plays ``rows[starts[j]:ends[j]]`` (a kyoku with
    ``starts[j] < 0`` is skipped); ``st0``: the state a kyoku starts with (the seats, red fives in play). Returns
    (events applied per kyoku (-1: the deal was refused, or skipped), the dealt ids (and the first dora's), the
    state arrays per kyoku as play leaves them, the event rows, dora ids and accepted riichi of all kyoku, and per
    kyoku the offsets of its rows in those three)."""
    n_kyoku, red, n_players = len(starts), st0[ST_RED], st0[ST_PLAYERS]
    done = np.full(n_kyoku, -1, dtype=np.int64)
    dealt = np.full((n_kyoku, 4, 14), -1, dtype=np.int64)
    held = np.full((n_kyoku, 4, MAX_HELD), -1, dtype=np.int64)
    n_held = np.zeros((n_kyoku, 4), dtype=np.int64)
    used = np.zeros((n_kyoku, 34), dtype=np.int64)
    melds = np.full((n_kyoku, 4, MAX_MELDS, 4), -1, dtype=np.int64)
    n_melds = np.zeros((n_kyoku, 4), dtype=np.int64)
    meld_from = np.zeros((n_kyoku, 4, MAX_MELDS), dtype=np.int64)
    n_kita = np.zeros((n_kyoku, 4), dtype=np.int64)
    last_draw = np.full((n_kyoku, 4), -1, dtype=np.int64)
    draw_pos = np.full((n_kyoku, 4), -1, dtype=np.int64)
    st = np.zeros((n_kyoku, len(st0)), dtype=np.int64)
    total = 0
    for j in range(n_kyoku):
        if starts[j] >= 0 and ends[j] > starts[j]:
            total += ends[j] - starts[j]
    out_all = np.zeros((total, OUT_WIDTH), dtype=np.int64)
    dora_all = np.zeros(total, dtype=np.int64)
    accepted_all = np.zeros(total, dtype=np.int64)
    offsets = np.zeros((n_kyoku + 1, 3), dtype=np.int64)
    for j in range(n_kyoku):
        for c in range(3):
            offsets[j + 1, c] = offsets[j, c]
        if starts[j] < 0:
            continue
        for c in range(len(st0)):
            st[j, c] = st0[c]
        ok = True
        for seat in range(n_players):
            for t in range(13):
                tile = _new(deals[j, seat, t], used[j], red)
                if tile < 0:
                    ok = False
                    break
                held[j, seat, t] = tile
                dealt[j, seat, t] = tile
            n_held[j, seat] = 13
            if not ok:
                break
        if ok:
            dealt[j, 0, 13] = _new(deals[j, 0, 13], used[j], red)
            ok = dealt[j, 0, 13] >= 0
        if not ok:
            continue
        a, b = starts[j], ends[j]
        if b <= a:
            done[j] = 0
            continue
        applied, out, dora, accepted = play(rows[a:b], index[a:b], held[j], n_held[j], used[j], melds[j], n_melds[j],
                                            meld_from[j], n_kita[j], last_draw[j], draw_pos[j], st[j])  # fmt: skip
        done[j] = applied
        o, d, r = offsets[j, 0], offsets[j, 1], offsets[j, 2]
        for i in range(len(out)):
            for c in range(OUT_WIDTH):
                out_all[o + i, c] = out[i, c]
        for i in range(len(dora)):
            dora_all[d + i] = dora[i]
        for i in range(len(accepted)):
            accepted_all[r + i] = accepted[i]
        offsets[j + 1, 0], offsets[j + 1, 1], offsets[j + 1, 2] = o + len(out), d + len(dora), r + len(accepted)
    return (done, dealt, held, n_held, used, melds, n_melds, meld_from, n_kita, last_draw, draw_pos, st, out_all,
            dora_all, accepted_all, offsets)  # fmt: skip
