"""The rounds, wins and draws of a whole document at once, from the attribute table of its INIT, AGARI and
RYUUKYOKU elements (attributes.py).

The element-by-element reading (state.py, results.py) is the definition: it reads each element against the
game's state and raises, for a log it cannot read, the error of the first element that fails. Here the same
rows are built from one table of the document's integers, read and checked by a compiled pass against RULES
(what each handler accepts of each attribute); the few lists of a row are sliced from one Python list. The
state an element meets is known before the document is read (as for the hot elements, hot.py): its round is
the number of INITs before it minus one, the seats are those of the document's one GO. Whatever the
element-by-element reading would refuse (a missing or malformed attribute, a value out of range, an unknown
code, a round without a result...), and whatever is not written as the server writes it, is refused here as a
whole (``Refused``): that document is then read element by element, which raises its error.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from pipeline.sources.tenhou_xml.attributes import (
    ATTRIBUTES,
    COUNT,
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
    AttributeTable,
    read_attributes,
)
from pipeline.sources.tenhou_xml.codes import DRAW_KINDS, LIMIT_NAMES, YAKU_NAMES
from pipeline.sources.tenhou_xml.elements import Elements
from pipeline.sources.tenhou_xml.melds import decode_meld
from pipeline.sources.tenhou_xml.results import check_hand
from pipeline.sources.tenhou_xml.state import INT8, INT16, INT32, ROUND_FIELDS, WIN_FIELDS

INIT, AGARI, RYUUKYOKU = 0, 1, 2
"""The tags read here, as ``tags`` codes."""

_SEED, _TEN, _OYA, _WHO, _FROM, _PAO = (SLOT[name] for name in ("seed", "ten", "oya", "who", "fromWho", "paoWho"))
_YAKU, _YAKUMAN, _SC, _BA, _MACHI, _HAI = (SLOT[name] for name in ("yaku", "yakuman", "sc", "ba", "machi", "hai"))
_M, _DORA, _URA, _OWARI, _TYPE = (SLOT[name] for name in ("m", "doraHai", "doraHaiUra", "owari", "type"))
_HANDS = [SLOT[f"hai{seat}"] for seat in range(4)]
_RED_FIVES = frozenset({16, 52, 88})
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


class _Values:
    """The table's integers as Python lists: per slot, each row's offset and count into one flat list."""

    def __init__(self, table: AttributeTable) -> None:
        self.flat: list[int] = table.values.tolist()
        self.offsets: list[list[int]] = table.cells[:, :, OFFSET].T.tolist()
        self.counts: list[list[int]] = table.cells[:, :, COUNT].T.tolist()
        self.present: list[list[bool]] = (table.cells[:, :, START] >= 0).T.tolist()

    def lists(self, rows: list[int], slot: int) -> list[list[int]]:
        """The integers of an attribute, one list per row ([] when not written)."""
        flat, offsets, counts = self.flat, self.offsets[slot], self.counts[slot]
        return [flat[offsets[r] : offsets[r] + counts[r]] for r in rows]

    def heads(self, rows: list[int], slot: int, n: int) -> list[list[int]]:
        """The first ``n`` integers of an attribute (zeros past those it holds), one list per row."""
        flat, offsets = self.flat, self.offsets[slot]
        return [flat[offsets[r] : offsets[r] + n] for r in rows]

    def firsts(self, rows: list[int], slot: int) -> list[int]:
        """The first integer of an attribute (0 when it holds none), one per row."""
        flat, offsets = self.flat, self.offsets[slot]
        return [flat[offsets[r]] for r in rows]


def read_rounds(document: bytes, elements: Elements, tags: np.ndarray, at: np.ndarray, n_players: int,
                has_red_fives: bool) -> ReadRounds:  # fmt: skip
    """The rows of the INIT, AGARI and RYUUKYOKU elements ``at`` of a document (``tags``: INIT, AGARI or
    RYUUKYOKU each, in document order) in a game of ``n_players`` seats; raises Refused for a document the
    element-by-element reading must decide."""
    table = read_attributes(document, elements.buf, elements.starts, elements.ends, at, tags, rule_array(n_players))
    tag_list = tags.tolist()
    if not table.ok.all() or tag_list[0] != INIT:
        raise Refused  # an attribute its handler would refuse, or a result before the first round
    values = _Values(table)
    inits, results, round_of, n = [], [], [], -1
    for row, tag in enumerate(tag_list):
        if tag == INIT:
            inits.append(row)
            n += 1
        else:
            results.append(row)
        round_of.append(n)
    closed = sorted({round_of[row] for row in results})
    if closed != list(range(len(closed))) or len(closed) < len(inits) - 1:
        raise Refused  # a round ended without a result
    n_rounds = len(closed)
    rounds, first_round = _rounds(values, table, inits)
    quirks = {"shuffle_in_init"} if any(values.present[SLOT["shuffle"]][r] for r in inits) else set()
    if (table.cells[results, _SC, STATUS] == SIGNED).any():
        quirks.add("signed_scores")
    # the results' scores and counters (a result without ba keeps its round's, a draw without sc its scores),
    # the rounds' closing scores (the last result's) and number of wins
    ends: dict[int, tuple[list[int], list[int], list[int]]] = {}
    has_sc, ba_counts = values.present[_SC], values.counts[_BA]
    winners, posts = [0] * len(inits), [None] * len(inits)
    pre, honba, sticks = rounds["scores_pre"], rounds["honba"], rounds["riichi_sticks"]
    for row, scores, counters in zip(results, values.heads(results, _SC, 8), values.heads(results, _BA, 2),
                                     strict=True):  # fmt: skip
        r = round_of[row]
        if has_sc[row]:
            before, deltas = [v * 100 for v in scores[0::2]], [v * 100 for v in scores[1::2]]
        else:
            before, deltas = list(pre[r]), [0, 0, 0, 0]
        ends[row] = before, deltas, counters if ba_counts[row] >= 2 else [honba[r], sticks[r]]
        posts[r] = [b + d for b, d in zip(before, deltas, strict=True)]
        winners[r] += tag_list[row] == AGARI
    rounds["scores_post"], rounds["n_winners"] = posts, winners
    wins = [row for row in results if tag_list[row] == AGARI]
    draws = [row for row in results if tag_list[row] == RYUUKYOKU]
    owari = [table.text(row, _OWARI) for row in results if values.present[_OWARI][row]]
    hands = table.cells[[inits[r] for r in range(n_rounds)]][:, _HANDS]  # the rounds kept
    dealt_in, _ = np.nonzero(hands[:, :, COUNT])  # the round of each hand dealt, round by round, seat by seat
    offsets = hands[:, :, OFFSET][hands[:, :, COUNT] > 0]
    dealt = (dealt_in[:, None] * 136 + table.values[offsets[:, None] + np.arange(13)]).ravel()
    return ReadRounds(
        rounds={name: rounds[name][:n_rounds] for name in ROUND_FIELDS},
        first_round=first_round,
        first_init=_attribute_text(document, elements, int(at[0])),
        wins=_wins(values, table, wins, round_of, ends, has_red_fives, quirks),
        draws=_draws(values, table, draws, round_of, ends),
        dealt=dealt,
        n_rounds=n_rounds,
        quirks=quirks,
        owari=owari,
    )


def _attribute_text(document: bytes, elements: Elements, index: int) -> str:
    """An INIT element's attribute text, as elements.scan_elements gives it (after the tag's name)."""
    return document[elements.starts[index] + 1 : elements.ends[index]].decode("utf-8", "replace")[len("INIT") :]


def _rounds(values: _Values, table: AttributeTable, inits: list[int]) -> tuple[dict[str, list], dict]:
    """The ROUND_FIELDS columns of every INIT (scores_post and n_winners left out) and the first round as
    GameState.round holds it when it opens."""
    seeds = values.heads(inits, _SEED, 6)
    hands = list(map(list, zip(*(values.lists(inits, slot) for slot in _HANDS), strict=True)))
    rounds = {
        "round_idx": list(range(len(inits))),
        "round_wind": [seed[0] // 4 for seed in seeds],
        "kyoku": [seed[0] % 4 for seed in seeds],
        "dealer": values.firsts(inits, _OYA),
        "honba": [seed[1] for seed in seeds],
        "riichi_sticks": [seed[2] for seed in seeds],
        "dice": [seed[3:5] for seed in seeds],
        "dora_indicator": [seed[5] for seed in seeds],
        "scores_pre": [[v * 100 for v in ten] for ten in values.heads(inits, _TEN, 4)],
        "hands_start": hands,
        "source_index": [table.index[row] for row in inits],
    }
    first = {name: column[0] for name, column in rounds.items()}
    first.update(n_results=0, n_winners=0, scores_post=None)
    return rounds, first


def _wins(values: _Values, table: AttributeTable, rows: list[int], round_of: list[int], ends: dict, red: bool,
          quirks: set[str]) -> dict[str, list]:  # fmt: skip
    """The WIN_FIELDS columns of the AGARI elements ``rows``."""
    lists = [values.lists(rows, slot) for slot in (_HAI, _M, _YAKU, _YAKUMAN, _DORA, _URA)]
    firsts = [values.firsts(rows, slot) for slot in (_MACHI, _WHO, _FROM, _PAO)]
    has_pao, is_yakuman = values.counts[_PAO], values.present[_YAKUMAN]  # paoWho="" is read as none
    out, win_idx, last_round = [], 0, -1
    for row, ten, hand, codes, yaku, yakuman, dora, ura, tile, seat, from_seat, pao in zip(
        rows, values.heads(rows, _TEN, 3), *lists, *firsts, strict=True
    ):
        r = round_of[row]
        win_idx = win_idx + 1 if r == last_round else 0
        last_round = r
        # yakuman="" is read as none; the ids and han are in range (the rules)
        ids, hans = (yakuman, [13] * len(yakuman)) if yakuman else (yaku[0::2], yaku[1::2])
        han = sum(hans)
        if not -INT16 <= han < INT16:
            raise Refused
        melds = [decode_meld(code) for code in codes]
        called = [m for m in melds if m.action != "kita"]
        check_hand(hand, called, tile)
        if tile not in hand:
            quirks.add("winning_tile_not_in_hand")
        before, deltas, (honba, sticks) = ends[row]
        # in state.WIN_FIELDS order
        # fmt: off
        out.append((
            r, win_idx, seat, from_seat, seat == from_seat, pao if has_pao[row] else None, tile, tile >> 2,
            red and tile in _RED_FIVES, hand, [list(m.tiles) for m in called], len(melds) - len(called), ten[0],
            han, ten[1], LIMIT_NAMES[ten[2]], ids, [YAKU_NAMES[y] for y in ids], hans, is_yakuman[row], dora, ura,
            honba, sticks, before, deltas, table.index[row],
        ))
        # fmt: on
    columns = list(zip(*out, strict=True)) if out else [()] * len(WIN_FIELDS)
    return {name: list(column) for name, column in zip(WIN_FIELDS, columns, strict=True)}


def _draws(values: _Values, table: AttributeTable, rows: list[int], round_of: list[int], ends: dict) -> dict[str, list]:
    """The draws columns of the RYUUKYOKU elements ``rows``."""
    kinds = [DRAW_KINDS.get(table.text(row, _TYPE) or "") for row in rows]
    if None in kinds:
        raise Refused  # an unknown type
    shown = [[values.present[slot][row] for slot in _HANDS] for row in rows]
    return {
        "round_idx": [round_of[row] for row in rows],
        "kind": kinds,
        "is_abortive": [kind not in _NON_ABORTIVE for kind in kinds],
        "honba": [ends[row][2][0] for row in rows],
        "riichi_sticks": [ends[row][2][1] for row in rows],
        "is_shown": shown,
        "n_shown": [sum(seats) for seats in shown],
        "hands_shown": list(map(list, zip(*(values.lists(rows, slot) for slot in _HANDS), strict=True))),
        "scores_pre": [ends[row][0] for row in rows],
        "score_deltas": [ends[row][1] for row in rows],
        "source_index": [table.index[row] for row in rows],
    }
