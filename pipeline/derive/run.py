"""``paipu derive``: run the rules layer over the warehouse, one games part at a time.

Every fact table's part of the same name holds the same games, so each games part is derived on
its own and its derived tables are written under the same relative path: rewriting a games part
(a more complete copy arrived) and deriving it again replaces exactly its derived parts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from pipeline.derive.inputs import part_connection, read_inputs, split_inputs
from pipeline.derive.tables import derive_part
from pipeline.schema import DERIVED_TABLES, arrow_schema, to_arrow
from pipeline.store.parquet import AtomicParquetWriter
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
        con = part_connection(warehouse.root, relative)
        n_games = con.execute("select count(*) from games").fetchall()[0][0]
        with ExitStack() as stack:
            writers = {
                table: stack.enter_context(AtomicParquetWriter(warehouse.root / table / relative, arrow_schema(table)))
                for table in DERIVED_TABLES
            }
            # a chunk of games at a time, each written as row groups: the rules' working memory stays
            # bounded by the chunk
            for chunk in split_inputs(read_inputs(con)):
                for table, columns in derive_part(chunk).items():
                    writers[table].write(to_arrow(table, columns))
        for table, writer in writers.items():
            report.rows[table] += writer.rows
        report.parts += 1
        if on_part:
            on_part(n_games)
    _drop_orphans(warehouse)
    return report


def _drop_orphans(warehouse: Warehouse) -> None:
    """Delete derived parts whose games part no longer exists."""
    live = {p.relative_to(warehouse.root / "games") for p in warehouse.table_files("games")}
    for table in DERIVED_TABLES:
        for path in warehouse.table_files(table):
            if path.relative_to(warehouse.root / table) not in live:
                path.unlink()
