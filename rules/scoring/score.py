"""The value of many wins at once: every reading scored, the best one kept (Tenhou's choice).

Tenhou takes the reading worth the most points, then the most han, then the most fu; a reading
without a yaku (dora are not yaku) cannot win. ``score_wins`` returns, per win, the chosen reading,
its fu components, the han of every yaku, the base points and the limit; ``has_yaku`` only says
whether some reading has a yaku (the furiten pass check).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from rules.scoring.decompose import Readings, readings
from rules.scoring.fu import fu_components
from rules.scoring.inputs import Context, Hands
from rules.scoring.points import basic_points, limit_codes
from rules.scoring.yaku import DORA, FIRST_YAKUMAN, LAST_YAKUMAN, YAKUMAN_HAN, yaku_han

HAS_YAKU = np.int64(1) << 40
"""Added to the choice key of a reading with a yaku, so that one always wins over any without."""


@dataclass
class Scores:
    """One row per win (N rows). ``reading``: the chosen reading (``reading.win`` -1 where the hand has
    no reading: not complete); ``fu_parts`` (N, len(fu.COMPONENTS)); ``yaku_han`` (N, 55) by Tenhou id;
    ``han`` their sum (13 per yakuman); ``basic`` base points; ``limit`` limit code (points.LIMIT_NAMES)."""

    reading: Readings
    fu_parts: np.ndarray
    fu: np.ndarray
    yaku_han: np.ndarray
    han: np.ndarray
    n_yakuman: np.ndarray
    basic: np.ndarray
    limit: np.ndarray
    has_yaku: np.ndarray


@dataclass
class _Evaluated:
    """Every reading with its fu components, yaku han and choice key."""

    readings: Readings
    fu_parts: np.ndarray
    yaku_han: np.ndarray
    key: np.ndarray


def _value(fu: np.ndarray, yaku: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(han, n_yakuman, base points) from fu and the yaku han matrix."""
    han = yaku.sum(axis=1, dtype=np.int64)
    # a double yakuman (26 han under rules that have them) counts as two
    n_yakuman = yaku[:, FIRST_YAKUMAN : LAST_YAKUMAN + 1].sum(axis=1, dtype=np.int64) // YAKUMAN_HAN
    return han, n_yakuman, basic_points(han, fu, n_yakuman)


def evaluate(hands: Hands, ctx: Context) -> _Evaluated:
    """Score every reading of every hand: fu components, yaku han and the key Tenhou's choice maximises."""
    found = readings(hands)
    per_reading = ctx.take(found.win)
    is_tsumo = np.asarray(hands.is_tsumo, dtype=bool)[found.win]
    parts = fu_components(found, is_tsumo, per_reading.seat_wind, per_reading.round_wind)
    yaku = yaku_han(found, hands, per_reading)
    fu = parts.sum(axis=1, dtype=np.int64)
    han, _, basic = _value(fu, yaku)
    # points first (base points order them), then han, then fu; a reading with a yaku before any without
    key = (basic << 16) + (np.minimum(han, 255) << 8) + fu + np.where((yaku[:, :DORA] > 0).any(axis=1), HAS_YAKU, 0)
    return _Evaluated(found, parts, yaku, key)


def best_readings(win: np.ndarray, key: np.ndarray, n_wins: int) -> np.ndarray:
    """(n_wins,) row of the reading with the highest key for each win (the first of equals), -1 for none."""
    best = np.full(n_wins, -1, dtype=np.int64)
    np.maximum.at(best, win, key)
    rows = np.flatnonzero(key == best[win])
    first = rows[np.r_[True, win[rows][1:] != win[rows][:-1]]] if len(rows) else rows
    out = np.full(n_wins, -1, dtype=np.int64)
    out[win[first]] = first
    return out


def _pick(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Rows of ``values`` at ``rows``, zero (False) where a row is -1."""
    out = np.zeros((len(rows), *values.shape[1:]), dtype=values.dtype)
    has = rows >= 0
    out[has] = values[rows[has]]
    return out


def _take(found: Readings, rows: np.ndarray) -> Readings:
    """Readings at ``rows`` (-1: none, given win -1)."""
    picked = Readings(**{f.name: _pick(getattr(found, f.name), rows) for f in fields(Readings)})
    picked.win = np.where(rows >= 0, picked.win, -1)
    return picked


def score_wins(hands: Hands, ctx: Context) -> Scores:
    """Score each win (N,): Tenhou's choice among its readings, with fu, yaku han, base points and limit.

    ``hands``: the winning hands (closed tiles with the winning tile, called melds); ``ctx``: winds,
    kuitan, situational flags and dora counts per win. A hand without a complete reading scores zero.
    """
    ev = evaluate(hands, ctx)
    chosen = best_readings(ev.readings.win, ev.key, len(hands))
    has = chosen >= 0
    fu_parts = _pick(ev.fu_parts, chosen)
    yaku = _pick(ev.yaku_han, chosen)
    fu = fu_parts.sum(axis=1, dtype=np.int64)
    han, n_yakuman, basic = _value(fu, yaku)
    return Scores(
        reading=_take(ev.readings, chosen),
        fu_parts=fu_parts,
        fu=fu,
        yaku_han=yaku,
        han=han,
        n_yakuman=n_yakuman,
        basic=np.where(has, basic, 0),
        limit=np.where(has, limit_codes(han, fu, n_yakuman), 0).astype(np.int8),
        has_yaku=_pick(ev.key, chosen) >= HAS_YAKU,
    )


def has_yaku(hands: Hands, ctx: Context) -> np.ndarray:
    """(N,) bool: the hand (closed tiles with the candidate winning tile, calls, win by ``is_tsumo``)
    is complete and some reading of it has a yaku, dora aside.

    For a ron on a passed tile: put the tile in ``closed`` and ``win_tile``, ``is_tsumo`` False, and the
    situational flags that would hold (riichi, ippatsu, houtei, chankan) in ``ctx``.
    """
    ev = evaluate(hands, ctx)
    out = np.zeros(len(hands), dtype=bool)
    out[ev.readings.win[ev.key >= HAS_YAKU]] = True
    return out
