"""Run a built game through paipu: write its XML, ingest it, derive it, and query the result."""

from __future__ import annotations

from pathlib import Path

import duckdb

from pipeline.db import connect
from pipeline.derive.run import derive
from pipeline.ingest import ingest
from pipeline.scenario.builder import GameBuilder
from pipeline.store.warehouse import Warehouse


def ingest_and_derive(game: GameBuilder, folder: Path) -> duckdb.DuckDBPyConnection:
    """Write ``game`` as ``folder/logs/scenario.mjlog``, ingest and derive it into ``folder/warehouse``;
    return a DuckDB connection over that warehouse."""
    logs = folder / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    (logs / "scenario.mjlog").write_text(game.to_xml(), encoding="utf-8")
    warehouse = Warehouse(folder / "warehouse")
    ingest([logs], warehouse)
    derive(warehouse)
    return connect(warehouse)
