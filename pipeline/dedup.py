"""One stored copy per game: choose among the copies in a batch and the copy already stored.

Copies of a game share a fingerprint. The most complete copy wins (complete game, more rounds,
more events, a file name carrying the log id); on a tie the copy read first stays (files are read
in sorted order), so the result does not depend on how the files were split into batches or runs.
A file read again (its content or paipu's version changed) replaces its own stored copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pipeline.sources.base import ParsedGame
from pipeline.store.stored_index import StoredIndex
from pipeline.store.warehouse import StoredGame


@dataclass(frozen=True)
class GameCopy:
    """What deduplication needs of a game read (its rows stay behind, staged): identity and completeness."""

    game_id: str
    fingerprint: str
    source: str
    source_file: str
    n_rounds: int
    key: tuple[int, int, int, int]

    @classmethod
    def of(cls, game: ParsedGame) -> GameCopy:
        """The copy record of a parsed game."""
        return cls(game.game_id, game.fingerprint, game.source, game.source_file, game.n_rounds, game.completeness())

    def completeness(self) -> tuple[int, int, int, int]:
        """The sort key ranking copies of one game (sources.base.completeness_key)."""
        return self.key


Copy = ParsedGame | GameCopy
"""A game as deduplication sees it."""


def best_copies(games: list[Copy]) -> list[Copy]:
    """The copies of a batch that may be stored, in reading order: the most complete copy of each
    fingerprint (the first read on a tie); games without a complete round left out."""
    best: dict[str, Copy] = {}
    for game in games:
        held = best.get(game.fingerprint)
        if game.n_rounds and (held is None or game.completeness() > held.completeness()):
            best[game.fingerprint] = game
    return list(best.values())


def id_layers(games: list[Copy]) -> list[list[Copy]]:
    """Split copies into layers holding each game id at most once (the first copy of an id in the first
    layer, the second in the second, ...): parts written layer by layer never hold one id twice, so a copy
    can be removed from its part by its id."""
    layers: list[list[Copy]] = []
    seen: dict[str, int] = {}
    for game in games:
        depth = seen.get(game.game_id, 0)
        seen[game.game_id] = depth + 1
        if depth == len(layers):
            layers.append([])
        layers[depth].append(game)
    return layers


@dataclass
class Resolution:
    """What a batch does to the warehouse: games to write, stored copies they replace."""

    chosen: list[Copy] = field(default_factory=list)
    superseded: list[tuple[StoredGame, Copy]] = field(default_factory=list)


class Deduplicator:
    """Chooses the copy to store of every game of a run's batches, against the warehouse's stored games (a
    StoredIndex, told of each batch's games once they are written)."""

    def __init__(self, index: StoredIndex) -> None:
        self.index = index
        self._stored: dict[str, StoredGame] = {}
        """Fingerprint -> stored copy, for the fingerprints of the batch being resolved."""
        self._owners: dict[str, tuple[str, str | None]] = {}
        """Game id -> (fingerprint, format) of the copy holding it: stored, or claimed in the batch being resolved."""

    def resolve(self, results: list) -> Resolution:
        """Choose the copy to store of every game of a batch; set each file result's status.

        ``results`` are ingest FileResults (path, status, error, games, game_ids, fingerprints).
        """
        games = [game for result in results for game in result.games]
        self._stored = self.index.by_fingerprint(game.fingerprint for game in games)
        self._owners = {
            game_id: (fingerprint, _source_of_part(stored.part))
            for game_id, (fingerprint, stored) in self.index.by_game_id(game.game_id for game in games).items()
        }
        best: dict[str, tuple[Copy, object]] = {}
        for result in results:
            for game in result.games:
                held = best.get(game.fingerprint)
                if game.n_rounds and (held is None or game.completeness() > held[0].completeness()):
                    best[game.fingerprint] = (game, result)
        resolution = Resolution()
        for fingerprint, (game, result) in best.items():
            old = self._stored.get(fingerprint)
            if old is not None and not (old.source_file == game.source_file or game.completeness() > old.completeness):
                continue
            if not self._claim_id(game, result):
                continue
            if old is not None:
                resolution.superseded.append((old, game))
            resolution.chosen.append(game)
        self._set_statuses(results, resolution, best)
        return resolution

    def record_written(self, stored: dict[str, StoredGame]) -> None:
        """Remember the copies just written (fingerprint -> StoredGame with its part file)."""
        self.index.add(stored)

    def _claim_id(self, game: Copy, result) -> bool:  # noqa: ANN001 - an ingest FileResult
        owner, other_source = self._owners.get(game.game_id, (None, None))
        if owner is not None and owner != game.fingerprint:
            if other_source is not None and other_source != game.source:
                # one game written in two formats (e.g. Tenhou's XML and its JSON): their fingerprints
                # cannot agree, the log id does; the copy claimed first stays
                result.status = "duplicate"
                result.error = f"same game as {game.game_id}, already stored from its {other_source} copy"
            else:
                result.status = "quarantined"
                result.error = f"{game.source_file}: game id {game.game_id} is already stored with different content"
            return False
        self._owners[game.game_id] = (game.fingerprint, game.source)
        return True

    def _set_statuses(self, results: list, resolution: Resolution, best: dict) -> None:
        chosen = {id(g): g for g in resolution.chosen}
        kept_by_fp = {g.fingerprint: (g.game_id, g.source_file) for g in resolution.chosen}
        for result in results:
            for game in result.games:
                result.game_ids.append(game.game_id)
                result.fingerprints.append(game.fingerprint)
                if id(game) in chosen or result.status != "ok":
                    continue
                kept = kept_by_fp.get(game.fingerprint)
                stored = self._stored.get(game.fingerprint)
                if kept is None and stored is not None:
                    kept = (stored.game_id, stored.source_file)
                if kept is None:
                    result.status = "quarantined"
                    result.error = f"{result.path}: no complete round (the log ends before the first round's result)"
                    continue
                partial = " (a partial copy with no complete round)" if game.n_rounds == 0 else ""
                result.status, result.error = "duplicate", f"same game as {kept[0]}, stored from {kept[1]}{partial}"
            result.games = []


def _source_of_part(part: Path) -> str | None:
    """The format of a stored part, from its hive folder ``source=<format>`` (None when absent)."""
    for folder in part.parts:
        if folder.startswith("source="):
            return folder.removeprefix("source=")
    return None
