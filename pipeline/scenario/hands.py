"""Hand evaluation for the builder, through the ``mahjong`` package (a test dependency, imported lazily).

Configured as Tenhou plays (DESIGN.md section 7): open tanyao and red fives from the GO type, no kiriage,
no double yakuman, 30 fu for an open pinfu-shape ron, 20 fu pinfu tsumo.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pipeline.scenario.melds import Meld
from pipeline.scenario.tiles import SANMA_MISSING_KINDS

TENHOU_YAKU_ORDER: tuple[int, ...] = (1, 21, 2, 3, 4, 5, 6, 0, *range(7, 21), *range(22, 52), 52, 54, 53)
"""Tenhou yaku ids in the order Tenhou lists them in AGARI ``yaku`` (measured on real logs)."""


@dataclass
class WinConditions:
    """The situational facts of a win, taken from the events of the round."""

    is_tsumo: bool = False
    is_riichi: bool = False
    is_daburu_riichi: bool = False
    is_ippatsu: bool = False
    is_rinshan: bool = False
    is_chankan: bool = False
    is_haitei: bool = False
    is_houtei: bool = False
    is_tenhou: bool = False
    is_chiihou: bool = False
    seat_wind: int = 27
    round_wind: int = 27
    n_kita: int = 0


@dataclass
class WinValue:
    """What AGARI records of a win: fu, han and the yaku as (Tenhou id, han) or the yakuman ids."""

    fu: int
    han: int
    yaku: list[tuple[int, int]] = field(default_factory=list)
    yakuman: list[int] = field(default_factory=list)


def counts34(tiles: Iterable[int]) -> list[int]:
    """Tile counts per 34-kind of some 136-ids."""
    counts = [0] * 34
    for t in tiles:
        counts[t // 4] += 1
    return counts


def shanten(tiles: Sequence[int], open_hand: bool = False) -> int:
    """Shanten of closed tiles (-1 complete, 0 tenpai); chiitoitsu/kokushi only for a full closed hand."""
    from mahjong.shanten import Shanten

    full = not open_hand and len(tiles) >= 13
    return Shanten.calculate_shanten(counts34(tiles), use_chiitoitsu=full, use_kokushi=full)


def is_complete(tiles: Sequence[int]) -> bool:
    """Whether closed tiles (3n+2 of them) form a complete hand shape (chiitoitsu, kokushi included)."""
    from mahjong.agari import Agari

    return Agari.is_agari(counts34(tiles))


def waits(tiles: Sequence[int], sanma: bool = False) -> set[int]:
    """34-kinds that complete closed tiles (3n+1 of them), whether or not a copy is left (formal waits)."""
    from mahjong.agari import Agari

    counts = counts34(tiles)
    out: set[int] = set()
    for kind in range(34):
        if counts[kind] == 4 or (sanma and kind in SANMA_MISSING_KINDS):
            continue
        counts[kind] += 1
        if Agari.is_agari(counts):
            out.add(kind)
        counts[kind] -= 1
    return out


def is_tenpai_at_draw(closed: Sequence[int], melds: Sequence[Meld], sanma: bool = False) -> bool:
    """Tenhou's tenpai at an exhaustive draw: formal waits, except when every copy of every wait is in the
    player's closed hand (pure karaten); copies in the player's own kan or other calls do not make it noten."""
    own = counts34(list(closed))
    return any(own[k] < 4 for k in waits(closed, sanma))


def _mahjong_melds(melds: Sequence[Meld]) -> list:
    from mahjong.meld import Meld as MjMeld

    kinds = {
        "chi": MjMeld.CHI,
        "pon": MjMeld.PON,
        "daiminkan": MjMeld.KAN,
        "ankan": MjMeld.KAN,
        "kakan": MjMeld.SHOUMINKAN,
    }
    return [
        MjMeld(
            kinds[m.kind],
            tiles=list(m.tiles),
            opened=m.kind != "ankan",
            called_tile=m.called,
            who=m.who,
            from_who=m.from_seat,
        )
        for m in melds
        if m.kind != "kita"
    ]


def evaluate_win(
    closed: Sequence[int],
    win_tile: int,
    melds: Sequence[Meld],
    cond: WinConditions,
    *,
    rule_type: int,
    dora: Sequence[int],
    ura: Sequence[int],
) -> WinValue | None:
    """Fu, han and yaku of a win (``closed`` includes the winning tile); None when it has no yaku."""
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.yaku_config import YAKU_ID_TO_TENHOU_ID

    all_tiles = list(closed) + [t for m in melds if m.kind != "kita" for t in m.tiles]
    result = HandCalculator.estimate_hand_value(
        all_tiles,
        win_tile,
        melds=_mahjong_melds(melds),
        dora_indicators=list(dora),
        ura_dora_indicators=list(ura) if cond.is_riichi else None,
        config=tenhou_config(cond, rule_type),
    )
    if result.error or not result.yaku:
        return None
    yakuman = [YAKU_ID_TO_TENHOU_ID[y.yaku_id] for y in result.yaku if y.is_yakuman]
    if yakuman:
        return WinValue(fu=result.fu, han=result.han, yakuman=yakuman)
    yaku = [(YAKU_ID_TO_TENHOU_ID[y.yaku_id], y.han_open if result.is_open_hand else y.han_closed) for y in result.yaku]
    if cond.is_riichi and not any(i == 53 for i, _ in yaku):
        yaku.append((53, 0))
    yaku.sort(key=lambda p: TENHOU_YAKU_ORDER.index(p[0]))
    return WinValue(fu=result.fu, han=sum(h for _, h in yaku), yaku=yaku)


def tenhou_config(cond: WinConditions, rule_type: int) -> object:
    """The ``mahjong`` package's HandConfig for a win under Tenhou's rules (GO type ``rule_type``)."""
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules

    options = OptionalRules(
        has_open_tanyao=not rule_type & 0x04,
        has_aka_dora=not rule_type & 0x02,
        kiriage=False,
        has_double_yakuman=False,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        is_three_player=bool(rule_type & 0x10),
    )
    config = HandConfig(
        is_tsumo=cond.is_tsumo,
        is_riichi=cond.is_riichi and not cond.is_daburu_riichi,
        is_daburu_riichi=cond.is_daburu_riichi,
        is_ippatsu=cond.is_ippatsu,
        is_rinshan=cond.is_rinshan,
        is_chankan=cond.is_chankan,
        is_haitei=cond.is_haitei,
        is_houtei=cond.is_houtei,
        is_tenhou=cond.is_tenhou,
        is_chiihou=cond.is_chiihou,
        player_wind=cond.seat_wind,
        round_wind=cond.round_wind,
        options=options,
        num_nuki_dora=cond.n_kita,
    )
    return config
