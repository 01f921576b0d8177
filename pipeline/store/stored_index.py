"""Which games the warehouse holds, as an ingest run's deduplication asks it, in ~40 bytes a game.

A run checks every game it reads against every game stored (the same fingerprint: another copy of the game;
the same game id: the same game in another format, or an id clash). Keeping a record per stored game as
Python objects costs ~0.5 KB a game, half a gigabyte at a million games. This index keeps, per stored game,
only hashes of its fingerprint and game id with the games part holding it (sorted numpy arrays); a lookup that
hits reads the game's row back from that part, so a hash collision or an entry left behind by a game that
moved (a better copy replaced it, a part was rewritten) finds nothing there and is ignored. Hits are rare: a
duplicate, a file read again, one game in two formats.

Hashes are Python's ``hash`` of the strings: stable within the process that builds and asks the index.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.store.parquet import read_part
from pipeline.store.warehouse import STORED_COLUMNS, StoredGame, Warehouse, stored_games_of


@dataclass
class _HashedParts:
    """Sorted 64-bit hashes with the number of the part each came from (several entries may share a hash)."""

    hashes: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))
    parts: np.ndarray = field(default_factory=lambda: np.empty(0, np.int32))

    def add(self, hashes: np.ndarray, parts: np.ndarray) -> None:
        """Insert entries, keeping the hashes sorted."""
        order = np.argsort(hashes, kind="stable")  # new values sharing an insertion point go in sorted
        hashes, parts = hashes[order], parts[order]
        at = np.searchsorted(self.hashes, hashes)
        self.hashes = np.insert(self.hashes, at, hashes)
        self.parts = np.insert(self.parts, at, parts)

    def parts_of(self, hashes: np.ndarray) -> list[np.ndarray]:
        """For each hash, the parts of the entries that have it (usually none or one)."""
        lo = np.searchsorted(self.hashes, hashes, side="left")
        hi = np.searchsorted(self.hashes, hashes, side="right")
        return [self.parts[a:b] for a, b in zip(lo.tolist(), hi.tolist(), strict=True)]


def _hashes(values: Iterable[str]) -> np.ndarray:
    return np.fromiter((hash(v) for v in values), dtype=np.int64)


class StoredIndex:
    """The stored games of a warehouse by fingerprint and by game id (see the module docstring)."""

    def __init__(self) -> None:
        self._by_fingerprint = _HashedParts()
        self._by_game_id = _HashedParts()
        self._parts: list[Path] = []
        self._part_numbers: dict[Path, int] = {}

    @classmethod
    def of_warehouse(cls, warehouse: Warehouse) -> StoredIndex:
        """The index of every game stored in ``warehouse`` (its games parts' fingerprints and ids). Raises
        WarehouseError when a part cannot be read."""
        index = cls()
        for part in warehouse.table_files("games"):
            rows = read_part(part, ["fingerprint", "game_id"])
            index._add_part(part, rows["fingerprint"].to_pylist(), rows["game_id"].to_pylist())
        return index

    def add(self, games: Mapping[str, StoredGame]) -> None:
        """Record games just written (fingerprint -> StoredGame naming the part now holding it)."""
        by_part: dict[Path, tuple[list[str], list[str]]] = {}
        for fingerprint, game in games.items():
            fingerprints, game_ids = by_part.setdefault(game.part, ([], []))
            fingerprints.append(fingerprint)
            game_ids.append(game.game_id)
        for part, (fingerprints, game_ids) in by_part.items():
            self._add_part(part, fingerprints, game_ids)

    def by_fingerprint(self, fingerprints: Iterable[str]) -> dict[str, StoredGame]:
        """The stored copy of each of these fingerprints that is stored (the others are left out)."""
        found = self._rows(self._by_fingerprint, "fingerprint", set(fingerprints))
        return {fingerprint: game for fingerprint, game in found}

    def by_game_id(self, game_ids: Iterable[str]) -> dict[str, tuple[str, StoredGame]]:
        """For each of these game ids that is stored: (the fingerprint of its copy, its StoredGame)."""
        found = self._rows(self._by_game_id, "game_id", set(game_ids))
        return {game.game_id: (fingerprint, game) for fingerprint, game in found}

    def _add_part(self, part: Path, fingerprints: list[str], game_ids: list[str]) -> None:
        number = self._part_numbers.get(part)
        if number is None:
            number = self._part_numbers[part] = len(self._parts)
            self._parts.append(part)
        self._by_fingerprint.add(_hashes(fingerprints), np.full(len(fingerprints), number, np.int32))
        self._by_game_id.add(_hashes(game_ids), np.full(len(game_ids), number, np.int32))

    def _rows(self, hashed: _HashedParts, column: str, keys: set[str]) -> list[tuple[str, StoredGame]]:
        """(fingerprint, StoredGame) of the stored rows whose ``column`` is one of ``keys``, read from the parts
        that the keys' hashes point to."""
        if not keys:
            return []
        parts = {int(p) for found in hashed.parts_of(_hashes(keys)) for p in found.tolist()}
        wanted = pa.array(sorted(keys), pa.string())
        out = []
        for number in sorted(parts):
            part = self._parts[number]
            if not part.is_file():  # rewritten away (its games moved)
                continue
            rows = read_part(part, STORED_COLUMNS)
            out += stored_games_of(rows.filter(pc.is_in(rows[column], value_set=wanted)), part).items()
        return out
