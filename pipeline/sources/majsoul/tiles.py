"""136-ids for Mahjong Soul's tile strings, and the tiles each seat holds through a round.

Mahjong Soul names tile kinds ('5m') and red fives ('0m'), not which of the four copies moved. Copies
are numbered in the order tiles enter the round (the deal seat by seat, the first dora indicator, draws
and later indicators in record order, ura indicators last): a red five is copy 0 of its kind (16, 52, 88)
when red fives are in play, plain copies take the other numbers. A discard or call takes an id the seat
holds: a tsumogiri (``moqie``) discard the id just drawn, any other discard another copy when there is one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.errors import ParseError
from pipeline.sources.majsoul.codes import parse_tile
from pipeline.sources.tile_copies import CopyAllocator, is_copy_of


class TileIds(CopyAllocator):
    """Hands out 136-ids in one round per Mahjong Soul tile string (see the module docstring)."""

    def new(self, text: object) -> int:
        """Return an unused id of the tile string; raises ParseError when all its copies are out."""
        kind, red = parse_tile(text)
        if red and not self.has_red_fives:
            raise ParseError(f"red five {text!r} in a game without red fives")
        return self.allocate(kind, red, text)

    def is_tile(self, tile: int, text: object) -> bool:
        """Whether a 136-id is a tile of this string (a red five is its own tile when red fives are in play)."""
        return is_copy_of(tile, *parse_tile(text), self.has_red_fives)


@dataclass
class SeatTiles:
    """What one seat holds: closed tiles, melds in call order (with the seat each pon came from), kita."""

    held: list[int] = field(default_factory=list)
    melds: list[list[int]] = field(default_factory=list)
    pon_from: dict[int, int] = field(default_factory=dict)
    """34-kind of a pon -> the seat its tile came from (an added kan keeps it)."""
    n_kita: int = 0
    last_draw: int = -1
    """The id drawn last, until the seat's next discard, call or kan (-1: none)."""

    def take(self, ids: TileIds, text: object, prefer: int = -1) -> int:
        """Remove and return an id of the tile string: ``prefer`` when it is one, else another copy than the
        last draw when there is one. Raises ParseError when the seat holds no such tile."""
        if not self.held:
            raise ParseError(f"a seat gives tile {text!r} it does not hold")
        kind, red = parse_tile(text)  # raises for a string that is no tile, as ids.is_tile would
        if prefer in self.held and is_copy_of(prefer, kind, red, ids.has_red_fives):
            self.held.remove(prefer)
            return prefer
        matches = [t for t in self.held if is_copy_of(t, kind, red, ids.has_red_fives)]
        if not matches:
            raise ParseError(f"a seat gives tile {text!r} it does not hold")
        others = [t for t in matches if t != self.last_draw]
        tile = (others or matches)[0]
        self.held.remove(tile)
        return tile

    def upgrade_pon(self, added: int) -> tuple[list[int], int]:
        """Turn the pon of the added tile's kind into a kan (in place); return its ids and the pon's seat."""
        for i, meld in enumerate(self.melds):
            if len(meld) == 3 and meld[0] // 4 == meld[1] // 4 == added // 4:
                self.melds[i] = sorted([*meld, added])
                return self.melds[i], self.pon_from.pop(added // 4, -1)
        raise ParseError(f"added kan of tile id {added} without a pon of it")
