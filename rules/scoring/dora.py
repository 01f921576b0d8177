"""Dora, ura dora, red fives and kita (sanma nuki dora) counted for many wins at once.

An indicator's dora is the next kind in its suit (9 wraps to 1), winds E-S-W-N-E, dragons
haku-hatsu-chun-haku; in sanma (no 2m-8m) the 1m indicator points to 9m and 9m to 1m. Each kita
is one dora, and one more per indicator pointing to North. Tenhou records kita among the dora (id 52).
"""

from __future__ import annotations

import numpy as np

from rules.tiles import NORTH_34, RED_FIVES_136

NEXT_KIND = np.array(
    [*(s * 9 + (k + 1) % 9 for s in range(3) for k in range(9)), 28, 29, 30, 27, 32, 33, 31], dtype=np.int64
)
"""34-kind of the dora each indicator kind points to (4-player)."""

NEXT_KIND_SANMA = NEXT_KIND.copy()
NEXT_KIND_SANMA[[0, 8]] = [8, 0]
"""The same in sanma: 1m points to 9m, 9m to 1m (2m-8m are not in play)."""


def dora_kinds(indicators: np.ndarray, n_players: np.ndarray) -> np.ndarray:
    """Take indicators (N, K) as 136-ids (-1: none) and n_players (N,); return the dora 34-kinds (N, K), -1 for none."""
    indicators = np.asarray(indicators, dtype=np.int64)
    kind = np.maximum(indicators, 0) // 4
    sanma = (np.asarray(n_players) == 3)[:, None]
    dora = np.where(sanma, NEXT_KIND_SANMA[kind], NEXT_KIND[kind])
    return np.where(indicators >= 0, dora, -1)


def count_dora(counts: np.ndarray, indicators: np.ndarray, n_players: np.ndarray, n_kita: np.ndarray) -> np.ndarray:
    """Dora of each win (N,) from one set of indicators: the hand's tiles (``counts`` (N, 34), called melds
    included) on a dora kind, once per indicator, the kita tiles (North) included.

    ``indicators`` (N, K) 136-ids with -1 padding; ``n_kita`` (N,) North tiles set aside.
    """
    kinds = dora_kinds(indicators, n_players)
    rows = np.arange(len(kinds))
    total = np.zeros(len(kinds), dtype=np.int64)
    for k in range(kinds.shape[1]):
        has = kinds[:, k] >= 0
        total += np.where(has, np.asarray(counts)[rows, np.maximum(kinds[:, k], 0)], 0)
    kita = np.asarray(n_kita, dtype=np.int64)
    return total + kita * (kinds == NORTH_34).sum(axis=1)


def dora_counts(
    counts: np.ndarray, dora: np.ndarray, ura: np.ndarray, n_players: np.ndarray, n_kita: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(n_dora, n_ura) per win: dora from the ``dora`` indicators plus one per kita (nuki dora), ura dora
    from the ``ura`` indicators (both (N, K) 136-ids, -1 padding). Tenhou lists kita under dora (id 52)."""
    n_dora = count_dora(counts, dora, n_players, n_kita) + np.asarray(n_kita, dtype=np.int64)
    return n_dora, count_dora(counts, ura, n_players, n_kita)


def count_red(tiles: np.ndarray, has_red_fives: np.ndarray) -> np.ndarray:
    """Red fives (N,) among tiles (N, T) as 136-ids (-1 padding); 0 where the rules have none."""
    red = np.isin(np.asarray(tiles), RED_FIVES_136).sum(axis=1)
    return np.where(np.asarray(has_red_fives, dtype=bool), red, 0)
