"""The warehouse folder: one folder per table, hive-style partitions, deterministic part names.

Layout::

    <root>/<table>/source=<source>/year=<year|unknown>/part-<key>.parquet
    <root>/manifest/manifest.parquet

``key`` hashes the fingerprints of the games in the part, so writing the same games again
replaces the same file instead of adding a second copy.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.errors import WarehouseError
from pipeline.schema import TABLES, arrow_schema, to_arrow
from pipeline.sources.base import ParsedGame, concat_buffers
from pipeline.store.parquet import write_parquet_atomic

DEFAULT_WAREHOUSE = Path("data/warehouse")
"""Default warehouse folder, relative to the working directory."""


@dataclass(frozen=True)
class StoredGame:
    """What the warehouse already holds of a game: its id and the file its copy came from."""

    game_id: str
    source_file: str


class Warehouse:
    """A warehouse folder; creates nothing until something is written."""

    def __init__(self, root: Path | str = DEFAULT_WAREHOUSE) -> None:
        self.root = Path(root)

    def table_files(self, table: str) -> list[Path]:
        """Return the Parquet part files of a table, sorted (no temp files)."""
        folder = self.root / table
        return sorted(folder.rglob("*.parquet")) if folder.is_dir() else []

    def exists(self) -> bool:
        """Whether anything was ever written here."""
        return (self.root / "manifest" / "manifest.parquet").is_file()

    # --- games --------------------------------------------------------------------------------
    def stored_games(self) -> dict[str, StoredGame]:
        """Return fingerprint -> StoredGame for every game in the warehouse."""
        files = self.table_files("games")
        if not files:
            return {}
        try:
            table = pq.read_table(files, columns=["fingerprint", "game_id", "source_file"], partitioning=None)
        except (OSError, pa.ArrowInvalid) as exc:
            raise WarehouseError(f"cannot read the games table in {self.root}: {exc}") from None
        return {
            fp: StoredGame(gid, src)
            for fp, gid, src in zip(
                table["fingerprint"].to_pylist(),
                table["game_id"].to_pylist(),
                table["source_file"].to_pylist(),
                strict=True,
            )
        }

    def write_games(self, games: list[ParsedGame]) -> list[Path]:
        """Write the games' rows of every fact table, one part per (source, year); return the parts."""
        groups: dict[tuple[str, str], list[ParsedGame]] = {}
        for game in games:
            year = game.tables["games"]["year"][0]
            groups.setdefault((game.source, str(year) if year else "unknown"), []).append(game)
        written: list[Path] = []
        for (source, year), members in sorted(groups.items()):
            key = hashlib.blake2b("|".join(sorted(g.fingerprint for g in members)).encode(), digest_size=8)
            for table in TABLES:
                arrow = to_arrow(table, concat_buffers(members, table))
                if arrow.num_rows == 0:
                    continue
                path = self.root / table / f"source={source}" / f"year={year}" / f"part-{key.hexdigest()}.parquet"
                write_parquet_atomic(arrow, path)
                written.append(path)
        return written

    # --- manifest -----------------------------------------------------------------------------
    @property
    def manifest_path(self) -> Path:
        """Path of the manifest file."""
        return self.root / "manifest" / "manifest.parquet"

    def read_manifest(self) -> pa.Table:
        """Return the manifest (empty with the declared schema when there is none)."""
        if not self.manifest_path.is_file():
            return arrow_schema("manifest").empty_table()
        try:
            return pq.read_table(self.manifest_path, schema=arrow_schema("manifest"))
        except (OSError, pa.ArrowInvalid) as exc:
            raise WarehouseError(f"cannot read the manifest {self.manifest_path}: {exc}") from None

    def upsert_manifest(self, rows: dict[str, list]) -> None:
        """Replace the manifest rows of the given paths with ``rows`` (per-column lists), atomically."""
        new = to_arrow("manifest", rows)
        old = self.read_manifest()
        if old.num_rows:
            keep = [p not in set(rows["path"]) for p in old["path"].to_pylist()]
            new = pa.concat_tables([old.filter(pa.array(keep)), new])
        write_parquet_atomic(new.sort_by("path"), self.manifest_path)
