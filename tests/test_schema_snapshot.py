"""Every table's columns and types against a committed snapshot: schema changes are reviewed diffs.

Run with PAIPU_UPDATE_SNAPSHOTS=1 to rewrite tests/snapshots/schema.json after a deliberate change.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.schema import ALL_TABLES, SCHEMA_VERSION, STORED_TABLES, TABLES, arrow_schema, stored_schema, to_arrow
from pipeline.sources.tenhou_xml import parse

SNAPSHOT = Path(__file__).parent / "snapshots" / "schema.json"


def current_schema() -> dict:
    return {
        "schema_version": SCHEMA_VERSION,
        "tables": {table: [[f.name, str(f.type), f.nullable] for f in arrow_schema(table)] for table in ALL_TABLES},
        "stored": {table: [[f.name, str(f.type), f.nullable] for f in stored_schema(table)] for table in STORED_TABLES},
    }


def _dump(snapshot: dict) -> str:
    """JSON with one line per column, so a schema change is a one-line diff."""

    def listing(tables: dict) -> str:
        return ",\n".join(
            f'  "{table}": [\n' + ",\n".join(f"   {json.dumps(col, ensure_ascii=False)}" for col in cols) + "\n  ]"
            for table, cols in tables.items()
        )

    return (
        f'{{\n "schema_version": "{snapshot["schema_version"]}",\n "tables": {{\n{listing(snapshot["tables"])}\n }},'
        f'\n "stored": {{\n{listing(snapshot["stored"])}\n }}\n}}\n'
    )


def test_declared_schema_matches_the_snapshot() -> None:
    current = current_schema()
    if os.environ.get("PAIPU_UPDATE_SNAPSHOTS") == "1":
        SNAPSHOT.write_text(_dump(current), encoding="utf-8")
    assert json.loads(SNAPSHOT.read_text(encoding="utf-8")) == current


def test_every_column_has_a_description() -> None:
    for table in ALL_TABLES:
        for field in (*arrow_schema(table), *stored_schema(table)):
            assert field.metadata and field.metadata[b"description"].strip(), (table, field.name)


def test_written_parquet_files_carry_the_stored_schema(tenhou_warehouse) -> None:
    warehouse, _ = tenhou_warehouse
    for table in ALL_TABLES:
        files = warehouse.table_files(table)
        assert files or table == "server_flags", table  # Tenhou XML records no server flags (Mahjong Soul does)
        for path in files:
            schema = pq.read_schema(path)
            assert [(f.name, f.type, f.nullable) for f in schema] == [
                (f.name, f.type, f.nullable) for f in stored_schema(table)
            ], path
            assert schema.metadata[b"paipu_schema_version"] == SCHEMA_VERSION.encode()


def test_kept_dictionaries_hold_the_same_values_as_the_declared_strings(shared_logs: Path) -> None:
    log = shared_logs / "tenhou-xml/mjx/tests_py/resources/mjlog/2020052700gm-00a9-0000-75a4695c.mjlog"
    game = parse(log.read_bytes(), str(log))[0]
    for table in TABLES:
        plain = to_arrow(table, game.tables[table])
        kept = to_arrow(table, game.tables[table], keep_dictionaries=True)
        assert kept.cast(arrow_schema(table)).equals(plain), table
        if table == "events":  # its game ids and actions are codes: kept as dictionaries
            assert pa.types.is_dictionary(kept.schema.field("action").type)
            assert pa.types.is_dictionary(kept.schema.field("game_id").type)
