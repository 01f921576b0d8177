"""The SQL files shipped in ``pipeline/sql``: staging views, macros, marts, checks, audit. One query per file."""

from __future__ import annotations

from functools import cache
from importlib import resources

SQL_KINDS = ("staging", "macros", "rollups", "marts", "checks", "audit")
"""Folders of ``pipeline/sql``."""


def _folder(kind: str):  # noqa: ANN202 - a Traversable
    if kind not in SQL_KINDS:
        raise ValueError(f"unknown SQL kind {kind!r}; expected one of {SQL_KINDS}")
    return resources.files("pipeline") / "sql" / kind


def sql_names(kind: str) -> list[str]:
    """Return the names (file stems) of the SQL files of a kind, sorted."""
    return sorted(f.name[:-4] for f in _folder(kind).iterdir() if f.name.endswith(".sql"))


@cache
def load_sql(kind: str, name: str) -> str:
    """Return the text of ``pipeline/sql/<kind>/<name>.sql``; raises FileNotFoundError when absent."""
    path = _folder(kind) / f"{name}.sql"
    if not path.is_file():
        raise FileNotFoundError(f"no SQL file {kind}/{name}.sql")
    return path.read_text(encoding="utf-8")
