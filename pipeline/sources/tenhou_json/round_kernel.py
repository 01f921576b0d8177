"""One compiled call per game: replay_kernel.replay_first_choice, then ids_kernel.number_round on its rows, round
after round. _copy is compiled without reference counting (see ids_kernel.py)."""

from __future__ import annotations

import numpy as np

from pipeline.sources.tenhou_json.ids_kernel import (
    ID_ACTION,
    ID_SEAT,
    ID_TILE,
    ID_WIDTH,
    MAX_HELD,
    MAX_MELDS,
    number_round,
)
from pipeline.sources.tenhou_json.replay_kernel import ACCEPTED, DRAW, RIICHI, replay_first_choice
from rules.compiled import njit

COUNT_HELD, COUNT_MELDS, COUNT_KITA, COUNT_RIICHI, COUNT_ACCEPTED, COUNT_LAST_DRAW, COUNT_ROWS = range(7)
"""Rows of replay_game's per-round ``counts`` (one value per seat each)."""


@njit(_nrt=False)
def _copy(numbered: tuple, r: int, o: int, d0: int, u0: int, out: np.ndarray, start: np.ndarray,
          dora_ids: np.ndarray, ura_ids: np.ndarray, held: np.ndarray, melds: np.ndarray,
          counts: np.ndarray) -> None:  # fmt: skip
    """Copy number_round's output for round ``r`` into the game's arrays (loops: a slice assignment would pull
    numba's error formatting into the compile)."""
    rows = numbered[1]
    for i in range(rows.shape[0]):
        for c in range(rows.shape[1]):
            out[o + i, c] = rows[i, c]
    for i in range(len(numbered[3])):
        dora_ids[d0 + i] = numbered[3][i]
    for i in range(len(numbered[4])):
        ura_ids[u0 + i] = numbered[4][i]
    for seat in range(4):
        for k in range(13):
            start[r, seat, k] = numbered[2][seat, k]
        for k in range(held.shape[2]):
            held[r, seat, k] = numbered[5][seat, k]
        for m in range(melds.shape[2]):
            for k in range(4):
                melds[r, seat, m, k] = numbered[7][seat, m, k]
        counts[r, COUNT_HELD, seat], counts[r, COUNT_MELDS, seat] = numbered[6][seat], numbered[8][seat]
        counts[r, COUNT_KITA, seat] = numbered[9][seat]
    for i in range(rows.shape[0]):  # per seat: riichi declared, sticks put down, the id drawn last
        seat = rows[i, ID_SEAT]
        if rows[i, ID_ACTION] == RIICHI:
            counts[r, COUNT_RIICHI, seat] += 1
        elif rows[i, ID_ACTION] == ACCEPTED:
            counts[r, COUNT_ACCEPTED, seat] += 1
        elif rows[i, ID_ACTION] == DRAW:
            counts[r, COUNT_LAST_DRAW, seat] = rows[i, ID_TILE]


@njit
def replay_game(dealt: np.ndarray, hand_len: np.ndarray, takes: np.ndarray, take_start: np.ndarray,
                gives: np.ndarray, give_start: np.ndarray, calls: np.ndarray, dealer: np.ndarray, ending: np.ndarray,
                dora: np.ndarray, dora_start: np.ndarray, ura: np.ndarray, ura_start: np.ndarray,
                red_rule: bool) -> tuple:  # fmt: skip
    """Replay and number every round of a game. Per round ``r``: ``dealt[r]`` (4, 13) codes, ``hand_len[r]`` of
    them dealt per seat, the take and give lists at ``take_start[r]`` / ``give_start[r]`` (five offsets into the
    game's flat lists, calls rows of ``calls``), ``dealer[r]``, ``ending[r]`` (replay.Ending as four ints), the
    indicators ``dora[dora_start[r]:dora_start[r + 1]]`` and likewise the ura.

    Returns per round: status (0 when either kernel gave up: its other values are not set), the seat that acted
    last, whether a robbed closed kan's indicator was taken out, the last tile given and the dora count mismatch;
    the numbered event rows of every round (round ``r``'s at ``out_start[r]:out_start[r + 1]``); hands_start ids
    (R, 4, 13); dora ids (round ``r``'s ``n_dora[r]`` from ``dora_start[r]``); ura ids (at ``ura_start``); held
    ids (R, 4, MAX_HELD) and their counts; melds (R, 4, MAX_MELDS, 4) and their counts; per seat (``counts[r]``
    rows, COUNT_*) its held ids, melds, kita, riichi declared, riichi sticks put down and the id it drew last (-1)."""
    n_rounds = len(dealer)
    per_round = np.zeros((n_rounds, 5), dtype=np.int64)  # status, last actor, robbed, last given, mismatch
    room = 0
    for r in range(n_rounds):  # each round's rows fit in its replay's rows, + 1 (number_round)
        room += 3 * (take_start[r, 4] - take_start[r, 0] + give_start[r, 4] - give_start[r, 0]) + 17
    out = np.zeros((room, ID_WIDTH), dtype=np.int64)
    out_start = np.zeros(n_rounds + 1, dtype=np.int64)
    start = np.full((n_rounds, 4, 13), -1, dtype=np.int64)
    dora_ids = np.full(len(dora), -1, dtype=np.int64)
    n_dora = np.zeros(n_rounds, dtype=np.int64)
    ura_ids = np.full(len(ura), -1, dtype=np.int64)
    held = np.full((n_rounds, 4, MAX_HELD), -1, dtype=np.int64)
    melds = np.full((n_rounds, 4, MAX_MELDS, 4), -1, dtype=np.int64)
    counts = np.zeros((n_rounds, COUNT_ROWS, 4), dtype=np.int64)
    counts[:, COUNT_LAST_DRAW] = -1
    o = 0
    for r in range(n_rounds):
        out_start[r] = o
        hands = np.zeros((4, 64), dtype=np.int64)
        for seat in range(4):
            for k in range(hand_len[r, seat]):
                hands[seat, dealt[r, seat, k]] += 1
        done, ev, last_actor, robbed = replay_first_choice(hands, hand_len[r], takes, take_start[r], gives,
                                                           give_start[r], calls, dealer[r], ending[r])  # fmt: skip
        if not done:
            continue
        d0, d1, u0, u1 = dora_start[r], dora_start[r + 1], ura_start[r], ura_start[r + 1]
        numbered = number_round(ev, dealt[r], hand_len[r], dora[d0:d1], ura[u0:u1], robbed == 1, red_rule)
        if not numbered[0]:
            continue
        _copy(numbered, r, o, d0, u0, out, start, dora_ids, ura_ids, held, melds, counts)
        o += len(numbered[1])
        n_dora[r] = len(numbered[3])
        per_round[r, 0], per_round[r, 1], per_round[r, 2] = 1, last_actor, robbed
        per_round[r, 3], per_round[r, 4] = numbered[10], numbered[11]
    out_start[n_rounds] = o
    return per_round, out[:o], out_start, start, dora_ids, n_dora, ura_ids, held, melds, counts
