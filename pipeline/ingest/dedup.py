"""One stored copy per game: choose among the copies in a batch and the copy already stored.

Copies of a game share a content fingerprint (pipeline.identity: the first round's deal, whatever the format or
layout of the file). One best-copy rule, written once (``beats``): the copy with the higher completeness key
(the complete game, more rounds, as the server wrote it, the richer format, a log id: sources.base) wins, and
between equal keys the smaller file path, so the warehouse does not depend on the order of files, batches or
runs. Copies must agree on the rounds they share (identity.first_disagreement: wind, kyoku, honba, sticks, scores
before and after each): one that disagrees with the copy stored is a ``conflict``, naming it, never a
duplicate. A file read again (its content or paipu's version changed) replaces its own stored copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.compute as pc

from pipeline.identity import ROUND_DIGEST_FIELDS, first_disagreement, round_digests
from pipeline.sources.base import ParsedGame
from pipeline.store.parquet import read_part
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
    key: tuple[int, int, int, int, int]
    digests: tuple[int, ...] = ()
    """Its rounds' digests (identity.round_digests), in round order."""

    @classmethod
    def of(cls, game: ParsedGame, digests: tuple[int, ...]) -> GameCopy:
        """The copy record of a parsed game whose rounds' digests are ``digests`` (identity.round_digests)."""
        return cls(game.game_id, game.fingerprint, game.source, game.source_file, game.n_rounds, game.completeness(),
                   digests)  # fmt: skip

    def completeness(self) -> tuple[int, int, int, int, int]:
        """The sort key ranking copies of one game (sources.base.completeness_key)."""
        return self.key


Copy = ParsedGame | GameCopy | StoredGame
"""A game as deduplication sees it."""


def _key(copy: Copy) -> tuple[int, int, int, int, int]:
    return copy.completeness if isinstance(copy, StoredGame) else copy.completeness()


def beats(one: Copy, other: Copy) -> bool:
    """The best-copy rule: whether ``one`` is the better copy of a game than ``other`` (the higher completeness
    key; between equal keys the smaller file path)."""
    key_one, key_other = _key(one), _key(other)
    return key_one > key_other or (key_one == key_other and one.source_file < other.source_file)


def best_of(copies: list[Copy]) -> Copy:
    """The copy that beats every other of ``copies`` (not empty)."""
    best = copies[0]
    for copy in copies[1:]:
        if beats(copy, best):
            best = copy
    return best


def best_copies(games: list[Copy]) -> list[Copy]:
    """The copies of a batch that may be stored, in reading order: the best copy (``beats``) of each
    fingerprint; games without a complete round left out."""
    groups: dict[str, list[Copy]] = {}
    for game in games:
        if game.n_rounds:
            groups.setdefault(game.fingerprint, []).append(game)
    return [best_of(copies) for copies in groups.values()]


def stored_digests(stored: StoredGame) -> tuple[int, ...]:
    """The round digests of a stored copy, read from the rounds part beside its games part."""
    games_folder = next(p for p in stored.part.parents if p.name == "games")
    part = games_folder.parent / "rounds" / stored.part.relative_to(games_folder)
    rows = read_part(part, ["game_id", "round_idx", *ROUND_DIGEST_FIELDS, "hands_start"])
    rows = rows.filter(pc.equal(rows["game_id"], stored.game_id)).sort_by("round_idx")
    return tuple(round_digests(rows).tolist())


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
    """What a batch does to the warehouse: games to write, stored copies they replace, and the files of the
    replaced copies that disagree with their replacement (path -> the conflict's message)."""

    chosen: list[Copy] = field(default_factory=list)
    superseded: list[tuple[StoredGame, Copy]] = field(default_factory=list)
    conflicting: dict[str, str] = field(default_factory=dict)


PARTIAL = " (a partial copy with no complete round)"
"""Said of a duplicate whose copy had no complete round."""

CONFLICTING = "conflicting copy of game"
"""What the manifest error of a copy in conflict with the stored copy of its game says (conflict_message)."""


def conflict_message(path: str, round_idx: int, winner: Copy) -> str:
    """The manifest error of the copy read from ``path`` that disagrees, from round ``round_idx`` on, with the copy
    of its game that stays (``winner``)."""
    return (
        f"{path}: {CONFLICTING} {winner.game_id}: round {round_idx} differs from the copy stored from "
        f"{winner.source_file} (wind, kyoku, honba, sticks or scores)"
    )


class Deduplicator:
    """Chooses the copy to store of every game of a run's batches, against the warehouse's stored games (a
    StoredIndex, told of each batch's games once they are written)."""

    def __init__(self, index: StoredIndex) -> None:
        self.index = index
        self._stored: dict[str, StoredGame] = {}
        """Fingerprint -> stored copy, for the fingerprints of the batch being resolved."""
        self._owners: dict[str, tuple[str, str | None]] = {}
        """Game id -> (fingerprint, format) of the copy holding it: stored, or claimed in the batch being resolved."""
        self._winners: dict[str, Copy] = {}
        """Fingerprint -> the copy that stays after the batch being resolved (chosen from it, or stored)."""
        self._digests: dict[int, tuple[int, ...]] = {}
        """id(stored copy) -> its round digests, read once per batch when a copy is compared with it."""

    def resolve(self, results: list) -> Resolution:
        """Choose the copy to store of every game of a batch (``beats``); set each file result's status.

        ``results`` are ingest FileResults (path, status, error, games, game_ids, fingerprints).
        """
        games = [game for result in results for game in result.games]
        self._stored = self.index.by_fingerprint(game.fingerprint for game in games)
        self._owners = {
            game_id: (fingerprint, _source_of_part(stored.part))
            for game_id, (fingerprint, stored) in self.index.by_game_id(game.game_id for game in games).items()
        }
        self._winners, self._digests = {}, {}
        groups: dict[str, list[tuple[Copy, object]]] = {}
        for result in results:
            for game in result.games:
                groups.setdefault(game.fingerprint, []).append((game, result))
        resolution = Resolution()
        for fingerprint, members in groups.items():
            self._resolve_game(fingerprint, members, resolution)
        self._set_statuses(results, resolution)
        return resolution

    def _resolve_game(self, fingerprint: str, members: list[tuple[Copy, object]], resolution: Resolution) -> None:
        """Choose between a batch's copies of one game and its stored copy (a file read again replaces its own)."""
        candidates = [game for game, _ in members if game.n_rounds]
        best = best_of(candidates) if candidates else None
        old = self._stored.get(fingerprint)
        read_again = old is not None and old.source_file in {game.source_file for game, _ in members}
        if old is not None and not read_again and (best is None or not beats(best, old)):
            self._winners[fingerprint] = old  # the stored copy stays
            return
        if best is None:
            return
        result = next(r for game, r in members if game is best)
        if not self._claim_id(best, result):
            return
        if old is not None:
            resolution.superseded.append((old, best))
            differs = None if read_again else first_disagreement(self._digests_of(old), best.digests)
            if differs is not None:
                resolution.conflicting[old.source_file] = conflict_message(old.source_file, differs, best)
        resolution.chosen.append(best)
        self._winners[fingerprint] = best

    def _digests_of(self, copy: Copy) -> tuple[int, ...]:
        if not isinstance(copy, StoredGame):
            return copy.digests
        if id(copy) not in self._digests:
            self._digests[id(copy)] = stored_digests(copy)
        return self._digests[id(copy)]

    def record_written(self, stored: dict[str, StoredGame]) -> None:
        """Remember the copies just written (fingerprint -> StoredGame with its part file)."""
        self.index.add(stored)

    def _claim_id(self, game: Copy, result) -> bool:  # noqa: ANN001 - an ingest FileResult
        owner, other_source = self._owners.get(game.game_id, (None, None))
        if owner is not None and owner != game.fingerprint:
            # the same log id on another game's content (its first round differs): neither is a copy of the other
            copy = f" from its {other_source} copy" if other_source else ""
            stored = f"game id {game.game_id} is already stored{copy} with a different first round"
            result.found("game_id_taken", f"{game.source_file}: {stored}")
            return False
        self._owners[game.game_id] = (game.fingerprint, game.source)
        return True

    def _set_statuses(self, results: list, resolution: Resolution) -> None:
        """Tell every file of the batch what deduplication found of its games (a file is judged by its first
        game not stored: pipeline.ingest.status decides the status); record every file's ids."""
        chosen = {id(g) for g in resolution.chosen}
        for result in results:
            games, result.games = result.games, []
            for game in games:
                result.game_ids.append(game.game_id)
                result.fingerprints.append(game.fingerprint)
                if id(game) not in chosen and result.status == "ok":
                    result.found(*self._finding(game, result.path))

    def _finding(self, game: Copy, path: str) -> tuple[str, str]:
        """(reason code, message) of a copy read but not stored: no complete round in any copy, a disagreement
        with the copy that stays, or a duplicate of it (partial: without a complete round)."""
        winner = self._winners.get(game.fingerprint)
        if winner is None:
            return "no_complete_round", f"{path}: no complete round (the log ends before the first round's result)"
        differs = first_disagreement(game.digests, self._digests_of(winner))
        if differs is not None:
            return "round_disagrees", conflict_message(path, differs, winner)
        partial = PARTIAL if game.n_rounds == 0 else ""
        reason = "partial_copy" if partial else "copy_of_stored"
        return reason, f"same game as {winner.game_id}, stored from {winner.source_file}{partial}"


def _source_of_part(part: Path) -> str | None:
    """The format of a stored part, from its hive folder ``source=<format>`` (None when absent)."""
    for folder in part.parts:
        if folder.startswith("source="):
            return folder.removeprefix("source=")
    return None
