"""Statistics and checks over a warehouse, as plain Python data (the CLI only renders them)."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import duckdb

from pipeline.db import load_sql, sql_names

GROUPINGS = ("all", "room", "year", "source")
"""Values of ``--by``: one group, or per room / year / source format."""


NOT_PROPORTIONS = frozenset({"rounds_per_game", "furiten_passes_per_round", "furiten_passes_with_yaku_per_round"})
"""Ratios whose numerator is not a subset of the denominator: no binomial interval for them."""

Z_95 = 1.959963984540054
"""Standard normal quantile of a two-sided 95% interval."""


def wilson_interval(numerator: int, denominator: int, z: float = Z_95) -> tuple[float, float] | None:
    """Wilson score interval of a proportion numerator/denominator (95% by default); None when
    the denominator is 0."""
    if denominator <= 0:
        return None
    p = numerator / denominator
    centre = (p + z * z / (2 * denominator)) / (1 + z * z / denominator)
    half = z * math.sqrt(p * (1 - p) / denominator + z * z / (4 * denominator**2)) / (1 + z * z / denominator)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Stat:
    """One statistic of one group: a count ratio with its definition and, for a proportion, its 95%
    Wilson interval (ci_low, ci_high; null otherwise)."""

    name: str
    group: dict[str, Any] | None
    numerator: int
    denominator: int
    value: float | None
    definition: str
    ci_low: float | None = None
    ci_high: float | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object printed by ``paipu stats --json``."""
        return asdict(self)


def mart_stats(con: duckdb.DuckDBPyConnection, mart: str, by: str = "all") -> list[Stat]:
    """Return the statistics of one mart (``pipeline/sql/marts/<mart>.sql``: rows of name, group value,
    numerator, denominator, value, definition), grouped by ``by`` (see GROUPINGS); raises ValueError
    for another ``by``."""
    if by not in GROUPINGS:
        raise ValueError(f"--by must be one of {', '.join(GROUPINGS)}, not {by!r}")
    return _stats(con.execute(load_sql("marts", mart), {"by": by}).fetchall(), by)


def round_outcome_stats(con: duckdb.DuckDBPyConnection, by: str = "all") -> list[Stat]:
    """Return the round outcome rates (marts/round_outcomes.sql), grouped by ``by`` (see GROUPINGS)."""
    return mart_stats(con, "round_outcomes", by)


def rules_stats(con: duckdb.DuckDBPyConnection, by: str = "all") -> list[Stat]:
    """Return the rules layer's rates (marts/rules_rates.sql): furiten passes, riichi in furiten,
    karaten at draws, grouped by ``by``."""
    return mart_stats(con, "rules_rates", by)


def score_stats(con: duckdb.DuckDBPyConnection, by: str = "all") -> list[Stat]:
    """Return the fu and han distributions of wins (marts/score_distributions.sql), grouped by ``by``."""
    return mart_stats(con, "score_distributions", by)


def _stats(rows: list[tuple], by: str) -> list[Stat]:
    out = []
    for name, group_value, num, den, value, definition in rows:
        interval = None if name in NOT_PROPORTIONS else wilson_interval(int(num), int(den))
        out.append(
            Stat(
                name=name,
                group=None if by == "all" else {by: group_value},
                numerator=int(num),
                denominator=int(den),
                value=float(value) if den else None,
                definition=definition,
                ci_low=interval[0] if interval else None,
                ci_high=interval[1] if interval else None,
            )
        )
    return out


@dataclass(frozen=True)
class Violation:
    """One row returned by an invariant check."""

    check: str
    game_id: str
    round_idx: int | None
    detail: str
    is_server_log: bool


def run_checks(con: duckdb.DuckDBPyConnection) -> dict[str, list[Violation]]:
    """Run every query of ``pipeline/sql/checks``; return check name -> violations (empty = passed).

    Each violation says whether its game is a server-written log (``games.is_server_log``):
    violations in logs written or edited by other tools are known log inconsistencies.
    """
    results: dict[str, list[Violation]] = {}
    for name in sql_names("checks"):
        sql = (
            f"select c.check_name, c.game_id, c.round_idx, c.detail, coalesce(g.is_server_log, true) "
            f"from ({load_sql('checks', name)}) as c left join games as g using (game_id) "
            f"order by c.game_id, c.round_idx"
        )
        results[name] = [Violation(*row) for row in con.execute(sql).fetchall()]
    return results
