"""A fact table's rows in the layout its Parquet parts hold (pipeline.schema.stored): events packed.

The parsers' tables (pipeline.schema.facts) are checked as they are; the batch converts each part's events once,
when it writes them, and hands the rules layer the same stored rows it would read back from the part.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.errors import SchemaError
from pipeline.schema import STORED_TABLES, stored_schema
from pipeline.schema.stored import EVENT_FLAGS
from rules.hands import ACTIONS

_ACTION_NAMES = pa.array(ACTIONS, pa.string())


def stored_rows(table: str, rows: pa.Table) -> pa.Table:
    """``rows`` of ``table`` in its declared columns (string columns plain or dictionary-encoded) -> the rows
    as stored: events packed (pipeline.schema.stored), dictionary-encoded columns left so (cast to
    stored_schema(table) before writing), any other table unchanged. Raises SchemaError naming an action the
    rules layer does not know (the parsers make none)."""
    if table not in STORED_TABLES or "action_code" in rows.column_names:
        return rows
    columns = {
        name: rows[name] for name in ("game_id", "round_idx", "event_idx", "seat", "tile", "from_seat", "meld_tiles")
    }
    columns["action_code"] = pa.array(_action_codes(rows["action"]), pa.int8())
    columns["flags"] = pa.array(_packed_flags(rows), pa.uint8())
    columns["source_index"] = rows["source_index"]
    schema = stored_schema(table)
    fields = [schema.field(name).with_type(columns[name].type) for name in schema.names]
    return pa.Table.from_arrays([columns[name] for name in schema.names], schema=pa.schema(fields))


def _action_codes(actions: pa.ChunkedArray) -> np.ndarray:
    """Each row's index in rules.hands.ACTIONS (dictionary-encoded chunks looked up once per distinct value)."""
    parts = []
    for chunk in actions.chunks:
        if pa.types.is_dictionary(chunk.type):
            codes = pc.index_in(chunk.dictionary, value_set=_ACTION_NAMES).take(chunk.indices)
        else:
            codes = pc.index_in(chunk, value_set=_ACTION_NAMES)
        if codes.null_count:
            unknown = pc.filter(chunk.cast(pa.string()), codes.is_null())[0].as_py()
            raise SchemaError(f"table events: action {unknown!r} is not one of {', '.join(ACTIONS)}")
        parts.append(codes.to_numpy(zero_copy_only=False))
    return np.concatenate(parts).astype(np.int8) if parts else np.zeros(0, np.int8)


def _packed_flags(rows: pa.Table) -> np.ndarray:
    """(n,) uint8: EVENT_FLAGS two bits each from bit 0, 0 null, 1 false, 2 true."""
    packed = np.zeros(rows.num_rows, np.uint8)
    for k, name in enumerate(EVENT_FLAGS):
        flag = rows[name].combine_chunks()
        value = pc.fill_null(flag, False).to_numpy(zero_copy_only=False)
        known = flag.is_valid().to_numpy(zero_copy_only=False)
        packed |= ((known.astype(np.uint8) + (value & known)) << (2 * k)).astype(np.uint8)
    return packed
