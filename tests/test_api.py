"""The notebook API reads the same views and marts as the CLI, as pandas, Arrow or (when installed) Polars."""

from __future__ import annotations

import sys
import types

import pandas as pd
import pyarrow as pa
import pytest

from pipeline.api import open_warehouse
from pipeline.db import sql_names
from pipeline.errors import WarehouseError
from pipeline.statistics import GROUPINGS, all_stats


@pytest.fixture(scope="module")
def wh(tenhou_warehouse):  # noqa: ANN001, ANN201
    """The real-log warehouse, opened through the API."""
    return open_warehouse(tenhou_warehouse[0].root)


def test_views_marts_and_queries_come_back_as_pandas_or_arrow(wh) -> None:  # noqa: ANN001
    rounds = wh.view("rounds")
    assert isinstance(rounds, pd.DataFrame)
    assert len(rounds) == wh.sql("select count(*) as n from rounds")["n"][0]
    assert isinstance(wh.view("games", as_="arrow"), pa.Table)
    outcomes = wh.mart("round_outcomes", by="room")
    assert set(outcomes["group_value"]) == set(wh.view("games")["room"])
    assert "exhaustive_draw_rate" in set(outcomes["name"])
    with pytest.raises(KeyError):
        wh.view("no_such_view")
    with pytest.raises(KeyError):
        wh.mart("no_such_mart")
    with pytest.raises(ValueError, match="by must be one of"):
        wh.mart("round_outcomes", by="weather")
    with pytest.raises(ValueError, match="as_ must be one of"):
        wh.view("games", as_="excel")


@pytest.mark.parametrize("by", GROUPINGS)
def test_every_mart_by_every_grouping(wh, by: str) -> None:  # noqa: ANN001
    for mart in sql_names("marts"):
        table = wh.mart(mart, by=by, as_="arrow")
        assert table.column_names == ["name", "group_value", "numerator", "denominator", "value", "definition"]
        assert table.num_rows > 0, (mart, by)
        assert (table["group_value"].null_count == table.num_rows) == (by == "all"), (mart, by)


def test_stats_are_the_cli_statistics_with_their_intervals(wh) -> None:  # noqa: ANN001
    frame = wh.stats(by="length")
    expected = all_stats(wh.con, "length")
    assert list(frame.columns) == [
        "name", "group_value", "numerator", "denominator", "value", "definition", "ci_low", "ci_high"
    ]  # fmt: skip
    assert len(frame) == len(expected)
    assert list(frame["name"]) == [s.name for s in expected]
    assert list(frame["group_value"]) == [s.group["length"] for s in expected]
    assert list(frame["numerator"]) == [s.numerator for s in expected]
    assert frame["ci_low"].notna().sum() == sum(s.ci_low is not None for s in expected) > 0
    player = wh.view("players")["name"].value_counts().index[0]
    profile = wh.stats(player=player, as_="arrow")
    assert set(profile["group_value"].to_pylist()) == {player}
    with pytest.raises(KeyError, match="no player named"):
        wh.stats(player="no such player, surely")


def test_polars_is_asked_for_only_when_wanted_with_a_clear_error(wh, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setitem(sys.modules, "polars", None)  # as if it were not installed
    assert isinstance(wh.view("games"), pd.DataFrame)
    with pytest.raises(ImportError, match="pip install polars"):
        wh.view("games", as_="polars")


def test_polars_results_are_made_from_arrow(wh, monkeypatch) -> None:  # noqa: ANN001
    fake = types.ModuleType("polars")
    fake.from_arrow = lambda table: ("polars frame", table)
    monkeypatch.setitem(sys.modules, "polars", fake)
    kind, table = wh.mart("seat_outcomes", as_="polars")
    assert kind == "polars frame" and isinstance(table, pa.Table)
    assert table.equals(wh.mart("seat_outcomes", as_="arrow"))


def test_polars_when_installed(wh) -> None:  # noqa: ANN001
    polars = pytest.importorskip("polars")
    games = wh.view("games", as_="polars")
    assert isinstance(games, polars.DataFrame) and games.height == len(wh.view("games"))


def test_a_folder_without_a_warehouse_is_a_clear_error(tmp_path) -> None:  # noqa: ANN001
    with pytest.raises(WarehouseError, match="no warehouse"):
        open_warehouse(tmp_path)
