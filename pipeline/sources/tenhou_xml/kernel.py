"""The compiled tokenizer of an mjlog document (numba): its bytes in, one row per element out.

One pass over the bytes finds every element (``<`` to the first ``>`` after it), then each element is given a
kind code and, for the hot elements, its integer attributes:

* a draw ``<T12/>`` (seats T U V W: kinds 0-3) or a discard ``<D12/>`` (D E F G: kinds 4-7), the tile in ``a``;
* ``<N who= m=>``, ``<REACH who= [ten=] step=>`` and ``<DORA hai=>`` written as the server writes them (the
  attributes in its order, plain digits): ``a`` and ``b`` hold who and m, who and step, hai;
* every other element by its tag (INIT, AGARI, RYUUKYOKU, GO, UN, BYE, SHUFFLE, TAIKYOKU, mjloggm, N/REACH/DORA
  in another layout), or OTHER when the tag is none of them (read by name in Python), SKIP for closing tags,
  declarations and comments, BAD_TILE for a draw or discard that is not well formed.

The few elements that are not hot are read in Python (elements.py); what the kernel accepts as hot is exactly
what the Python reading would give for it.
"""

from __future__ import annotations

import numpy as np

from rules.compiled import njit

SKIP, BAD_TILE, N_HOT, REACH_HOT, DORA_HOT, OTHER = 8, 9, 10, 11, 12, 13
"""Kind codes after the eight tile kinds (draws 0-3 and discards 4-7 by seat)."""
NAMES = ("INIT", "N", "REACH", "DORA", "AGARI", "RYUUKYOKU", "GO", "UN", "BYE", "SHUFFLE", "TAIKYOKU", "mjloggm")
"""Tags read in Python, by kind code NAMED + their position here."""
NAMED = 14
HOT_NAMES = {N_HOT: "N", REACH_HOT: "REACH", DORA_HOT: "DORA"}

_TILE_KIND = np.full(256, -1, dtype=np.int8)
_TILE_KIND[[ord(c) for c in "TUVWDEFG"]] = np.arange(8)
_SPACE = np.zeros(256, dtype=np.bool_)
_SPACE[[ord(c) for c in " \t\n\r\x0b\x0c"]] = True  # a subset of Python's \s
_ENDS_TILE = np.zeros(256, dtype=np.bool_)
_ENDS_TILE[[ord(c) for c in "/> \t\r\n"]] = True
_LETTER = np.zeros(256, dtype=np.bool_)
_LETTER[[ord(c) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"]] = True
_NAME_BYTES = np.zeros((len(NAMES), 16), dtype=np.uint8)
_NAME_LENGTHS = np.array([len(name) for name in NAMES], dtype=np.int64)
for _row, _name in enumerate(NAMES):
    _NAME_BYTES[_row, : len(_name)] = np.frombuffer(_name.encode(), dtype=np.uint8)
_WHO = np.frombuffer(b'who="', dtype=np.uint8)
_M = np.frombuffer(b'm="', dtype=np.uint8)
_TEN = np.frombuffer(b'ten="', dtype=np.uint8)
_STEP = np.frombuffer(b'step="', dtype=np.uint8)
_HAI = np.frombuffer(b'hai="', dtype=np.uint8)
_MAX_DIGITS = 9
_QUOTE, _SLASH, _LT, _GT = ord('"'), ord("/"), ord("<"), ord(">")


@njit(_nrt=False)
def _at(buf: np.ndarray, i: int) -> int:
    """The byte at ``i``, or 0 past the end."""
    return buf[i] if i < len(buf) else 0


@njit(_nrt=False)
def _spaces(buf: np.ndarray, i: int, end: int) -> int:
    """The position after the whitespace starting at ``i`` (not past ``end``)."""
    while i < end and _SPACE[buf[i]]:
        i += 1
    return i


@njit(_nrt=False)
def _literal(buf: np.ndarray, i: int, end: int, text: np.ndarray) -> int:
    """The position after ``text`` when it is written at ``i``, else -1."""
    if i + len(text) > end:
        return -1
    for k in range(len(text)):
        if buf[i + k] != text[k]:
            return -1
    return i + len(text)


@njit(_nrt=False)
def _number(buf: np.ndarray, i: int, end: int) -> tuple[int, int]:
    """(value, position after) of the 1-9 digits at ``i`` closed by a quote; (-1, -1) when there are none."""
    value, k = 0, i
    while k < end and 48 <= buf[k] <= 57 and k - i < _MAX_DIGITS:
        value = value * 10 + buf[k] - 48
        k += 1
    if k == i or k >= end or buf[k] != _QUOTE:
        return -1, -1
    return value, k + 1


@njit(_nrt=False)
def _attribute(buf: np.ndarray, i: int, end: int, name: np.ndarray) -> tuple[int, int]:
    """(value, position after) of ``name="digits"`` at ``i``; (-1, -1) when it is not written there."""
    i = _literal(buf, i, end, name)
    if i < 0:
        return -1, -1
    return _number(buf, i, end)


@njit(_nrt=False)
def _closes(buf: np.ndarray, i: int, end: int) -> bool:
    """Whether only whitespace and an optional '/' are left before ``end``."""
    i = _spaces(buf, i, end)
    if i < end and buf[i] == _SLASH:
        i += 1
    return i == end


@njit(_nrt=False)
def _hot_n(buf: np.ndarray, i: int, end: int) -> tuple[int, int]:
    """(who, m) of ``who="1" m="2"/`` from ``i``; (-1, -1) when not so written."""
    who, i = _attribute(buf, _spaces(buf, i, end), end, _WHO)
    if who < 0 or not (i < end and _SPACE[buf[i]]):
        return -1, -1
    m, i = _attribute(buf, _spaces(buf, i, end), end, _M)
    if m < 0 or not _closes(buf, i, end):
        return -1, -1
    return who, m


@njit(_nrt=False)
def _skip_ten(buf: np.ndarray, i: int, end: int) -> int:
    """The position after ``ten="digits and commas"`` and its whitespace at ``i``; ``i`` when absent, -1 when
    it is not well formed."""
    k = _literal(buf, i, end, _TEN)
    if k < 0:
        return i
    while k < end and (48 <= buf[k] <= 57 or buf[k] == 44):
        k += 1
    if k >= end or buf[k] != _QUOTE or not (k + 1 < end and _SPACE[buf[k + 1]]):
        return -1
    return _spaces(buf, k + 1, end)


@njit(_nrt=False)
def _hot_reach(buf: np.ndarray, i: int, end: int) -> tuple[int, int]:
    """(who, step) of ``who="1" [ten="..."] step="2"/`` from ``i``; (-1, -1) when not so written."""
    who, i = _attribute(buf, _spaces(buf, i, end), end, _WHO)
    if who < 0 or not (i < end and _SPACE[buf[i]]):
        return -1, -1
    i = _skip_ten(buf, _spaces(buf, i, end), end)
    if i < 0:
        return -1, -1
    step, i = _attribute(buf, i, end, _STEP)
    if step < 0 or not _closes(buf, i, end):
        return -1, -1
    return who, step


@njit(_nrt=False)
def _hot_dora(buf: np.ndarray, i: int, end: int) -> int:
    """hai of ``hai="5"/`` from ``i``; -1 when not so written."""
    hai, i = _attribute(buf, _spaces(buf, i, end), end, _HAI)
    if hai < 0 or not _closes(buf, i, end):
        return -1
    return hai


@njit(_nrt=False)
def _name_kind(buf: np.ndarray, start: int, end: int) -> tuple[int, int]:
    """(kind, end of the name) of a named element: NAMED + its tag's position in NAMES, or OTHER (a tag not
    listed, none, or one followed by a non-ASCII byte, whose name Python decides)."""
    i = start + 1
    while i < end and _LETTER[buf[i]]:
        i += 1
    if i == start + 1 or (i < end and buf[i] >= 128):
        return OTHER, i
    length = i - start - 1
    for row in range(len(_NAME_LENGTHS)):
        if _NAME_LENGTHS[row] != length:
            continue
        same = True
        for k in range(length):
            if buf[start + 1 + k] != _NAME_BYTES[row, k]:
                same = False
                break
        if same:
            return NAMED + row, i
    return OTHER, i


@njit(_nrt=False)
def _tile(buf: np.ndarray, start: int) -> tuple[int, int]:
    """(kind, tile) of a draw or discard at ``start`` (kind BAD_TILE when not closed after 1-3 digits); kind -1
    when the element is not one."""
    kind = _TILE_KIND[_at(buf, start + 1)]
    d = _at(buf, start + 2)
    if kind < 0 or not 48 <= d <= 57:
        return -1, 0
    value, i = 0, start + 2
    while i < start + 5 and 48 <= _at(buf, i) <= 57:
        value = value * 10 + _at(buf, i) - 48
        i += 1
    if not _ENDS_TILE[_at(buf, i)]:
        return BAD_TILE, value
    return kind, value


@njit(_nrt=False)
def _classify(buf: np.ndarray, start: int, end: int) -> tuple[int, int, int]:
    """(kind, a, b) of the element from ``start`` ('<') to ``end`` ('>')."""
    kind, value = _tile(buf, start)
    if kind >= 0:
        return kind, value, 0
    first = _at(buf, start + 1)
    if first == 47 or first == 63 or first == 33:  # '/', '?', '!': closing tags, declarations, comments
        return SKIP, 0, 0
    kind, i = _name_kind(buf, start, end)
    if kind == NAMED + 1:
        a, b = _hot_n(buf, i, end)
        if a >= 0:
            return N_HOT, a, b
    elif kind == NAMED + 2:
        a, b = _hot_reach(buf, i, end)
        if a >= 0:
            return REACH_HOT, a, b
    elif kind == NAMED + 3:
        a = _hot_dora(buf, i, end)
        if a >= 0:
            return DORA_HOT, a, 0
    return kind, 0, 0


@njit
def _bounds(buf: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """(starts, ends, markup error): every '<' and the first '>' after it (-1 for none); the position of the
    first '<' met inside an element (-1 for none)."""
    n = 0
    for i in range(len(buf)):
        if buf[i] == _LT:
            n += 1
    starts = np.empty(n, dtype=np.int64)
    ends = np.full(n, -1, dtype=np.int64)
    k, pending, markup = 0, 0, -1
    for i in range(len(buf)):
        c = buf[i]
        if c == _LT:
            if pending and markup < 0:
                markup = i
            starts[k] = i
            k += 1
            pending += 1
        elif c == _GT and pending:
            for j in range(k - pending, k):
                ends[j] = i
            pending = 0
    return starts, ends, markup


@njit
def tokenize(buf: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, bool]:
    """Split a document's bytes (uint8) into elements: (starts, ends, kinds, a, b, markup error, is_cut).

    ``starts``/``ends`` are the offsets of each element's '<' and '>'; a last element cut off by the end of the
    bytes is dropped (``is_cut``). ``markup error`` is the offset of the first '<' inside an element, -1 when
    there is none (the elements are then not to be used)."""
    starts, ends, markup = _bounds(buf)
    n = len(starts)
    is_cut = n > 0 and ends[n - 1] < 0
    if is_cut:
        n -= 1  # a '<' inside an element is still an error when it is the cut one's (its element never closes)
    kinds = np.empty(n, dtype=np.int8)
    a = np.zeros(n, dtype=np.int64)
    b = np.zeros(n, dtype=np.int64)
    if markup >= 0:
        return starts[:n], ends[:n], kinds[:0], a[:0], b[:0], markup, is_cut
    for e in range(n):
        kinds[e], a[e], b[e] = _classify(buf, starts[e], ends[e])
    return starts[:n], ends[:n], kinds, a, b, markup, is_cut


ROUND_TAGS = ("INIT", "AGARI", "RYUUKYOKU")
"""The tags whose rows the bulk reading builds from the attribute table (bulk.py), as ``tags`` codes 0, 1, 2."""
_TAG_OF_KIND = np.full(NAMED + len(NAMES), -1, dtype=np.int64)
_TAG_OF_KIND[[NAMED + NAMES.index(name) for name in ROUND_TAGS]] = np.arange(len(ROUND_TAGS))
_ONE_BY_ONE = np.zeros(NAMED + len(NAMES), dtype=np.bool_)
_ONE_BY_ONE[[OTHER, *(NAMED + NAMES.index(name) for name in ("N", "REACH", "DORA"))]] = True
"""Kinds the bulk reading leaves to the element-by-element one: unknown tags, calls, riichi and dora indicators
not written as the server writes them."""


@njit
def scan_document(
    buf: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, bool, int, np.ndarray, np.ndarray, int,
           np.ndarray, np.ndarray, bool, int]:  # fmt: skip
    """tokenize's (starts, ends, kinds, a, b, markup error, is_cut) and what the reading of the elements needs
    of them: (..., the first BAD_TILE element (-1: none), the elements read in Python other than INIT, AGARI and
    RYUUKYOKU as rows (index, kind, '<' offset, '>' offset, INITs before it), the index of every element read in
    Python, the last element read in Python or hot (-1: none), the INIT, AGARI and RYUUKYOKU elements' indexes
    and tags (0, 1, 2 by ROUND_TAGS), whether an element is to be read element by element (_ONE_BY_ONE), the
    number of INITs)."""
    starts, ends, kinds, a, b, markup, is_cut = tokenize(buf)
    n = len(kinds)
    bad, last, n_named, n_others, n_at, n_inits, one_by_one = -1, -1, 0, 0, 0, 0, False
    for e in range(n):
        k = kinds[e]
        if k == BAD_TILE and bad < 0:
            bad = e
        if k >= N_HOT:
            last = e
        if k >= OTHER:
            n_named += 1
            if _TAG_OF_KIND[k] >= 0:
                n_at += 1
            else:
                n_others += 1
    named_at = np.empty(n_named, dtype=np.int64)
    others = np.empty((5, n_others), dtype=np.int64)
    at = np.empty(n_at, dtype=np.int64)
    tags = np.empty(n_at, dtype=np.int64)
    i, j, o = 0, 0, 0
    for e in range(n):
        k = kinds[e]
        if k < OTHER:
            continue
        if _ONE_BY_ONE[k]:
            one_by_one = True
        named_at[i] = e
        i += 1
        tag = _TAG_OF_KIND[k]
        if tag >= 0:
            at[j], tags[j] = e, tag
            j += 1
            n_inits += tag == 0
        else:
            others[0, o], others[1, o], others[2, o], others[3, o], others[4, o] = e, k, starts[e], ends[e], n_inits
            o += 1
    return starts, ends, kinds, a, b, markup, is_cut, bad, others, named_at, last, at, tags, one_by_one, n_inits


CHI, PON, DAIMINKAN, KAKAN, ANKAN, KITA = 2, 3, 4, 5, 6, 7
"""Slots of the ``codes`` table hot_events takes: draw, discard, then the calls in this order, riichi,
riichi_accepted, dora (the action codes the events table uses, passed in)."""
RIICHI, ACCEPTED, DORA_SLOT = 8, 9, 10


@njit(_nrt=False)
def decode_meld_code(m: int, tiles: np.ndarray) -> tuple[int, int, int, int]:
    """Decode a Tenhou call code as melds.decode_meld does: (slot, called tile, relative seat, number of tiles),
    the meld's tiles written into ``tiles`` (4 slots); slot -1 for a code decode_meld refuses."""
    if not 0 <= m < 1 << 16:
        return -1, 0, 0, 0
    if m & 0x4:
        t = m >> 10
        called, t = t % 3, t // 3
        base34 = (t // 7) * 9 + t % 7
        for i in range(3):
            tiles[i] = (base34 + i) * 4 + ((m >> (3 + 2 * i)) & 3)
        slot, tile, rel, n = CHI, tiles[called], m & 3, 3
    elif m & 0x18:
        unused, t = (m >> 5) & 3, m >> 9
        called, kind = t % 3, t // 3
        n = 0
        for i in range(4):
            if i != unused:
                tiles[n] = kind * 4 + i
                n += 1
        if m & 0x8:
            slot, tile, rel = PON, tiles[called], m & 3
        else:
            for i in range(4):
                tiles[i] = kind * 4 + i
            slot, tile, rel, n = KAKAN, kind * 4 + unused, m & 3, 4
    elif m & 0x20:
        tiles[0] = m >> 8
        slot, tile, rel, n = KITA, m >> 8, 0, 1
    else:
        tile = m >> 8
        for i in range(4):
            tiles[i] = (tile // 4) * 4 + i
        rel = m & 3
        slot, n = (ANKAN if rel == 0 else DAIMINKAN), 4
    for i in range(n):
        if tiles[i] > 135:
            return -1, 0, 0, 0
    return slot, tile, rel, n


@njit(_nrt=False)
def _hot_ok(kind: int, a: int, b: int, players: int) -> bool:
    """Whether a riichi or dora element (in a round) passes its handler's checks."""
    if kind == REACH_HOT:
        return a < players and (b == 1 or b == 2)
    return a <= 135


@njit
def hot_events(
    kinds: np.ndarray, a: np.ndarray, b: np.ndarray, go_index: np.ndarray, go_players: np.ndarray, codes: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The event rows of the draws, discards and hot elements, in document order: (source_index, round_idx,
    seat, action, tile, from_seat, meld tiles (n x 4), meld size, refused).

    A round is open after an INIT (round_idx: the INITs before, minus one; -1 for a draw or discard before the
    first), the seats are those of the last GO before (``go_index``, ``go_players``; 4 before any). A hot
    element that does not pass its handler's checks is left out and its index listed in ``refused``."""
    n = len(kinds)
    index = np.empty(n, dtype=np.int64)
    round_idx = np.empty(n, dtype=np.int64)
    seat = np.empty(n, dtype=np.int64)
    action = np.empty(n, dtype=np.int64)
    tile = np.empty(n, dtype=np.int64)
    from_seat = np.full(n, -1, dtype=np.int64)
    meld = np.zeros((n, 4), dtype=np.int64)
    meld_size = np.zeros(n, dtype=np.int64)
    refused = np.empty(n, dtype=np.int64)
    rows, n_refused, n_inits, players, g = 0, 0, 0, 4, 0
    for e in range(n):
        while g < len(go_index) and go_index[g] < e:
            players, g = go_players[g], g + 1
        k = kinds[e]
        if k == NAMED:  # INIT
            n_inits += 1
            continue
        if k >= 8 and not (N_HOT <= k <= DORA_HOT):
            continue
        index[rows] = e
        round_idx[rows], seat[rows], tile[rows] = n_inits - 1, a[e], -1
        if k < 8:
            seat[rows], action[rows], tile[rows] = k % 4, codes[k // 4], a[e]
        elif k == N_HOT:
            slot, called, rel, size = decode_meld_code(b[e], meld[rows])
            if n_inits == 0 or a[e] >= players or slot < 0:
                refused[n_refused], n_refused = e, n_refused + 1
                continue
            action[rows], tile[rows], meld_size[rows] = codes[slot], called, size
            if slot <= KAKAN:
                from_seat[rows] = (a[e] + rel) % 4
        else:
            if n_inits == 0 or not _hot_ok(k, a[e], b[e], players):
                refused[n_refused], n_refused = e, n_refused + 1
                continue
            if k == DORA_HOT:
                seat[rows], action[rows], tile[rows] = -1, codes[DORA_SLOT], a[e]
            else:
                action[rows] = codes[RIICHI if b[e] == 1 else ACCEPTED]
        rows += 1
    return (index[:rows], round_idx[:rows], seat[:rows], action[:rows], tile[:rows], from_seat[:rows],
            meld[:rows], meld_size[:rows], refused[:n_refused])  # fmt: skip
