"""One kyoku of a tenhou.net/6 document: validate its lists, replay it, give its tiles 136-ids.

A kyoku is ``[[round, honba, sticks], scores, dora, ura, hand0, takes0, gives0, ..., result]``
with four seat groups (a three-player table leaves the fourth one empty; three groups are read too).
``prepare_kyoku`` checks a kyoku and appends its lists, encoded, to the game's (fast.GameLists: the kernels
replay every round of a game in one call), or takes its seat lists checked and appended already for the whole
game from the file's bytes (seat_lists); ``finish_kyoku`` takes the kernels' replay or, where they gave up,
runs the Python search on the kyoku's lists read again as Python items.
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pipeline.errors import ParseError, UnknownCodeError
from pipeline.sources.tenhou_json.codes import (
    DRAW_RESULTS,
    KAN_PLACEHOLDER,
    PLAIN_INT,
    TSUMOGIRI,
    WIN_RESULT,
    Call,
    check_code,
    parse_call,
)
from pipeline.sources.tenhou_json.fast import GameLists, call_row
from pipeline.sources.tenhou_json.replay import Ending, Item, Replay, Replayer, RoundLists
from pipeline.sources.tenhou_json.tiles import IdAssigner, RoundIds

_GIVE_OWN = frozenset({"ankan", "kakan", "kita", "riichi"})


@dataclass
class Kyoku:
    """A kyoku read and replayed: header values, result, replayed events and their 136-ids."""

    round_wind: int
    kyoku: int
    dealer: int
    honba: int
    riichi_sticks: int
    scores: list[int]
    result: list[Any]
    replay: Replay
    ids: RoundIds


_NUMBER = frozenset({int, float})


def _ints(value: Any, what: str, length: int | None = None) -> list[int]:
    """A JSON list of numbers as ints; raises ParseError for anything else (or a short list)."""
    if not (type(value) is list and _NUMBER.issuperset(map(type, value))) and (  # plain ints and floats at C speed
        not isinstance(value, list) or not all(isinstance(v, int | float) for v in value)
    ):
        raise ParseError(f"{what} is not a list of numbers: {value!r}")
    if length is not None and len(value) < length:
        raise ParseError(f"{what} has {len(value)} values, expected {length}")
    return [int(v) for v in value]


def _item(value: Any, gives: bool) -> Item:
    """Read one take/give entry: a tile code (60 and 0 allowed in a give list) or a call string."""
    if isinstance(value, str):
        call = parse_call(value)
        own = call.kind in ("ankan", "kakan", "kita", "riichi")
        if own != gives:
            raise ParseError(f"{call.kind} string {value!r} in the {'discard' if gives else 'take'} list")
        return call
    if gives and value in (TSUMOGIRI, KAN_PLACEHOLDER) and isinstance(value, int):
        return value
    return check_code(value)


_TILE_CODES = frozenset([*range(11, 20), *range(21, 30), *range(31, 40), *range(41, 48), 51, 52, 53])
"""Every tile code (what check_code accepts), for the lists' fast path (anything else goes through _item)."""
_GIVE_CODES = _TILE_CODES | {TSUMOGIRI, KAN_PLACEHOLDER}


def _seat_groups(kyoku: list[Any]) -> Iterator[tuple[list[Any], list[int]]]:
    """Seat by seat (0-3), its [hand, takes, gives] lists and its hand's tile codes, each checked before the seat is
    handed out (empty lists for a seat without a player); raises ParseError naming what is wrong."""
    n_groups = (len(kyoku) - 5) // 3
    if len(kyoku) != 5 + 3 * n_groups or n_groups not in (3, 4):
        raise ParseError(f"a kyoku has {len(kyoku)} entries, expected 17 (or 14 for three players)")
    for seat in range(4):
        group = kyoku[4 + 3 * seat : 7 + 3 * seat] if seat < n_groups else [[], [], []]
        if not all(isinstance(part, list) for part in group):
            raise ParseError(f"seat {seat}: hand, takes and discards must be lists")
        hand = group[0]
        if not (PLAIN_INT.issuperset(map(type, hand)) and _TILE_CODES.issuperset(hand)):  # plain tile codes at C speed
            hand = [c if type(c) is int and c in _TILE_CODES else check_code(c) for c in hand]
        else:
            hand = list(hand)
        if len(hand) not in (0, 13):
            raise ParseError(f"seat {seat} is dealt {len(hand)} tiles")
        yield group, hand


def _seat_lists(kyoku: list[Any]) -> tuple[list[list[int]], list[list[Item]], list[list[Item]]]:
    """The hands, take lists and give lists of seats 0-3 (empty for a seat without a player)."""
    hands, takes, gives = [], [], []
    for group, hand in _seat_groups(kyoku):
        hands.append(hand)
        takes.append([v if type(v) is int and v in _TILE_CODES else _item(v, False) for v in group[1]])
        gives.append([v if type(v) is int and v in _GIVE_CODES else _item(v, True) for v in group[2]])
    return hands, takes, gives


def ending_of(result: list[Any]) -> Ending:
    """What the result requires of the round's last action (see replay.Ending)."""
    if not isinstance(result, list) or not result or not isinstance(result[0], str):
        raise ParseError(f"malformed result {result!r}")
    name = result[0]
    if name == WIN_RESULT:
        details = result[2::2]
        if not details or not all(isinstance(d, list) and len(d) >= 3 for d in details):
            raise ParseError(f"win result without who/from/pao: {result!r}")
        who, from_seat = int(details[0][0]), int(details[0][1])
        if who == from_seat:
            return Ending("draw", who, accepts_riichi=False)
        return Ending("discard", from_seat, accepts_riichi=False, is_ron=True)
    kind = DRAW_RESULTS.get(name)
    if kind is None:
        raise UnknownCodeError(f"unknown result {name!r}")
    if kind == "kyuushu_kyuuhai":
        return Ending("draw")
    return Ending("discard", accepts_riichi=kind != "sanchahou")


@dataclass
class Prepared:
    """A kyoku checked, not yet replayed: what finish_kyoku needs (the raw kyoku for the Python path)."""

    raw: list[Any]
    header: list[int]
    scores: list[int]
    dora: list[int]
    ura: list[int]
    n_players: int
    dealer: int
    ending: Ending


def _encoded(values: list[Any], codes: frozenset[int], gives: bool, game: GameLists, out: array) -> Call | None:
    """Append a take or give list to ``out`` as the kernel reads it (_item's checks, in order; a list of plain
    tile codes at once); return its first chi."""
    try:
        plain = codes.issuperset(values) and {*map(type, values)} <= {int}
    except TypeError:  # an unhashable entry: _item names it
        plain = False
    if plain:
        out.extend(values)
        return None
    first_chi = None
    for value in values:
        if type(value) is int and value in codes:
            out.append(value)
            continue
        if type(value) is not str:
            out.append(_item(value, gives))  # 60 or 0 in a give list, else a tile code or a ParseError
            continue
        item, row = call_of(value, gives)  # a call string: read once a process
        out.append(game.add_call(row))
        if item.kind == "chi" and first_chi is None:
            first_chi = item
    return first_chi


@functools.lru_cache(maxsize=4096)  # the same strings come back in every game; errors are not kept
def call_of(text: str, gives: bool) -> tuple[Call, tuple[int, ...]]:
    """_item of a call string (in a give list or not) with its row of GameLists.calls."""
    call = _item(text, gives)
    return call, call_row(call)


Seats = tuple[list[list[int]], list[int], list[int], list[Call | None]]
"""A kyoku's seat lists as prepare_kyoku reads them: the hands, the five offsets of the seats' takes and gives in
the game's lists, and each seat's first chi."""


def _seat_codes(kyoku: list[Any], game: GameLists) -> Seats:
    """_seat_lists' checks, in its order, with the take and give lists appended to ``game``'s: the hands, the five
    offsets of the seats' takes and gives, and each seat's first chi."""
    hands, chis = [], []
    take_start, give_start = [len(game.takes)], [len(game.gives)]
    for group, hand in _seat_groups(kyoku):
        hands.append(hand)
        chis.append(_encoded(group[1], _TILE_CODES, False, game, game.takes))
        _encoded(group[2], _GIVE_CODES, True, game, game.gives)
        take_start.append(len(game.takes))
        give_start.append(len(game.gives))
    return hands, take_start, give_start, chis


def prepare_kyoku(kyoku: Any, n_players: int, game: GameLists, seats: Seats | None = None) -> Prepared:
    """Check one kyoku (read_kyoku's checks, in its order) and append its lists to ``game``'s (``seats``: its seat
    lists checked and appended already, seat_lists.game_seats); raises ParseError (UnknownCodeError) when it cannot
    be read."""
    if not isinstance(kyoku, list) or len(kyoku) < 5:
        raise ParseError("a kyoku is not a list of at least 5 entries")
    header = _ints(kyoku[0], "the kyoku header", 3)
    scores = (_ints(kyoku[1], "the scores", 3) + [0])[:4]
    dora = [check_code(c) for c in _ints(kyoku[2], "the dora indicators")]
    ura = [check_code(c) for c in _ints(kyoku[3], "the ura indicators")]
    hands, take_start, give_start, chis = _seat_codes(kyoku, game) if seats is None else seats
    seated = sum(bool(h) for h in hands)
    if seated != n_players:
        raise ParseError(f"{seated} seats are dealt a hand in a {n_players}-player game")
    if not all(hands[:n_players]):
        raise ParseError(f"a {n_players}-player game leaves a seat below {n_players} empty")
    chi = next(((seat, c) for seat, c in enumerate(chis) if c is not None), None) if n_players != 4 else None
    if chi is not None:  # sanma has no chi
        raise ParseError(f"seat {chi[0]} calls chi ({'c' + ''.join(map(str, chi[1].tiles))}) in a three-player game")
    if not dora:
        raise ParseError("no dora indicator")
    dealer = header[0] % 4
    if not hands[dealer]:
        raise ParseError(f"the dealer's seat {dealer} has no hand")
    ending = ending_of(kyoku[-1])
    game.add_round(hands, take_start, give_start, dealer, ending, dora, ura)
    return Prepared(kyoku, header, scores, dora, ura, n_players, dealer, ending)


def finish_kyoku(prepared: Prepared, compiled: tuple[Replay, RoundIds] | None, has_red_fives: bool) -> Kyoku:
    """The kyoku replayed and numbered: the kernels' result, or (None) the Python search's, which raises the
    ParseError when the lists cannot be played."""
    if compiled is not None:
        replay, ids = compiled
    else:  # the search that backtracks, and the errors
        hands, takes, gives = _seat_lists(prepared.raw)
        replay = Replayer(RoundLists(prepared.n_players, prepared.dealer, hands, takes, gives), prepared.ending).run()
        ids = IdAssigner(has_red_fives).assign(hands, prepared.dora, prepared.ura, replay.events,
                                               replay.robbed_kan_dora)  # fmt: skip
    round_number, honba, sticks = prepared.header[:3]
    return Kyoku(round_number // 4, round_number % 4, prepared.dealer, honba, sticks, prepared.scores,
                 prepared.raw[-1], replay, ids)  # fmt: skip
