"""The notebook API reads the same views and marts as the CLI, as pandas, Arrow or (when installed) Polars."""

from __future__ import annotations

import sys
import types
import warnings
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest

from pipeline.api import NotDerivedError, NotDerivedWarning, open_warehouse
from pipeline.db import sql_names
from pipeline.derive.run import derive
from pipeline.errors import WarehouseError
from pipeline.ingest import ingest
from pipeline.statistics import (
    DERIVED_MARTS,
    GROUPINGS,
    MARTS,
    MODE_SPLIT_MARTS,
    NOT_DERIVED,
    all_stats,
    not_derived_stats,
)  # fmt: skip
from pipeline.store.warehouse import Warehouse

PANTHEON = "tenhou-xml/pantheon"
"""23 real Tenhou files of named cases: a small warehouse to ingest without deriving."""


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
    with pytest.raises(ValueError, match="--by takes"):
        wh.mart("round_outcomes", by="weather")
    with pytest.raises(ValueError, match="as_ must be one of"):
        wh.view("games", as_="excel")


@pytest.mark.parametrize("by", GROUPINGS)
def test_every_mart_by_every_grouping(wh, by: str) -> None:  # noqa: ANN001
    for mart in sql_names("marts"):
        table = wh.mart(mart, by=by, as_="arrow")
        split = mart in MODE_SPLIT_MARTS  # the per-player marts: split by mode, their means with standard errors
        means = ["std_error"] if split else []
        assert table.column_names == ["name", "group_value", "numerator", "denominator", "value", "definition", *means]
        assert table.num_rows > 0, (mart, by)
        # always split by mode (players, length): by 'all' the group is the mode alone
        assert (table["group_value"].null_count == table.num_rows) == (by == "all" and not split), (mart, by)


def test_stats_are_the_cli_statistics_with_their_intervals(wh) -> None:  # noqa: ANN001
    frame = wh.stats(by="length")
    expected = all_stats(wh.con, "length")
    assert list(frame.columns) == [
        "name", "group_value", "group_length", "group_mode", "numerator", "denominator", "value", "definition",
        "ci_low", "ci_high", "note", "std_error",
    ]  # fmt: skip  (the placements are split by mode too: two keys)
    assert list(frame["group_mode"].dropna().unique()) and frame["std_error"].notna().any()
    assert frame["note"].isna().all() and wh.is_derived()
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


# --- a warehouse ingested with --no-derive ----------------------------------------------------------
@pytest.fixture
def underived(shared_logs: Path, tmp_path: Path) -> Warehouse:
    """Real Tenhou logs ingested without deriving (as `paipu ingest --no-derive`)."""
    warehouse = Warehouse(tmp_path / "warehouse")
    ingest([shared_logs / PANTHEON], warehouse, derive=False)
    return warehouse


def test_stats_of_an_underived_warehouse_say_not_derived_with_null_values(underived: Warehouse) -> None:
    wh = open_warehouse(underived.root)
    assert not wh.is_derived()
    with pytest.warns(NotDerivedWarning, match=r"\d+ of \d+ games parts have no derived tables"):
        frame = wh.stats(as_="arrow")
    expected = all_stats(wh.con, derived=False)
    assert frame["name"].to_pylist() == [s.name for s in expected]
    rows = frame.to_pylist()
    underived_rows = [r for r in rows if r["note"] is not None]
    names = [s.name for mart in MARTS if mart in DERIVED_MARTS for s in not_derived_stats(mart)]
    assert [r["name"] for r in underived_rows] == names  # every rules-layer statistic, once, ungrouped
    for row in underived_rows:
        assert row["note"] == NOT_DERIVED
        assert [row[k] for k in ("group_value", "numerator", "denominator", "value", "ci_low", "ci_high")] == [None] * 6
    facts = {r["name"]: r for r in rows if r["note"] is None}
    (n_rounds,) = wh.sql("select count(*) as n from rounds", as_="arrow")["n"].to_pylist()
    assert facts["exhaustive_draw_rate"]["denominator"] == n_rounds > 0  # the facts' statistics as usual
    assert facts["exhaustive_draw_rate"]["value"] is not None
    with pytest.warns(NotDerivedWarning):
        profile = wh.stats(player=wh.view("players")["name"].value_counts().index[0], as_="arrow")
    assert NOT_DERIVED in profile["note"].to_pylist()


def test_a_rules_layer_mart_of_an_underived_warehouse_is_a_clear_error(underived: Warehouse) -> None:
    wh = open_warehouse(underived.root)
    for mart in DERIVED_MARTS:
        with pytest.raises(NotDerivedError, match="games parts have no derived tables: not derived: run `paipu"):
            wh.mart(mart)
    assert wh.mart("round_outcomes", as_="arrow").num_rows > 0  # facts only: as usual


def test_deriving_makes_the_same_handle_give_values(underived: Warehouse) -> None:
    wh = open_warehouse(underived.root)
    assert not wh.is_derived()
    derive(underived)
    assert wh.is_derived()
    with warnings.catch_warnings():
        warnings.simplefilter("error", NotDerivedWarning)  # derived now: no warning
        frame = wh.stats(as_="arrow")
    assert frame["note"].null_count == frame.num_rows
    seat_win = {r["name"]: r for r in frame.to_pylist()}["seat_win_rate"]
    assert seat_win["denominator"] > 0 and seat_win["value"] is not None
    assert wh.mart("rules_rates", as_="arrow").num_rows > 0
