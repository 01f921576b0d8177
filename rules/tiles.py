"""Tile encodings shared by every layer.

Two encodings are used throughout paipu:

* ``tile`` (136-encoding): 0-135, four copies of each kind, ``tile // 4`` is the kind.
  The red fives are the copy 0 of each suit's five: 16 (0m), 52 (0p), 88 (0s).
* ``tile34`` (34-encoding): 0-8 man 1-9, 9-17 pin 1-9, 18-26 sou 1-9, 27-30 East South West North,
  31-33 haku hatsu chun.

Human-readable strings use MPSZ (``123m456p789s1234z``), where ``0`` is a red five.
"""

from __future__ import annotations

import re

import numpy as np

N_KINDS: int = 34
"""Number of tile kinds (34-encoding)."""

N_TILES: int = 136
"""Number of physical tiles (136-encoding)."""

RED_FIVES_136: tuple[int, int, int] = (16, 52, 88)
"""136-ids of the red fives (man, pin, sou), present when the rules use red fives."""

NORTH_34: int = 30
"""34-kind of the North wind (the sanma kita tile)."""

SUITS: str = "mpsz"

TERMINALS_HONORS_34: np.ndarray = np.array([0, 8, 9, 17, 18, 26, *range(27, 34)], dtype=np.int8)
"""34-kinds of the 13 terminal and honor tiles (kokushi / kyuushu kinds)."""

_MPSZ_GROUP = re.compile(r"([0-9]+)([mpsz])")


def tile34_of(tile136: np.ndarray | int) -> np.ndarray | int:
    """Return the 34-kind of 136-ids (array or scalar)."""
    return tile136 // 4


def is_red(tile136: np.ndarray | int, has_red_fives: bool = True) -> np.ndarray | bool:
    """Return whether 136-ids are red fives (always False when the rules have no red fives)."""
    if not has_red_fives:
        return np.zeros_like(tile136, dtype=bool) if isinstance(tile136, np.ndarray) else False
    if isinstance(tile136, np.ndarray):
        return np.isin(tile136, RED_FIVES_136)
    return tile136 in RED_FIVES_136


def tile34_to_str(kind: int, red: bool = False) -> str:
    """Return the MPSZ name of one 34-kind, e.g. 4 -> '5m', 31 -> '5z'; red fives as '0m'."""
    suit, number = divmod(int(kind), 9)
    return f"{0 if red else number + 1}{SUITS[suit]}"


def tiles136_to_mpsz(tiles: list[int] | np.ndarray, has_red_fives: bool = True) -> str:
    """Return a compact MPSZ string (suits grouped, sorted) for 136-ids, e.g. '123m0p55z'."""
    groups: dict[str, list[str]] = {s: [] for s in SUITS}
    for tile in sorted(int(t) for t in tiles):
        red = has_red_fives and tile in RED_FIVES_136
        name = tile34_to_str(tile // 4, red)
        groups[name[1]].append(name[0])
    return "".join("".join(digits) + suit for suit, digits in groups.items() if digits)


def mpsz_to_tile34(text: str) -> list[tuple[int, bool]]:
    """Parse an MPSZ string into a list of (34-kind, is_red) pairs in the order written.

    Raises ValueError on anything that is not MPSZ (e.g. '8z', '0z' or stray characters).
    """
    compact = text.replace(" ", "")
    if not compact or _MPSZ_GROUP.sub("", compact):
        raise ValueError(f"not an MPSZ tile string: {text!r}")
    out: list[tuple[int, bool]] = []
    for digits, suit in _MPSZ_GROUP.findall(compact):
        base = SUITS.index(suit) * 9
        for ch in digits:
            number = int(ch)
            if suit == "z" and not 1 <= number <= 7:
                raise ValueError(f"no honor tile {ch}z in {text!r}")
            red = number == 0
            out.append((base + (4 if red else number - 1), red))
    return out
