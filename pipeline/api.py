"""The Python API for notebooks: open a warehouse, get views, marts and queries as pandas, Arrow or Polars.

    from pipeline.api import open_warehouse
    wh = open_warehouse("data/warehouse")
    wh.view("rounds")                           # pandas DataFrame
    wh.mart("round_outcomes", by="room")        # the same SQL file `paipu stats` runs
    wh.stats(by="length")                       # every mart's rows with their 95% intervals
    wh.stats(player="ASAPIN")                   # one player's profile
    wh.sql("select room, count(*) from games group by room", as_="arrow")
    wh.view("wins", as_="polars")               # needs polars installed (not a paipu dependency)

Every method returns pandas unless ``as_`` asks for "arrow" or "polars"; polars is imported only then.

A warehouse holding games without their derived tables (ingested with ``--no-derive``, or a derive cut short;
pipeline.statistics.underived_parts) is not treated as derived: ``stats`` returns the rules layer's statistics
(the marts of DERIVED_MARTS) as ``paipu stats`` prints them, one row per statistic with null counts, value and
interval and ``note`` = "not derived: run `paipu derive`" (the facts' statistics as usual), and warns with a
NotDerivedWarning; ``mart`` of such a mart raises NotDerivedError rather than return the zeros its empty
inputs would give. Run ``paipu derive`` (or pipeline.derive.run.derive) and ask again.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

import duckdb
import pandas as pd
import pyarrow as pa

from pipeline.db import load_sql, sql_names
from pipeline.db.rollups import connect_with_rollups
from pipeline.errors import PaipuError
from pipeline.schema import ALL_TABLES
from pipeline.statistics import DERIVED_MARTS, NOT_DERIVED, all_stats, has_player, parse_by, underived_parts
from pipeline.store.published import generation, reading
from pipeline.store.warehouse import DEFAULT_WAREHOUSE, Warehouse

if TYPE_CHECKING:  # polars is optional: imported only when asked for
    import polars as pl

Result = Literal["pandas", "arrow", "polars"]
"""What a query returns: a pandas DataFrame, an Arrow table or a Polars DataFrame."""

RESULTS = ("pandas", "arrow", "polars")
"""The values of ``as_``."""

Frame: TypeAlias = "pd.DataFrame | pa.Table | pl.DataFrame"
"""A result: pandas, Arrow or Polars, as asked."""


class NotDerivedError(PaipuError):
    """A mart that reads the derived tables was asked of a warehouse holding games without them."""


class NotDerivedWarning(UserWarning):
    """``stats`` of a warehouse holding games without derived tables: the rules layer's statistics are null."""


def _polars() -> Any:
    """Import polars when first asked for; a clear ImportError when it is not installed."""
    try:
        return importlib.import_module("polars")
    except ImportError as exc:
        raise ImportError(
            "as_='polars' needs the polars package, which paipu does not install: pip install polars "
            "(or use as_='arrow' or as_='pandas')"
        ) from exc


def convert(table: pa.Table, as_: Result = "pandas") -> Frame:
    """Return an Arrow table as pandas (default), Arrow or Polars; raises ValueError for another ``as_``."""
    if as_ not in RESULTS:
        raise ValueError(f"as_ must be one of {', '.join(RESULTS)}, not {as_!r}")
    if as_ == "pandas":
        return table.to_pandas()
    if as_ == "polars":
        return _polars().from_arrow(table)
    return table


class PaipuWarehouse:
    """A warehouse opened for reading: one DuckDB connection with every view."""

    def __init__(self, root: Path | str = DEFAULT_WAREHOUSE) -> None:
        self.warehouse = Warehouse(root)
        self._generation = generation(self.warehouse.root)
        self.con: duckdb.DuckDBPyConnection = self._connect()

    def _connect(self) -> duckdb.DuckDBPyConnection:
        """A connection with every view; the marts read the warehouse's stored rollups when `paipu stats` made
        them (refreshed first: pipeline.db.rollups), else compute them from the Parquet (never made here: making
        them over a large warehouse takes minutes a notebook did not ask for)."""
        return connect_with_rollups(self.warehouse, make=False)

    def _current(self) -> duckdb.DuckDBPyConnection:
        """The connection, opened again when a batch was published since it was (call under ``reading``)."""
        now = generation(self.warehouse.root)
        if now != self._generation:
            self.con, self._generation = self._connect(), now
        return self.con

    def sql(self, query: str, params: dict[str, Any] | None = None, as_: Result = "pandas") -> Frame:
        """Run a query (``$name`` parameters) over the views; return pandas (default), Arrow or Polars. The query
        sees whole published batches only, the latest ones included (pipeline.store.published)."""
        if as_ not in RESULTS:  # before running the query
            raise ValueError(f"as_ must be one of {', '.join(RESULTS)}, not {as_!r}")
        with reading(self.warehouse.root):
            return convert(self._current().sql(query, params=params or None).to_arrow_table(), as_)

    def view(self, name: str, as_: Result = "pandas") -> Frame:
        """Return a whole view (games, rounds, events, hand_states, ...); raises KeyError for another name."""
        if name not in ALL_TABLES:
            raise KeyError(f"no view {name!r}; the views are {', '.join(ALL_TABLES)}")
        return self.sql(f"select * from {name}", as_=as_)

    def mart(self, name: str, by: str = "all", as_: Result = "pandas") -> Frame:
        """Run ``pipeline/sql/marts/<name>.sql`` grouped by ``by`` (one of GROUPINGS, or several comma-separated:
        statistics.parse_by): rows of name, group_value (several keys' values joined by chr(31)), numerator,
        denominator, value, definition (and std_error for a mart of means). Raises KeyError for an unknown mart,
        ValueError for ``by``."""
        if name not in sql_names("marts"):
            raise KeyError(f"no mart {name!r}; the marts are {', '.join(sql_names('marts'))}")
        by = ",".join(parse_by(by)) or "all"
        if name in DERIVED_MARTS and (missing := self._underived()):
            raise NotDerivedError(f"mart {name} reads the derived tables, and {missing}: {NOT_DERIVED}")
        return self.sql(load_sql("marts", name), {"by": by}, as_=as_)

    def is_derived(self) -> bool:
        """Whether every games part of the warehouse has its derived tables (pipeline.statistics.underived_parts)."""
        return not self._underived()

    def _underived(self) -> str:
        """'' when the warehouse is derived, else how many of its games parts have no derived tables (words)."""
        with reading(self.warehouse.root):
            missing = len(underived_parts(self.warehouse))
            total = len(self.warehouse.table_files("games"))
        return f"{missing} of {total} games parts have no derived tables" if missing else ""

    def stats(
        self, by: str = "all", player: str | None = None, as_: Result = "pandas", where: str | None = None
    ) -> Frame:
        """Return every mart's statistics as ``paipu stats`` prints them (name, group, numerator, denominator,
        value, definition, ci_low, ci_high, note; group as group_value), grouped by ``by``, or one player's
        profile. ``note`` is null for a measured statistic; when the warehouse holds games without derived
        tables, the rules layer's statistics are one ungrouped row each with null counts and value and ``note``
        NOT_DERIVED, and a NotDerivedWarning says how many parts lack them (see the module docstring).
        ``where``: only the games for which this SQL expression over the games view holds (``paipu stats
        --where``). ``group_value`` is a row's first group key's value; where some rows have several keys (``by``
        'room,year', or the placements split by mode), every key has its column ``group_<key>`` too. Raises
        ValueError for ``by`` or ``where``, KeyError for a player name no stored game has."""
        missing = self._underived()
        with reading(self.warehouse.root):
            con = self._current()
            if player is None:
                stats = all_stats(con, by, derived=not missing, where=where)
            elif has_player(con, player):
                stats = all_stats(con, "player", group=player, derived=not missing, where=where)
            else:
                raise KeyError(f"no player named {player!r} in the warehouse")
        if missing:
            warnings.warn(f"{missing}: the rules layer's statistics are null ({NOT_DERIVED})", NotDerivedWarning,
                          stacklevel=2)  # fmt: skip
        columns = {
            "name": pa.array([s.name for s in stats], pa.string()),
            "group_value": pa.array([None if s.group is None else [*s.group.values()][0] for s in stats], pa.string()),
            **{
                f"group_{key}": pa.array([None if s.group is None else s.group.get(key) for s in stats], pa.string())
                for key in dict.fromkeys(k for s in stats if s.group and len(s.group) > 1 for k in s.group)
            },
            "numerator": pa.array([s.numerator for s in stats], pa.float64()),
            "denominator": pa.array([s.denominator for s in stats], pa.int64()),
            "value": pa.array([s.value for s in stats], pa.float64()),
            "definition": pa.array([s.definition for s in stats], pa.string()),
            "ci_low": pa.array([s.ci_low for s in stats], pa.float64()),
            "ci_high": pa.array([s.ci_high for s in stats], pa.float64()),
            "note": pa.array([s.note for s in stats], pa.string()),
            "std_error": pa.array([s.std_error for s in stats], pa.float64()),
        }
        return convert(pa.table(columns), as_)


def open_warehouse(root: Path | str = DEFAULT_WAREHOUSE) -> PaipuWarehouse:
    """Open a warehouse folder for reading; raises WarehouseError when there is none."""
    return PaipuWarehouse(root)


SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"
"""The bundled sample logs (a source checkout or an editable install)."""


def build_sample_warehouse(root: Path | str) -> Path:
    """Ingest and derive the bundled sample (``data/sample``) into the warehouse folder ``root``; return it.

    Raises FileNotFoundError when the sample is not there (an installed package without the repository)."""
    from pipeline.derive.run import derive  # noqa: PLC0415 - the ingest machinery only when a sample is built
    from pipeline.ingest import ingest  # noqa: PLC0415

    root = Path(root)
    ingest([SAMPLE], Warehouse(root))
    derive(Warehouse(root))
    return root


def notebook_warehouse(env: str = "PAIPU_WAREHOUSE") -> PaipuWarehouse:
    """The warehouse a notebook reads: the folder named by the environment variable ``env`` when set, else
    the bundled sample built into a temporary folder (removed when the process ends)."""
    import atexit  # noqa: PLC0415
    import os  # noqa: PLC0415
    import shutil  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    if os.environ.get(env):
        return open_warehouse(os.environ[env])
    folder = tempfile.mkdtemp(prefix="paipu-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return open_warehouse(build_sample_warehouse(Path(folder) / "warehouse"))


def show_table(title: str, table: pd.DataFrame) -> None:
    """Print ``title`` as a heading, then the table: rendered by Jupyter in a notebook, printed as text when the
    notebook runs as a script (so a script's output shows every table the notebook shows). Returns nothing."""
    print(f"\n## {title}")
    ipython = sys.modules.get("IPython")  # loaded by a Jupyter kernel; a script need not have it
    if ipython is not None and ipython.get_ipython() is not None:
        from IPython.display import display  # noqa: PLC0415 - only inside a notebook

        display(table)
    else:
        print(table.to_string(index=not isinstance(table.index, pd.RangeIndex)))
