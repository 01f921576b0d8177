"""Reading a file with a format's one-pass read of whole games (its ``bulk.read_game``) or without it, for the
tests that compare the two (test_mjai_bulk.py, test_tenhou_json_bulk.py)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pyarrow as pa
import pytest

from pipeline.errors import NotALogError, ParseError
from pipeline.schema import to_arrow
from pipeline.sources.base import ParsedGame, concat_buffers

Outcome = list[dict[str, pa.Table]] | tuple[str, str, object, object, object]


def read(parse: Callable[[bytes, str], list[ParsedGame]], parser_module: ModuleType, read_game: Callable[..., Any],
         data: bytes, one_pass: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[Outcome, int]:  # fmt: skip
    """Every game's tables (as stored) or the error (type, message, game, round, tag) of ``parse(data)``, and how many
    games ``read_game`` (the name ``parser_module`` calls) took; ``one_pass`` False: it takes none."""
    taken = []

    def counted(*args: Any) -> Any:
        game = read_game(*args) if one_pass else None
        taken.append(game is not None)
        return game

    with monkeypatch.context() as patch:
        patch.setattr(parser_module, "read_game", counted)
        try:
            games = parse(data, "game.log")
        except (NotALogError, ParseError) as exc:
            return (type(exc).__name__, str(exc), getattr(exc, "game_id", None), exc.round_idx, exc.tag), sum(taken)
    return [{t: to_arrow(t, concat_buffers([g], t)) for t in g.tables} for g in games], sum(taken)


def same_either_way(read_one: Callable[[bytes, bool, pytest.MonkeyPatch], tuple[Outcome, int]], data: bytes,
                    monkeypatch: pytest.MonkeyPatch) -> int:  # fmt: skip
    """Check that ``read_one`` (a format's ``read``) gives the same with and without the one-pass read; return the
    games read in one pass."""
    general, _ = read_one(data, False, monkeypatch)
    one_pass, taken = read_one(data, True, monkeypatch)
    assert one_pass == general
    return taken
