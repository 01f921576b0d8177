"""Statistics and checks over a warehouse, as plain Python data (the CLI only renders them)."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import duckdb

from pipeline.db import load_sql, sql_names
from pipeline.store.warehouse import Warehouse

GROUPINGS = ("all", "room", "year", "source", "length", "player")
"""Values of ``--by``: one group, or per room / year / source format / table length (hanchan or tonpuu) / player
(the seat's name; see ROUND_LEVEL for what a player's row counts)."""

MARTS = ("round_outcomes", "seat_outcomes", "tenpai_at_draw", "rules_rates", "score_distributions")
"""The marts ``paipu stats`` runs, in the order it prints them (every file of pipeline/sql/marts)."""

DERIVED_MARTS: dict[str, tuple[str, ...]] = {
    "seat_outcomes": ("seat_win_rate", "deal_in_rate", "riichi_rate", "call_rate", "average_win_points"),
    "tenpai_at_draw": ("tenpai_at_draw_rate", "tenpai_share_*"),
    "rules_rates": (
        "furiten_passes_per_round", "furiten_passes_with_yaku_per_round", "furiten_passes_without_yaku_per_round",
        "furiten_passes_with_yaku_share", "riichi_in_furiten_rate", "tsumo_in_furiten_rate",
        "karaten_share_of_tenpai_at_draw", "pure_karaten_at_draw_rate", "kyuushu_eligible_rate",
        "kyuushu_declared_rate",
    ),
    "score_distributions": ("fu_share_*", "han_share_*"),
}  # fmt: skip
"""The marts that read derived tables (written by ``paipu derive``), with the statistics each gives (fnmatch
patterns where the members of a family depend on the data). In a warehouse not derived they are reported as not
derived, never as the zeros their empty inputs would give."""

NOT_DERIVED = "not derived: run `paipu derive`"
"""What a statistic or audit check says when the warehouse holds games without their derived tables."""

NOT_PROPORTIONS = frozenset(
    {
        "rounds_per_game",
        "furiten_passes_per_round",
        "furiten_passes_with_yaku_per_round",
        "furiten_passes_without_yaku_per_round",
        "average_win_points",
    }
)
"""Ratios whose numerator is not a subset of the denominator (counts per round, a mean): no binomial interval."""

TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("rounds", ("rounds_per_game", "win_rate", "exhaustive_draw_rate", "nagashi_mangan_rate", "draw_rate",
                "abortive_draw_rate", "abortive_rate_*", "exhaustive_draw_rate_2011_study")),
    ("seats", ("seat_win_rate", "deal_in_rate", "riichi_rate", "call_rate", "average_win_points")),
    ("tenpai at exhaustive draws", ("tenpai_at_draw_rate", "tenpai_share_*", "karaten_share_of_tenpai_at_draw",
                                    "pure_karaten_at_draw_rate")),
    ("furiten", ("furiten_passes_*", "riichi_in_furiten_rate", "tsumo_in_furiten_rate")),
    ("kyuushu kyuuhai", ("kyuushu_*",)),
    ("scoring", ("fu_share_*", "han_share_*")),
)  # fmt: skip
"""Topics of the statistics, in display order: (title, name patterns, fnmatch style)."""

ROUND_LEVEL = (
    "rounds_per_game", "win_rate", "exhaustive_draw_rate", "nagashi_mangan_rate", "draw_rate", "abortive_draw_rate",
    "abortive_rate_*", "exhaustive_draw_rate_2011_study", "tenpai_share_*",
)  # fmt: skip
"""Statistics that count rounds (draws, games) rather than seats: by player, a player's row counts every round
of the games that player sat in, so players' rows overlap. Every other statistic counts seats (a seat-round, a
win, a riichi, a pass, a seat at a draw, a first draw): a player's row counts only the seats that player held,
and the players' numerators add up to the total."""

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
    low = 0.0 if numerator <= 0 else max(0.0, centre - half)  # exact ends: no rounding noise at 0 or n of n
    high = 1.0 if numerator >= denominator else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Stat:
    """One statistic of one group: a count ratio with its definition and, for a proportion, its 95%
    Wilson interval (ci_low, ci_high; null otherwise). ``note`` says why a statistic has no value (NOT_DERIVED:
    its numerator, denominator and value are then null); None for a measured one."""

    name: str
    group: dict[str, Any] | None
    numerator: int | None
    denominator: int | None
    value: float | None
    definition: str
    ci_low: float | None = None
    ci_high: float | None = None
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object printed by ``paipu stats --json``."""
        return asdict(self)


def topic_of(name: str) -> str:
    """Return the topic (see TOPICS) a statistic is printed under; 'other' when no pattern matches."""
    for topic, patterns in TOPICS:
        if any(fnmatchcase(name, pattern) for pattern in patterns):
            return topic
    return "other"


def is_round_level(name: str) -> bool:
    """True when a statistic counts rounds, draws or games (by player: the rounds of the player's games), False
    when it counts seats (by player: only the player's seats)."""
    return any(fnmatchcase(name, pattern) for pattern in ROUND_LEVEL)


def mart_stats(con: duckdb.DuckDBPyConnection, mart: str, by: str = "all", group: str | None = None) -> list[Stat]:
    """Return the statistics of one mart (``pipeline/sql/marts/<mart>.sql``: rows of name, group value,
    numerator, denominator, value, definition), grouped by ``by`` (see GROUPINGS), only those of one group
    value when ``group`` is given; raises ValueError for another ``by``."""
    if by not in GROUPINGS:
        raise ValueError(f"--by must be one of {', '.join(GROUPINGS)}, not {by!r}")
    rows = con.execute(load_sql("marts", mart), {"by": by}).fetchall()
    if group is not None:
        rows = [row for row in rows if row[1] == group]
    return _stats(rows, by)


def all_stats(
    con: duckdb.DuckDBPyConnection, by: str = "all", group: str | None = None, derived: bool = True
) -> list[Stat]:
    """Return the statistics of every mart (MARTS, in order), grouped by ``by``, or one group's only. With
    ``derived`` false (the warehouse holds games without derived tables: see underived_parts), the marts of
    DERIVED_MARTS are not run: each of their statistics is one ungrouped Stat saying NOT_DERIVED."""
    stats: list[Stat] = []
    for mart in MARTS:
        if not derived and mart in DERIVED_MARTS:
            stats.extend(not_derived_stats(mart))
        else:
            stats.extend(mart_stats(con, mart, by, group))
    return stats


def not_derived_stats(mart: str) -> list[Stat]:
    """Return the statistics of a mart of DERIVED_MARTS as not derived: one Stat per name (or name pattern) with
    no group, null counts and value, and the note NOT_DERIVED."""
    definition = f"computed from the derived tables (pipeline/sql/marts/{mart}.sql)"
    return [Stat(name, None, None, None, None, definition, note=NOT_DERIVED) for name in DERIVED_MARTS[mart]]


def underived_parts(warehouse: Warehouse) -> list[Path]:
    """Return the games parts of ``warehouse`` that have no derived tables (never derived: ingested with
    ``--no-derive``, or by a derive cut short); every derived part has a hand_states part (every game deals)."""
    games = warehouse.root / "games"
    hands = warehouse.root / "hand_states"
    return [part for part in warehouse.table_files("games") if not (hands / part.relative_to(games)).is_file()]


def has_player(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """True when a seat of some stored game has this player name (the marts' group value: 'unknown' for none)."""
    sql = "select count(*) from players where coalesce(name, 'unknown') = $name"
    return con.execute(sql, {"name": name}).fetchall()[0][0] > 0


def player_stats(con: duckdb.DuckDBPyConnection, name: str) -> list[Stat]:
    """Return one player's profile: every mart's rows of that player (``by='player'``); raises KeyError when no
    stored game has a seat of that name."""
    if not has_player(con, name):
        raise KeyError(f"no player named {name!r} in the warehouse")
    return all_stats(con, "player", group=name)


def round_outcome_stats(con: duckdb.DuckDBPyConnection, by: str = "all") -> list[Stat]:
    """Return the round outcome rates (marts/round_outcomes.sql), grouped by ``by`` (see GROUPINGS)."""
    return mart_stats(con, "round_outcomes", by)


def rules_stats(con: duckdb.DuckDBPyConnection, by: str = "all") -> list[Stat]:
    """Return the rules layer's rates (marts/rules_rates.sql): furiten passes, riichi and tsumo in furiten,
    karaten at draws, kyuushu, grouped by ``by``."""
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
