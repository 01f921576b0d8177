"""What the report and the charts say about where their numbers come from: how much of the warehouse is derived,
and its provenance (paipu version, the input files by status, the games by source with their dates).

    from pipeline.report_data import derived_state, provenance, chart_footnote
    chart_footnote(provenance(con))   # 'Data: 43 games (tenhou_xml 43), played 2009-03-01 to 2022-06-02; paipu 0.1.0'

Plain SQL over the warehouse views (games, rounds, manifest); no HTML, no matplotlib.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import duckdb

from pipeline import __version__
from pipeline.statistics import underived_parts
from pipeline.store.warehouse import Warehouse

MAX_FILES_LISTED = 200
"""Input files listed per manifest status in the report (the counts are always whole)."""


class DerivedState(NamedTuple):
    """How much of a warehouse is derived: games parts without derived tables, of all games parts."""

    missing: int
    total: int

    @property
    def is_derived(self) -> bool:
        """Whether every games part has its derived tables (an empty warehouse counts as derived)."""
        return self.missing == 0


def derived_state(con: duckdb.DuckDBPyConnection, warehouse: Warehouse | None = None) -> DerivedState:
    """Return how much of the warehouse is derived: from ``warehouse`` when given (statistics.underived_parts),
    else from the part files ``con`` reads (pipeline.db.connect: a games part is derived when a hand_states part
    of the same partition and name exists, the rule of underived_parts). A connection over tables held in
    memory (no part files) counts as one part, underived when it has games and no hand states."""
    if warehouse is not None:
        return DerivedState(len(underived_parts(warehouse)), len(warehouse.table_files("games")))
    games, hands = _part_files(con, "games"), _part_files(con, "hand_states")
    if games is None:
        has_games = con.execute("select count(*) > 0 from games").fetchone()[0]
        has_hands = con.execute("select count(*) > 0 from hand_states").fetchone()[0]
        return DerivedState(int(has_games and not has_hands), int(has_games))
    derived = set(hands or ())
    return DerivedState(sum(part not in derived for part in games), len(games))


def _part_files(con: duckdb.DuckDBPyConnection, table: str) -> list[Path] | None:
    """The part files the connection's view of ``table`` reads, each relative to the table's folder; None when
    the connection reads no part file of it."""
    try:
        files = con.execute(f"select getvariable('{table}_files')").fetchone()[0]
    except duckdb.Error:  # a connection without paipu's variables (tables held in memory)
        return None
    if not files:
        return None
    out = []
    for file in map(Path, files):
        folder = next(p for p in file.parents if p.name == table)  # the deepest: partitions are key=value
        out.append(file.relative_to(folder))
    return out


@dataclass(frozen=True)
class SourceCount:
    """The games of one source format: how many, their rounds, the first and last start time, how many undated."""

    source: str
    games: int
    rounds: int
    first: dt.datetime | None
    last: dt.datetime | None
    undated: int


@dataclass(frozen=True)
class Provenance:
    """Where a warehouse's numbers come from: the paipu version writing the report, the manifest's files by
    status and by detected format, the versions that read them, and the stored games by source."""

    version: str
    files_by_status: list[tuple[str, int]]
    files_by_format: list[tuple[str, str, int]]
    reader_versions: list[str]
    sources: list[SourceCount]

    @property
    def n_games(self) -> int:
        """Games stored."""
        return sum(s.games for s in self.sources)

    @property
    def n_rounds(self) -> int:
        """Rounds stored."""
        return sum(s.rounds for s in self.sources)

    @property
    def n_files(self) -> int:
        """Input files in the manifest, every status."""
        return sum(n for _, n in self.files_by_status)

    @property
    def first_game(self) -> dt.datetime | None:
        """Start time of the earliest dated game (None when no game has a date)."""
        return min((s.first for s in self.sources if s.first), default=None)

    @property
    def last_game(self) -> dt.datetime | None:
        """Start time of the latest dated game (None when no game has a date)."""
        return max((s.last for s in self.sources if s.last), default=None)

    @property
    def undated(self) -> int:
        """Games without a start time (no log id to read it from)."""
        return sum(s.undated for s in self.sources)


def provenance(con: duckdb.DuckDBPyConnection) -> Provenance:
    """Return the provenance of the warehouse behind ``con`` (see Provenance)."""
    files_by_status = con.execute(
        "select status, count(*) from manifest group by status order by count(*) desc, status"
    ).fetchall()
    files_by_format = con.execute(
        "select coalesce(format, '(none)'), status, count(*) from manifest group by all order by 1, 3 desc, 2"
    ).fetchall()
    versions = con.execute("select distinct paipu_version from manifest order by 1").fetchall()
    sources = con.execute(
        "select g.source, count(*), coalesce(sum(r.n), 0), min(g.started_at), max(g.started_at), "
        "count(*) filter (where g.started_at is null) "
        "from games as g left join (select game_id, count(*) as n from rounds group by game_id) as r using (game_id) "
        "group by g.source order by g.source"
    ).fetchall()
    return Provenance(
        version=__version__,
        files_by_status=[(status, int(n)) for status, n in files_by_status],
        files_by_format=[(fmt, status, int(n)) for fmt, status, n in files_by_format],
        reader_versions=[str(v) for (v,) in versions if v is not None],
        sources=[SourceCount(s, int(g), int(r), first, last, int(u)) for s, g, r, first, last, u in sources],
    )


def input_files(con: duckdb.DuckDBPyConnection, status: str, limit: int = MAX_FILES_LISTED) -> list[tuple]:
    """Return the manifest's files of one status, by path, at most ``limit``: (path, format, reason, error,
    n_games) each."""
    sql = "select path, format, reason, error, n_games from manifest where status = $status order by path limit $limit"
    return con.execute(sql, {"status": status, "limit": limit}).fetchall()


def date_range(first: dt.datetime | None, last: dt.datetime | None) -> str:
    """'2009-03-01 to 2022-06-02' (one date when both are the same day); 'no dated games' when there is none."""
    if first is None or last is None:
        return "no dated games"
    a, b = first.date().isoformat(), last.date().isoformat()
    return a if a == b else f"{a} to {b}"


def chart_footnote(prov: Provenance) -> str:
    """The footnote every chart carries: the games it counts by source, their dates and the paipu version."""
    by_source = ", ".join(f"{s.source} {s.games:,}" for s in prov.sources)
    games = f"{prov.n_games:,} game{'' if prov.n_games == 1 else 's'}" + (f" ({by_source})" if by_source else "")
    dates = date_range(prov.first_game, prov.last_game)
    undated = f", {prov.undated:,} undated" if prov.undated and prov.first_game else ""
    played = f"played {dates}{undated}" if prov.first_game else dates
    return f"Data: {games}, {played}; paipu {prov.version}"
