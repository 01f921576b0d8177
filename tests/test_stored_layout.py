"""The events table's stored layout (pipeline.schema.stored): packed in the Parquet parts, the declared columns in
the events view, and parts of an older layout refused with the remedy named."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.compact import compact
from pipeline.db.connection import connect, connect_tables
from pipeline.derive.run import derive
from pipeline.errors import WarehouseError
from pipeline.ingest.run import ingest
from pipeline.schema import arrow_schema, stored_schema, to_arrow
from pipeline.sources.tenhou_xml import parse
from pipeline.store.layout import stored_rows
from pipeline.store.warehouse import Warehouse

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"
ROUNDS = "tenhou-xml/mjx/tests_py/resources/mjlog/2020052700gm-00a9-0000-75a4695c.mjlog"


def _declared_events(shared_logs: Path) -> pa.Table:
    """One real game's events in their declared columns, as the parser makes them."""
    log = shared_logs / ROUNDS
    return to_arrow("events", parse(log.read_bytes(), str(log))[0].tables["events"])


def test_the_events_view_gives_back_every_declared_value(shared_logs: Path) -> None:
    declared = _declared_events(shared_logs)
    stored = stored_rows("events", declared)
    assert stored.schema.names == stored_schema("events").names
    con = connect_tables({"events": stored})
    viewed = con.sql("select * from events order by round_idx, event_idx").to_arrow_table()
    assert viewed.cast(arrow_schema("events")).equals(declared.cast(arrow_schema("events")))


def test_every_flag_state_survives_the_packing() -> None:
    """Null, false and true of each flag in every combination: 27 rows, each given back as it went in."""
    states = [None, False, True]
    combos = [(a, b, c) for a in states for b in states for c in states]
    n = len(combos)
    columns = {
        "game_id": ["g"] * n, "round_idx": [0] * n, "event_idx": list(range(n)), "seat": [0] * n,
        "action": ["discard"] * n, "tile": [16] * n, "tile34": [4] * n, "is_red": [c[0] for c in combos],
        "from_seat": [None] * n, "is_tsumogiri": [c[1] for c in combos], "is_rinshan": [c[2] for c in combos],
        "meld_tiles": [None] * n, "source_index": [0] * n,
    }  # fmt: skip
    declared = pa.Table.from_pydict(columns, schema=arrow_schema("events"))
    viewed = connect_tables({"events": stored_rows("events", declared)}).execute(
        "select is_red, is_tsumogiri, is_rinshan from events order by event_idx"
    )
    assert viewed.fetchall() == combos


def _mark_version(part: Path, version: bytes) -> None:
    """Rewrite ``part`` with its footer's schema version set to ``version`` (its columns unchanged)."""
    table = pq.read_table(part)
    pq.write_table(table.replace_schema_metadata({**table.schema.metadata, b"paipu_schema_version": version}), part)


def _unpack(part: Path) -> None:
    """Rewrite an events part as paipu wrote it before schema 8: the declared columns (its view's rows), schema
    version 7 in the footer."""
    declared = connect_tables({"events": pq.read_table(part, partitioning=None)}).sql(
        "select * from events order by game_id, round_idx, event_idx"
    )
    rows = declared.to_arrow_table().cast(arrow_schema("events"))
    pq.write_table(rows.replace_schema_metadata({b"paipu_schema_version": b"7"}), part)


@pytest.fixture
def sample_warehouse(tmp_path: Path) -> Warehouse:
    """The bundled sample ingested (and derived) into a new warehouse."""
    warehouse = Warehouse(tmp_path / "w")
    ingest([SAMPLE], warehouse)
    return warehouse


def _events(warehouse: Warehouse) -> list[tuple]:
    """Every row of the events view, in order."""
    return connect(warehouse).sql("select * from events order by all").fetchall()


def test_events_of_the_unpacked_layout_are_rewritten_by_derive(sample_warehouse: Warehouse) -> None:
    before = _events(sample_warehouse)
    parts = sample_warehouse.table_files("events")
    for part in parts:
        _unpack(part)
    with pytest.raises(WarehouseError, match=r"events .* schema version 7.*paipu derive"):
        connect(sample_warehouse)
    result = CliRunner().invoke(app, ["derive", "-w", str(sample_warehouse.root)])  # the remedy the message names
    assert result.exit_code == 0, result.output
    assert f"rewrote {len(parts)} fact parts of an older paipu" in result.output
    assert [pq.read_schema(p).names for p in parts] == [stored_schema("events").names] * len(parts)
    assert _events(sample_warehouse) == before
    assert derive(sample_warehouse).upgraded == 0  # once


@pytest.mark.parametrize("command", ["ingest", "compact"])
def test_ingest_and_compact_rewrite_them_too(sample_warehouse: Warehouse, command: str) -> None:
    before = _events(sample_warehouse)
    for part in sample_warehouse.table_files("events"):
        _unpack(part)
    if command == "ingest":
        ingest([SAMPLE], sample_warehouse)
    else:
        compact(sample_warehouse)
    assert all(pq.read_schema(p).names == stored_schema("events").names for p in sample_warehouse.table_files("events"))
    assert _events(sample_warehouse) == before


def test_a_part_of_an_unknown_version_asks_to_ingest_again(sample_warehouse: Warehouse) -> None:
    _mark_version(sample_warehouse.table_files("events")[0], b"99")
    with pytest.raises(WarehouseError, match=r"events .* schema version 99.*ingest the logs again"):
        derive(sample_warehouse)


def test_other_facts_of_an_older_version_are_still_read(sample_warehouse: Warehouse) -> None:
    rounds = sample_warehouse.table_files("rounds")
    for part in rounds:
        _mark_version(part, b"3")
    n_rounds = sum(pq.read_metadata(p).num_rows for p in rounds)
    assert connect(sample_warehouse).execute("select count(*) from rounds").fetchall()[0][0] == n_rounds


def test_an_old_part_without_the_declared_columns_is_named(sample_warehouse: Warehouse) -> None:
    parts = sample_warehouse.table_files("events")
    for part in parts:
        _unpack(part)
    pq.write_table(pa.table({"game_id": ["x"]}).replace_schema_metadata({b"paipu_schema_version": b"7"}), parts[-1])
    with pytest.raises(WarehouseError, match=f"{parts[-1].name} does not hold the declared columns of table events"):
        derive(sample_warehouse)
    assert not (sample_warehouse.root / "_staging").exists() or not any((sample_warehouse.root / "_staging").iterdir())
    for part in parts[:-1]:  # nothing rewritten: one transaction
        assert pq.read_schema(part).names == arrow_schema("events").names
