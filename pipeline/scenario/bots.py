"""Simple seeded bots for the simulator: discard to lower shanten, call yakuhai, riichi when tenpai.

They are not meant to play well, only legally and with variety: wins by ron and tsumo, riichi, calls
(pon and daiminkan on yakuhai, then chi/pon once the hand has a yaku), kans, kita, kyuushu kyuuhai.
"""

from __future__ import annotations

import numpy as np

from pipeline.scenario import hands as hands_mod
from pipeline.scenario.round import RoundBuilder
from pipeline.scenario.tiles import NORTH_KIND

DRAGONS = frozenset({31, 32, 33})
"""34-kinds of the dragons (haku, hatsu, chun)."""


def yakuhai_kinds(r: RoundBuilder, seat: int) -> set[int]:
    """34-kinds whose triplet is a yaku for the seat: dragons, round wind, seat wind."""
    return set(DRAGONS) | {27 + r.kyoku // 4, 27 + (seat - r.dealer) % r.n}


def has_yaku_meld(r: RoundBuilder, seat: int) -> bool:
    """Whether the seat already called a yakuhai triplet (so its open hand has a yaku)."""
    ykh = yakuhai_kinds(r, seat)
    return any(m.kind in ("pon", "daiminkan", "kakan") and m.tiles[0] // 4 in ykh for m in r.melds[seat])


def _isolation(hand: list[int], tile: int) -> int:
    """How connected a tile is (higher = keep): same-kind copies and suit neighbours within two."""
    kind = tile // 4
    same = sum(1 for t in hand if t // 4 == kind) - 1
    if kind >= 27:
        return 3 * same
    near = sum(1 for t in hand if t // 4 != kind and t // 36 == tile // 36 and abs(t // 4 - kind) <= 2)
    return 3 * same + near


def discard_options(r: RoundBuilder, seat: int, rng: np.random.Generator) -> list[tuple[int, int]]:
    """(shanten after, tile) for each distinct discard, best first (then least connected, then random)."""
    hand = r.hands[seat]
    forbidden = r.kuikae.get(seat, set())
    dora_kinds = {_dora_kind(d, r.game.sanma) for d in r.dora_indicators}
    scored: dict[int, tuple[int, int, float, int]] = {}
    for t in sorted(hand, key=lambda x: (x != r.drawn, r.pool.is_red(x))):
        kind = t // 4
        if kind in scored or kind in forbidden:
            continue
        rest = list(hand)
        rest.remove(t)
        sh = hands_mod.shanten(rest, open_hand=r.is_open(seat))
        keep = _isolation(hand, t) + 4 * (kind in dora_kinds) + 4 * r.pool.is_red(t)
        scored[kind] = (sh, keep, float(rng.random()), t)
    return [(v[0], v[3]) for v in sorted(scored.values())]


def _dora_kind(indicator: int, sanma: bool) -> int:
    kind = indicator // 4
    if kind >= 27:
        return 27 + (kind - 27 + 1) % 4 if kind < 31 else 31 + (kind - 31 + 1) % 3
    if sanma and kind == 0:
        return 8
    return kind // 9 * 9 + (kind % 9 + 1) % 9


def choose_turn_action(r: RoundBuilder, seat: int, rng: np.random.Generator) -> tuple[str, int | None]:
    """What the seat does on its turn: tsumo, yao9, kita, ankan, kakan, riichi or discard (with a tile)."""
    drew = r.drawn is not None
    if drew and r.can_tsumo(seat) is not None:
        return "tsumo", None
    if drew and r.can_kyuushu(seat) and rng.random() < 0.8:
        return "yao9", None
    north = [t for t in r.hands[seat] if t // 4 == NORTH_KIND]
    if drew and r.game.sanma and north and r.draws_left > 0:
        return "kita", north[0]
    kan = _kan_choice(r, seat, rng) if drew else None
    if kan is not None:
        return kan
    if seat in r.riichi_kind:
        return "discard", r.drawn
    options = discard_options(r, seat, rng)
    best_sh, best = options[0]
    if best_sh == 0 and _may_riichi(r, seat) and rng.random() < 0.85:
        tenpai = [t for sh, t in options if sh == 0]
        tile = max(tenpai, key=lambda t: len(r.waits(seat, [x for x in r.hands[seat] if x != t])))
        return "riichi", tile
    return "discard", best


def _may_riichi(r: RoundBuilder, seat: int) -> bool:
    return seat not in r.riichi_kind and not r.is_open(seat) and r.scores[seat] >= 1000 and r.draws_left >= 4


def _kan_choice(r: RoundBuilder, seat: int, rng: np.random.Generator) -> tuple[str, int] | None:
    if seat in r.riichi_kind or r.draws_left == 0 or r.n_kans() >= 4:
        return None
    assert r.drawn is not None
    kind = r.drawn // 4
    if any(m.kind == "pon" and m.tiles[0] // 4 == kind for m in r.melds[seat]) and rng.random() < 0.7:
        return "kakan", r.drawn
    if sum(1 for t in r.hands[seat] if t // 4 == kind) == 4 and rng.random() < 0.6:
        return "ankan", r.drawn
    return None


def choose_call(r: RoundBuilder, rng: np.random.Generator) -> tuple[str, int, list[int] | None] | None:
    """A call on the last discard, if a bot wants one: (kind, seat, the two held tiles of a chi)."""
    assert r.last_discard is not None
    src, tile = r.last_discard
    kind = tile // 4
    if r.draws_left == 0:
        return None
    for k in range(1, r.n):
        seat = (src + k) % r.n
        if seat in r.riichi_kind:
            continue
        held = sum(1 for t in r.hands[seat] if t // 4 == kind)
        yakuhai = kind in yakuhai_kinds(r, seat)
        if held == 3 and yakuhai and r.n_kans() < 4 and rng.random() < 0.5:
            return "daiminkan", seat, None
        if held < 2 or all(t // 4 == kind for t in r.hands[seat]):
            continue
        wanted = yakuhai or (has_yaku_meld(r, seat) and _improves(r, seat, tile, 2))
        if wanted and rng.random() < 0.7:
            return "pon", seat, None
    seat = (src + 1) % r.n
    if r.n == 4 and seat not in r.riichi_kind and has_yaku_meld(r, seat) and rng.random() < 0.6:
        pair = _chi_pair(r, seat, tile)
        if pair is not None:
            return "chi", seat, pair
    return None


def _improves(r: RoundBuilder, seat: int, tile: int, n_own: int) -> bool:
    """Whether calling ``tile`` with ``n_own`` held copies lowers the seat's shanten."""
    hand = list(r.hands[seat])
    before = hands_mod.shanten(hand, open_hand=True)
    for _ in range(n_own):
        hand.remove(next(t for t in hand if t // 4 == tile // 4))
    return min(hands_mod.shanten([x for x in hand if x != t], open_hand=True) for t in hand) < before


def _chi_pair(r: RoundBuilder, seat: int, tile: int) -> list[int] | None:
    """Two held tiles that make a chi with ``tile`` and lower shanten (and leave a legal discard)."""
    kind = tile // 4
    if kind >= 27:
        return None
    hand = r.hands[seat]
    before = hands_mod.shanten(hand, open_hand=True)
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        ka, kb = kind + a, kind + b
        if ka // 9 != kind // 9 or kb // 9 != kind // 9 or ka < 0:
            continue
        ta = next((t for t in hand if t // 4 == ka), None)
        tb = next((t for t in hand if t // 4 == kb), None)
        if ta is None or tb is None:
            continue
        rest = [t for t in hand if t not in (ta, tb)]
        ends = {kind} | ({kind + 3} if a == 1 else set()) | ({kind - 3} if b == -1 else set())
        if all(t // 4 in ends for t in rest):
            continue
        after = min(hands_mod.shanten([x for x in rest if x != t], open_hand=True) for t in rest)
        if after < before:
            return [ta, tb]
    return None
