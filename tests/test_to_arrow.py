"""Column values to Arrow (pipeline.columns.to_arrow_array, pipeline.schema.to_arrow): a wide integer array is
narrowed to its column's width only when every value fits; one that does not fit is refused by name, not wrapped."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from pipeline.columns import Coded, to_arrow_array
from pipeline.errors import SchemaError
from pipeline.schema import TABLES, column_names, to_arrow


def test_a_wide_array_that_fits_gives_the_same_values_as_a_narrow_one() -> None:
    wide = np.array([-1, 0, 127, 5], dtype=np.int64)
    got = to_arrow_array(wide, pa.int8())
    assert got.type == pa.int8() and got.to_pylist() == [None, 0, 127, 5]
    assert got.equals(to_arrow_array(wide.astype(np.int8), pa.int8()))
    codes = to_arrow_array(Coded(np.array([1, 0, -1], dtype=np.int64), ("a", "b")), pa.string())
    assert codes.to_pylist() == ["b", "a", None]


@pytest.mark.parametrize("value", [128, 2**15, 2**40])
def test_a_value_that_does_not_fit_is_refused_not_wrapped(value: int) -> None:
    with pytest.raises(pa.ArrowInvalid):
        to_arrow_array(np.array([0, value], dtype=np.int64), pa.int8())


def test_an_events_table_with_a_tile_too_wide_is_a_schema_error() -> None:
    assert "events" in TABLES
    n = 2
    buffers = {name: np.zeros(n, dtype=np.int64) for name in column_names("events")}
    buffers["game_id"] = ["g", "g"]
    buffers["action"] = Coded(np.zeros(n, dtype=np.int64), ("draw",))
    buffers["meld_tiles"] = [None, None]
    buffers["tile"] = np.array([5, 40000], dtype=np.int64)  # int16 column
    with pytest.raises(SchemaError, match="events"):
        to_arrow("events", buffers)
    buffers["tile"] = np.array([5, 135], dtype=np.int64)
    assert to_arrow("events", buffers).column("tile").to_pylist() == [5, 135]
