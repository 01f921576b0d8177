"""The invariant checks (pipeline/sql/checks) applied to a batch's games before they are published.

Every file the ingest accepts passes them: a game that fails one (a tile entering a round twice, a hand of the
wrong size, a riichi accepted twice, a round without a draw...) is a log its parser read but that no game could
have written, and its file is quarantined with the check that failed. One exception, SERVER_ONLY_CHECKS: the
score changes of logs written or edited by other tools may not add up (``paipu check`` reports those apart).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from pipeline.invariants import arrays
from pipeline.invariants.kernel import CHECKS
from pipeline.invariants.sieve import game_bits
from pipeline.schema import TABLES, to_arrow
from pipeline.sources.base import ParsedGame, concat_buffers

SERVER_ONLY_CHECKS = frozenset({"score_conservation"})
"""Checks a log written or edited by another tool may fail and still be stored (the tenhou-python-bot fixtures'
score changes do not add up in 8 rounds); every other check holds for every log the rules layer derives."""


def failing_games(games: list[ParsedGame], tables: dict[str, pa.Table]) -> dict[int, str]:
    """id(game) -> the first invariant check it fails (for SERVER_ONLY_CHECKS: server-written games only), for
    parsed games holding each game id once (dedup.id_layers) and their fact tables (``tables['games']`` a row
    per game, in their order); {} when every game passes. The compiled sieve picks the games that may fail; the
    checks' SQL judges those alone. Raises what schema.to_arrow raises when a value does not fit its column."""
    if not games:
        return {}
    suspects = [games[k] for k in np.flatnonzero(needs_judging(tables))]
    if not suspects:
        return {}
    verdicts = judge({table: to_arrow(table, concat_buffers(suspects, table)) for table in TABLES})
    return {id(game): verdicts[game.game_id] for game in suspects if game.game_id in verdicts}


def needs_judging(tables: dict[str, pa.Table]) -> np.ndarray:
    """Per row of ``tables['games']`` (a batch's fact tables): whether the compiled sieve (sieve.game_bits)
    found something the checks' SQL must judge; a score_conservation bit alone counts in a server-written game
    only. Every game ``judge`` fails is among them."""
    bits = game_bits(tables)
    server = arrays.integers(tables["games"], "is_server_log") != 0  # null counts as server-written, as in the SQL
    server_only = np.bitwise_or.reduce([1 << CHECKS.index(name) for name in SERVER_ONLY_CHECKS])
    return ((bits & ~server_only) != 0) | (((bits & server_only) != 0) & server)


def judge(tables: dict[str, pa.Table]) -> dict[str, str]:
    """game_id -> 'fails the invariant check <name> (round <r>: <detail>)', the first check of
    pipeline/sql/checks (in file-name order) the game fails by the checks' SQL over ``tables``, for every game
    that fails one (SERVER_ONLY_CHECKS in server-written games only). DuckDB is imported here, when the sieve
    found a suspect: a batch whose games all pass (and a pool worker's start) does without it."""
    from pipeline.db.connection import connect_tables
    from pipeline.statistics import run_checks

    verdicts: dict[str, str] = {}
    for name, violations in run_checks(connect_tables(tables)).items():
        for v in violations:
            if (v.is_server_log or name not in SERVER_ONLY_CHECKS) and v.game_id not in verdicts:
                where = f"round {v.round_idx}: " if v.round_idx is not None else ""
                verdicts[v.game_id] = f"fails the invariant check {name} ({where}{v.detail})"
    return verdicts
