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
    """Keeps the fingerprint -> stored copy map of the warehouse across the batches of a run."""

    def __init__(self, stored: dict[str, StoredGame]) -> None:
        self.stored = stored
        self.ids = {s.game_id: fp for fp, s in stored.items()}
        self._claimed: dict[str, str] = {}
        """Fingerprint -> format of the copies claimed in the batch being resolved (not stored yet)."""

    def resolve(self, results: list) -> Resolution:
        """Choose the copy to store of every game of a batch; set each file result's status.

        ``results`` are ingest FileResults (path, status, error, games, game_ids, fingerprints).
        """
        self._claimed = {}
        best: dict[str, tuple[Copy, object]] = {}
        for result in results:
            for game in result.games:
                held = best.get(game.fingerprint)
                if game.n_rounds and (held is None or game.completeness() > held[0].completeness()):
                    best[game.fingerprint] = (game, result)
        resolution = Resolution()
        for fingerprint, (game, result) in best.items():
            old = self.stored.get(fingerprint)
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
        self.stored.update(stored)

    def _claim_id(self, game: Copy, result) -> bool:  # noqa: ANN001 - an ingest FileResult
        owner = self.ids.get(game.game_id)
        if owner is not None and owner != game.fingerprint:
            other_source = self._source_of(owner)
            if other_source is not None and other_source != game.source:
                # one game written in two formats (e.g. Tenhou's XML and its JSON): their fingerprints
                # cannot agree, the log id does; the copy claimed first stays
                result.status = "duplicate"
                result.error = f"same game as {game.game_id}, already stored from its {other_source} copy"
            else:
                result.status = "quarantined"
                result.error = f"{game.source_file}: game id {game.game_id} is already stored with different content"
            return False
        self.ids[game.game_id] = game.fingerprint
        self._claimed[game.fingerprint] = game.source
        return True

    def _source_of(self, fingerprint: str) -> str | None:
        """The format a copy was stored from (its part's source=... folder), or claimed from in this batch."""
        stored = self.stored.get(fingerprint)
        return _source_of_part(stored.part) if stored is not None else self._claimed.get(fingerprint)

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
                if kept is None and game.fingerprint in self.stored:
                    kept = (self.stored[game.fingerprint].game_id, self.stored[game.fingerprint].source_file)
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
