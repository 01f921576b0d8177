"""The events table's stored layout (pipeline.schema.stored): packed in the Parquet parts, the declared columns in
the events view, and parts of an older layout refused with the remedy named."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

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


@pytest.fixture
def sample_warehouse(tmp_path: Path) -> Warehouse:
    """The bundled sample ingested (and derived) into a new warehouse."""
    warehouse = Warehouse(tmp_path / "w")
    ingest([SAMPLE], warehouse)
    return warehouse


def test_events_of_the_unpacked_layout_ask_to_ingest_again(sample_warehouse: Warehouse) -> None:
    _mark_version(sample_warehouse.table_files("events")[0], b"7")
    remedy = r"events .* schema version 7.*ingest the logs again"
    with pytest.raises(WarehouseError, match=remedy):
        connect(sample_warehouse)
    with pytest.raises(WarehouseError, match=remedy):
        derive(sample_warehouse)
    with pytest.raises(WarehouseError, match=remedy):
        ingest([SAMPLE], sample_warehouse)


def test_other_facts_of_an_older_version_are_still_read(sample_warehouse: Warehouse) -> None:
    rounds = sample_warehouse.table_files("rounds")
    for part in rounds:
        _mark_version(part, b"3")
    n_rounds = sum(pq.read_metadata(p).num_rows for p in rounds)
    assert connect(sample_warehouse).execute("select count(*) from rounds").fetchall()[0][0] == n_rounds
