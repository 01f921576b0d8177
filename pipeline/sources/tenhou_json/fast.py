"""The compiled path of one round: replay_kernel and ids_kernel over the round's lists encoded as arrays.

``replay_and_number`` returns the Replay and RoundIds the Python path (replay.Replayer, tiles.IdAssigner) would
give, or None when a kernel gives up (a call that waited for a later discard, a list that cannot be played, a
tile too many...): the caller then runs the Python path, which backtracks or raises its ParseError, so errors
read as before.
"""

from __future__ import annotations

import numpy as np

from pipeline.sources.tenhou_json.codes import Call
from pipeline.sources.tenhou_json.ids_kernel import (
    ID_ACTION,
    ID_FROM,
    ID_MELD,
    ID_MELD_N,
    ID_SEAT,
    ID_TILE,
)
from pipeline.sources.tenhou_json.replay import Ending, Replay, RoundLists
from pipeline.sources.tenhou_json.round_kernel import replay_round
from pipeline.sources.tenhou_json.rows import EventRows
from pipeline.sources.tenhou_json.tiles import RoundIds
from rules.hands import CODE

_AFTER = {"draw": 0, "discard": 1}


def _encode(lists: list[list[int | Call]], calls: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Four seats' lists flattened (a call as ``-1 - its row`` in ``calls``, appended there) and their offsets."""
    flat: list[int] = []
    starts = [0]
    for items in lists:
        flat.extend([item if type(item) is int else _call_row(item, calls) for item in items])
        starts.append(len(flat))
    return np.array(flat, dtype=np.int64), np.array(starts, dtype=np.int64)


def _call_row(call: Call, calls: list[list[int]]) -> int:
    """Append a call's row to ``calls``; return its code in a list (-1 - its row)."""
    tiles = list(call.tiles) + [0] * (4 - len(call.tiles))
    calls.append([CODE[call.kind], call.tile, len(call.tiles), *tiles, call.from_rel])
    return -len(calls)


def _hands(hands: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """(dealt codes (4, 13), tiles dealt per seat)."""
    dealt = np.zeros((4, 13), dtype=np.int64)
    for seat, hand in enumerate(hands):
        if hand:
            dealt[seat] = hand
    return dealt, np.array([len(h) for h in hands], dtype=np.int64)


def replay_and_number(
    lists: RoundLists, ending: Ending, dora: list[int], ura: list[int], has_red_fives: bool
) -> tuple[Replay, RoundIds] | None:
    """The round replayed and numbered by the kernels, None when one of them gives up (see the module docstring)."""
    calls: list[list[int]] = []
    takes, take_start = _encode(lists.takes, calls)
    gives, give_start = _encode(lists.gives, calls)
    dealt, hand_len = _hands(lists.hands)
    call_rows = np.array(calls, dtype=np.int64).reshape(len(calls), 8)
    needs = np.array([_AFTER[ending.after], ending.seat, ending.accepts_riichi, ending.is_ron], dtype=np.int64)
    dora_codes, ura_codes = np.array(dora, dtype=np.int64), np.array(ura, dtype=np.int64)
    numbered = replay_round(dealt, hand_len, takes, take_start, gives, give_start, call_rows, lists.dealer, needs,
                            dora_codes, ura_codes, has_red_fives)  # fmt: skip
    if not numbered[0]:
        return None
    return Replay([], int(numbered[-2]), bool(numbered[-1])), _round_ids(numbered[:-2], hand_len)


def _round_ids(numbered: tuple, hand_len: np.ndarray) -> RoundIds:
    """RoundIds from number_round's output."""
    _, out, start, dora_ids, ura_ids, held, n_held, melds, n_melds, n_kita, last_given, mismatch = numbered
    lens, held_n, melds_n = hand_len.tolist(), n_held.tolist(), n_melds.tolist()
    start_lists, held_lists, meld_lists = start.tolist(), held.tolist(), melds.tolist()
    ids = RoundIds(
        [start_lists[s][: lens[s]] for s in range(4)], dora_ids.tolist(), ura_ids.tolist(), [],
        [held_lists[s][: held_n[s]] for s in range(4)],
        [[[t for t in meld if t >= 0] for meld in meld_lists[s][: melds_n[s]]] for s in range(4)],
        n_kita.tolist(), int(last_given), int(mismatch),
    )  # fmt: skip
    columns = (out[:, ID_ACTION], out[:, ID_SEAT], out[:, ID_TILE], out[:, ID_FROM], out[:, ID_MELD : ID_MELD + 4],
               out[:, ID_MELD_N])  # fmt: skip
    ids.rows = EventRows(*(np.ascontiguousarray(c) for c in columns))
    return ids
