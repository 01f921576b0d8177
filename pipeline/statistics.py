"""Statistics and checks over a warehouse, as plain Python data (the CLI only renders them)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import duckdb

from pipeline.db import load_sql, sql_names
from pipeline.db.connection import ensure_views
from pipeline.db.rollups import create_rollup_views, filters_stored, has_stored_rollups, stored_rollup_views
from pipeline.store.warehouse import Warehouse

GROUPINGS = ("all", "room", "year", "source", "length", "mode", "player")
"""Keys of ``--by``: one group ('all', alone), or per room / year / source format / table length (hanchan or
tonpuu) / mode (players and length: '4p_hanchan', '4p_tonpuu', '3p_hanchan', '3p_tonpuu') / player (the seat's
name; see ROUND_LEVEL for what a player's row counts). Several keys, comma-separated ('room,year'), group by
every combination of them (see parse_by)."""

GROUP_SEPARATOR = "\x1f"
"""What separates the keys' values in a mart's group_value when ``$by`` has several keys (macros/group_value)."""

MODE_SPLIT_MARTS = frozenset({"placements", "player_wins", "player_riichi_calls", "tenhou_dan"})
"""Marts grouped by the key 'mode' besides ``$by`` (macros/with_mode): their figures mean nothing across modes
(a rank in sanma is not a rank in 4-player)."""

MARTS = (
    "round_outcomes", "seat_outcomes", "placements", "tenpai_at_draw", "rules_rates", "score_distributions",
    "player_wins", "player_riichi_calls", "tenhou_dan",
)  # fmt: skip
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
    "player_wins": (
        "dealer_win_rate", "dealer_win_share", "tsumo_share", "riichi_win_share", "open_win_share", "dama_win_share",
        "average_win_turn", "average_riichi_win_turn", "average_open_win_turn", "average_dama_win_turn",
        "average_win_score_change", "average_dealer_win_score_change", "average_non_dealer_win_score_change",
        "average_riichi_win_score_change", "average_open_win_score_change", "average_dama_win_score_change",
        "ippatsu_rate", "ura_dora_rate", "yakuman_rate", "yakuman_rate_mortal", "average_deal_in_turn",
        "average_deal_in_points", "average_deal_in_score_change", "average_deal_in_score_change_to_dealer",
        "average_deal_in_score_change_to_non_dealer", "deal_in_to_dealer_share", "deal_in_riichi_share",
        "deal_in_open_share", "deal_in_to_riichi_share", "deal_in_to_open_share", "deal_in_to_dama_share",
        "seat_draw_rate", "average_draw_score_change", "nagashi_mangan_seat_rate", "win_efficiency", "deal_in_loss",
        "net_win_efficiency", "average_round_score_change", "average_starting_shanten",
        "average_starting_shanten_dealer", "average_starting_shanten_non_dealer",
    ),
    "player_riichi_calls": (
        "first_riichi_rate", "chasing_riichi_rate", "riichi_chased_rate", "riichi_chasers_per_riichi",
        "win_rate_after_riichi", "deal_in_rate_after_riichi", "deal_in_rate_after_riichi_accepted",
        "draw_rate_after_riichi", "average_riichi_turn", "average_riichi_balance", "average_riichi_score_change",
        "average_riichi_win_income", "average_riichi_deal_in_expense", "multi_wait_riichi_rate", "average_calls",
        "win_rate_after_call", "deal_in_rate_after_call", "draw_rate_after_call", "average_call_score_change",
    ),
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
        "average_rank",
        "average_final_score",
        "average_final_points",
        *(
            "average_win_turn", "average_riichi_win_turn", "average_open_win_turn", "average_dama_win_turn",
            "average_win_score_change", "average_dealer_win_score_change", "average_non_dealer_win_score_change",
            "average_riichi_win_score_change", "average_open_win_score_change", "average_dama_win_score_change",
            "average_deal_in_turn", "average_deal_in_points", "average_deal_in_score_change",
            "average_deal_in_score_change_to_dealer", "average_deal_in_score_change_to_non_dealer",
            "average_draw_score_change", "win_efficiency", "deal_in_loss", "net_win_efficiency",
            "average_round_score_change", "average_starting_shanten", "average_starting_shanten_dealer",
            "average_starting_shanten_non_dealer",
        ),  # player_wins
        *(
            "riichi_chasers_per_riichi", "average_riichi_turn", "average_riichi_balance",
            "average_riichi_score_change", "average_riichi_win_income", "average_riichi_deal_in_expense",
            "average_calls", "average_call_score_change",
        ),  # player_riichi_calls
        *(f"stable_dan_{room}" for room in ("ippan", "joukyuu", "tokujou", "houou")),
        "average_rank_points_mortal",
    }
)  # fmt: skip
"""Ratios whose numerator is not a subset of the denominator (counts per round, a mean): no binomial interval
(a mean of the placements, player_wins and player_riichi_calls marts carries its standard error instead; so does
a stable dan, by the delta method)."""

TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("rounds", ("rounds_per_game", "win_rate", "exhaustive_draw_rate", "nagashi_mangan_rate", "draw_rate",
                "abortive_draw_rate", "abortive_rate_*", "exhaustive_draw_rate_2011_study")),
    ("seats", ("seat_win_rate", "deal_in_rate", "riichi_rate", "call_rate", "average_win_points")),
    ("placements", ("average_rank", "rank_*_rate", "tobi_rate", "average_final_score", "average_final_points")),
    ("tenpai at exhaustive draws", ("tenpai_at_draw_rate", "tenpai_share_*", "karaten_share_of_tenpai_at_draw",
                                    "pure_karaten_at_draw_rate")),
    ("furiten", ("furiten_passes_*", "riichi_in_furiten_rate", "tsumo_in_furiten_rate")),
    ("kyuushu kyuuhai", ("kyuushu_*",)),
    ("scoring", ("fu_share_*", "han_share_*")),
    ("wins and deal-ins", ("dealer_win_*", "tsumo_share", "*_win_share", "average_*win_turn",
                           "average_*win_score_change", "ippatsu_rate", "ura_dora_rate", "yakuman_rate*",
                           "average_deal_in_*", "deal_in_*_share", "win_efficiency", "deal_in_loss",
                           "net_win_efficiency")),
    ("draws and round results", ("seat_draw_rate", "average_draw_score_change", "nagashi_mangan_seat_rate",
                                 "average_round_score_change", "average_starting_shanten*")),
    ("riichi and calls", ("first_riichi_rate", "chasing_riichi_rate", "riichi_chase*", "*_after_riichi*",
                          "average_riichi_*", "multi_wait_riichi_rate", "average_calls", "*_after_call",
                          "average_call_score_change")),
    ("tenhou dan", ("stable_dan_*", "top_two_rate", "last_avoidance_rate", "average_rank_points_mortal")),
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
    Wilson interval (ci_low, ci_high; null otherwise), for a mean of the placements mart its standard error
    (std_error: the sample standard deviation over the square root of the denominator; null otherwise).
    ``group`` holds one field per key of ``--by`` (None for 'all'). ``note`` says why a statistic has no value
    (NOT_DERIVED: its numerator, denominator and value are then null); None for a measured one."""

    name: str
    group: dict[str, Any] | None
    numerator: int | float | None
    denominator: int | None
    value: float | None
    definition: str
    ci_low: float | None = None
    ci_high: float | None = None
    std_error: float | None = None
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


def parse_by(by: str) -> tuple[str, ...]:
    """Return the keys of a ``--by`` value: one of GROUPINGS, or several (not 'all') comma-separated, e.g.
    'room,year' -> ('room', 'year'); 'all' -> (). Raises ValueError for an unknown, repeated or empty key."""
    keys = tuple(key.strip() for key in by.split(","))
    unknown = [key for key in keys if key not in GROUPINGS]
    if unknown:
        raise ValueError(f"--by takes {', '.join(GROUPINGS)} (several comma-separated), not {unknown[0]!r}")
    if len(set(keys)) < len(keys):
        raise ValueError(f"--by names a key twice: {by!r}")
    if "all" in keys and len(keys) > 1:
        raise ValueError("--by all is one group: it cannot be combined with other keys")
    return () if keys == ("all",) else keys


def group_keys(mart: str, by: str) -> tuple[str, ...]:
    """Return the keys of the groups a mart's rows fall in for ``by``: its keys (parse_by), and 'mode' last for a
    mart of MODE_SPLIT_MARTS when ``by`` does not name it."""
    keys = parse_by(by)
    if mart in MODE_SPLIT_MARTS and "mode" not in keys:
        keys = (*keys, "mode")
    return keys


def mart_stats(
    con: duckdb.DuckDBPyConnection, mart: str, by: str = "all", group: str | None = None, where: str | None = None
) -> list[Stat]:
    """Return the statistics of one mart (``pipeline/sql/marts/<mart>.sql``: rows of name, group value,
    numerator, denominator, value, definition and, for a mean that has one, its standard error), grouped by
    ``by`` (see parse_by), only those whose first key is ``group`` when it is given, and only over the games for
    which ``where`` holds when it is given (see filtered_games); raises ValueError for a bad ``by`` or ``where``."""
    keys = group_keys(mart, by)
    canonical = ",".join(parse_by(by)) or "all"
    with filtered_games(con, where):
        rows = con.execute(load_sql("marts", mart), {"by": canonical}).fetchall()
    stats = _stats(rows, keys)
    if group is not None:
        stats = [s for s in stats if s.group is not None and next(iter(s.group.values())) == group]
    return stats


def all_stats(
    con: duckdb.DuckDBPyConnection,
    by: str = "all",
    group: str | None = None,
    derived: bool = True,
    where: str | None = None,
) -> list[Stat]:
    """Return the statistics of every mart (MARTS, in order), grouped by ``by``, or one group's only, over the
    games for which ``where`` holds when it is given (see filtered_games). With ``derived`` false (the warehouse
    holds games without derived tables: see underived_parts), the marts of DERIVED_MARTS are not run: each of
    their statistics is one ungrouped Stat saying NOT_DERIVED."""
    stats: list[Stat] = []
    parse_by(by)
    with filtered_games(con, where):
        for mart in MARTS:
            if not derived and mart in DERIVED_MARTS:
                stats.extend(not_derived_stats(mart))
            else:
                stats.extend(mart_stats(con, mart, by, group))
    return stats


def check_where(con: duckdb.DuckDBPyConnection, predicate: str) -> None:
    """Raise ValueError (a one-line message) unless ``predicate`` is one boolean SQL expression over the games
    view (its columns, e.g. ``n_players = 4 and is_hanchan and room = 'houou'``): no statement break, comment or
    parenthesis closing what it did not open, and it binds and evaluates over every stored game."""
    if not predicate.strip():
        raise ValueError("--where needs an expression over the games view, e.g. \"room = 'houou'\"")
    _check_where_text(predicate)
    try:
        described = con.execute(f"describe select ({predicate}\n) as keep from games").fetchall()  # noqa: S608
    except duckdb.Error as error:
        message = f"--where {predicate!r} is not an expression over the games view: {_first_line(error)}"
        raise ValueError(message) from None
    if described[0][1] not in ("BOOLEAN", '"NULL"', "NULL"):
        raise ValueError(f"--where {predicate!r} is a {described[0][1]}, not a condition (true or false per game)")


def _check_where_text(predicate: str) -> None:
    """Raise ValueError when the predicate, outside its quoted strings and names, holds a ';', a comment or a
    ')' closing a parenthesis it did not open (what could end the expression it is placed in)."""
    depth, quote, i = 0, "", 0
    while i < len(predicate):
        c = predicate[i]
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == ";" or predicate.startswith(("--", "/*"), i):
            raise ValueError(f"--where takes one expression, without ';' or comments: {predicate!r}")
        elif c in "()":
            depth += 1 if c == "(" else -1
            if depth < 0:
                raise ValueError(f"--where {predicate!r} closes a parenthesis it did not open")
        i += 1
    if quote or depth:
        raise ValueError(f"--where {predicate!r} leaves a quote or parenthesis open")


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


@contextmanager
def filtered_games(con: duckdb.DuckDBPyConnection, where: str | None) -> Iterator[None]:
    """Within the block, the marts count only the games for which ``where`` holds (an SQL expression over the
    games view, checked by check_where): the view counted_games (macros/counted_games.sql, read by the grouping
    macros and the rollups) is that file's query with the predicate in place of ``true``, back to every game
    afterwards. With the stored rollups attached (pipeline.db.rollups), a predicate over the columns they keep
    filters their rows; any other makes the rollups' views read the Parquet within the block. No-op for None.
    Raises ValueError (a one-line message) for a predicate that fails to check or to evaluate."""
    if where is None:
        yield
        return
    stored = has_stored_rollups(con)
    ensure_views(con, ("games",) if stored else None)  # the stored rollups need no other view to filter
    check_where(con, where)
    by_store = stored and filters_stored(con, where)
    if stored and not by_store:
        ensure_views(con)  # before counted_games is filtered: making the macros would put it back
    every_game = load_sql("macros", "counted_games")
    head, found, _ = every_game.rpartition("where true")
    if not found:
        raise RuntimeError("macros/counted_games.sql no longer ends with `where true`")
    try:
        con.execute(f"{head}where (\n{where}\n)")
        con.execute("select count(*) from counted_games").fetchall()  # runtime errors (casts) show up here
    except duckdb.Error as error:
        con.execute(every_game)
        raise ValueError(f"--where {where!r} fails over the games view: {_first_line(error)}") from None
    if by_store:
        stored_rollup_views(con, where)
    elif stored:
        create_rollup_views(con)
    try:
        yield
    finally:
        con.execute(every_game)
        if stored:
            stored_rollup_views(con, None)


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
    ensure_views(con, ("players",))
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


def _stats(rows: list[tuple], keys: tuple[str, ...]) -> list[Stat]:
    """Stats from a mart's rows, each group value split into one field per key (None when there are none)."""
    out = []
    for name, group_value, num, den, value, definition, *rest in rows:
        if isinstance(num, float) and num.is_integer() and not name.endswith("_points"):
            num = int(num)  # a count or a sum of integers, typed double in a mart's union with a sum of points
        elif not isinstance(num, float):
            num = int(num)
        interval = None if name in NOT_PROPORTIONS else wilson_interval(int(num), int(den))
        std_error = rest[0] if rest else None
        out.append(
            Stat(
                name=name,
                group=_group(group_value, keys),
                numerator=num,
                denominator=int(den),
                value=float(value) if den else None,
                definition=definition,
                ci_low=interval[0] if interval else None,
                ci_high=interval[1] if interval else None,
                # 12 significant digits: a parallel stddev_samp differs from run to run in the last bits
                std_error=None if std_error is None else float(f"{std_error:.12g}"),
            )
        )
    return out


def _group(group_value: str | None, keys: tuple[str, ...]) -> dict[str, Any] | None:
    """A mart row's group: {key: value} per key (the values of several keys are joined by GROUP_SEPARATOR)."""
    if not keys:
        return None
    values = [group_value] if len(keys) == 1 else str(group_value).split(GROUP_SEPARATOR)
    return dict(zip(keys, values, strict=True))


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
