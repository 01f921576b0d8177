"""``paipu derive``: run the rules layer over the warehouse, one games part at a time.

Every fact table's part of the same name holds the same games, so each games part is derived on
its own and its derived tables are written under the same relative path: rewriting a games part
(a more complete copy arrived) and deriving it again replaces exactly its derived parts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from pipeline.derive.inputs import part_connection, read_inputs
from pipeline.derive.tables import derive_part
from pipeline.schema import DERIVED_TABLES, to_arrow
from pipeline.store.parquet import write_parquet_atomic
from pipeline.store.warehouse import Warehouse


@dataclass
class DeriveReport:
    """Parts derived and rows written per derived table."""

    parts: int = 0
    rows: dict[str, int] | None = None


def derive(
    warehouse: Warehouse, parts: Iterable[Path] | None = None, on_part: Callable[[int], None] | None = None
) -> DeriveReport:
    """Derive the given games parts (default: all) and drop derived parts whose games part is gone.

    ``on_part(n_games)`` is called after each part. Raises WarehouseError when a part cannot be
    read or written.
    """
    games_root = warehouse.root / "games"
    todo = sorted(parts) if parts is not None else warehouse.table_files("games")
    report = DeriveReport(rows=dict.fromkeys(DERIVED_TABLES, 0))
    for part in todo:
        relative = part.relative_to(games_root)
        inputs = read_inputs(part_connection(warehouse.root, relative))
        for table, columns in derive_part(inputs).items():
            arrow = to_arrow(table, columns)
            target = warehouse.root / table / relative
            if arrow.num_rows:
                write_parquet_atomic(arrow, target)
            else:
                target.unlink(missing_ok=True)
            report.rows[table] += arrow.num_rows
        report.parts += 1
        if on_part:
            on_part(len(set(inputs.rounds["game_id"].to_pylist())))
    _drop_orphans(warehouse)
    return report


def _drop_orphans(warehouse: Warehouse) -> None:
    """Delete derived parts whose games part no longer exists."""
    live = {p.relative_to(warehouse.root / "games") for p in warehouse.table_files("games")}
    for table in DERIVED_TABLES:
        for path in warehouse.table_files(table):
            if path.relative_to(warehouse.root / table) not in live:
                path.unlink()
