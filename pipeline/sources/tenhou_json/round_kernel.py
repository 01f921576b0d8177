"""One compiled call per round: replay_kernel.replay_first_choice, then ids_kernel.number_round on its rows."""

from __future__ import annotations

import numpy as np

from pipeline.sources.tenhou_json.ids_kernel import number_round
from pipeline.sources.tenhou_json.replay_kernel import replay_first_choice
from rules.compiled import njit


@njit
def replay_round(dealt: np.ndarray, hand_len: np.ndarray, takes: np.ndarray, take_start: np.ndarray,
                 gives: np.ndarray, give_start: np.ndarray, calls: np.ndarray, dealer: int, ending: np.ndarray,
                 dora: np.ndarray, ura: np.ndarray, red_rule: bool) -> tuple:  # fmt: skip
    """Replay and number a round (``dealt``: (4, 13) codes, ``hand_len[seat]`` of them dealt). Returns
    number_round's tuple (status 0 when either kernel gave up) followed by the seat that acted last and whether a
    robbed closed kan's indicator was taken out."""
    counts = np.zeros((4, 64), dtype=np.int64)
    for seat in range(4):
        for k in range(hand_len[seat]):
            counts[seat, dealt[seat, k]] += 1
    done, ev, last_actor, robbed = replay_first_choice(counts, hand_len, takes, take_start, gives, give_start,
                                                       calls, dealer, ending)  # fmt: skip
    numbered = number_round(ev, dealt, hand_len, dora, ura, robbed == 1, red_rule)
    status = numbered[0] if done else 0
    return (status, *numbered[1:], last_actor, robbed)
