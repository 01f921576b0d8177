"""The compiled replay of one tenhou.net/6 round (numba): replay.py's search, first choice only.

replay.Replayer searches depth first and, at each discard some seat may call, tries the calls first (pon and
kan before chi, seats in turn order) and passing last; the order it returns is the first complete one. This
kernel follows that first choice at every branch point, so when it reaches the end of the round its events are
exactly the Replayer's. When the first choice dies (a call that had to wait for a later discard, or lists that
cannot be played at all) it gives up (status 0) and the caller runs the Replayer, which backtracks, or raises
its ParseError.

Inputs (fast.py encodes them): the dealt hands (tile codes, ``hand_len`` per seat, 0 for an empty seat), the
take and give lists flattened (``*_start``: five offsets) where a call string is ``-1 - its row`` in ``calls``
(columns: kind as an action code, the named tile, the number of tiles, four tile codes, the relative seat it
came from), and the result's requirements (replay.Ending). Output rows (EV_* columns): action code
(rules.hands.CODE), seat (-1 for a dora reveal), tile code (0 when none), the seat the tile came from (-1), the
discard was written as tsumogiri, the meld's size and tile codes.
Helpers declared ``@njit(_nrt=False)`` are compiled without numba's reference counting: they allocate nothing (no
array made, no slice assigned from an array, no np.sort), and each call of a helper taking arrays otherwise
increments and decrements every array's count atomically (NRT_incref/NRT_decref were most of these kernels'
time under perf). numba compiles a helper's own callees without it too, so they must not allocate either.
"""

from __future__ import annotations

import numpy as np

from rules.compiled import njit
from rules.hands import CODE

DRAW, DISCARD, CHI, PON, DAIMINKAN, KAKAN, ANKAN, KITA, RIICHI, ACCEPTED, DORA = (
    CODE[a] for a in ("draw", "discard", "chi", "pon", "daiminkan", "kakan", "ankan", "kita", "riichi",
                      "riichi_accepted", "dora")
)  # fmt: skip
C_KIND, C_TILE, C_N, C_TILES, C_REL = 0, 1, 2, 3, 7
"""Columns of a call row."""
EV_ACTION, EV_SEAT, EV_CODE, EV_FROM, EV_TSUMOGIRI, EV_MELD_N, EV_MELD = 0, 1, 2, 3, 4, 5, 6
EV_WIDTH = 10
"""Columns of an event row (the meld's four codes from EV_MELD)."""
TSUMOGIRI, PLACEHOLDER = 60, 0
_PHASE_DRAW, _PHASE_ACT, _PHASE_REACT = 0, 1, 2
_AFTER_DRAW, _AFTER_DISCARD = 0, 1
"""Ending.after: 'draw' and 'discard'."""

# mutable scalars of the replay, kept in one array (numba closures cannot rebind)
_PENDING_RIICHI, _PENDING_DORA, _OLDER_DORA, _LAST_ACTOR, _PHASE, _ACTOR, _TILE, _AFTER_CALL, _N = range(9)


@njit
def _plain(code: int) -> int:
    """The code with red fives folded into plain fives (51 -> 15)."""
    return code - 36 if 51 <= code <= 53 else code


@njit(_nrt=False)
def _emit(ev: np.ndarray, s: np.ndarray, action: int, seat: int, code: int, frm: int, tsumogiri: int) -> int:
    """Append an event row without meld; return its row."""
    row = s[_N]
    ev[row, EV_ACTION], ev[row, EV_SEAT], ev[row, EV_CODE] = action, seat, code
    ev[row, EV_FROM], ev[row, EV_TSUMOGIRI], ev[row, EV_MELD_N] = frm, tsumogiri, 0
    s[_N] = row + 1
    return row


@njit(_nrt=False)
def _emit_call(ev: np.ndarray, s: np.ndarray, call: np.ndarray, seat: int, frm: int) -> None:
    """Append the event of a call row (its kind, tile and tiles)."""
    row = _emit(ev, s, call[C_KIND], seat, call[C_TILE], frm, 0)
    ev[row, EV_MELD_N] = call[C_N]
    for k in range(call[C_N]):
        ev[row, EV_MELD + k] = call[C_TILES + k]


@njit(_nrt=False)
def _accept_riichi(ev: np.ndarray, s: np.ndarray) -> None:
    """A riichi discard nobody won on: its stick goes on the table."""
    if s[_PENDING_RIICHI] >= 0:
        _emit(ev, s, ACCEPTED, s[_PENDING_RIICHI], 0, -1, 0)
        s[_PENDING_RIICHI] = -1


@njit(_nrt=False)
def _reveal_dora(ev: np.ndarray, s: np.ndarray, count: int) -> None:
    """Turn ``count`` kan indicators (replay.Replayer._reveal_dora)."""
    for _ in range(count):
        _emit(ev, s, DORA, -1, 0, -1, 0)
    s[_PENDING_DORA] = max(s[_PENDING_DORA] - count, 0)
    s[_OLDER_DORA] = 0


@njit(_nrt=False)
def _needed(call: np.ndarray, skip_named: bool, code: int) -> int:
    """How many tiles of ``code`` the call takes from the hand (one copy of the named tile left out when
    ``skip_named``)."""
    n = 0
    for k in range(call[C_N]):
        if call[C_TILES + k] == code:
            n += 1
    if skip_named and n > 0 and code == call[C_TILE]:
        return n - 1
    return n


@njit(_nrt=False)
def _rest_held(hand: np.ndarray, call: np.ndarray, skip_named: bool, take: bool) -> bool:
    """Whether the hand holds the call's tiles (one copy of the named tile left out when ``skip_named``);
    with ``take``, remove them (the caller gives up on False, so a partial removal does not matter)."""
    for k in range(call[C_N]):
        code = call[C_TILES + k]
        if _needed(call, skip_named, code) > hand[code]:
            return False
    if take:
        for k in range(call[C_N]):
            code, first = call[C_TILES + k], True
            for j in range(k):
                first = first and call[C_TILES + j] != code
            if first:  # each code once
                hand[code] -= _needed(call, skip_named, code)
    return True


@njit(_nrt=False)
def _take_one(hand: np.ndarray, code: int) -> bool:
    """Remove one tile of ``code`` from the hand; False when it holds none."""
    if hand[code] <= 0:
        return False
    hand[code] -= 1
    return True


@njit(_nrt=False)
def _next_seat(hand_len: np.ndarray, seat: int) -> int:
    """The next seated seat in turn order."""
    for k in range(1, 5):
        nxt = (seat + k) % 4
        if hand_len[nxt] > 0:
            return nxt
    return seat


@njit(_nrt=False)
def _caller(s: np.ndarray, hands: np.ndarray, hand_len: np.ndarray, takes: np.ndarray, take_start: np.ndarray,
            take_at: np.ndarray, calls: np.ndarray) -> int:  # fmt: skip
    """The seat the Replayer tries first to call the tile just discarded (pon/kan before chi), -1 for none."""
    first_chi = -1
    for seat in range(4):
        if hand_len[seat] == 0 or seat == s[_ACTOR] or take_start[seat] + take_at[seat] >= take_start[seat + 1]:
            continue
        item = takes[take_start[seat] + take_at[seat]]
        if item >= 0:
            continue
        call = calls[-1 - item]
        kind = call[C_KIND]
        if call[C_TILE] != s[_TILE] or kind not in (CHI, PON, DAIMINKAN):
            continue
        target = (seat + call[C_REL]) % 4
        if hand_len[target] == 0 or target != s[_ACTOR] or not _rest_held(hands[seat], call, True, False):
            continue
        if kind != CHI:
            return seat
        if first_chi < 0:
            first_chi = seat
    return first_chi


@njit(_nrt=False)
def _call(ev: np.ndarray, s: np.ndarray, seat: int, hands: np.ndarray, takes: np.ndarray, take_start: np.ndarray,
          take_at: np.ndarray, gives: np.ndarray, give_start: np.ndarray, give_at: np.ndarray, calls: np.ndarray,
          pons: np.ndarray, last_draw: np.ndarray) -> bool:  # fmt: skip
    """``seat`` calls the tile just discarded (replay.Replayer._call); False when the branch dies."""
    call = calls[-1 - takes[take_start[seat] + take_at[seat]]]
    discarder = s[_LAST_ACTOR]
    _accept_riichi(ev, s)
    take_at[seat] += 1
    if not _rest_held(hands[seat], call, True, True):
        return False
    _emit_call(ev, s, call, seat, discarder)
    s[_LAST_ACTOR], s[_ACTOR], last_draw[seat] = seat, seat, 0
    if call[C_KIND] == PON:
        pons[seat, _plain(call[C_TILE])] = discarder + 1
    if call[C_KIND] != DAIMINKAN:
        s[_PHASE], s[_AFTER_CALL] = _PHASE_ACT, 1
        return True
    at = give_start[seat] + give_at[seat]
    if at >= give_start[seat + 1] or gives[at] != PLACEHOLDER:
        return False
    give_at[seat] += 1
    s[_OLDER_DORA] = s[_PENDING_DORA]
    s[_PENDING_DORA] += 1
    s[_PHASE], s[_AFTER_CALL] = _PHASE_DRAW, 0
    return True


@njit(_nrt=False)
def _own_call(ev: np.ndarray, s: np.ndarray, seat: int, call: np.ndarray, hands: np.ndarray, pons: np.ndarray,
              last_draw: np.ndarray) -> bool:  # fmt: skip
    """Ankan, kakan or kita from the hand (replay.Replayer._own_call); False when the branch dies."""
    if s[_AFTER_CALL]:
        return False
    kind = call[C_KIND]
    if kind == KAKAN:
        plain = _plain(call[C_TILE])
        if pons[seat, plain] == 0 or not _take_one(hands[seat], call[C_TILE]):
            return False
        _emit_call(ev, s, call, seat, pons[seat, plain] - 1)
        pons[seat, plain] = 0
        s[_OLDER_DORA] = s[_PENDING_DORA]
        s[_PENDING_DORA] += 1
    elif kind == ANKAN:
        if not _rest_held(hands[seat], call, False, True):
            return False
        _emit_call(ev, s, call, seat, -1)
        _reveal_dora(ev, s, s[_PENDING_DORA] + 1)
    else:
        if not _take_one(hands[seat], call[C_TILE]):
            return False
        _emit_call(ev, s, call, seat, -1)
    last_draw[seat] = 0
    s[_LAST_ACTOR], s[_PHASE] = seat, _PHASE_DRAW
    return True


@njit(_nrt=False)
def _act(ev: np.ndarray, s: np.ndarray, seat: int, item: int, hands: np.ndarray, calls: np.ndarray,
         pons: np.ndarray, last_draw: np.ndarray) -> bool:  # fmt: skip
    """The actor gives ``item`` (replay.Replayer._act); False when the branch dies."""
    riichi = False
    code = item
    if item < 0:
        call = calls[-1 - item]
        kind = call[C_KIND]
        if kind in (ANKAN, KAKAN, KITA):
            return _own_call(ev, s, seat, call, hands, pons, last_draw)
        if kind != RIICHI:
            return False
        riichi, code = True, call[C_TILE]
    if code == PLACEHOLDER:
        return False
    written_tsumogiri = code == TSUMOGIRI
    if written_tsumogiri:
        if s[_AFTER_CALL] or last_draw[seat] == 0:
            return False
        code = last_draw[seat]
    if not _take_one(hands[seat], code):
        return False
    if riichi:
        _emit(ev, s, RIICHI, seat, 0, -1, 0)
    _reveal_dora(ev, s, s[_PENDING_DORA])
    _emit(ev, s, DISCARD, seat, code, -1, 1 if written_tsumogiri else 0)
    s[_PENDING_RIICHI] = seat if riichi else -1
    last_draw[seat] = 0
    s[_LAST_ACTOR], s[_PHASE], s[_TILE] = seat, _PHASE_REACT, code
    return True


@njit(_nrt=False)
def _ends(ev: np.ndarray, s: np.ndarray, after: int, take_at: np.ndarray, take_start: np.ndarray,
          give_at: np.ndarray, give_start: np.ndarray, ending: np.ndarray) -> bool:  # fmt: skip
    """Whether the round may end here (replay.Replayer._ends); ``ending``: after, seat, accepts riichi."""
    for seat in range(4):
        if take_start[seat] + take_at[seat] < take_start[seat + 1]:
            return False
        if give_start[seat] + give_at[seat] < give_start[seat + 1]:
            return False
    if ending[0] != after or (ending[1] >= 0 and ending[1] != s[_LAST_ACTOR]):
        return False
    last = -1
    for row in range(s[_N]):
        if ev[row, EV_SEAT] == s[_LAST_ACTOR] and ev[row, EV_ACTION] <= KITA:
            last = ev[row, EV_ACTION]
    if last < 0:
        return False
    if after == _AFTER_DRAW and last != DRAW:
        return False
    if after == _AFTER_DISCARD and last not in (DISCARD, KAKAN, ANKAN, KITA):
        return False
    if ending[2]:
        _accept_riichi(ev, s)
    s[_PENDING_RIICHI] = -1
    return True


@njit
def replay_first_choice(hands: np.ndarray, hand_len: np.ndarray, takes: np.ndarray, take_start: np.ndarray,
                        gives: np.ndarray, give_start: np.ndarray, calls: np.ndarray, dealer: int,
                        ending: np.ndarray) -> tuple[int, np.ndarray, int, int]:  # fmt: skip
    """Replay a round taking the first choice at every branch (see the module docstring).

    ``hands``: (4, 64) counts per tile code; ``ending``: after (0 draw, 1 discard), the seat that must act last
    (-1 any), accepts riichi, is a ron. Returns (status: 1 done / 0 given up, event rows, the seat that acted
    last, a robbed closed kan's indicator was taken out)."""
    n_items = take_start[4] - take_start[0] + give_start[4] - give_start[0]  # the round's (the lists are the game's)
    ev = np.zeros((3 * n_items + 16, EV_WIDTH), dtype=np.int64)
    s = np.zeros(9, dtype=np.int64)
    s[_PENDING_RIICHI], s[_LAST_ACTOR], s[_ACTOR], s[_PHASE] = -1, -1, dealer, _PHASE_DRAW
    take_at, give_at, last_draw = np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64)
    pons = np.zeros((4, 64), dtype=np.int64)
    while True:
        seat = s[_ACTOR]
        if s[_PHASE] == _PHASE_REACT:
            caller = _caller(s, hands, hand_len, takes, take_start, take_at, calls)
            s[_PHASE], s[_ACTOR], s[_AFTER_CALL] = _PHASE_DRAW, _next_seat(hand_len, seat), 0
            if caller >= 0 and not _call(ev, s, caller, hands, takes, take_start, take_at, gives, give_start,
                                         give_at, calls, pons, last_draw):  # fmt: skip
                return 0, ev[:0], -1, 0
        elif s[_PHASE] == _PHASE_DRAW:
            at = take_start[seat] + take_at[seat]
            if at >= take_start[seat + 1]:
                if not _ends(ev, s, _AFTER_DISCARD, take_at, take_start, give_at, give_start, ending):
                    return 0, ev[:0], -1, 0
                break
            item = takes[at]
            if item < 0:
                return 0, ev[:0], -1, 0
            _accept_riichi(ev, s)
            _reveal_dora(ev, s, s[_OLDER_DORA])
            take_at[seat] += 1
            hands[seat, item] += 1
            last_draw[seat] = item
            _emit(ev, s, DRAW, seat, item, -1, 0)
            s[_LAST_ACTOR], s[_PHASE], s[_AFTER_CALL] = seat, _PHASE_ACT, 0
        else:
            at = give_start[seat] + give_at[seat]
            if at >= give_start[seat + 1]:
                if not _ends(ev, s, _AFTER_DRAW, take_at, take_start, give_at, give_start, ending):
                    return 0, ev[:0], -1, 0
                break
            give_at[seat] += 1
            if not _act(ev, s, seat, gives[at], hands, calls, pons, last_draw):
                return 0, ev[:0], -1, 0
    n = s[_N]
    robbed = 0
    if ending[3] and n >= 2 and ev[n - 1, EV_ACTION] == DORA and ev[n - 2, EV_ACTION] == ANKAN:
        n -= 1
        robbed = 1
    return 1, ev[:n], s[_LAST_ACTOR], robbed
