"""Golden tables: every row of every table for two real games, compared with committed JSON lines.

The goldens were written by this test (PAIPU_UPDATE_GOLDEN=1) and then checked by hand against the
XML for the values the other tests do not pin down; a change in them is a reviewed diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pipeline.schema import TABLES, to_arrow
from pipeline.sources.tenhou_xml import parse

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
GAMES = {
    "2020052700gm-00a9-0000-75a4695c": "tenhou-xml/mjx/tests_py/resources/mjlog/2020052700gm-00a9-0000-75a4695c.mjlog",
    "sanma2": "tenhou-xml/dnovikoff-tenhou/log/test_data/sanma2.xml",
}
PATH_COLUMNS = {"source_file"}


def table_lines(game, table: str) -> list[str]:
    rows = to_arrow(table, game.tables[table])
    rows = rows.drop_columns([c for c in PATH_COLUMNS if c in rows.column_names])
    return [json.dumps(row, ensure_ascii=False, default=str) for row in rows.to_pylist()]


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("table", sorted(TABLES))
def test_golden_table(shared_logs: Path, name: str, table: str) -> None:
    path = shared_logs / GAMES[name]
    (game,) = parse(path.read_bytes(), str(path))
    lines = table_lines(game, table)
    golden = GOLDEN / name / f"{table}.jsonl"
    if os.environ.get("PAIPU_UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    assert golden.read_text(encoding="utf-8").splitlines() == lines
