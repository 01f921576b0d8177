"""Tile ids and MPSZ strings for the scenario builder.

Tiles are Tenhou 136-ids: ``id // 4`` is the kind (0-8 man, 9-17 pin, 18-26 sou, 27-33 E S W N haku hatsu
chun) and ``id % 4`` the copy. With red fives on, copy 0 of each five (16, 52, 88) is the red one and is
written ``0m/0p/0s`` in MPSZ.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from pipeline.errors import PaipuError

RED_FIVES: frozenset[int] = frozenset({16, 52, 88})
"""136-ids of the red fives (copy 0 of 5m, 5p, 5s) in games whose GO type has red fives."""

SANMA_MISSING_KINDS: frozenset[int] = frozenset(range(1, 8))
"""34-kinds (2m-8m) that three-player games play without."""

NORTH_KIND = 30
"""34-kind of the North wind, the tile a sanma player pulls out as kita."""

TileLike = int | str
"""One tile: a 136-id, or one MPSZ tile such as ``"5m"``, ``"0p"`` (red five) or ``"7z"``."""

TilesLike = str | Sequence[int]
"""Several tiles: an MPSZ string (``"123m456p11z"``) or a sequence of 136-ids."""


class ScenarioError(PaipuError, ValueError):
    """A scenario asked for something impossible or illegal (tile reuse, wrong turn, bad hand...)."""


def parse_mpsz(text: str) -> list[tuple[int, bool]]:
    """Parse an MPSZ string into ``(kind34, is_red)`` pairs, in the order written."""
    out: list[tuple[int, bool]] = []
    digits: list[int] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits.append(int(ch))
            continue
        if ch not in "mpsz" or not digits:
            raise ScenarioError(f"bad MPSZ string {text!r} at {ch!r}")
        suit = "mpsz".index(ch)
        for d in digits:
            if suit == 3 and not 1 <= d <= 7:
                raise ScenarioError(f"bad honor {d}z in {text!r}")
            if suit < 3 and d == 0:
                out.append((suit * 9 + 4, True))
            elif d == 0:
                raise ScenarioError(f"0z is not a tile in {text!r}")
            else:
                out.append((suit * 9 + d - 1, False))
        digits = []
    if digits:
        raise ScenarioError(f"MPSZ string {text!r} ends without a suit letter")
    return out


def tile_name(tile: int, red: bool = True) -> str:
    """MPSZ name of a 136-id (``"0m"`` for a red five when ``red``)."""
    kind = tile // 4
    if red and tile in RED_FIVES:
        return "0" + "mps"[kind // 9]
    return f"{kind % 9 + 1}{'mpsz'[kind // 9]}"


def tiles_to_mpsz(tiles: Iterable[int], red: bool = True) -> str:
    """Compact MPSZ string of 136-ids, sorted (``"123m0p55z"``)."""
    groups: dict[str, list[str]] = {s: [] for s in "mpsz"}
    for t in sorted(tiles):
        name = tile_name(t, red)
        groups[name[1]].append(name[0])
    return "".join("".join(ds) + s for s, ds in groups.items() if ds)


class TilePool:
    """The 136-ids of one round: which are in use, and which copy to hand out for a kind."""

    def __init__(self, red: bool, sanma: bool, rng: random.Random) -> None:
        self.red = red
        self.sanma = sanma
        self.used: set[int] = set()
        self._order = [t for t in range(136) if self.exists(t)]
        rng.shuffle(self._order)

    def exists(self, tile: int) -> bool:
        """Whether the 136-id is a tile of this game (sanma has no 2m-8m)."""
        return 0 <= tile < 136 and not (self.sanma and tile // 4 in SANMA_MISSING_KINDS)

    def is_red(self, tile: int) -> bool:
        """Whether the 136-id is a red five in this game."""
        return self.red and tile in RED_FIVES

    def claim(self, tile: int) -> int:
        """Mark an explicit 136-id as used; raise if it is not a tile of the game or already used."""
        if not self.exists(tile):
            raise ScenarioError(f"tile id {tile} is not a tile of this game")
        if tile in self.used:
            raise ScenarioError(f"tile {tile} ({tile_name(tile, self.red)}) is used twice in this round")
        self.used.add(tile)
        return tile

    def take_kind(self, kind: int, red: bool) -> int:
        """Claim a free copy of a kind (the red five only when ``red``)."""
        if self.sanma and kind in SANMA_MISSING_KINDS:
            raise ScenarioError(f"{kind + 1}m is not played in three-player games")
        if red and not (self.red and kind in (4, 13, 22)):
            raise ScenarioError("red fives are not played in this game (GO type bit 0x02)")
        copies = [0] if red else ([1, 2, 3] if self.red and kind in (4, 13, 22) else [0, 1, 2, 3])
        for c in copies:
            if kind * 4 + c not in self.used:
                return self.claim(kind * 4 + c)
        name = tile_name(kind * 4 + copies[0], self.red)
        raise ScenarioError(f"no free copy of {name} left in this round (all are in use)")

    def take(self, spec: TileLike) -> int:
        """Claim one tile given as a 136-id or one MPSZ tile."""
        if isinstance(spec, int):
            return self.claim(spec)
        parsed = parse_mpsz(spec)
        if len(parsed) != 1:
            raise ScenarioError(f"expected one tile, got {spec!r}")
        return self.take_kind(*parsed[0])

    def take_many(self, spec: TilesLike) -> list[int]:
        """Claim several tiles given as an MPSZ string or 136-ids."""
        if isinstance(spec, str):
            return [self.take_kind(kind, red) for kind, red in parse_mpsz(spec)]
        return [self.claim(int(t)) for t in spec]

    def take_any(self) -> int:
        """Claim the next free tile in this round's seeded order (an implicit wall)."""
        for t in self._order:
            if t not in self.used:
                return self.claim(t)
        raise ScenarioError("no free tile left in this round")


def find_held(hand: Sequence[int], spec: TileLike, pool: TilePool, prefer: int | None = None) -> int:
    """Pick the held 136-id that ``spec`` names (``prefer`` first, e.g. the tile just drawn)."""
    if isinstance(spec, int):
        if spec not in hand:
            raise ScenarioError(f"tile {spec} ({tile_name(spec, pool.red)}) is not in the hand")
        return spec
    parsed = parse_mpsz(spec)
    if len(parsed) != 1:
        raise ScenarioError(f"expected one tile, got {spec!r}")
    kind, red = parsed[0]
    cands = [t for t in hand if t // 4 == kind and (not pool.red or pool.is_red(t) == red)]
    if not cands:
        raise ScenarioError(f"the hand holds no {spec} ({tiles_to_mpsz(hand, pool.red)})")
    if prefer in cands:
        return prefer
    return max(cands)


def pick_held(hand: Sequence[int], spec: TilesLike | None, kind: int, count: int, pool: TilePool) -> list[int]:
    """Pick ``count`` held tiles of ``kind`` (non-red first) or exactly the ones ``spec`` names."""
    if spec is not None:
        specs: list[TileLike] = (
            list(spec)
            if not isinstance(spec, str)
            else [("0" if red else str(k % 9 + 1)) + "mpsz"[k // 9] for k, red in parse_mpsz(spec)]
        )
        picked: list[int] = []
        for s in specs:
            picked.append(find_held([t for t in hand if t not in picked], s, pool))
        return picked
    cands = sorted((t for t in hand if t // 4 == kind), key=lambda t: (pool.is_red(t), t))
    if len(cands) < count:
        raise ScenarioError(f"the hand holds {len(cands)} of {tile_name(kind * 4 + 1)}, needs {count}")
    return cands[:count]
