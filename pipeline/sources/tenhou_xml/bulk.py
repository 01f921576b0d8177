"""The rounds, wins and draws of a whole document at once, from the attribute table of its INIT, AGARI and
RYUUKYOKU elements (attributes.py).

The element-by-element reading (state.py, results.py) is the definition: it reads each element against the
game's state and raises, for a log it cannot read, the error of the first element that fails. Here the same
rows are built from one table of the document's integers, read and checked by a compiled pass against RULES
(what each handler accepts of each attribute), then by a second compiled pass (round_table: the rounds' scores,
the wins' melds decoded and hands checked, every list a span of one flat array), whose arrays become the columns
in a few ``tolist`` calls and slices a game. The state an element meets is known before the document is read
(as for the hot elements, hot.py): its round is the number of INITs before it minus one, the seats are those of
the document's one GO. Whatever the element-by-element reading would refuse (a missing or malformed attribute,
a value out of range, an unknown code, a round without a result...), and whatever is not written as the server
writes it, is refused here as a whole (``Refused``): that document is then read element by element, which
raises its error.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from pipeline.sources.event_flags import _TABLES as _FLAG_TABLES
from pipeline.sources.events_kernel import ENTERING, event_table, event_table_columns
from pipeline.sources.tenhou_xml.attributes import (
    ATTRIBUTES,
    COUNT,
    END,
    HEAD,
    HIGH,
    LOW,
    MAX_COUNT,
    MIN_COUNT,
    OFFSET,
    PERIOD,
    POSITION,
    READ,
    REQUIRED,
    RULE_SIZE,
    SIGNED,
    SIGNED_OK,
    SLOT,
    START,
    STATUS,
    STEP,
    attribute_table,
)
from pipeline.sources.tenhou_xml.codes import DRAW_KINDS, LIMIT_NAMES, YAKU_NAMES
from pipeline.sources.tenhou_xml.elements import Elements
from pipeline.sources.tenhou_xml.event_columns import extra_rows
from pipeline.sources.tenhou_xml.hot import _CODES as _HOT_CODES
from pipeline.sources.tenhou_xml.hot import BulkRows
from pipeline.sources.tenhou_xml.kernel import KITA, decode_meld_code, hot_events
from pipeline.sources.tenhou_xml.state import INT8, INT16, INT32
from rules.compiled import njit

INIT, AGARI, RYUUKYOKU = 0, 1, 2
"""The tags read here, as ``tags`` codes."""

_SEED, _TEN, _OYA, _WHO, _FROM, _PAO = (SLOT[name] for name in ("seed", "ten", "oya", "who", "fromWho", "paoWho"))
_YAKU, _YAKUMAN, _SC, _BA, _MACHI, _HAI = (SLOT[name] for name in ("yaku", "yakuman", "sc", "ba", "machi", "hai"))
_M, _DORA, _URA, _OWARI, _TYPE = (SLOT[name] for name in ("m", "doraHai", "doraHaiUra", "owari", "type"))
_SHUFFLE = SLOT["shuffle"]
_HAND_SLOTS = np.array([SLOT[f"hai{seat}"] for seat in range(4)], dtype=np.int64)
_NON_ABORTIVE = frozenset({"exhaustive", "nagashi_mangan"})
_HUNDREDS = INT32 // 100
"""The largest magnitude of a score written in hundreds that fits the int32 columns once multiplied."""
_WIDE = 1 << 62


class Refused(Exception):
    """A document the bulk reading does not take: it is read element by element."""


@dataclass(frozen=True)
class Rule:
    """What the element-by-element reading accepts of one attribute of one tag, read as integers."""

    required: bool = False
    signed: bool = False
    """Whether a '+' sign is taken (int() reads it: sc, whose '+' the handlers mark as a quirk)."""
    min_count: int = 0
    max_count: int = _WIDE
    step: int = 1
    """The count is a multiple of it."""
    low: int = -_WIDE
    high: int = _WIDE
    positions: tuple[tuple[int, int], ...] = ()
    """(lowest, highest) of the values at the first positions (HEAD at most)."""
    period: int = 0
    """With a period, ``positions`` apply to every position p by p % period (pairs: 2)."""


def rules_of(n_players: int) -> dict[int, dict[str, Rule]]:
    """The attributes each tag's handler reads as integers and what it accepts of them, in a game of
    ``n_players`` seats (an attribute not listed is not read as integers)."""
    seat, tile = {"low": 0, "high": n_players - 1}, {"low": 0, "high": 135}
    one = {"min_count": 1, "max_count": 1}
    int8, int16, int32 = (-INT8, INT8 - 1), (-INT16, INT16 - 1), (-INT32, INT32 - 1)
    ba = Rule(positions=(int16, int16))  # honba, sticks (a lone value is not read: refused all the same)
    hundreds = (-_HUNDREDS, _HUNDREDS)
    return {
        INIT: {
            # round and kyoku, honba, sticks, the dice, the first dora indicator
            "seed": Rule(required=True, min_count=6, positions=(int8, int16, int16, int8, int8, (0, 135))),
            "ten": Rule(required=True, min_count=4, max_count=4, low=hundreds[0], high=hundreds[1]),
            "oya": Rule(required=True, **one, **seat),
            **{f"hai{s}": Rule(max_count=13, step=13, **tile) for s in range(4)},  # none for sanma's empty seat
        },
        AGARI: {
            "who": Rule(required=True, **one, **seat),
            "fromWho": Rule(required=True, **one, **seat),
            "paoWho": Rule(max_count=1, **seat),
            "ten": Rule(required=True, min_count=3, positions=(int16, int32, (0, len(LIMIT_NAMES) - 1))),
            "yaku": Rule(step=2, positions=((0, len(YAKU_NAMES) - 1), int16), period=2),  # (id, han) pairs
            "yakuman": Rule(low=0, high=len(YAKU_NAMES) - 1),
            "sc": Rule(required=True, signed=True, min_count=8, positions=(hundreds,) * 8),
            "ba": ba,
            "machi": Rule(required=True, min_count=1, **tile),
            "hai": Rule(required=True, **tile),
            "m": Rule(low=0, high=(1 << 16) - 1),
            "doraHai": Rule(**tile),
            "doraHaiUra": Rule(**tile),
        },
        RYUUKYOKU: {
            **{f"hai{s}": Rule(**tile) for s in range(4)},
            "sc": Rule(signed=True, min_count=8, positions=(hundreds,) * 8),
            "ba": ba,
        },
    }


@cache
def rule_array(n_players: int) -> np.ndarray:
    """rules_of as the compiled pass takes them: (tag, slot, RULE_SIZE fields)."""
    rules = np.zeros((3, len(ATTRIBUTES), RULE_SIZE), dtype=np.int64)
    rules[:, :, STEP] = 1
    for tag, by_name in rules_of(n_players).items():
        for name, rule in by_name.items():
            fields = rules[tag, SLOT[name]]
            fields[[READ, REQUIRED, SIGNED_OK]] = True, rule.required, rule.signed
            fields[[MIN_COUNT, MAX_COUNT, STEP, PERIOD]] = rule.min_count, rule.max_count, rule.step, rule.period
            fields[[LOW, HIGH]] = rule.low, rule.high
            fields[POSITION : POSITION + HEAD], fields[POSITION + HEAD :] = -_WIDE, _WIDE
            for k, (low, high) in enumerate(rule.positions):
                fields[POSITION + k], fields[POSITION + HEAD + k] = low, high
    return rules


@dataclass
class ReadRounds:
    """The rows of a document's INIT, AGARI and RYUUKYOKU elements: the GameState's tables and counters."""

    rounds: dict[str, list]
    """ROUND_FIELDS columns of the rounds that have a result."""
    first_round: dict
    """The first INIT's round, as GameState.round holds it when it opens (its hands as 136-id lists)."""
    first_init: str
    """The first INIT's attribute text."""
    wins: dict[str, list]
    draws: dict[str, list]
    dealt: np.ndarray
    """round * 136 + tile of every tile dealt in the rounds kept."""
    n_rounds: int
    quirks: set[str]
    owari: list[str]
    """The owari texts of the results, in document order."""
    events: tuple[dict, list[int]] | None
    """The events columns and events per round (event_columns.bulk_event_columns) when the draws, discards
    and hot elements are all the events (no handler's row) and pass its checks; else None."""
    bulk: BulkRows | None
    """The rows of the draws, discards and hot elements (hot.bulk_rows), for the numpy path of the events; None
    when ``events`` holds them."""


# the columns of round_table's ``rounds`` rows, ``wins`` rows and ``draws`` rows
(R_WIND, R_KYOKU, R_DEALER, R_HONBA, R_STICKS, R_DICE, R_DORA, R_PRE, R_POST, R_WINNERS, R_INDEX,
 R_DEALT) = 0, 1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 18  # fmt: skip
R_WIDTH = 22
"""rounds rows: wind, kyoku, dealer, honba, sticks, dice (2), first dora, scores before (4) and after (4), wins,
element index, tiles dealt per seat (4: 13 or 0)."""
(W_ROUND, W_WIN, W_SEAT, W_FROM, W_TSUMO, W_PAO, W_TILE, W_TILE34, W_RED, W_KITA, W_FU, W_HAN, W_POINTS, W_LIMIT,
 W_YAKUMAN, W_HONBA, W_STICKS, W_INDEX, W_PRE, W_DELTAS) = (*range(18), 18, 22)  # fmt: skip
W_WIDTH = 26
"""wins rows: the scalars of WIN_FIELDS (pao -1 for none), the scores before (4) and the deltas (4)."""
W_SPANS = ("hand", "yaku", "yaku_han", "dora_indicators", "ura_indicators", "melds")
"""The spans (start, end) of each win's lists in round_table's flat win values, in this order (the melds' span
is one of rows of ``meld_spans``)."""
D_ROUND, D_HONBA, D_STICKS, D_SHOWN, D_N_SHOWN, D_PRE, D_DELTAS, D_INDEX, D_TYPE = 0, 1, 2, 3, 7, 8, 12, 16, 17
D_WIDTH = 27
"""draws rows: round, honba, sticks, seats shown (4), number shown, scores before (4), deltas (4), element index,
the type attribute's (start, end) in the document (-1, -1 when not written), then each seat's shown hand as a
(start, end) span of the flat draw values (4 x 2)."""
D_HANDS = 19
Q_SHUFFLE, Q_SIGNED, Q_NOT_IN_HAND = 1, 2, 4
"""round_table's quirk bits: shuffle_in_init, signed_scores, winning_tile_not_in_hand."""


@njit(_nrt=False)
def _head(cells: np.ndarray, values: np.ndarray, row: int, slot: int, k: int) -> int:
    """The k-th integer of an attribute (0 past those it holds: the values' PADDING)."""
    return values[cells[row, slot, OFFSET] + k]


@njit(_nrt=False)
def _copy_list(cells: np.ndarray, values: np.ndarray, row: int, slot: int, out: np.ndarray, at: int) -> int:
    """Copy an attribute's integers into ``out`` from ``at``; the position after them."""
    offset = cells[row, slot, OFFSET]
    for k in range(cells[row, slot, COUNT]):
        out[at] = values[offset + k]
        at += 1
    return at


@njit
def round_table(
    cells: np.ndarray, values: np.ndarray, tags: np.ndarray, index: np.ndarray, red: bool
) -> tuple[int, int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
           np.ndarray, np.ndarray, np.ndarray, int]:  # fmt: skip
    """The rounds, wins and draws of a document from the attribute table of its INIT, AGARI and RYUUKYOKU
    elements (``cells``, ``values``: attribute_table's, every row ok; ``tags``: INIT, AGARI or RYUUKYOKU each,
    the first an INIT; ``index``: each row's element index), as read_rounds builds them: (n_rounds, quirks,
    rounds rows (every INIT: R_WIDTH), hands dealt (every INIT, 4 x 13), dealt (round * 136 + tile of the rounds
    kept), wins rows (W_WIDTH), the wins' spans (6 x 2, W_SPANS), meld spans, flat win values, draws rows
    (D_WIDTH), flat draw values, owari (start, end) of the results that have one, refused).

    ``refused`` is 1 for a document the element-by-element reading must decide: a round ended without a result,
    a win whose han overflow, whose call codes do not decode or whose hand is not one of 14 tiles held once."""
    n = len(tags)
    n_inits = 0
    for row in range(n):
        n_inits += tags[row] == 0
    rounds = np.zeros((n_inits, R_WIDTH), dtype=np.int64)
    hands = np.zeros((n_inits, 4, 13), dtype=np.int64)
    round_of = np.empty(n, dtype=np.int64)
    has_result = np.zeros(n_inits, dtype=np.bool_)
    n_wins, n_draws, n_owari, n_win_values, n_draw_values, quirks, r = 0, 0, 0, 0, 0, 0, -1
    for row in range(n):
        if tags[row] == 0:
            r += 1
            wind = _head(cells, values, row, _SEED, 0)
            rounds[r, R_WIND], rounds[r, R_KYOKU] = wind // 4, wind % 4
            rounds[r, R_DEALER] = _head(cells, values, row, _OYA, 0)
            rounds[r, R_HONBA], rounds[r, R_STICKS] = (
                _head(cells, values, row, _SEED, 1),
                _head(cells, values, row, _SEED, 2),
            )
            rounds[r, R_DICE], rounds[r, R_DICE + 1] = (
                _head(cells, values, row, _SEED, 3),
                _head(cells, values, row, _SEED, 4),
            )
            rounds[r, R_DORA] = _head(cells, values, row, _SEED, 5)
            for s in range(4):
                rounds[r, R_PRE + s] = _head(cells, values, row, _TEN, s) * 100
                count = cells[row, _HAND_SLOTS[s], COUNT]
                rounds[r, R_DEALT + s] = count
                for k in range(count):
                    hands[r, s, k] = _head(cells, values, row, _HAND_SLOTS[s], k)
            rounds[r, R_INDEX] = index[row]
            if cells[row, _SHUFFLE, START] >= 0:
                quirks |= Q_SHUFFLE
        else:
            has_result[r] = True
            if cells[row, _SC, STATUS] == SIGNED:
                quirks |= Q_SIGNED
            if cells[row, _OWARI, START] >= 0:
                n_owari += 1
            if tags[row] == 1:
                n_wins += 1
                for slot in (_HAI, _YAKU, _YAKUMAN, _DORA, _URA, _M):
                    n_win_values += cells[row, slot, COUNT]
            else:
                n_draws += 1
                for s in range(4):
                    n_draw_values += cells[row, _HAND_SLOTS[s], COUNT]
        round_of[row] = r
    n_rounds = 0
    while n_rounds < n_inits and has_result[n_rounds]:
        n_rounds += 1
    refused = 0
    for k in range(n_rounds, n_inits):
        if has_result[k]:
            refused = 1
    if n_rounds < n_inits - 1:
        refused = 1
    wins = np.zeros((n_wins, W_WIDTH), dtype=np.int64)
    spans = np.zeros((n_wins, 6, 2), dtype=np.int64)
    meld_spans = np.zeros((n_win_values + 1, 2), dtype=np.int64)
    flat = np.zeros(n_win_values * 4 + 1, dtype=np.int64)  # a call code's meld is up to 4 tiles
    draws = np.zeros((n_draws, D_WIDTH), dtype=np.int64)
    draw_flat = np.zeros(n_draw_values + 1, dtype=np.int64)
    owari = np.zeros((n_owari, 2), dtype=np.int64)
    dealt = np.zeros(n_rounds * 52, dtype=np.int64)
    n_dealt = 0
    for k in range(n_rounds):
        for s in range(4):
            for t in range(rounds[k, R_DEALT + s]):
                dealt[n_dealt] = k * 136 + hands[k, s, t]
                n_dealt += 1
    if refused:
        return (0, quirks, rounds, hands, dealt[:n_dealt], wins, spans, meld_spans[:0], flat, draws, draw_flat,
                owari, refused)  # fmt: skip
    tiles = np.zeros(4, dtype=np.int64)
    held = np.zeros(137, dtype=np.int64)
    before = np.zeros(4, dtype=np.int64)
    deltas = np.zeros(4, dtype=np.int64)
    w, d, o, v, dv, melds, last_round, win_idx = 0, 0, 0, 0, 0, 0, -1, 0
    for row in range(n):
        if tags[row] == 0:
            continue
        rr = round_of[row]
        if cells[row, _OWARI, START] >= 0:
            owari[o, 0], owari[o, 1] = cells[row, _OWARI, START], cells[row, _OWARI, END]
            o += 1
        # the scores before and the deltas (a draw without sc: the round's scores, no change), the counters
        for s in range(4):
            deltas[s] = 0
            if cells[row, _SC, START] >= 0:
                before[s] = _head(cells, values, row, _SC, 2 * s) * 100
                deltas[s] = _head(cells, values, row, _SC, 2 * s + 1) * 100
            else:
                before[s] = rounds[rr, R_PRE + s]
        if cells[row, _BA, COUNT] >= 2:
            honba, sticks = _head(cells, values, row, _BA, 0), _head(cells, values, row, _BA, 1)
        else:
            honba, sticks = rounds[rr, R_HONBA], rounds[rr, R_STICKS]
        for s in range(4):
            rounds[rr, R_POST + s] = before[s] + deltas[s]
        if tags[row] == 2:
            draws[d, D_ROUND], draws[d, D_HONBA], draws[d, D_STICKS] = rr, honba, sticks
            for s in range(4):
                shown = cells[row, _HAND_SLOTS[s], START] >= 0
                draws[d, D_SHOWN + s] = shown
                draws[d, D_N_SHOWN] += shown
                draws[d, D_PRE + s], draws[d, D_DELTAS + s] = before[s], deltas[s]
                draws[d, D_HANDS + 2 * s] = dv
                dv = _copy_list(cells, values, row, _HAND_SLOTS[s], draw_flat, dv)
                draws[d, D_HANDS + 2 * s + 1] = dv
            draws[d, D_INDEX] = index[row]
            draws[d, D_TYPE], draws[d, D_TYPE + 1] = cells[row, _TYPE, START], cells[row, _TYPE, END]
            d += 1
            continue
        rounds[rr, R_WINNERS] += 1
        win_idx = win_idx + 1 if rr == last_round else 0
        last_round = rr
        seat, from_seat = _head(cells, values, row, _WHO, 0), _head(cells, values, row, _FROM, 0)
        tile = _head(cells, values, row, _MACHI, 0)
        wins[w, W_ROUND], wins[w, W_WIN], wins[w, W_SEAT], wins[w, W_FROM] = rr, win_idx, seat, from_seat
        wins[w, W_TSUMO] = seat == from_seat
        wins[w, W_PAO] = _head(cells, values, row, _PAO, 0) if cells[row, _PAO, COUNT] > 0 else -1
        wins[w, W_TILE], wins[w, W_TILE34] = tile, tile >> 2
        wins[w, W_RED] = red and (tile == 16 or tile == 52 or tile == 88)
        wins[w, W_FU], wins[w, W_POINTS] = _head(cells, values, row, _TEN, 0), _head(cells, values, row, _TEN, 1)
        wins[w, W_LIMIT] = _head(cells, values, row, _TEN, 2)
        wins[w, W_YAKUMAN] = cells[row, _YAKUMAN, START] >= 0
        wins[w, W_HONBA], wins[w, W_STICKS], wins[w, W_INDEX] = honba, sticks, index[row]
        for s in range(4):
            wins[w, W_PRE + s], wins[w, W_DELTAS + s] = before[s], deltas[s]
        # the closed hand, then the yaku ids and han (a yakuman's at 13 each), the indicators, the called melds
        held[:] = 0
        spans[w, 0, 0] = v
        in_hand = False
        for k in range(cells[row, _HAI, COUNT]):
            t = _head(cells, values, row, _HAI, k)
            flat[v] = t
            v += 1
            held[t] += 1
            in_hand = in_hand or t == tile
        size = cells[row, _HAI, COUNT] + (0 if in_hand else 1)
        if not in_hand:
            quirks |= Q_NOT_IN_HAND
        spans[w, 0, 1] = v
        n_yakuman = cells[row, _YAKUMAN, COUNT]
        spans[w, 1, 0] = v
        if n_yakuman:
            v = _copy_list(cells, values, row, _YAKUMAN, flat, v)
        else:
            for k in range(0, cells[row, _YAKU, COUNT], 2):
                flat[v] = _head(cells, values, row, _YAKU, k)
                v += 1
        spans[w, 1, 1], spans[w, 2, 0] = v, v
        han = 0
        if n_yakuman:
            for _ in range(n_yakuman):
                flat[v] = 13
                v += 1
            han = 13 * n_yakuman
        else:
            for k in range(1, cells[row, _YAKU, COUNT], 2):
                flat[v] = _head(cells, values, row, _YAKU, k)
                han += flat[v]
                v += 1
        if not -32768 <= han < 32768:
            refused = 1
        wins[w, W_HAN] = han
        spans[w, 2, 1], spans[w, 3, 0] = v, v
        v = _copy_list(cells, values, row, _DORA, flat, v)
        spans[w, 3, 1], spans[w, 4, 0] = v, v
        v = _copy_list(cells, values, row, _URA, flat, v)
        spans[w, 4, 1] = v
        spans[w, 5, 0] = melds
        for k in range(cells[row, _M, COUNT]):
            slot, _, _, count = decode_meld_code(_head(cells, values, row, _M, k), tiles)
            if slot < 0:
                refused = 1
                break
            if slot == KITA:
                wins[w, W_KITA] += 1
                continue
            size += 3
            meld_spans[melds, 0] = v
            for t in range(count):
                flat[v] = tiles[t]
                v += 1
                held[tiles[t]] += 1
            meld_spans[melds, 1] = v
            melds += 1
        spans[w, 5, 1] = melds
        if size != 14:
            refused = 1
        for t in range(136):
            if held[t] > 1:
                refused = 1
        w += 1
    return (n_rounds, quirks, rounds, hands, dealt[:n_dealt], wins, spans, meld_spans[:melds], flat[:v], draws,
            draw_flat[:dv], owari, refused)  # fmt: skip


BULK_WIDTH = 11
"""read_document's rows of the hot elements: source_index, round_idx, seat, action, tile, from_seat, meld_size,
then the meld's four tiles (hot.BulkRows), one row each."""
OK, HOT_REFUSED, NOT_CLEAN, ROUNDS_REFUSED = 0, 1, 2, 3
"""read_document's status: read; a hot element its handler must read; an attribute its handler must read; a
round or win the element-by-element reading must decide."""
_GO = np.zeros(1, dtype=np.int64)


@njit
def read_document(
    buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, kinds: np.ndarray, a: np.ndarray, b: np.ndarray,
    at: np.ndarray, tags: np.ndarray, rules: np.ndarray, go_index: int, players: int, red: bool, extra: np.ndarray,
):  # fmt: skip
    """A document's hot elements (kernel.hot_events, its one GO at ``go_index`` seating ``players``), the
    attribute table of its INIT, AGARI and RYUUKYOKU elements ``at`` (attributes.attribute_table: ``tags``,
    ``rules``) and their rounds, wins and draws (round_table), and the events table of the hot elements and the
    handlers' rows ``extra`` (event_columns.event_table), in one call: (status, round_table's outputs but
    ``refused``, event_table's outputs, the hot rows).

    The hot rows (BULK_WIDTH, n) are made when event_table declines (the events are then built in numpy); else
    none. A status other than OK leaves the rest empty."""
    go_at, seats = _GO.copy(), _GO.copy()
    go_at[0], seats[0] = go_index, players
    index, round_idx, seat, action, tile, from_seat, meld, meld_size, refused = hot_events(
        kinds, a, b, go_at, seats, _HOT_CODES.copy()  # a global is read-only here: its copy, the type Python passes
    )
    status = HOT_REFUSED if len(refused) else OK
    n_rounds, quirks, hands = 0, 0, np.zeros((0, 4, 13), dtype=np.int64)
    rounds, wins = np.zeros((0, R_WIDTH), dtype=np.int64), np.zeros((0, W_WIDTH), dtype=np.int64)
    spans, meld_spans = np.zeros((0, 6, 2), dtype=np.int64), np.zeros((0, 2), dtype=np.int64)
    draws, owari = np.zeros((0, D_WIDTH), dtype=np.int64), np.zeros((0, 2), dtype=np.int64)
    dealt, flat, draw_flat = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    small, w16 = np.zeros((7, 0), dtype=np.int8), np.zeros((2, 0), dtype=np.int16)
    w32, values = np.zeros((2, 0), dtype=np.int32), np.zeros(0, dtype=np.int64)
    offsets, valid = np.zeros(1, dtype=np.int32), np.zeros(0, dtype=np.bool_)
    per_round, done = np.zeros(0, dtype=np.int64), False
    rows = np.zeros((BULK_WIDTH, 0), dtype=np.int64)
    if status == OK:
        cells, attribute_values, ok = attribute_table(buf, starts, ends, at, tags, rules)
        for row in range(len(ok)):
            if not ok[row]:
                status = NOT_CLEAN
    if status == OK:
        n_rounds, quirks, rounds, hands, dealt, wins, spans, meld_spans, flat, draws, draw_flat, owari, refuse = (
            round_table(cells, attribute_values, tags, at, red)
        )
        if refuse:
            status = ROUNDS_REFUSED
    if status == OK:
        indicators = np.empty(n_rounds, dtype=np.int64)
        for r in range(n_rounds):
            indicators[r] = rounds[r, R_DORA]
        small, w16, w32, values, offsets, valid, per_round, done = event_table(
            # the globals' writable copies: one compiled event_table (and _flags) for this caller and Python's
            round_idx, seat, action, tile, from_seat, meld, meld_size, index, extra, n_rounds, red,
            _FLAG_TABLES.copy(), ENTERING.copy(), dealt, indicators,
        )  # fmt: skip
        if not done:
            n = len(index)
            rows = np.zeros((BULK_WIDTH, n), dtype=np.int64)
            for e in range(n):
                rows[0, e], rows[1, e], rows[2, e], rows[3, e] = index[e], round_idx[e], seat[e], action[e]
                rows[4, e], rows[5, e], rows[6, e] = tile[e], from_seat[e], meld_size[e]
                for k in range(4):
                    rows[7 + k, e] = meld[e, k]
    return (status, n_rounds, quirks, rounds, hands, dealt, wins, spans, meld_spans, flat, draws, draw_flat, owari,
            small, w16, w32, values, offsets, valid, per_round, done, rows)  # fmt: skip


def read_rounds(document: bytes, elements: Elements, tags: np.ndarray, at: np.ndarray, go: tuple[int, int],
                n_players: int, has_red_fives: bool, rows: list[tuple]) -> ReadRounds:  # fmt: skip
    """The rows of the INIT, AGARI and RYUUKYOKU elements ``at`` of a document (``tags``: INIT, AGARI or
    RYUUKYOKU each, in document order) in a game of ``n_players`` seats, and its events (``go``: the index and
    players_of_go of its one GO; ``rows``: the handlers' event rows, event_columns.ROW_FIELDS tuples without a
    meld); raises Refused for a document the element-by-element reading must decide."""
    if tags[0] != INIT or any(row[5] is not None for row in rows):
        raise Refused  # a result before the first round, or a call read by its handler
    (status, n_rounds, bits, rounds, hands, dealt, wins, spans, meld_spans, flat, draws, draw_flat, owari, small, w16,
     w32, values, offsets, valid, per_round, done, hot) = read_document(
        elements.buf, elements.starts, elements.ends, elements.kinds, elements.a, elements.b, at, tags,
        rule_array(n_players), go[0], go[1], bool(has_red_fives), extra_rows(rows),
    )  # fmt: skip
    if status != OK:
        raise Refused  # a hot element or attribute its handler would refuse, a round ended without a result...
    quirks = {name for bit, name in _QUIRK_BITS if bits & bit}
    first = rounds[0].tolist()
    first_hands = [hand if count else [] for hand, count in zip(hands[0].tolist(), first[R_DEALT:], strict=True)]
    first_round = dict(zip(_ROUND_SCALARS, (0, *(first[col] for col in _ROUND_COLUMNS)), strict=True))
    first_round.update(dice=first[R_DICE : R_DICE + 2], scores_pre=first[R_PRE : R_PRE + 4], hands_start=first_hands,
                       n_results=0, n_winners=0, scores_post=None)  # fmt: skip
    return ReadRounds(
        rounds=_rounds(rounds[:n_rounds], hands[:n_rounds]),
        first_round=first_round,
        first_init=_attribute_text(document, elements, int(at[0])),
        wins=_wins(wins, spans, meld_spans, flat),
        draws=_draws(document, draws, draw_flat),
        dealt=dealt,
        n_rounds=n_rounds,
        quirks=quirks,
        owari=[document[start:end].decode("utf-8", "replace") for start, end in owari.tolist()],
        events=event_table_columns(small, w16, w32, values, offsets, valid, per_round) if done else None,
        bulk=None if done else BulkRows(*hot[:6], hot[7:].T, hot[6]),
    )


def _attribute_text(document: bytes, elements: Elements, index: int) -> str:
    """An INIT element's attribute text, as elements.scan_elements gives it (after the tag's name)."""
    return document[elements.starts[index] + 1 : elements.ends[index]].decode("utf-8", "replace")[len("INIT") :]


_ROUND_SCALARS = ("round_idx", "round_wind", "kyoku", "dealer", "honba", "riichi_sticks", "dora_indicator",
                  "source_index")  # fmt: skip
_ROUND_COLUMNS = (R_WIND, R_KYOKU, R_DEALER, R_HONBA, R_STICKS, R_DORA, R_INDEX)
"""round_table's rounds columns of _ROUND_SCALARS (round_idx aside)."""
_QUIRK_BITS = ((Q_SHUFFLE, "shuffle_in_init"), (Q_SIGNED, "signed_scores"), (Q_NOT_IN_HAND, "winning_tile_not_in_hand"))


def _rounds(rows: np.ndarray, hands: np.ndarray) -> dict[str, list]:
    """The ROUND_FIELDS columns of the rounds kept (round_table's rows and hands), in another order."""
    columns = rows.T.tolist()
    dealt = rows[:, R_DEALT:]
    hands_start = hands.tolist()
    if not dealt.all():  # a seat dealt no hand (sanma's empty seat): an empty list
        hands_start = [[hand if count else [] for hand, count in zip(seats, counts, strict=True)]
                       for seats, counts in zip(hands_start, dealt.tolist(), strict=True)]  # fmt: skip
    out = dict(zip(_ROUND_SCALARS, (list(range(len(rows))), *(columns[col] for col in _ROUND_COLUMNS)), strict=True))
    out.update(dice=rows[:, R_DICE : R_DICE + 2].tolist(), scores_pre=rows[:, R_PRE : R_PRE + 4].tolist(),
               hands_start=hands_start, scores_post=rows[:, R_POST : R_POST + 4].tolist(),
               n_winners=columns[R_WINNERS])  # fmt: skip
    return out


_WIN_SCALARS = ("round_idx", "win_idx", "seat", "from_seat", "tile", "tile34", "n_kita", "fu", "han", "points",
                "honba", "riichi_sticks", "source_index")  # fmt: skip
_WIN_COLUMNS = (W_ROUND, W_WIN, W_SEAT, W_FROM, W_TILE, W_TILE34, W_KITA, W_FU, W_HAN, W_POINTS, W_HONBA, W_STICKS,
                W_INDEX)  # fmt: skip


def _wins(rows: np.ndarray, spans: np.ndarray, meld_spans: np.ndarray, flat: np.ndarray) -> dict[str, list]:
    """The WIN_FIELDS columns of round_table's wins (rows, the spans of their lists in ``flat``), in another
    order."""
    columns, values, melds = rows.T.tolist(), flat.tolist(), meld_spans.tolist()
    starts_ends = spans.reshape(len(rows), 12).T.tolist()
    lists = [[values[a:b] for a, b in zip(starts_ends[2 * k], starts_ends[2 * k + 1], strict=True)]
             for k in range(5)]  # fmt: skip
    out = dict(zip(_WIN_SCALARS, (columns[col] for col in _WIN_COLUMNS), strict=True))
    out.update(
        is_tsumo=list(map(bool, columns[W_TSUMO])),
        pao_seat=[seat if seat >= 0 else None for seat in columns[W_PAO]],
        is_red=list(map(bool, columns[W_RED])),
        hand=lists[0],
        melds=[
            [values[a:b] for a, b in melds[first:last]]
            for first, last in zip(starts_ends[10], starts_ends[11], strict=True)
        ],  # fmt: skip
        limit_name=[LIMIT_NAMES[code] for code in columns[W_LIMIT]],
        yaku=lists[1],
        yaku_names=[[YAKU_NAMES[y] for y in ids] for ids in lists[1]],
        yaku_han=lists[2],
        is_yakuman=list(map(bool, columns[W_YAKUMAN])),
        dora_indicators=lists[3],
        ura_indicators=lists[4],
        scores_pre=rows[:, W_PRE : W_PRE + 4].tolist(),
        score_deltas=rows[:, W_DELTAS : W_DELTAS + 4].tolist(),
    )
    return out


def _draws(document: bytes, rows: np.ndarray, flat: np.ndarray) -> dict[str, list]:
    """The draws columns of round_table's draws (rows, their shown hands in ``flat``)."""
    columns, values = rows.T.tolist(), flat.tolist()
    texts = [document[start:end].decode("utf-8", "replace") if start >= 0 else ""
             for start, end in zip(columns[D_TYPE], columns[D_TYPE + 1], strict=True)]  # fmt: skip
    kinds = [DRAW_KINDS.get(text) for text in texts]
    if None in kinds:
        raise Refused  # an unknown type
    hands = [[values[a:b] for a, b in zip(spans[0::2], spans[1::2], strict=True)]
             for spans in rows[:, D_HANDS : D_HANDS + 8].tolist()]  # fmt: skip
    return {
        "round_idx": columns[D_ROUND],
        "kind": kinds,
        "is_abortive": [kind not in _NON_ABORTIVE for kind in kinds],
        "honba": columns[D_HONBA],
        "riichi_sticks": columns[D_STICKS],
        "is_shown": (rows[:, D_SHOWN : D_SHOWN + 4] > 0).tolist(),
        "n_shown": columns[D_N_SHOWN],
        "hands_shown": hands,
        "scores_pre": rows[:, D_PRE : D_PRE + 4].tolist(),
        "score_deltas": rows[:, D_DELTAS : D_DELTAS + 4].tolist(),
        "source_index": columns[D_INDEX],
    }
