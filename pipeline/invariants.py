"""The invariant checks (pipeline/sql/checks) applied to a batch's games before they are published.

Every file the ingest accepts passes them: a game that fails one (a tile entering a round twice, a hand of the
wrong size, a riichi accepted twice, a round without a draw...) is a log its parser read but that no game could
have written, and its file is quarantined with the check that failed. One exception, SERVER_ONLY_CHECKS: the
score changes of logs written or edited by other tools may not add up (``paipu check`` reports those apart).
"""

from __future__ import annotations

from pipeline.db.connection import connect_tables
from pipeline.schema import TABLES, to_arrow
from pipeline.sources.base import ParsedGame, concat_buffers
from pipeline.statistics import run_checks

SERVER_ONLY_CHECKS = frozenset({"score_conservation"})
"""Checks a log written or edited by another tool may fail and still be stored (the tenhou-python-bot fixtures'
score changes do not add up in 8 rounds); every other check holds for every log the rules layer derives."""


def failing_games(games: list[ParsedGame]) -> dict[int, str]:
    """id(game) -> the first invariant check it fails (for SERVER_ONLY_CHECKS: server-written games only), for
    parsed games holding each game id once (dedup.id_layers); {} when every game passes. Raises what
    schema.to_arrow raises when a value does not fit its column."""
    if not games:
        return {}
    tables = {table: to_arrow(table, concat_buffers(games, table)) for table in TABLES}
    by_id = {game.game_id: game for game in games}
    failing: dict[int, str] = {}
    for name, violations in run_checks(connect_tables(tables)).items():
        for v in violations:
            game = by_id.get(v.game_id)
            if game is not None and (v.is_server_log or name not in SERVER_ONLY_CHECKS) and id(game) not in failing:
                where = f"round {v.round_idx}: " if v.round_idx is not None else ""
                failing[id(game)] = f"fails the invariant check {name} ({where}{v.detail})"
    return failing
