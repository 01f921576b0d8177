"""What every format's parser returns: games as per-table column lists, ready to batch.

Each format lives in ``pipeline/sources/<format>/`` and exposes the same function,
``parse(data: bytes, source_file: str) -> list[ParsedGame]``, raising a ParseError (or one of its
subclasses) for input it cannot read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from pipeline.columns import ColumnValues, Repeated, concat_columns
from pipeline.errors import ParseError
from pipeline.schema import TABLES, new_buffers

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

    def completeness(self) -> tuple[int, int, int, int]:
        """Return a sort key: higher is the better copy of the same game (complete, rounds, events, named)."""
        return completeness_key(self.is_complete, self.n_rounds, len(self.tables["events"]["round_idx"]), self.game_id)


@dataclass
class RoundOutcome:
    """Rows of a round's result (wins and draws as column dicts), the scores after it and the quirks met."""

    wins: list[dict[str, Any]] = field(default_factory=list)
    draws: list[dict[str, Any]] = field(default_factory=list)
    scores_post: list[int] = field(default_factory=list)
    quirks: set[str] = field(default_factory=set)


def completeness_key(is_complete: bool, n_rounds: int, n_events: int, game_id: str) -> tuple[int, int, int, int]:
    """The key ranking copies of one game: complete first, then more rounds, more events, a log id."""
    return (int(is_complete), n_rounds, n_events, int(not game_id.startswith("fp-")))


def concat_buffers(games: list[ParsedGame], table: str) -> dict[str, ColumnValues]:
    """Concatenate one table's columns over several games (in order)."""
    return {name: concat_columns([g.tables[table][name] for g in games]) for name in new_buffers(table)}


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
