"""The warehouse folder: one folder per table, hive-style partitions, deterministic part names.

Layout::

    <root>/<table>/source=<source>/year=<year|unknown>/part-<key>.parquet
    <root>/manifest/part-<batch>.parquet

``key`` hashes the copies in the part (each game's fingerprint and the file it was read from), so
reading the same files again replaces the same file instead of adding a second copy, and a copy of a
stored game read from another file never lands on the stored copy's part.
"""

from __future__ import annotations

import bisect
import hashlib
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.errors import WarehouseError
from pipeline.schema import DERIVED_TABLES, TABLES, arrow_schema, stored_schema, to_arrow
from pipeline.sources.base import ParsedGame, completeness_key
from pipeline.store import DEFAULT_WAREHOUSE  # noqa: F401 - its home is the light package (the CLI's options)
from pipeline.store.game_tables import GameTables
from pipeline.store.layout import stored_rows
from pipeline.store.parquet import read_part, write_parquet_atomic
from pipeline.store.transaction import Transaction


def _column_range(metadata: pq.FileMetaData, column: str) -> tuple[str, str] | None:
    """The least and greatest value of a column over a Parquet file's row groups, from their statistics; None when
    a row group has none (the file must then be read to know)."""
    index = metadata.schema.names.index(column)
    lows, highs = [], []
    for group in range(metadata.num_row_groups):
        statistics = metadata.row_group(group).column(index).statistics
        if statistics is None or not statistics.has_min_max:
            return None
        lows.append(statistics.min)
        highs.append(statistics.max)
    return (min(lows), max(highs)) if lows else None


def _takes_in(bounds: tuple[str, str] | None, wanted: list[str]) -> bool:
    """Whether some value of ``wanted`` (sorted) lies within ``bounds`` (unknown bounds take in everything)."""
    if bounds is None:
        return True
    first = bisect.bisect_left(wanted, bounds[0])
    return first < len(wanted) and wanted[first] <= bounds[1]


@dataclass(frozen=True, slots=True)
class StoredGame:
    """What the warehouse holds of a game: id, the file its copy came from, how complete the copy is
    (see sources.base.completeness_key) and the games part file holding it."""

    game_id: str
    source_file: str
    completeness: tuple[int, int, int, int, int]
    part: Path


STORED_COLUMNS = ["fingerprint", "game_id", "source_file", "is_complete", "n_rounds", "is_server_log", "source"]
"""The games columns a StoredGame is made of (with the fingerprint it is known by)."""


def stored_games_of(rows: pa.Table, part: Path) -> dict[str, StoredGame]:
    """Fingerprint -> StoredGame of games rows (STORED_COLUMNS) read from the games part ``part``."""
    stored = {}
    for r in rows.to_pylist():
        key = completeness_key(r["is_complete"], r["n_rounds"], r["is_server_log"], r["source"], r["game_id"])
        stored[r["fingerprint"]] = StoredGame(r["game_id"], r["source_file"], key, part)
    return stored


def part_of(game: ParsedGame) -> tuple[str, str]:
    """The (source, year) of the games part write_games stages a game in (year 'unknown' when the game has none)."""
    year = game.tables["games"]["year"][0]
    return game.source, str(year) if year else "unknown"


def write_order(game: ParsedGame) -> tuple[str, str, str]:
    """Where write_games puts a game's rows: by part, then by game id. A batch converted in this order
    (GameTables) hands each part its rows as one slice instead of a copy gathered row by row."""
    return (*part_of(game), game.game_id)


class Warehouse:
    """A warehouse folder; creates nothing until something is written."""

    def __init__(self, root: Path | str = DEFAULT_WAREHOUSE) -> None:
        self.root = Path(root)
        self._path_ranges: dict[Path, tuple[tuple[int, int, int], tuple[str, str] | None]] = {}
        """Manifest part -> ((inode, mtime_ns, size), its least and greatest path): each version's footer read once
        (a rewritten part is a new file: published by a rename)."""

    def table_files(self, table: str) -> list[Path]:
        """Return the Parquet part files of a table, sorted (no temp files)."""
        folder = self.root / table
        return sorted(folder.rglob("*.parquet")) if folder.is_dir() else []

    def exists(self) -> bool:
        """Whether anything was ever written here."""
        return bool(self.manifest_parts())

    # --- games --------------------------------------------------------------------------------
    def stored_games(self) -> dict[str, StoredGame]:
        """Return fingerprint -> StoredGame for every game in the warehouse."""
        stored: dict[str, StoredGame] = {}
        for part in self.table_files("games"):
            stored.update(stored_games_of(read_part(part, STORED_COLUMNS), part))
        return stored

    def write_games(
        self,
        games: list[ParsedGame],
        txn: Transaction,
        written_tables: dict[Path, dict[str, pa.Table]] | None = None,
        batch: GameTables | None = None,
    ) -> dict[str, StoredGame]:
        """Stage the games' rows of every fact table in ``txn``, one part per (source, year).

        Returns fingerprint -> StoredGame of the games written (``part``: where the games part will be
        once the transaction is committed). ``written_tables``, when given, receives each part's Arrow
        tables by the part's path relative to a table folder (for deriving them without reading them back).
        ``batch``, when given, holds the games' tables already converted (else they are converted here).
        """
        groups: dict[tuple[str, str], list[ParsedGame]] = {}
        for game in games:
            groups.setdefault(part_of(game), []).append(game)
        written: dict[str, StoredGame] = {}
        for (source, year), members in sorted(groups.items()):
            # a part is named by its copies (game and file): a later copy of a game from another file never
            # lands on the stored copy's part, and re-reading the same files replaces their own part
            copies = sorted(f"{g.fingerprint}:{g.source_file}" for g in members)
            key = hashlib.blake2b("|".join(copies).encode(), digest_size=8)
            relative = Path(f"source={source}") / f"year={year}" / f"part-{key.hexdigest()}.parquet"
            members.sort(key=lambda g: g.game_id)  # parts in game order: the derivation reads them as stored
            # the game ids and actions stay dictionary-encoded for the derivation, cast to strings when written;
            # events in their stored layout, written and derived alike
            tables = {t: stored_rows(t, rows) for t, rows in (batch or GameTables(members)).of(members).items()}
            for table, arrow in tables.items():
                if arrow.num_rows:
                    write_parquet_atomic(arrow.cast(stored_schema(table)), txn.staged(Path(table) / relative))
            if written_tables is not None:
                written_tables[relative] = tables
            part = self.root / "games" / relative
            for g in members:
                written[g.fingerprint] = StoredGame(g.game_id, g.source_file, g.completeness(), part)
        return written

    def remove_games(self, games: list[StoredGame], txn: Transaction) -> None:
        """Stage in ``txn`` the deletion of stored games (the rows of every table, fact and derived): each
        part holding them is rewritten without them (a part left empty is deleted).

        A part the transaction already stages anew is rewritten from its staged copy.
        """
        by_part: dict[Path, set[str]] = {}
        for game in games:
            by_part.setdefault(game.part.relative_to(self.root / "games"), set()).add(game.game_id)
        for relative, game_ids in by_part.items():
            for table in (*TABLES, *DERIVED_TABLES):
                current = txn.current(Path(table) / relative)
                if current is None:
                    continue
                try:
                    rows = pq.read_table(current, partitioning=None)
                except (OSError, pa.ArrowInvalid) as exc:
                    raise WarehouseError(f"cannot read {current}: {exc}") from None
                kept = rows.filter(pc.invert(pc.is_in(rows["game_id"], pa.array(sorted(game_ids)))))
                if kept.num_rows:
                    write_parquet_atomic(kept, txn.staged(Path(table) / relative))
                else:
                    txn.delete(Path(table) / relative)

    # --- manifest -----------------------------------------------------------------------------
    # One part per committed batch (manifest/part-<batch>.parquet; an older warehouse's single
    # manifest.parquet is one more part): a batch writes its own rows and rewrites only the parts
    # holding paths it reads again, so committing costs the batch's size, not the archive's.
    @property
    def manifest_folder(self) -> Path:
        """Folder of the manifest's parts."""
        return self.root / "manifest"

    def manifest_parts(self) -> list[Path]:
        """The manifest's part files, sorted."""
        return sorted(self.manifest_folder.glob("*.parquet")) if self.manifest_folder.is_dir() else []

    def read_manifest(self, columns: list[str] | None = None) -> pa.Table:
        """Return the manifest (all parts, sorted by path; only ``columns`` when given), empty with the
        declared schema when there is none."""
        schema = arrow_schema("manifest")
        if columns is not None:
            schema = pa.schema([schema.field(c) for c in columns])
        tables = [self._read_manifest_part(part, schema) for part in self.manifest_parts()]
        if not tables:
            return schema.empty_table()
        return pa.concat_tables(tables).sort_by("path")

    @staticmethod
    def _read_manifest_part(part: Path, schema: pa.Schema) -> pa.Table:
        try:
            return pq.read_table(part, schema=schema, columns=schema.names)
        except (OSError, pa.ArrowInvalid) as exc:
            raise WarehouseError(f"cannot read the manifest part {part}: {exc}") from None

    def manifest_rows(self, paths: set[str]) -> list[dict]:
        """Return the manifest rows of the given paths, as dicts (reading only the parts holding them)."""
        wanted = pa.array(sorted(paths), pa.string())
        rows: list[dict] = []
        for part in self._parts_holding(wanted):
            table = self._read_manifest_part(part, arrow_schema("manifest"))
            rows.extend(table.filter(pc.is_in(table["path"], wanted)).to_pylist())
        return sorted(rows, key=lambda row: row["path"])

    def _parts_holding(self, paths: pa.Array) -> list[Path]:
        """The manifest parts holding some of ``paths``: the path column read of the parts whose range of paths
        (their footer's statistics) takes in one of them, nothing else."""
        if not len(paths):
            return []
        wanted = sorted(paths.to_pylist())
        path_only = pa.schema([arrow_schema("manifest").field("path")])
        return [
            part
            for part in self.manifest_parts()
            if _takes_in(self._path_range(part), wanted)
            and pc.any(pc.is_in(self._read_manifest_part(part, path_only)["path"], paths)).as_py()
        ]

    def _path_range(self, part: Path) -> tuple[str, str] | None:
        """The least and greatest path of a manifest part from its footer (None when it records none), read again
        only when the file was replaced or changed."""
        try:
            status = part.stat()
            version = (status.st_ino, status.st_mtime_ns, status.st_size)
            cached = self._path_ranges.get(part)
            if cached is None or cached[0] != version:
                cached = self._path_ranges[part] = (version, _column_range(pq.read_metadata(part), "path"))
        except (OSError, pa.ArrowInvalid) as exc:
            raise WarehouseError(f"cannot read the manifest part {part}: {exc}") from None
        return cached[1]

    def upsert_manifest(self, rows: dict[str, list], txn: Transaction, new_paths_only: bool = False) -> None:
        """Stage in ``txn`` the manifest rows ``rows`` (per-column lists) as the part of this batch, and the
        parts holding earlier rows of the same paths rewritten without them. ``new_paths_only``: the caller
        knows none of the paths is in the manifest yet (the parts are then not looked into)."""
        new = to_arrow("manifest", rows)
        paths = pa.array(rows["path"], pa.string())
        for part in [] if new_paths_only else self._parts_holding(paths):
            old = self._read_manifest_part(part, arrow_schema("manifest"))
            kept = old.filter(pc.invert(pc.is_in(old["path"], paths)))
            relative = part.relative_to(self.root)
            if kept.num_rows:
                write_parquet_atomic(kept, txn.staged(relative))
            else:
                txn.delete(relative)
        if new.num_rows:
            write_parquet_atomic(new.sort_by("path"), txn.staged(Path("manifest") / f"part-{txn.name}.parquet"))
