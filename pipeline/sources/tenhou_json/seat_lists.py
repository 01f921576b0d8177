"""Every kyoku's seat lists of a one-document file, from its bytes (lists_kernel), encoded into the game's lists
at once: what round.prepare_kyoku's _seat_codes gives kyoku by kyoku from the lists json built.

``game_seats`` checks the whole game's seat lists first (each kyoku 17 entries, or 14 for three seats; every
hand 13 tile codes or none, every take a tile code or a call string, every give a tile code, 60, 0 or a call
string, every call string one that reads); any that does not pass, or bytes lists_kernel declines, or a kyoku
whose entries differ from the document's, and it gives None: the game is then read kyoku by kyoku from the
lists json built, which raises the error there in its order. When it passes, no seat check can fail, so the
kyoku's other checks (header, scores, indicators, result) still raise theirs in their order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pipeline.sources.tenhou_json.codes import KAN_PLACEHOLDER, TSUMOGIRI, Call
from pipeline.sources.tenhou_json.fast import GameLists
from pipeline.sources.tenhou_json.ids_kernel import KIND_OF_CODE
from pipeline.sources.tenhou_json.lists_kernel import OK, log_lists, seat_arrays
from pipeline.sources.tenhou_json.round import Seats, call_of

_TILE_OK = KIND_OF_CODE >= 0
"""Whether a code (0-63) is a tile code (check_code's codes, by ids_kernel's table)."""
_GIVE_OK = _TILE_OK.copy()
_GIVE_OK[[TSUMOGIRI, KAN_PLACEHOLDER]] = True


MAX_BYTES = 1 << 20
"""Larger files are not read here (log_lists' arrays are sized by the bytes, ~25 bytes each): a real game's
document is 5-45 kB."""


def read_lists(data: bytes) -> tuple[Any, ...] | None:
    """The file's bytes with lists_kernel.log_lists' reading of them (a byte order mark is skipped there), None for
    a file over MAX_BYTES."""
    if len(data) > MAX_BYTES:
        return None
    return (data, *log_lists(np.frombuffer(data, dtype=np.uint8)))


def game_seats(lists: tuple[Any, ...], log: list[Any], game: GameLists) -> list[Seats] | None:
    """Each kyoku's Seats of the document's ``log`` from read_lists' reading of its bytes, its take and give lists
    and calls appended to ``game``'s; None (``game`` untouched) when the lists must be read from ``log`` (see the
    module docstring)."""
    data, status, kyoku, entries, kinds, values, spans = lists
    if status != OK or len(kyoku) - 1 != len(log):
        return None
    status, hands, hand_len, takes, take_start, gives, give_start, strings = seat_arrays(
        kyoku, entries, kinds, values, _TILE_OK, _GIVE_OK)  # fmt: skip
    if status != OK or (kyoku[1:] - kyoku[:-1]).tolist() != list(map(len, log)):
        return None
    _, is_give, _, string_kyoku, string_seat = strings.T.tolist()
    try:  # the calls, read once a process (call_of), in the order _seat_codes reads them
        calls = [call_of(data[a:b].decode(), give == 1)
                 for (a, b), give in zip(spans[values[strings[:, 0]]].tolist(), is_give, strict=True)]  # fmt: skip
    except Exception:  # noqa: BLE001 - a call string that does not read: _seat_codes raises its error in its order
        return None
    rows = len(game.calls) // 8 + np.arange(len(calls))  # each call's row in GameLists.calls (add_call's code: -1 - it)
    if calls:
        game.calls.frombytes(np.array([row for _, row in calls], dtype=np.int64).tobytes())
    for part, buffer, values_of, start in ((0, game.takes, takes, take_start), (1, game.gives, gives, give_start)):
        mine = strings[:, 1] == part
        values_of[strings[mine, 2]] = -1 - rows[mine]
        start += len(buffer)
        buffer.frombytes(values_of.tobytes())
    seated = hand_len.tolist()
    dealt = hands.tolist()
    if not all(all(row) for row in seated):  # a seat without a hand: an empty list
        dealt = [[hand if n else [] for hand, n in zip(seats, lens, strict=True)]
                 for seats, lens in zip(dealt, seated, strict=True)]  # fmt: skip
    chis: list[list[Call | None]] = [[None] * 4 for _ in log]
    for (call, _), give, k, seat in zip(calls, is_give, string_kyoku, string_seat, strict=True):
        if call.kind == "chi" and not give and chis[k][seat] is None:
            chis[k][seat] = call
    return list(zip(dealt, take_start.tolist(), give_start.tolist(), chis, strict=True))
