"""The notebook API reads the same views and marts as the CLI."""

from __future__ import annotations

import pyarrow as pa
import pytest

from pipeline.api import open_warehouse
from pipeline.errors import WarehouseError


def test_views_marts_and_queries_come_back_as_pandas_or_arrow(tenhou_warehouse) -> None:
    wh = open_warehouse(tenhou_warehouse[0].root)
    rounds = wh.view("rounds")
    assert len(rounds) == wh.sql("select count(*) as n from rounds")["n"][0]
    assert isinstance(wh.view("games", as_="arrow"), pa.Table)
    outcomes = wh.mart("round_outcomes", by="room")
    assert set(outcomes["group_value"]) == set(wh.view("games")["room"])
    assert "exhaustive_draw_rate" in set(outcomes["name"])
    with pytest.raises(KeyError):
        wh.view("no_such_view")
    with pytest.raises(KeyError):
        wh.mart("no_such_mart")


def test_a_folder_without_a_warehouse_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(WarehouseError, match="no warehouse"):
        open_warehouse(tmp_path)
