"""136-ids for formats that name tile kinds (and red fives), not which of the four copies moved.

tenhou.net/6 JSON, mjai and Mahjong Soul records write '5m' or a red '0m'/'5mr'/51: each format's reader
numbers the copies itself, in the order tiles enter a round. A red five is copy 0 of its kind (16, 52, 88)
when red fives are in play; the plain copies take the other numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.errors import ParseError

RED_FIVE_KINDS = frozenset({4, 13, 22})
"""34-kinds of 5m, 5p, 5s: the kinds with a red copy."""


def is_copy_of(tile: int, kind: int, red: bool, has_red_fives: bool) -> bool:
    """Whether a 136-id is a copy of this tile (a red five and a plain five differ when red fives are in play)."""
    if tile // 4 != kind:
        return False
    return not has_red_fives or kind not in RED_FIVE_KINDS or (tile % 4 == 0) == red


def take_copy(
    held: list[int], kind: int, red: bool, has_red_fives: bool, prefer: int = -1, avoid: int = -1, what: str = ""
) -> int:
    """Remove and return from a seat's held 136-ids a copy of the tile (kind, red): ``prefer`` when it is held
    (the caller vouches that it is the tile), else a copy other than ``avoid`` when there is one (a discard from
    the hand keeps the drawn copy), else any. Raises ParseError naming the tile (``what``) when none is held."""
    if prefer >= 0 and prefer in held:
        held.remove(prefer)
        return prefer
    found = [t for t in held if is_copy_of(t, kind, red, has_red_fives)]
    if not found:
        raise ParseError(f"a seat gives tile {what} it does not hold")
    tile = next((t for t in found if t != avoid), found[0])
    held.remove(tile)
    return tile


@dataclass
class CopyAllocator:
    """Hands out unused 136-ids of one round per kind (see the module docstring)."""

    has_red_fives: bool
    used: list[int] = field(default_factory=lambda: [0] * 34)
    """Per 34-kind the bit mask of the copies handed out (the compiled readers' layout: their array's tolist)."""

    def allocate(self, kind: int, red: bool, label: object) -> int:
        """Return an unused id of the tile (``label``: as the log writes it, for the error); raises ParseError
        when all its copies are out."""
        split = self.has_red_fives and kind in RED_FIVE_KINDS
        copies = ([0] if red else [1, 2, 3]) if split else [0, 1, 2, 3]
        mask = self.used[kind]
        for copy in copies:
            if not mask & (1 << copy):
                self.used[kind] = mask | (1 << copy)
                return kind * 4 + copy
        raise ParseError(f"more copies of tile {label!r} than the set holds")
