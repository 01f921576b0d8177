"""`rules` is pure: it never imports `pipeline` (nor file, network or database libraries)."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[1] / "rules"
FORBIDDEN = {"pipeline", "duckdb", "requests", "urllib", "socket", "sqlite3"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_rules_never_imports_pipeline_or_io_libraries() -> None:
    files = sorted(RULES.rglob("*.py"))
    assert files
    for path in files:
        assert not imported_modules(path) & FORBIDDEN, path
