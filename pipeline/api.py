"""The Python API for notebooks: open a warehouse, get views, marts and queries as pandas or Arrow.

    from pipeline.api import open_warehouse
    wh = open_warehouse("data/warehouse")
    wh.view("rounds")                      # pandas DataFrame
    wh.mart("round_outcomes", by="room")   # the same SQL file `paipu stats` runs
    wh.sql("select room, count(*) from games group by room", as_="arrow")

Polars users can pass the Arrow result to ``polars.from_arrow``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import duckdb
import pandas as pd
import pyarrow as pa

from pipeline.db import connect, load_sql, sql_names
from pipeline.schema import ALL_TABLES
from pipeline.statistics import GROUPINGS
from pipeline.store.warehouse import DEFAULT_WAREHOUSE, Warehouse

Result = Literal["pandas", "arrow"]
"""What a query returns: a pandas DataFrame or an Arrow table."""


class PaipuWarehouse:
    """A warehouse opened for reading: one DuckDB connection with every view."""

    def __init__(self, root: Path | str = DEFAULT_WAREHOUSE) -> None:
        self.warehouse = Warehouse(root)
        self.con: duckdb.DuckDBPyConnection = connect(self.warehouse)

    def sql(self, query: str, params: dict[str, Any] | None = None, as_: Result = "pandas") -> pd.DataFrame | pa.Table:
        """Run a query (``$name`` parameters) over the views; return pandas (default) or Arrow."""
        table = self.con.sql(query, params=params or None).to_arrow_table()
        return table.to_pandas() if as_ == "pandas" else table

    def view(self, name: str, as_: Result = "pandas") -> pd.DataFrame | pa.Table:
        """Return a whole view (games, rounds, events, hand_states, ...); raises KeyError for another name."""
        if name not in ALL_TABLES:
            raise KeyError(f"no view {name!r}; the views are {', '.join(ALL_TABLES)}")
        return self.sql(f"select * from {name}", as_=as_)

    def mart(self, name: str, by: str = "all", as_: Result = "pandas") -> pd.DataFrame | pa.Table:
        """Run ``pipeline/sql/marts/<name>.sql`` grouped by ``by`` (all, room, year, source)."""
        if name not in sql_names("marts"):
            raise KeyError(f"no mart {name!r}; the marts are {', '.join(sql_names('marts'))}")
        if by not in GROUPINGS:
            raise ValueError(f"by must be one of {', '.join(GROUPINGS)}, not {by!r}")
        return self.sql(load_sql("marts", name), {"by": by}, as_=as_)


def open_warehouse(root: Path | str = DEFAULT_WAREHOUSE) -> PaipuWarehouse:
    """Open a warehouse folder for reading; raises WarehouseError when there is none."""
    return PaipuWarehouse(root)
