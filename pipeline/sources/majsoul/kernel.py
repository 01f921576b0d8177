"""The compiled play of one Mahjong Soul round (numba): play.py's handlers of RecordDealTile, RecordDiscardTile,
RecordChiPengGang, RecordAnGangAddGang and RecordBaBei over the records encoded as integers (flat.py).

The kernel applies play.py's rules in the same order, on copies of the round's state made by fast.py after
``play.start_round``: riichi acceptance, tile ids (tile_copies' numbering), the tile a seat gives (``SeatTiles.take``:
the preferred id, else the first copy held other than the last draw), melds, dora reveals, the server's flags. It
checks what play.py checks; on anything play.py would refuse it stops and returns a nonzero code, and the round is
played again by play.py from its start, which raises its own error naming the record. So the kernel never has to
say why: its answer is the state and rows, or "not this round".

Records (R_* columns): kind (K_*), the record's index in the file, seat, tile code (``34-kind * 2 + red``), moqie,
riichi (``is_liqi`` or ``is_wliqi``), call or kan type, the ``liqi`` it carries (0: none, else its seat + 1) and
``failed``, a call's tiles and froms, the ``zhenting`` flags (count, bits), whether ``tingpais`` is set and its
kinds as bits, the record's dora indicators (a run of ``doras``). State (ST_* of ``st``, per seat S_* of
``seat_st``, and the held tiles, melds, pon givers, copies used, dora ids and kan seats) is read and written in place.
"""

from __future__ import annotations

import numpy as np

from rules.compiled import njit
from rules.hands import CODE

K_DEAL, K_DISCARD, K_CALL, K_KAN, K_BABEI = 1, 2, 3, 4, 5
(R_KIND, R_INDEX, R_SEAT, R_TILE, R_MOQIE, R_RIICHI, R_TYPE, R_LIQI, R_LIQI_FAILED, R_NT, R_T0, R_T1, R_T2, R_T3,
 R_NF, R_F0, R_F1, R_F2, R_F3, R_NZ, R_ZBITS, R_TING, R_TMASK, R_D0, R_DN) = range(25)  # fmt: skip
R_WIDTH = 25
(ST_NDORA, ST_RIICHI, ST_PENDING, ST_ACCEPTED, ST_NKAN, ST_GIVEN, ST_GIVER, ST_ACTOR, ST_STICKS, ST_MISMATCH,
 ST_PLAYERS, ST_RED, ST_NEV, ST_NFLAG) = range(14)  # fmt: skip
ST_WIDTH = 14
S_KITA, S_DRAW, S_SCORE, S_NHELD, S_NMELDS = range(5)
S_WIDTH = 5
E_INDEX, E_ACTION, E_SEAT, E_TILE, E_FROM, E_MELDN, E_M0 = range(7)
E_WIDTH = 10
F_EVENT, F_SEAT, F_ZHENTING, F_MASK, F_ACTION = range(5)
F_WIDTH = 5
MAX_HELD, MAX_MELDS, MAX_DORA, MAX_KANS = 32, 8, 16, 16
FLAG_ACTIONS = ("deal", "draw", "discard", "chi", "pon", "daiminkan")
"""The server_flags table's actions by code (F_ACTION)."""
FLAG_CODE = {name: code for code, name in enumerate(FLAG_ACTIONS)}

_DRAW, _DISCARD, _KAKAN, _ANKAN, _KITA = CODE["draw"], CODE["discard"], CODE["kakan"], CODE["ankan"], CODE["kita"]
_RIICHI, _ACCEPTED, _DORA, _CHI = CODE["riichi"], CODE["riichi_accepted"], CODE["dora"], CODE["chi"]
_NORTH_CODE = 30 * 2
_FLAG_DRAW, _FLAG_DISCARD, _FLAG_CHI = FLAG_CODE["draw"], FLAG_CODE["discard"], FLAG_CODE["chi"]


@njit(_nrt=False)
def _is_copy(tile: int, code: int, red_rule: int) -> bool:
    """tile_copies.is_copy_of for a tile code."""
    kind = code >> 1
    if tile < 0 or tile // 4 != kind:
        return False
    return red_rule == 0 or not (kind == 4 or kind == 13 or kind == 22) or (tile % 4 == 0) == (code & 1 == 1)


@njit(_nrt=False)
def _new_id(code: int, used: np.ndarray, red_rule: int) -> int:
    """TileIds.new: an unused id of the tile code (-1: a red five without red fives, or no copy left)."""
    kind, red = code >> 1, code & 1
    if red == 1:  # a red five's code: its kind is 4, 13 or 22
        return _first_free(kind, used, 0, 1) if red_rule != 0 else -1
    split = red_rule != 0 and (kind == 4 or kind == 13 or kind == 22)
    return _first_free(kind, used, 1 if split else 0, 4)


@njit(_nrt=False)
def _first_free(kind: int, used: np.ndarray, first: int, stop: int) -> int:
    for copy in range(first, stop):
        if not used[kind] & (1 << copy):
            used[kind] |= 1 << copy
            return kind * 4 + copy
    return -1


@njit(_nrt=False)
def _remove_at(held: np.ndarray, seat_st: np.ndarray, seat: int, at: int) -> int:
    """Remove the seat's held tile at position ``at`` (the list's order kept); return it."""
    n = seat_st[seat, S_NHELD]
    tile = held[seat, at]
    for i in range(at, n - 1):
        held[seat, i] = held[seat, i + 1]
    seat_st[seat, S_NHELD] = n - 1
    return tile


@njit(_nrt=False)
def _take(held: np.ndarray, seat_st: np.ndarray, seat: int, code: int, prefer: int, red_rule: int) -> int:
    """SeatTiles.take: ``prefer`` when held and a copy of the code, else the first copy held other than the last
    draw, else the first copy (-1: none held)."""
    n = seat_st[seat, S_NHELD]
    if n == 0 or code < 0:
        return -1
    if prefer >= 0 and _is_copy(prefer, code, red_rule):
        for i in range(n):
            if held[seat, i] == prefer:
                return _remove_at(held, seat_st, seat, i)
    first, other = -1, -1
    for i in range(n):
        if _is_copy(held[seat, i], code, red_rule):
            if first < 0:
                first = i
            if other < 0 and held[seat, i] != seat_st[seat, S_DRAW]:
                other = i
    if first < 0:
        return -1
    return _remove_at(held, seat_st, seat, other if other >= 0 else first)


@njit(_nrt=False)
def _emit(ev: np.ndarray, st: np.ndarray, index: int, action: int, seat: int, tile: int, from_seat: int) -> int:
    """Append an event row (no meld); return its row."""
    row = st[ST_NEV]
    ev[row, E_INDEX], ev[row, E_ACTION], ev[row, E_SEAT] = index, action, seat
    ev[row, E_TILE], ev[row, E_FROM], ev[row, E_MELDN] = tile, from_seat, 0
    st[ST_NEV] = row + 1
    if seat >= 0:
        st[ST_ACTOR] = seat
    return row


@njit(_nrt=False)
def _accept_riichi(rec: np.ndarray, ev: np.ndarray, st: np.ndarray, seat_st: np.ndarray) -> bool:
    """play.accept_riichi; False where it raises (a ``liqi`` naming another seat)."""
    seat = st[ST_PENDING]
    if rec[R_LIQI] > 0 and rec[R_LIQI] - 1 != seat:
        return False
    if seat < 0 or (rec[R_LIQI] > 0 and rec[R_LIQI_FAILED] != 0):
        st[ST_PENDING] = -1
        return True
    _emit(ev, st, rec[R_INDEX], _ACCEPTED, seat, -1, -1)
    seat_st[seat, S_SCORE] -= 1000
    st[ST_STICKS] += 1
    st[ST_ACCEPTED] += 1
    st[ST_PENDING] = -1
    return True


@njit(_nrt=False)
def _reveal(rec: np.ndarray, doras: np.ndarray, dora: np.ndarray, used: np.ndarray, ev: np.ndarray,
            st: np.ndarray) -> bool:  # fmt: skip
    """play.reveal: a dora event per indicator not revealed yet; False where an earlier one differs or no id is left."""
    red_rule = st[ST_RED]
    for position in range(rec[R_DN]):
        code = doras[rec[R_D0] + position]
        if position < st[ST_NDORA]:
            if not _is_copy(dora[position], code, red_rule):
                return False
            continue
        tile = _new_id(code, used, red_rule)
        if tile < 0 or st[ST_NDORA] >= MAX_DORA:
            return False
        dora[st[ST_NDORA]] = tile
        st[ST_NDORA] += 1
        _emit(ev, st, rec[R_INDEX], _DORA, -1, tile, -1)
    return True


@njit(_nrt=False)
def _flags(rec: np.ndarray, flags: np.ndarray, st: np.ndarray, event: int, action: int) -> None:
    """play._seat_flags: one row per seat of ``zhenting`` (the discarder's with its waits), or the waits alone."""
    seat, nz = rec[R_SEAT], rec[R_NZ]
    has_waits = action == _FLAG_DISCARD and (nz > 0 or rec[R_TING] != 0)
    for other in range(min(nz, st[ST_PLAYERS])):
        row = st[ST_NFLAG]
        flags[row, F_EVENT], flags[row, F_SEAT], flags[row, F_ACTION] = event, other, action
        flags[row, F_ZHENTING] = (rec[R_ZBITS] >> other) & 1
        flags[row, F_MASK] = rec[R_TMASK] if has_waits and other == seat else -1
        st[ST_NFLAG] = row + 1
    if nz == 0 and has_waits:
        row = st[ST_NFLAG]
        flags[row, F_EVENT], flags[row, F_SEAT], flags[row, F_ACTION] = event, seat, action
        flags[row, F_ZHENTING], flags[row, F_MASK] = -1, rec[R_TMASK]
        st[ST_NFLAG] = row + 1


@njit(_nrt=False)
def _sort4(meld: np.ndarray, n: int) -> None:
    """Sort the first n (<= 4) values of a meld in place."""
    for i in range(1, n):
        value, j = meld[i], i - 1
        while j >= 0 and meld[j] > value:
            meld[j + 1] = meld[j]
            j -= 1
        meld[j + 1] = value


@njit(_nrt=False)
def _meld_event(ev: np.ndarray, row: int, melds: np.ndarray, meld_n: np.ndarray, seat: int, m: int) -> None:
    """Copy meld ``m`` of the seat into event row ``row``."""
    ev[row, E_MELDN] = meld_n[seat, m]
    for i in range(meld_n[seat, m]):
        ev[row, E_M0 + i] = melds[seat, m, i]


@njit(_nrt=False)
def _call(rec: np.ndarray, held: np.ndarray, seat_st: np.ndarray, melds: np.ndarray, meld_n: np.ndarray,
          meld_from: np.ndarray, pon_from: np.ndarray, kan_seats: np.ndarray, ev: np.ndarray, flags: np.ndarray,
          st: np.ndarray) -> bool:  # fmt: skip
    """play.call: chi (type 0), pon (1) or daiminkan (2) of the tile just discarded."""
    seat, kind = rec[R_SEAT], rec[R_TYPE]
    if kind < 0 or kind > 2:
        return False
    called, n_called = -1, 0
    for i in range(rec[R_NF]):
        if rec[R_F0 + i] != seat:
            called, n_called = i, n_called + 1
    if rec[R_NT] != (4 if kind == 2 else 3) or rec[R_NF] != rec[R_NT] or n_called != 1:
        return False
    given, giver, red_rule = st[ST_GIVEN], st[ST_GIVER], st[ST_RED]
    if rec[R_F0 + called] != giver or not _is_copy(given, rec[R_T0 + called], red_rule):
        return False
    m = seat_st[seat, S_NMELDS]
    if m >= MAX_MELDS:
        return False
    melds[seat, m, 0] = given
    n = 1
    for i in range(rec[R_NT]):
        if i != called:
            tile = _take(held, seat_st, seat, rec[R_T0 + i], -1, red_rule)
            if tile < 0:
                return False
            melds[seat, m, n] = tile
            n += 1
    _sort4(melds[seat, m], n)
    meld_n[seat, m], meld_from[seat, m] = n, giver
    seat_st[seat, S_NMELDS] = m + 1
    if kind == 1:
        pon_from[seat, melds[seat, m, 0] // 4] = giver
    if kind == 2:
        if st[ST_NKAN] >= MAX_KANS:
            return False
        kan_seats[st[ST_NKAN]] = seat
        st[ST_NKAN] += 1
    seat_st[seat, S_DRAW] = -1
    row = _emit(ev, st, rec[R_INDEX], _CHI + kind, seat, given, giver)
    _meld_event(ev, row, melds, meld_n, seat, m)
    _flags(rec, flags, st, row, _FLAG_CHI + kind)
    return True


@njit(_nrt=False)
def _kan(
    rec: np.ndarray,
    held: np.ndarray,
    seat_st: np.ndarray,
    melds: np.ndarray,
    meld_n: np.ndarray,
    meld_from: np.ndarray,
    pon_from: np.ndarray,
    kan_seats: np.ndarray,
    ev: np.ndarray,
    st: np.ndarray,
) -> bool:
    """play.kan: an added kan on a pon (type 2) or a closed kan (type 3); its indicator is revealed by the caller."""
    seat, code, red_rule = rec[R_SEAT], rec[R_TILE], st[ST_RED]
    if code < 0:
        return False
    if rec[R_TYPE] == 2:
        tile = _take(held, seat_st, seat, code, seat_st[seat, S_DRAW], red_rule)
        if tile < 0:
            return False
        m = -1
        for i in range(seat_st[seat, S_NMELDS]):
            if m < 0 and meld_n[seat, i] == 3 and melds[seat, i, 0] // 4 == tile // 4 \
                    and melds[seat, i, 1] // 4 == tile // 4:  # fmt: skip
                m = i
        if m < 0:
            return False
        melds[seat, m, 3] = tile
        meld_n[seat, m] = 4
        _sort4(melds[seat, m], 4)
        from_seat = pon_from[seat, tile // 4]
        pon_from[seat, tile // 4] = -1
        action = _KAKAN
    elif rec[R_TYPE] == 3:
        m = seat_st[seat, S_NMELDS]
        if m >= MAX_MELDS:
            return False
        n = 0
        for i in range(seat_st[seat, S_NHELD]):
            if held[seat, i] // 4 == code >> 1:
                if n == 4:
                    return False
                melds[seat, m, n] = held[seat, i]
                n += 1
        if n != 4:
            return False
        tile = melds[seat, m, 0]
        for i in range(3, -1, -1):
            if _is_copy(melds[seat, m, i], code, red_rule):
                tile = melds[seat, m, i]
        for i in range(4):  # remove the four in hand order
            for j in range(seat_st[seat, S_NHELD]):
                if held[seat, j] == melds[seat, m, i]:
                    _remove_at(held, seat_st, seat, j)
                    break
        _sort4(melds[seat, m], 4)
        meld_n[seat, m], meld_from[seat, m] = 4, -1
        seat_st[seat, S_NMELDS] = m + 1
        from_seat, action = -1, _ANKAN
    else:
        return False
    if st[ST_NKAN] >= MAX_KANS:
        return False
    kan_seats[st[ST_NKAN]] = seat
    st[ST_NKAN] += 1
    seat_st[seat, S_DRAW] = -1
    row = _emit(ev, st, rec[R_INDEX], action, seat, tile, from_seat)
    _meld_event(ev, row, melds, meld_n, seat, m)
    st[ST_GIVEN], st[ST_GIVER] = tile, seat
    return True


@njit
def play_round(recs: np.ndarray, doras: np.ndarray, held: np.ndarray, seat_st: np.ndarray, melds: np.ndarray,
               meld_n: np.ndarray, meld_from: np.ndarray, pon_from: np.ndarray, used: np.ndarray, dora: np.ndarray,
               kan_seats: np.ndarray, st: np.ndarray, ev: np.ndarray, flags: np.ndarray) -> int:  # fmt: skip
    """Apply a round's play records (rows of ``recs``) to its state, in place; events and flag rows are appended to
    ``ev`` and ``flags`` at ``st[ST_NEV]`` and ``st[ST_NFLAG]``. Returns 0, or the 1-based row of the first record
    play.py would refuse (the state is then partly applied: the caller discards it)."""
    red_rule, n_players = st[ST_RED], st[ST_PLAYERS]
    for r in range(recs.shape[0]):
        rec = recs[r]
        kind, seat = rec[R_KIND], rec[R_SEAT]
        if seat < 0 or seat >= n_players:
            return r + 1
        ok = True
        if kind == K_DEAL:
            ok = _accept_riichi(rec, ev, st, seat_st)
            tile = _new_id(rec[R_TILE], used, red_rule) if rec[R_TILE] >= 0 else -1
            n = seat_st[seat, S_NHELD]
            if not ok or tile < 0 or n >= MAX_HELD:
                return r + 1
            held[seat, n] = tile
            seat_st[seat, S_NHELD] = n + 1
            seat_st[seat, S_DRAW] = tile
            row = _emit(ev, st, rec[R_INDEX], _DRAW, seat, tile, -1)
            ok = _reveal(rec, doras, dora, used, ev, st)
            _flags(rec, flags, st, row, _FLAG_DRAW)
        elif kind == K_DISCARD:
            drawn = seat_st[seat, S_DRAW]
            tile = _take(held, seat_st, seat, rec[R_TILE], drawn if rec[R_MOQIE] else -1, red_rule)
            if tile < 0:
                return r + 1
            if (rec[R_MOQIE] != 0) != (tile == drawn):
                st[ST_MISMATCH] = 1
            if rec[R_RIICHI]:
                _emit(ev, st, rec[R_INDEX], _RIICHI, seat, -1, -1)
                st[ST_RIICHI] |= 1 << seat
                st[ST_PENDING] = seat
            ok = _reveal(rec, doras, dora, used, ev, st)
            row = _emit(ev, st, rec[R_INDEX], _DISCARD, seat, tile, -1)
            st[ST_GIVEN], st[ST_GIVER], seat_st[seat, S_DRAW] = tile, seat, -1
            _flags(rec, flags, st, row, _FLAG_DISCARD)
        elif kind == K_CALL:
            ok = _accept_riichi(rec, ev, st, seat_st) and _call(rec, held, seat_st, melds, meld_n, meld_from,
                                                                 pon_from, kan_seats, ev, flags, st)  # fmt: skip
        elif kind == K_KAN:
            ok = _kan(rec, held, seat_st, melds, meld_n, meld_from, pon_from, kan_seats, ev, st) and _reveal(
                rec, doras, dora, used, ev, st
            )
        elif kind == K_BABEI:
            tile = _take(held, seat_st, seat, _NORTH_CODE, seat_st[seat, S_DRAW] if rec[R_MOQIE] else -1, red_rule)
            if tile < 0:
                return r + 1
            seat_st[seat, S_KITA] += 1
            seat_st[seat, S_DRAW] = -1
            row = _emit(ev, st, rec[R_INDEX], _KITA, seat, tile, -1)
            ev[row, E_MELDN], ev[row, E_M0] = 1, tile
            st[ST_GIVEN], st[ST_GIVER] = tile, seat
            ok = _reveal(rec, doras, dora, used, ev, st)
        else:
            return r + 1
        if not ok:
            return r + 1
    return 0
