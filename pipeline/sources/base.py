"""What every format's parser returns: games as per-table column lists, ready to batch.

Each format lives in ``pipeline/sources/<format>/`` and exposes the same function,
``parse(data: bytes, source_file: str) -> list[ParsedGame]``, raising a ParseError (or one of its
subclasses) for input it cannot read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from itertools import chain
from operator import itemgetter
from typing import Any

import numpy as np
import pyarrow as pa

from pipeline.columns import ColumnValues, Repeated, concat_columns
from pipeline.errors import ParseError
from pipeline.schema import TABLES, column_names, new_buffers

RULE_TRIPLE_RON_WINS = "rule:triple_ron_wins"
"""games.log_quirks entry of a rule set that plays three rons on one discard as three wins (no sanchahou)."""
RULE_DOUBLE_YAKUMAN = "rule:double_yakuman"
"""games.log_quirks entry of a rule set that counts suuankou tanki, junsei chuuren, 13-sided kokushi and
daisuushii as double yakuman."""


@dataclass
class ParsedGame:
    """One game read from a file: identity, completeness and the rows of every fact table."""

    game_id: str
    fingerprint: str
    source: str
    source_file: str
    n_rounds: int
    is_complete: bool
    tables: dict[str, dict[str, list]] = field(default_factory=lambda: {t: new_buffers(t) for t in TABLES})

    def completeness(self) -> tuple[int, int, int, int, int]:
        """Return a sort key: higher is the better copy of the same game (see completeness_key)."""
        server = self.tables["games"]["is_server_log"]
        return completeness_key(self.is_complete, self.n_rounds, bool(server[0]) if server else False, self.source,
                                self.game_id)  # fmt: skip


@dataclass
class RoundOutcome:
    """Rows of a round's result (wins and draws as column dicts), the scores after it and the quirks met."""

    wins: list[dict[str, Any]] = field(default_factory=list)
    draws: list[dict[str, Any]] = field(default_factory=list)
    scores_post: list[int] = field(default_factory=list)
    quirks: set[str] = field(default_factory=set)


FORMAT_RANK = {"tenhou_xml": 3, "majsoul": 2, "tenhou_json": 1, "mjai": 0}
"""Which format's copy of a game holds more of what the server wrote: Tenhou's XML (the wall seed, every tile's
id, the hands shown at a draw), a Mahjong Soul record (the server's flags), tenhou.net/6 JSON (no closed hands,
the interleaving rebuilt), mjai (a tool's)."""


def completeness_key(
    is_complete: bool, n_rounds: int, is_server_log: bool, source: str, game_id: str
) -> tuple[int, int, int, int, int]:
    """The key ranking copies of one game, higher first: the complete game, more rounds, as the server wrote it
    (not edited or tool-written), the richer format (FORMAT_RANK), a log id. It never counts events: a copy
    with a tag written twice is no more complete. Copies of equal key: the smaller file path (dedup.beats)."""
    named = int(not game_id.startswith("fp-"))
    return (int(is_complete), n_rounds, int(is_server_log), FORMAT_RANK.get(source, -1), named)


def concat_buffers(games: list[ParsedGame], table: str) -> dict[str, ColumnValues]:
    """Concatenate one table's columns over several games (in order)."""
    buffers = [game.tables[table] for game in games]
    return {name: concat_columns(list(map(itemgetter(name), buffers))) for name in column_names(table)}


def final_ranks(scores: list[int]) -> list[int]:
    """Placement 1.. of each seat by final score, ties broken by seat order (the earlier seat ranks higher)."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    ranks = [0] * len(scores)
    for place, seat in enumerate(order, start=1):
        ranks[seat] = place
    return ranks


@contextmanager
def errors_named(source_file: str, what: str, where: Callable[[], tuple[str | None, int | None]]) -> Iterator[None]:
    """Turn any failure while reading into a ParseError naming the file and, from ``where()`` (the game id and
    round being read), the game and round; ``what`` names the unit in the message ('document', 'record')."""
    try:
        yield
    except ParseError as exc:
        game_id, round_idx = where()
        round_idx = exc.round_idx if exc.round_idx is not None else round_idx
        raise type(exc)(f"{source_file}: {exc.message}", game_id=exc.game_id or game_id, round_idx=round_idx,
                        tag=exc.tag) from None  # fmt: skip
    except (ValueError, IndexError, KeyError, TypeError, AttributeError) as exc:
        game_id, round_idx = where()
        raise ParseError(f"{source_file}: malformed {what} ({type(exc).__name__}: {exc})", game_id=game_id,
                         round_idx=round_idx) from None  # fmt: skip


ROUND_LEVEL_TABLES = ("rounds", "wins", "draws")
"""Fact tables a parser fills round by round, whose game_id column is set once the game is read."""


def set_game_id(tables: dict[str, dict], game_id: str) -> None:
    """Put the game's id on every row of the round-level tables (one ``Repeated`` value per table)."""
    for table in ROUND_LEVEL_TABLES:
        tables[table]["game_id"] = Repeated(game_id, len(tables[table]["round_idx"]))


_INTEGERS = (int, np.integer)
_NUMBERS = (int, float, np.integer, np.floating)
_TILE_COLUMNS = frozenset({("rounds", "hands_start"), ("wins", "hand"), ("wins", "melds"), ("wins", "dora_indicators"),
                           ("wins", "ura_indicators"), ("draws", "hands_shown")})  # fmt: skip
CHECKED_TABLES = ("games", "players", "rounds", "wins", "draws", "server_flags")
"""The tables a parser fills value by value from the file (the events table is built in bulk, typed)."""


def _leaf_kind(leaf: pa.DataType) -> tuple[str, int]:
    """The kind of values a leaf type stores ('int', 'float', 'bool', 'str', 'time', 'other') and, for an
    integer, its bound (values lie in [-bound, bound))."""
    if pa.types.is_integer(leaf):
        return "int", 1 << (leaf.bit_width - 1)
    for kind, test in (("float", pa.types.is_floating), ("bool", pa.types.is_boolean), ("str", pa.types.is_string),
                       ("time", pa.types.is_timestamp)):  # fmt: skip
        if test(leaf):
            return kind, 0
    return "other", 0


@cache
def _column_checks(table: str) -> tuple[tuple[str, int, str, int, bool], ...]:
    """(column, list depth, leaf kind, integer bound, nullable) of every column of a table."""
    checks = []
    for column in TABLES[table]:
        if (table, column.name) in _TILE_COLUMNS:
            continue  # 136-ids: every parser reads or numbers them within 0-135 itself
        depth, leaf = 0, column.type
        while pa.types.is_list(leaf):
            depth, leaf = depth + 1, leaf.value_type
        checks.append((column.name, depth, *_leaf_kind(leaf), column.nullable))
    return tuple(checks)


def _leaf_fits(kind: str, bound: int, value: Any) -> bool:
    """Whether one value (not None) can be stored as a leaf of that kind."""
    if kind == "int":
        return isinstance(value, _INTEGERS) and not isinstance(value, bool) and -bound <= value < bound
    if kind == "float":
        return isinstance(value, _NUMBERS) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool | np.bool_)
    if kind == "str":
        return isinstance(value, str)
    if kind == "time":
        return isinstance(value, datetime)
    return True


_PLAIN_LEAF = {"int": int, "float": float, "bool": bool, "str": str, "time": datetime}
"""The Python type that alone makes a column of the kind fit (integers: once within bounds)."""
_LIST_TYPES = frozenset({list, tuple})
_NONE = type(None)


def _value_fits(depth: int, kind: str, bound: int, value: Any) -> bool:
    """Whether a (possibly nested list) value can be stored in a column of that list depth and leaf kind."""
    if value is None:
        return True
    if depth:
        return isinstance(value, list | tuple | np.ndarray) and all(_value_fits(depth - 1, kind, bound, v)
                                                                    for v in value)  # fmt: skip
    return _leaf_fits(kind, bound, value)


def _column_fits(depth: int, kind: str, bound: int, nullable: bool, values: list) -> bool:
    """Check a whole column at once: the types met, then the integer bounds (one min and one max)."""
    flat = values
    for _ in range(depth):
        if not set(map(type, flat)) <= _LIST_TYPES:
            return all(_value_fits(depth, kind, bound, v) for v in values)
        flat = list(chain.from_iterable(flat))
    types = set(map(type, flat))
    if _NONE in types:
        if not nullable and depth == 0:
            return False
        types.discard(_NONE)
        flat = [v for v in flat if v is not None]
    if not types:
        return True
    if len(types) == 1 and _PLAIN_LEAF.get(kind) in types:
        return kind != "int" or (-bound <= min(flat) and max(flat) < bound)
    return all(_leaf_fits(kind, bound, v) for v in flat)


def columns_of_rows(tables: dict[str, dict[str, Any]], rows: dict[str, list[dict[str, Any]]]) -> None:
    """Set each table's columns from its rows (dicts with the same keys, in order): what appending every row's
    values to the columns one by one gives, one list comprehension a column."""
    for table, table_rows in rows.items():
        if table_rows:
            buffers = tables[table]
            for name in table_rows[0]:
                buffers[name] = [row[name] for row in table_rows]


def row_columns(table: str) -> tuple[str, ...]:
    """The columns a parser's row of a round-level table holds, in the table's order: all but ``game_id`` (which
    set_game_id puts on every row)."""
    return tuple(name for name in column_names(table) if name != "game_id")


def columns_of_tuples(tables: dict[str, dict[str, Any]], rows: dict[str, list[tuple]]) -> None:
    """Set each table's columns from its rows, tuples of the ``row_columns(table)`` values (what columns_of_rows
    does for dicts); a table without rows keeps its columns."""
    for table, table_rows in rows.items():
        if table_rows:
            buffers = tables[table]
            for name, column in zip(row_columns(table), zip(*table_rows, strict=True), strict=True):
                buffers[name] = list(column)


def check_storable(game: ParsedGame) -> ParsedGame:
    """Return the game when every value a parser put in its row tables fits the column's declared type (an
    integer within its width, no null where none is allowed); else raise ParseError naming the file, game,
    table, column and round, so that a garbled number (a score of 10**20) quarantines the file instead of
    failing the batch's write.

    The values of all columns of one kind are checked together (one type set, one min and max per integer
    width); only a game that fails that is looked at column by column, to name the culprit."""
    groups: dict[tuple[str, int, bool], list[list]] = {}
    for table in CHECKED_TABLES:
        buffers = game.tables[table]
        for name, depth, kind, bound, nullable in _column_checks(table):
            values = buffers[name]
            if type(values) is not list:
                continue  # numpy, Coded and Repeated columns are built typed
            for _ in range(depth):
                if not set(map(type, values)) <= _LIST_TYPES:
                    return _check_columns(game)
                values = list(chain.from_iterable(values))
                nullable = True  # a null inside a list is stored as such
            groups.setdefault((kind, bound, nullable), []).append(values)
    for (kind, bound, nullable), parts in groups.items():
        flat = list(chain.from_iterable(parts))
        types = set(map(type, flat))
        if _NONE in types:
            if not nullable:
                return _check_columns(game)
            types.discard(_NONE)
            flat = [v for v in flat if v is not None]
        if not types:
            continue
        if len(types) > 1 or _PLAIN_LEAF.get(kind) not in types:
            return _check_columns(game)  # values of other types (numpy numbers...): one by one
        if kind == "int" and not (-bound <= min(flat) and max(flat) < bound):
            return _check_columns(game)
    return game


def _check_columns(game: ParsedGame) -> ParsedGame:
    """check_storable column by column and value by value: raises ParseError naming the first bad value."""
    for table in CHECKED_TABLES:
        buffers = game.tables[table]
        for name, depth, kind, bound, nullable in _column_checks(table):
            values = buffers[name]
            if not isinstance(values, list) or _column_fits(depth, kind, bound, nullable, values):
                continue
            bad = (i for i, v in enumerate(values)
                   if (v is None and not nullable) or not _value_fits(depth, kind, bound, v))  # fmt: skip
            row = next(bad, 0)
            round_idx = buffers.get("round_idx", [])
            raise ParseError(
                f"{game.source_file}: {table}.{name} value {values[row]!r:.80} cannot be stored ({kind} column)",
                game_id=game.game_id,
                round_idx=round_idx[row] if isinstance(round_idx, list) and row < len(round_idx) else None,
            )
    return game
