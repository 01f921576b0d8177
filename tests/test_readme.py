"""The README's table reference is generated from the schema declarations and must stay in step."""

from __future__ import annotations

from pathlib import Path

from pipeline.schema import markdown_tables

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_lists_every_table_and_column_as_declared() -> None:
    assert markdown_tables() in README.read_text(encoding="utf-8")
