"""mjai tile names and the 136-ids this parser gives them.

mjai names kinds: "1m".."9m", "1p".."9p", "1s".."9s", "E" "S" "W" "N" (winds), "P" (haku), "F" (hatsu),
"C" (chun), red fives "5mr" "5pr" "5sr", and "?" for a tile the log does not show. Like the tenhou.net/6
parser, the copies of a kind are numbered in the order the tiles enter the round: a red five is copy 0
(136-ids 16, 52, 88) when red fives are in play, the plain copies take the other numbers.
"""

from __future__ import annotations

from pipeline.errors import ParseError, UnknownCodeError
from pipeline.sources.tile_copies import RED_FIVE_KINDS, CopyAllocator, is_copy_of, take_copy

UNKNOWN = "?"
"""The name mjai writes for a hidden tile."""

RED_IDS = frozenset({16, 52, 88})
"""136-ids of the red fives (copy 0 of 5m, 5p, 5s)."""

HONORS = {"E": 27, "S": 28, "W": 29, "N": 30, "P": 31, "F": 32, "C": 33}
"""mjai honor letter -> 34-kind (winds East..North, then haku, hatsu, chun)."""


KINDS: dict[str, tuple[int, bool]] = {
    **{f"{n}{suit}": (base + n - 1, False) for suit, base in (("m", 0), ("p", 9), ("s", 18)) for n in range(1, 10)},
    **{f"5{suit}r": (kind, True) for suit, kind in (("m", 4), ("p", 13), ("s", 22))},
    **{letter: (kind, False) for letter, kind in HONORS.items()},
}
"""Every mjai tile name -> (34-kind, is_red)."""


def tile_kind(name: object) -> tuple[int, bool]:
    """Return (34-kind, is_red) of an mjai tile name such as '3m', '5pr' or 'C'.

    Raises UnknownCodeError for a string that is not a tile name, ParseError for a non-string and
    for '?' (callers check for hidden tiles first).
    """
    found = KINDS.get(name) if isinstance(name, str) else None
    if found is not None:
        return found
    if not isinstance(name, str):
        raise ParseError(f"tile {name!r} is not a tile name")
    if name == UNKNOWN:
        raise ParseError("hidden tile '?' where the log must show the tile")
    raise UnknownCodeError(f"unknown tile name {name!r}")


def is_red_name(name: object) -> bool:
    """Whether a value is the name of a red five ('5mr', '5pr', '5sr')."""
    return isinstance(name, str) and len(name) == 3 and name[0] == "5" and name[2] == "r" and name[1] in "mps"


def matches(tile: int, name: str, has_red_fives: bool) -> bool:
    """Whether a 136-id is a tile of this mjai name (a red five and a plain five differ when in play)."""
    return is_copy_of(tile, *tile_kind(name), has_red_fives)


_COPIES = {(split, red): ((0,) if red else (1, 2, 3)) if split else (0, 1, 2, 3) for split in (0, 1) for red in (0, 1)}
"""(the kind has a red copy in play, the tile is red) -> the copies it may take, in order (CopyAllocator)."""


class IdAllocator(CopyAllocator):
    """Hands out unused 136-ids of a round per mjai tile name (see the module docstring)."""

    def new(self, name: str) -> int:
        """Return an unused id of the named tile; raises ParseError when all its copies are out."""
        return self.allocate(*tile_kind(name), name)

    def deal(self, names: list[str]) -> list[int]:
        """``[self.new(name) for name in names]``, with the same errors, faster (a deal is 13 names a kyoku)."""
        try:
            kinds = [KINDS[name] for name in names]
        except (KeyError, TypeError):
            return [self.new(name) for name in names]  # raises the name's error
        used, split_rule, out = self.used, self.has_red_fives, []
        for name, (kind, red) in zip(names, kinds, strict=True):
            mask = used[kind]
            for copy in _COPIES[split_rule and kind in RED_FIVE_KINDS, red]:
                if not mask & (1 << copy):
                    used[kind] = mask | (1 << copy)
                    out.append(kind * 4 + copy)
                    break
            else:
                raise ParseError(f"more copies of tile {name!r} than the set holds")
        return out


def take(held: list[int], name: str, has_red_fives: bool, prefer: int = -1, avoid: int = -1) -> int:
    """Remove and return a held id of the named tile: ``prefer`` when it is one, else a copy other than
    ``avoid`` when there is one (a hand-discard keeps the drawn copy), else any. Raises ParseError when
    the seat holds no such tile."""
    kind, red = tile_kind(name)
    vouched = prefer if prefer >= 0 and is_copy_of(prefer, kind, red, has_red_fives) else -1
    return take_copy(held, kind, red, has_red_fives, vouched, avoid, repr(name))
