"""The tables of the scoring derivation (pipeline.derive.scoring): every win scored by the rules layer."""

from __future__ import annotations

import pyarrow as pa

from pipeline.schema.base import BOOL, I8, I16, I32, ROUND_KEY, STR, col

WIN_KEY = [*ROUND_KEY, col("win_idx", I8, "Order of the win within the round (multiple ron: 0, 1, 2)")]
"""Key of a win: the round key and the win's order in it."""

WINS_SCORED = [
    *WIN_KEY,
    col("seat", I8, "Winner's seat"),
    col("is_complete", BOOL, "The hand splits into four melds and a pair, seven pairs or thirteen orphans"),
    col("has_yaku", BOOL, "The chosen reading has a yaku (dora aside): the hand may win"),
    col("form", STR, "regular (four melds and a pair), chiitoitsu or kokushi; null when not complete", True),
    col("wait", STR, "How the winning tile completed the chosen reading: ryanmen, shanpon, kanchan, penchan, tanki, "
       "thirteen_sided; null when not complete", True),
    col("decomposition", STR, "The chosen reading in MPSZ: called melds first, open ones in parentheses, closed "
       "kans in brackets, then the closed melds and the pair; seven pairs: the pairs; kokushi: "
       "'19m19p19s1234567z+' and the paired kind; '' when not complete"),
    col("is_closed", BOOL, "No chi, pon or open kan (closed kans keep a hand closed)"),
    col("fu", I16, "Derived fu, rounded up (the sum of the win's fu_components); seven pairs 25, kokushi 0"),
    col("han", I16, "Derived han: the sum of yaku_han (13 per yakuman)"),
    col("yaku", pa.list_(I16), "Derived yaku as Tenhou ids (0-54), ascending; ura dora (53) listed on every riichi "
       "win without a yakuman, as Tenhou does; empty when the hand cannot win"),
    col("yaku_han", pa.list_(I16), "Han of each yaku in yaku"),
    col("n_yakuman", I8, "Yakuman in the hand (Tenhou: each counts once, no double yakuman)"),
    col("n_dora", I8, "Dora: the hand's tiles on a dora kind (once per indicator) plus sanma kita"),
    col("n_ura", I8, "Ura dora counted (riichi wins only; 0 otherwise)"),
    col("n_aka", I8, "Red fives in the hand and its melds (0 without red fives)"),
    col("limit_name", STR, "'' (below mangan), mangan, haneman, baiman, sanbaiman, yakuman (kazoe at 13 han)"),
    col("points", I32, "Derived hand value before honba and sticks: the ron payment or the sum of the tsumo "
       "shares, full points; null when the hand cannot win (not complete, or no yaku)", True),
    col("pao_seat", I8, "Derived seat liable for a daisangen or daisuushii (pao), null when none", True),
    col("riichi_sticks", I16, "Riichi sticks this win takes (all on the table for the winner nearest the discarder, "
       "0 for the others)"),
    col("score_deltas", pa.list_(I32), "Derived score change of seats 0-3 from this win, honba, sticks and pao "
       "included, full points; null when the hand cannot win", True),
]  # fmt: skip

FU_COMPONENTS = [
    *WIN_KEY,
    col("component", STR, "base, chiitoitsu, {open,closed}_{triplet,kan}_{simple,terminal} (summed over the "
       "melds of that kind), value_pair, wait, tsumo, closed_ron, open_pinfu, rounding"),
    col("fu", I16, "Fu of the component; a win's components add up to its fu (zero components are not stored)"),
]  # fmt: skip

SCORING_TABLES = {"wins_scored": WINS_SCORED, "fu_components": FU_COMPONENTS}
"""The scoring derivation's tables, by name (to be registered in pipeline.schema.derived)."""
