"""A fact table's rows in the layout its Parquet parts hold (pipeline.schema.stored): events packed.

The parsers' tables (pipeline.schema.facts) are checked as they are; the batch converts each part's events once,
when it writes them, and hands the rules layer the same stored rows it would read back from the part.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.schema import STORED_TABLES, stored_schema
from pipeline.schema.stored import EVENT_FLAGS


def stored_rows(table: str, rows: pa.Table) -> pa.Table:
    """``rows`` of ``table`` in its declared columns (string columns plain or dictionary-encoded) -> the rows
    as stored: events packed (pipeline.schema.stored), dictionary-encoded columns left so (cast to
    stored_schema(table) before writing), any other table unchanged (rows already stored: unchanged too)."""
    if table not in STORED_TABLES or "flags" in rows.column_names:
        return rows
    schema = stored_schema(table)
    columns = {name: rows[name] for name in schema.names if name != "flags"}
    columns["flags"] = pa.array(_packed_flags(rows), pa.uint8())
    fields = [schema.field(name).with_type(columns[name].type) for name in schema.names]
    return pa.Table.from_arrays([columns[name] for name in schema.names], schema=pa.schema(fields))


def _packed_flags(rows: pa.Table) -> np.ndarray:
    """(n,) uint8: EVENT_FLAGS two bits each from bit 0, 0 null, 1 false, 2 true."""
    packed = np.zeros(rows.num_rows, np.uint8)
    for k, name in enumerate(EVENT_FLAGS):
        flag = rows[name].combine_chunks()
        value = pc.fill_null(flag, False).to_numpy(zero_copy_only=False)
        known = flag.is_valid().to_numpy(zero_copy_only=False)
        packed |= ((known.astype(np.uint8) + (value & known)) << (2 * k)).astype(np.uint8)
    return packed
