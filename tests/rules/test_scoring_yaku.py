"""Yaku and han (rules.scoring): each of Tenhou's yaku on a chosen hand, Tenhou's choice between readings,
yakuman as Tenhou counts them, dora, ``has_yaku``, and random hands against the `mahjong` package.

Hands are written in MPSZ: ``closed`` holds the closed tiles with the winning tile, ``calls`` the called melds.
Unless a case says otherwise the winner sits South in the South round (East is no value tile) and wins by ron.
"""

from __future__ import annotations

import numpy as np
import pytest
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.hand_response import HandResponse
from mahjong.meld import Meld

from rules.scoring import Context, Hands, has_yaku, score_wins
from rules.scoring.dora import count_dora, dora_counts, dora_kinds
from rules.scoring.inputs import CHI, CLOSED_KAN, OPEN_KAN, PON, hand_of, stack_hands
from rules.scoring.points import LIMIT_NAMES
from rules.scoring.yaku import YAKU, YAKU_NAMES

SOUTH = {"seat_wind": 1, "round_wind": 1}


def yaku_of(closed: str, win: str, calls: tuple[str, ...] = (), tsumo: bool = False, **context) -> dict[str, int]:  # noqa: ANN003
    """The chosen reading's yaku by name with their han (the South seat in the South round unless given)."""
    scores = score_wins(hand_of(closed, win, calls, tsumo), Context.plain(1, **{**SOUTH, **context}))
    return {YAKU_NAMES[i]: int(han) for i, han in enumerate(scores.yaku_han[0]) if han}


PLAIN = "123m456p789s345p11z"
"""A closed hand with no yaku of its own when won on the East (tanki; East is no value tile for South)."""

YAKU_CASES = [
    pytest.param("234m567p234456s88m", "4s", (), True, {}, {"menzen_tsumo": 1, "pinfu": 1, "tanyao": 1},
                 id="menzen-tsumo-pinfu-tanyao"),
    pytest.param(PLAIN, "1z", (), False, {"is_riichi": True}, {"riichi": 1}, id="riichi"),
    pytest.param(PLAIN, "1z", (), False, {"is_riichi": True, "is_ippatsu": True}, {"riichi": 1, "ippatsu": 1},
                 id="ippatsu"),
    pytest.param(PLAIN, "1z", (), False, {"is_riichi": True, "is_double_riichi": True}, {"double_riichi": 2},
                 id="double-riichi"),
    pytest.param(PLAIN, "1z", (), False, {"is_chankan": True}, {"chankan": 1}, id="chankan"),
    pytest.param(PLAIN, "1z", (), True, {"is_rinshan": True}, {"menzen_tsumo": 1, "rinshan_kaihou": 1}, id="rinshan"),
    pytest.param(PLAIN, "1z", (), True, {"is_haitei": True}, {"menzen_tsumo": 1, "haitei_raoyue": 1}, id="haitei"),
    pytest.param(PLAIN, "1z", (), False, {"is_houtei": True}, {"houtei_raoyui": 1}, id="houtei"),
    pytest.param(PLAIN, "1z", (), True, {"is_tenhou": True, "seat_wind": 0}, {"tenhou": 13}, id="tenhou"),
    pytest.param(PLAIN, "1z", (), True, {"is_chiihou": True}, {"chiihou": 13}, id="chiihou"),
    pytest.param("234m567p345s88m", "8m", ("chi 678p",), False, {"has_kuitan": True}, {"tanyao": 1},
                 id="open-tanyao-with-kuitan"),
    pytest.param("234m567p345s88m", "8m", ("chi 678p",), False, {"has_kuitan": False}, {}, id="no-kuitan"),
    pytest.param("112233m456p789s11z", "1z", (), False, {}, {"iipeikou": 1}, id="iipeikou"),
    pytest.param("123m456p789s111z99s", "9s", (), False, {"seat_wind": 0, "round_wind": 1}, {"seat_wind_east": 1},
                 id="seat-wind"),
    pytest.param("123m456p789s222z99s", "9s", (), False, {}, {"seat_wind_south": 1, "round_wind_south": 1},
                 id="double-south"),
    pytest.param("123m456p789s111z99s", "9s", (), False, {"seat_wind": 2, "round_wind": 0}, {"round_wind_east": 1},
                 id="round-wind"),
    pytest.param("123m456p789s555z99s", "9s", (), False, {}, {"haku": 1}, id="haku"),
    pytest.param("123m456p789s666z99s", "9s", (), False, {}, {"hatsu": 1}, id="hatsu"),
    pytest.param("123m456p789s777z99s", "9s", (), False, {}, {"chun": 1}, id="chun"),
    pytest.param("1122m3344p5566s77z", "7z", (), False, {}, {"chiitoitsu": 2}, id="chiitoitsu"),
    pytest.param("2244m3366p5588s22s", "2s", (), False, {}, {"chiitoitsu": 2, "tanyao": 1}, id="chiitoitsu-tanyao"),
    pytest.param("123m789p999s111z99m", "3m", (), False, {}, {"chanta": 2}, id="chanta"),
    pytest.param("789p999s111z99m", "9m", ("chi 123m",), False, {}, {"chanta": 1}, id="chanta-open"),
    pytest.param("123m789m789p123s99s", "3s", (), False, {}, {"junchan": 3}, id="junchan"),
    pytest.param("789m789p123s99s", "3s", ("chi 123m",), False, {}, {"junchan": 2}, id="junchan-open"),
    pytest.param("123456789m234p55s", "5s", (), False, {}, {"ittsu": 2}, id="ittsu"),
    pytest.param("456789m234p55s", "5s", ("chi 123m",), False, {}, {"ittsu": 1}, id="ittsu-open"),
    pytest.param("234m234p234s678m55p", "5p", (), False, {}, {"sanshoku_doujun": 2, "tanyao": 1}, id="sanshoku"),
    pytest.param("234p234s678m55p", "5p", ("chi 234m",), False, {}, {"sanshoku_doujun": 1, "tanyao": 1},
                 id="sanshoku-open"),
    pytest.param("222m222p222s678s55z", "8s", (), False, {}, {"sanshoku_doukou": 2, "sanankou": 2},
                 id="sanshoku-doukou"),
    pytest.param("567m88p", "8p", ("open_kan 2222m", "closed_kan 3333p", "open_kan 4444s"), False, {},
                 {"sankantsu": 2, "tanyao": 1}, id="sankantsu"),
    pytest.param("444s555s66m", "6m", ("pon 222m", "pon 333p"), False, {}, {"toitoi": 2, "tanyao": 1}, id="toitoi"),
    pytest.param("222m333p444s678s99m", "7s", (), False, {}, {"sanankou": 2}, id="sanankou"),
    pytest.param("123m456p77z", "7z", ("pon 555z", "pon 666z"), False, {},
                 {"shousangen": 2, "haku": 1, "hatsu": 1}, id="shousangen"),
    pytest.param("111m999p111s999s11z", "9s", (), False, {}, {"toitoi": 2, "sanankou": 2, "honroutou": 2},
                 id="honroutou"),
    pytest.param("112233m445566p99s", "9s", (), False, {}, {"ryanpeikou": 3}, id="ryanpeikou-over-chiitoitsu"),
    pytest.param("123m456m777m111z22m", "2m", (), False, {}, {"honitsu": 3}, id="honitsu"),
    pytest.param("456m777m111z22m", "2m", ("chi 123m",), False, {}, {"honitsu": 2}, id="honitsu-open"),
    pytest.param("222m345m678m999m55m", "5m", (), False, {}, {"chinitsu": 6}, id="chinitsu"),
    pytest.param("222m678m999m55m", "5m", ("chi 345m",), False, {}, {"chinitsu": 5}, id="chinitsu-open"),
    # 111222333m + 456p + 77z: as triplets (sanankou on a tsumo) or as three 123m (iipeikou)
    pytest.param("111222333m456p77z", "3m", (), True, {}, {"menzen_tsumo": 1, "sanankou": 2},
                 id="sanankou-over-iipeikou-on-tsumo"),
    pytest.param("111222333m456p77z", "3m", (), False, {}, {"iipeikou": 1}, id="iipeikou-over-triplets-on-ron"),
    # yakuman: 13 han each, no double yakuman, several add up, other yaku and dora dropped
    pytest.param("123m99p", "9p", ("pon 555z", "pon 666z", "pon 777z"), False, {"n_dora": 3}, {"daisangen": 13},
                 id="daisangen"),
    pytest.param("222m444p666s888s99m", "8s", (), True, {"is_riichi": True}, {"suuankou": 13}, id="suuankou"),
    pytest.param("222m444p666s888s99m", "9m", (), False, {}, {"suuankou_tanki": 13}, id="suuankou-tanki-single"),
    pytest.param("222m444p666s888s99m", "8s", (), False, {}, {"toitoi": 2, "sanankou": 2},
                 id="shanpon-ron-no-suuankou"),
    pytest.param("555666777z11z222z", "2z", (), False, {}, {"tsuuiisou": 13, "daisangen": 13},
                 id="two-yakuman-add-up"),
    pytest.param("11223344556677z", "7z", (), False, {}, {"tsuuiisou": 13}, id="tsuuiisou-seven-pairs"),
    pytest.param("223344s666s888s66z", "6z", (), False, {}, {"ryuuiisou": 13}, id="ryuuiisou"),
    pytest.param("111m999m111p99s111s", "1s", (), False, {}, {"chinroutou": 13}, id="chinroutou"),
    pytest.param("11123455678999m", "2m", (), False, {}, {"chuuren_poutou": 13}, id="chuuren"),
    pytest.param("11123456789999m", "9m", (), False, {}, {"junsei_chuuren_poutou": 13}, id="junsei-chuuren-single"),
    pytest.param("19m19p19s1234567z1m", "7z", (), False, {}, {"kokushi_musou": 13}, id="kokushi"),
    pytest.param("19m19p19s12345677z", "7z", (), False, {}, {"kokushi_musou_13": 13}, id="kokushi-13-single"),
    pytest.param("111222333444z55m", "5m", (), False, {}, {"daisuushii": 13, "suuankou_tanki": 13},
                 id="daisuushii-and-suuankou-tanki"),
    pytest.param("111222333z44z567m", "4z", (), False, {}, {"shousuushii": 13}, id="shousuushii"),
    pytest.param("55m", "5m", ("open_kan 2222m", "closed_kan 3333p", "open_kan 4444s", "open_kan 6666s"), False, {},
                 {"suukantsu": 13}, id="suukantsu"),
]  # fmt: skip


@pytest.mark.parametrize(("closed", "win", "calls", "tsumo", "context", "expected"), YAKU_CASES)
def test_yaku(
    closed: str, win: str, calls: tuple[str, ...], tsumo: bool, context: dict, expected: dict[str, int]
) -> None:
    assert yaku_of(closed, win, calls, tsumo, **context) == expected


@pytest.mark.parametrize(
    ("closed", "win", "expected_han", "expected_yakuman"),
    [
        pytest.param("222m444p666s888s99m", "9m", 26, 2, id="suuankou-tanki-doubled"),
        pytest.param("11123455678999m", "5m", 26, 2, id="junsei-chuuren-doubled"),
        pytest.param("111222333444z55m", "5m", 52, 4, id="daisuushii-and-suuankou-tanki-doubled"),
        pytest.param("555666777z11m222p", "2p", 13, 1, id="daisangen-stays-single"),
    ],
)
def test_double_yakuman_under_rules_that_have_them(
    closed: str, win: str, expected_han: int, expected_yakuman: int
) -> None:
    hand = hand_of(closed, win)
    tenhou = score_wins(hand, Context.plain(1, **SOUTH))
    doubled = score_wins(hand, Context.plain(1, **SOUTH, has_double_yakuman=True))
    assert (int(doubled.han[0]), int(doubled.n_yakuman[0])) == (expected_han, expected_yakuman)
    assert int(doubled.basic[0]) == 8000 * expected_yakuman
    # Tenhou counts each yakuman once
    assert int(tenhou.n_yakuman[0]) == int(np.count_nonzero(tenhou.yaku_han[0]))


@pytest.mark.parametrize(
    ("context", "expected"),
    [
        ({"n_dora": 2, "n_aka": 1}, {"riichi": 1, "dora": 2, "aka_dora": 1}),
        ({"n_ura": 3}, {"riichi": 1, "ura_dora": 3}),
    ],
)
def test_dora_count_on_top_of_a_yaku(context: dict[str, int], expected: dict[str, int]) -> None:
    assert yaku_of(PLAIN, "1z", is_riichi=True, **context) == expected


def test_ura_dora_count_only_with_riichi_and_dora_is_no_yaku() -> None:
    scores = score_wins(hand_of(PLAIN, "1z"), Context.plain(1, **SOUTH, n_dora=2, n_ura=2))
    assert scores.yaku_han[0, YAKU["ura_dora"]] == 0
    assert scores.yaku_han[0, YAKU["dora"]] == 2
    assert not scores.has_yaku[0]


def test_kazoe_yakuman_at_13_han() -> None:
    scores = score_wins(hand_of("222m345m678m999m55m", "5m", (), True), Context.plain(1, is_riichi=True, n_dora=5))
    assert scores.han[0] == 13 and scores.n_yakuman[0] == 0  # riichi, tsumo, chinitsu and 5 dora
    assert LIMIT_NAMES[scores.limit[0]] == "yakuman" and scores.basic[0] == 8000


def test_has_yaku_many_hands_at_once() -> None:
    hands = stack_hands(
        [
            hand_of(PLAIN, "1z"),  # closed ron without a yaku
            hand_of(PLAIN, "1z"),  # the same after riichi
            hand_of(PLAIN, "1z", (), True),  # a closed tsumo: menzen tsumo
            hand_of("234m567p345s88m", "8m", ("chi 678p",)),  # open tanyao
            hand_of("123m456p789s1234z", "4z"),  # not complete
        ]
    )
    context = Context.plain(5, **SOUTH, is_riichi=np.array([0, 1, 0, 0, 0], dtype=bool), n_dora=3)
    assert has_yaku(hands, context).tolist() == [False, True, True, True, False]


@pytest.mark.parametrize(
    ("indicator", "n_players", "dora"),
    [(8, 4, 0), (0, 4, 1), (0, 3, 8), (8, 3, 0), (30, 4, 27), (33, 4, 31), (31, 4, 32), (17, 4, 9)],
)
def test_dora_kind_of_each_indicator(indicator: int, n_players: int, dora: int) -> None:
    assert dora_kinds(np.array([[indicator * 4, -1]]), np.array([n_players])).tolist() == [[dora, -1]]


def test_kita_count_as_dora_and_as_north_tiles() -> None:
    counts = np.zeros((2, 34), dtype=np.int8)
    counts[:, 27] = 3  # three East in both hands
    indicators = np.array([[29 * 4, 30 * 4], [30 * 4, -1]])  # West (North is dora) and North (East is dora)
    n_dora, n_ura = dora_counts(counts, indicators, np.full((2, 1), -1), np.array([3, 3]), np.array([2, 0]))
    assert n_dora.tolist() == [2 + 2 + 3, 3]  # kita 2, the 2 kita again as North dora, 3 East (North -> East)
    assert n_ura.tolist() == [0, 0]
    assert count_dora(counts, indicators, np.array([3, 3]), np.array([0, 0])).tolist() == [3, 3]


# ---- random complete hands against the mahjong package ------------------------------------------------------------
def pick_kind(rng: np.random.Generator, mode: int, suit: int) -> int:
    """A random 34-kind: any (mode 0), mostly of ``suit`` else honors (1), a terminal or honor (2)."""
    if mode == 0:
        return int(rng.integers(34))
    if mode == 1:
        return int(suit * 9 + rng.integers(9) if rng.random() < 0.8 else 27 + rng.integers(7))
    return int(rng.choice([0, 8, 9, 17, 18, 26, *range(27, 34)]))


def random_hand(rng: np.random.Generator) -> tuple[list[tuple[bool, int, int]], int]:
    """Four melds (is_sequence, lowest kind, call type) and a pair kind; often one suit, or terminals and honors."""
    while True:
        mode, suit = int(rng.integers(3)), int(rng.integers(3))
        n_calls = rng.choice([0, 0, 0, 1, 2, 3, 4])
        melds = []
        for i in range(4):
            if rng.random() < 0.5:
                start = (suit if mode == 1 else rng.integers(3)) * 9 + (
                    rng.choice([0, 6]) if mode == 2 else rng.integers(7)
                )
                melds.append((True, int(start), CHI if i < n_calls else 0))
            else:
                call = int(rng.choice([PON, PON, OPEN_KAN, CLOSED_KAN])) if i < n_calls else 0
                melds.append((False, pick_kind(rng, mode, suit), call))
        pair = pick_kind(rng, mode, suit)
        counts = np.zeros(34, dtype=int)
        for is_sequence, kind, call in melds:
            counts[kind : kind + 3 if is_sequence else kind + 1] += 1 if is_sequence else (4 if call >= OPEN_KAN else 3)
        counts[pair] += 2
        if counts.max() <= 4:
            return melds, pair


def oracle_of(
    melds: list[tuple[bool, int, int]], pair: int, win: int, is_tsumo: bool, context: Context
) -> HandResponse:
    """The mahjong package's result for one random hand (Tenhou's options)."""
    used = np.zeros(34, dtype=int)

    def take(kind: int) -> int:
        """The next unused copy (136-id) of a kind."""
        used[kind] += 1
        return kind * 4 + used[kind] - 1

    called, tiles = [], []
    for is_sequence, kind, call in sorted(melds, key=lambda m: -m[2]):
        kinds = [kind, kind + 1, kind + 2] if is_sequence else [kind] * (4 if call >= OPEN_KAN else 3)
        group = [take(k) for k in kinds]
        tiles += group
        if call:
            meld_type = {CHI: Meld.CHI, PON: Meld.PON}.get(call, Meld.KAN)
            called.append(Meld(meld_type=meld_type, tiles=group, opened=call != CLOSED_KAN))
    tiles += [take(pair), take(pair)]
    closed_tiles = [t for t in tiles if all(t not in m.tiles for m in called)]
    config = HandConfig(
        is_tsumo=is_tsumo, is_riichi=bool(context.is_riichi[0]), is_ippatsu=bool(context.is_ippatsu[0]),
        player_wind=27 + int(context.seat_wind[0]), round_wind=27 + int(context.round_wind[0]),
        options=OptionalRules(has_open_tanyao=bool(context.has_kuitan[0]), kiriage=False, has_double_yakuman=False,
                              fu_for_open_pinfu=True, fu_for_pinfu_tsumo=False),
    )  # fmt: skip
    win_tile = next(t for t in closed_tiles if t // 4 == win)
    return HandCalculator.estimate_hand_value(tiles, win_tile, called, [], config)


def random_win(rng: np.random.Generator) -> tuple[list[tuple[bool, int, int]], int, Hands, dict]:
    """A random complete hand: (melds, pair, Hands of one row, context values) with consistent flags."""
    melds, pair = random_hand(rng)
    closed = np.zeros((1, 34), dtype=np.int8)
    for is_sequence, kind, call in melds:
        if not call:
            closed[0, kind : kind + 3 if is_sequence else kind + 1] += 1 if is_sequence else 3
    closed[0, pair] += 2
    win = int(rng.choice(np.flatnonzero(closed[0])))
    called = [(kind, call) for _, kind, call in melds if call] + [(-1, 0)] * 4
    hands = Hands(closed, np.array([win]), np.array([[k for k, _ in called[:4]]]),
                  np.array([[c for _, c in called[:4]]]), np.array([rng.random() < 0.5]))  # fmt: skip
    riichi = all(call in (0, CLOSED_KAN) for *_, call in melds) and rng.random() < 0.5
    context = {"seat_wind": rng.integers(4), "round_wind": rng.integers(2), "has_kuitan": rng.random() < 0.7,
               "is_riichi": riichi, "is_ippatsu": riichi and rng.random() < 0.3}  # fmt: skip
    return melds, pair, hands, context


def test_random_hands_agree_with_the_mahjong_package() -> None:
    rng = np.random.default_rng(2026)
    wins = [random_win(rng) for _ in range(3000)]
    values = {name: np.array([w[3][name] for w in wins]) for name in wins[0][3]}
    context = Context.plain(len(wins), **values)
    ours = score_wins(stack_hands([w[2] for w in wins]), context)
    compared = 0
    for i, (melds, pair, hands, _) in enumerate(wins):
        result = oracle_of(melds, pair, int(hands.win_tile[0]), bool(hands.is_tsumo[0]), context.take(np.array([i])))
        assert (result.error is None) == bool(ours.has_yaku[i]), (melds, pair, hands.win_tile)
        if result.error is None:
            compared += 1
            assert (result.fu, result.han) == (ours.fu[i], ours.han[i]), (melds, pair, hands.win_tile)
    assert compared > 2000
