"""The inputs of scoring: the winning hands' tiles (``Hands``) and what else decides their value
(``Context``), as arrays with one row per win. Codes shared by the scoring modules live here."""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from rules.tiles import mpsz_to_tile34

NO_MELD, CHI, PON, OPEN_KAN, CLOSED_KAN = 0, 1, 2, 3, 4
"""Meld type codes of called melds (``Hands.meld_type``); an added kan is an OPEN_KAN."""

MELD_TYPES = ("none", "chi", "pon", "open_kan", "closed_kan")
"""Meld type code -> name."""

REGULAR, CHIITOITSU, KOKUSHI = 0, 1, 2
"""Hand forms: four melds and a pair, seven pairs, thirteen orphans."""

FORMS = ("regular", "chiitoitsu", "kokushi")
"""Form code -> name."""

RYANMEN, SHANPON, KANCHAN, PENCHAN, TANKI, THIRTEEN_SIDED = 0, 1, 2, 3, 4, 5
"""Wait codes: how the winning tile completes the reading (THIRTEEN_SIDED: kokushi on all 13)."""

WAITS = ("ryanmen", "shanpon", "kanchan", "penchan", "tanki", "thirteen_sided")
"""Wait code -> name."""


@dataclass
class Hands:
    """Winning hands, one row per win (N rows).

    ``closed`` (N, 34) counts of the closed tiles, the winning tile included; ``win_tile`` (N,) its
    34-kind; ``meld_kind`` (N, 4) the lowest 34-kind of each called meld (-1: none) and
    ``meld_type`` (N, 4) its type code (NO_MELD, CHI, PON, OPEN_KAN, CLOSED_KAN), in any slot order;
    ``is_tsumo`` (N,) self-drawn.
    """

    closed: np.ndarray
    win_tile: np.ndarray
    meld_kind: np.ndarray
    meld_type: np.ndarray
    is_tsumo: np.ndarray

    def __len__(self) -> int:
        """Number of rows."""
        return len(self.win_tile)


@dataclass
class Context:
    """Everything but the tiles that decides a win's value, one row per win (N rows).

    Winds are 0-3 (East-North); ``has_kuitan``: open tanyao counts. Situational flags come from the
    event stream (rules.scoring.situation); ``n_dora`` counts dora and kita (sanma nuki dora),
    ``n_ura`` ura dora (only counted with riichi), ``n_aka`` red fives (rules.scoring.dora);
    ``has_double_yakuman`` the rule set's double yakuman (False: Tenhou's).
    """

    seat_wind: np.ndarray
    round_wind: np.ndarray
    has_kuitan: np.ndarray
    is_riichi: np.ndarray
    is_double_riichi: np.ndarray
    is_ippatsu: np.ndarray
    is_chankan: np.ndarray
    is_rinshan: np.ndarray
    is_haitei: np.ndarray
    is_houtei: np.ndarray
    is_tenhou: np.ndarray
    is_chiihou: np.ndarray
    n_dora: np.ndarray
    n_ura: np.ndarray
    n_aka: np.ndarray
    has_double_yakuman: np.ndarray
    """The game's rules count suuankou tanki, junsei chuuren, 13-sided kokushi and daisuushii twice (Mahjong
    Soul); Tenhou counts every yakuman once."""

    @classmethod
    def plain(cls, n: int, **values: np.ndarray | int | bool) -> Context:
        """A context of ``n`` wins: East seat, East round, kuitan, no situational yaku, no dora;
        any field given in ``values`` (an array or one value for all) replaces its default."""
        defaults: dict[str, np.ndarray] = {}
        for field in fields(cls):
            integer = field.name in ("seat_wind", "round_wind") or field.name.startswith("n_")
            value = values.get(field.name, field.name == "has_kuitan")
            defaults[field.name] = np.broadcast_to(np.asarray(value, dtype=np.int64 if integer else bool), (n,))
        unknown = set(values) - set(defaults)
        if unknown:
            raise ValueError(f"unknown context fields {sorted(unknown)}")
        return cls(**defaults)

    def take(self, rows: np.ndarray) -> Context:
        """The context of the wins at ``rows`` (e.g. one row per reading)."""
        return Context(**{f.name: np.asarray(getattr(self, f.name))[rows] for f in fields(self)})


def all_tile_counts(hands: Hands) -> np.ndarray:
    """(N, 34) int8 counts of every tile of each hand: the closed tiles and the called melds' tiles (a kan four)."""
    kinds = np.asarray(hands.meld_kind, dtype=np.int64)
    types = np.asarray(hands.meld_type)
    rows = np.broadcast_to(np.arange(len(kinds))[:, None], kinds.shape)
    chi, called = types == CHI, types != NO_MELD
    # a chi adds one of each of its three kinds, a pon three of its kind, a kan four
    cells = [rows[chi] * 34 + kinds[chi] + offset for offset in range(3)] + [
        rows[called & ~chi] * 34 + kinds[called & ~chi]
    ]
    weights = [np.ones(int(chi.sum()))] * 3 + [np.where(types[called & ~chi] == PON, 3, 4)]
    added = np.bincount(np.concatenate(cells), np.concatenate(weights), minlength=len(kinds) * 34)
    return (np.asarray(hands.closed, dtype=np.int64) + added.reshape(-1, 34).astype(np.int64)).astype(np.int8)


def ron_hands(counts: np.ndarray, tile34: np.ndarray, meld_kind: np.ndarray, meld_type: np.ndarray) -> Hands:
    """Hands of rons on ``tile34`` (N,) by hands holding ``counts`` (N, 34) closed tiles before it and the called
    melds ``meld_kind``/``meld_type`` (N, 4) (e.g. from rules.scoring.situation.melds_before): what has_yaku asks
    about a tile a seat let go."""
    closed = np.array(counts, dtype=np.int8, copy=True)
    tile34 = np.asarray(tile34, dtype=np.int64)
    closed[np.arange(len(closed)), tile34] += 1
    return Hands(closed, tile34, np.asarray(meld_kind), np.asarray(meld_type), np.zeros(len(closed), dtype=bool))


def hand_of(closed: str, win: str, calls: tuple[str, ...] | list[str] = (), is_tsumo: bool = False) -> Hands:
    """One hand from MPSZ text (tests, notebooks): ``closed`` the closed tiles with the winning tile, ``win``
    the winning tile, ``calls`` e.g. ``("chi 123m", "pon 555p", "open_kan 7777z", "closed_kan 1111s")``.

    Raises ValueError on a tile string that is not MPSZ or an unknown meld type.
    """
    counts = np.zeros((1, 34), dtype=np.int8)
    for kind, _ in mpsz_to_tile34(closed):
        counts[0, kind] += 1
    meld_kind = np.full((1, 4), -1, dtype=np.int64)
    meld_type = np.zeros((1, 4), dtype=np.int64)
    for slot, call in enumerate(calls):
        name, tiles = call.split()
        if name not in MELD_TYPES[1:]:
            raise ValueError(f"unknown meld type {name!r} in {call!r}; known: {MELD_TYPES[1:]}")
        meld_type[0, slot] = MELD_TYPES.index(name)
        meld_kind[0, slot] = min(kind for kind, _ in mpsz_to_tile34(tiles))
    (win_kind, _), *_ = mpsz_to_tile34(win)
    return Hands(counts, np.array([win_kind]), meld_kind, meld_type, np.array([is_tsumo]))


def stack_hands(hands: list[Hands]) -> Hands:
    """Many hands as one (rows in the order given)."""
    return Hands(**{f.name: np.concatenate([getattr(h, f.name) for h in hands]) for f in fields(Hands)})
