"""Tenhou's rules moved into rules/: tenpai at a draw, meld inference, the yaku listing rule, tile spelling."""

from __future__ import annotations

import numpy as np

from rules.melds import infer_melds, with_winning_tile
from rules.scoring.inputs import CHI, CLOSED_KAN, NO_MELD, OPEN_KAN, PON
from rules.scoring.yaku import YAKU
from rules.tenhou_draws import exhaustive_kind, is_draw_with_hands, tenpai_at_draw
from rules.tenhou_listing import listed_yaku, piece_names


def test_tenpai_at_a_draw_is_formal_tenpai_without_pure_karaten() -> None:
    assert tenpai_at_draw(np.array([1, 1, 0]), np.array([0, 1, 0])).tolist() == [True, False, False]
    assert is_draw_with_hands(np.array(["exhaustive", "", "nagashi_mangan", "kyuushu_kyuuhai"], object)).tolist() == [
        True, False, True, False,
    ]  # fmt: skip
    assert exhaustive_kind(np.array([True, False])).tolist() == ["nagashi_mangan", "exhaustive"]


def test_melds_are_read_from_their_tiles() -> None:
    tiles = np.array([[0, 4, 8, -1], [12, 13, 14, -1], [16, 17, 18, 19], [20, 21, 22, 23]])  # 123m, 444m, kans
    win, slot = np.array([0, 0, 0, 1]), np.array([0, 1, 2, 0])
    kind, types, all_tiles = infer_melds(tiles, win, slot, 2, np.array([1 << 4, 0]))
    assert types.tolist() == [[CHI, PON, CLOSED_KAN, NO_MELD], [OPEN_KAN, NO_MELD, NO_MELD, NO_MELD]]
    assert kind[0, :3].tolist() == [0, 3, 4] and all_tiles[1, :4].tolist() == [20, 21, 22, 23]
    hand = np.full((1, 14), -1)
    hand[0, :13] = np.arange(13)
    assert with_winning_tile(hand, np.array([50]), np.full((1, 4), NO_MELD))[0, 13] == 50


def test_ura_dora_is_listed_on_riichi_wins_without_yakuman() -> None:
    yaku_han = np.zeros((3, 60), dtype=np.int64)
    yaku_han[:, YAKU["riichi"]] = 1
    yaku_han[2, YAKU["tenhou"]] = 13
    rows, ids, counts = listed_yaku(yaku_han, np.array([True, True, True]), np.array([True, False, True]))
    assert counts.tolist() == [2, 0, 2]
    assert YAKU["ura_dora"] in ids[rows == 0] and YAKU["ura_dora"] not in ids[rows == 2]
    assert piece_names(np.array([0, 33, -1]), np.array([True, False, False]), 3, np.array([1, 2, 0])).tolist() == [
        "(123m)", "[777z]", "",
    ]  # fmt: skip
