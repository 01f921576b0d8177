"""The tables written by the rules layer (``paipu derive``)."""

from __future__ import annotations

import pyarrow as pa

from pipeline.schema.base import BOOL, I8, I16, I32, I64, ROUND_KEY, STR, U8, Column, col
from pipeline.schema.scoring import SCORING_TABLES

HAND_STATES = [
    *ROUND_KEY,
    col("seat", I8, "Seat whose hand it is"),
    col("event_idx", I32, "The event after which the hand is this; null: as dealt", True),
    col("counts_low", I64, "Closed tiles of 34-kinds 0-20 (1m-9p), 3 bits a kind: kind k's count at bits 3k to 3k + 2; "
        "the hand_states view gives counts as a list of 34 integers (counts[k + 1] in SQL) and red_fives as a list "
        "of 3"),
    col("counts_high", I64, "Closed tiles of 34-kinds 21-33 (1s-7z), kind k's count at bits 3(k - 21) to 3(k - 21) + "
        "2, then the red 5m, 5p, 5s among them at bits 39, 40, 41 (see counts_low)"),
    col("n_closed", I8, "Closed tiles held"),
    col("n_calls", I8, "Melds called (chi, pon, kans); each replaces one of the four melds"),
    col("shanten", I8, "Tiles away from tenpai (0 tenpai, -1 complete): regular, seven pairs, thirteen orphans"),
    col("waits_mask", I64, "Winning 34-kinds as bits (bit k = kind k), a fifth copy included; null mid-turn; the "
        "view adds n_waits, the number of winning kinds (its bits)", True),
    col("live_waits_public", I16, "Winning tiles not visible to the player (not in its hand, ponds, calls, dora "
        "indicators); null unless tenpai", True),
    col("live_waits_actual", I16, "Winning tiles really left in the wall (also not in any other hand); null unless "
        "tenpai", True),
    col("flags", U8, "Four flags of two bits each, 0 null, 1 false, 2 true, from bit 0: is_tenpai (formal tenpai: "
        "some tile completes the hand, no yaku needed; null mid-turn), is_karaten (tenpai with every winning tile "
        "visible to the player, live_waits_public = 0), is_pure_karaten (every copy of every wait is in the "
        "player's own closed hand: Tenhou's noten), is_own_discard_furiten (a wait is among the seat's own "
        "discards of the round so far; null mid-turn); the view gives them as booleans"),
]  # fmt: skip

DRAW_OUTCOMES = [
    *ROUND_KEY,
    col("seat", I8, "Seat"),
    col("kind", STR, "exhaustive or nagashi_mangan"),
    col("is_tenpai", BOOL, "Tenpai at the draw by Tenhou's rule: formal tenpai, not pure karaten"),
    col("is_tenpai_shown", BOOL, "The log shows this seat's hand (Tenhou shows the tenpai hands)"),
    col("is_formal_tenpai", BOOL, "Some tile completes the hand (a fifth copy included)"),
    col("is_karaten", BOOL, "Tenpai with every winning tile visible to the player"),
    col("is_pure_karaten", BOOL, "Every copy of every wait in the player's own closed hand"),
    col("waits_mask", I64, "Winning 34-kinds as bits at the draw"),
    col("live_waits_public", I16, "Winning tiles not visible to the player at the draw; null unless tenpai", True),
    col("waits_in_dead_wall", I16, "Winning tiles in no hand, pond, call or indicator at the draw: the live wall is "
        "empty then, so they lie in the dead wall (a wait that is dead at the draw); null unless tenpai", True),
    col("shown_matches_hand", BOOL, "The shown hand equals the tracked closed hand; null when not shown", True),
    col("is_nagashi", BOOL, "Nagashi mangan by the ponds: discarded, only terminals and honors, none called"),
    col("is_nagashi_logged", BOOL, "The log pays this seat nagashi mangan (nm draw, score up)"),
]  # fmt: skip

ROUND_TRANSITIONS = [
    *ROUND_KEY,
    col("outcome", STR, "win, or the draw kind (exhaustive vs nagashi_mangan derived from the ponds)"),
    col("draw_payments", pa.list_(I32), "Derived score changes of seats 0-3 at a draw; null when won", True),
    col("draw_payments_logged", pa.list_(I32), "The draw's score changes in the log; null when won", True),
    col("ends_game", BOOL, "Derived: the game ends after this round"),
    col("ends_game_logged", BOOL, "The log's game ends after this round; null after a cut game's last round", True),
    *[
        c
        for name, meaning in (
            ("round_wind", "prevailing wind"), ("kyoku", "kyoku"), ("dealer", "dealer seat"),
            ("honba", "honba"), ("riichi_sticks", "riichi sticks on the table"),
        )
        for c in (
            col(f"next_{name}", I16, f"Derived {meaning} of the next round; null when the game ends", True),
            col(f"next_{name}_logged", I16, f"The next stored round's {meaning}; null when there is none", True),
        )
    ],
]  # fmt: skip

FURITEN = [
    *ROUND_KEY,
    col("seat", I8, "Seat"),
    col("kind", STR, "own_discard (a wait among its own discards), temporary (a pass, until its next discard), riichi "
       "(a pass after riichi, to the round's end)"),
    col("start_event_idx", I32, "First event in furiten (the pass, or the discard that made it)"),
    col("end_event_idx", I32, "The event that ends it (the seat's next discard); null: the round's end", True),
]  # fmt: skip

FURITEN_PASSES = [
    *ROUND_KEY,
    col("event_idx", I32, "The event that let the winning tile go (a discard, or an added kan: a chankan chance)"),
    col("seat", I8, "The tenpai seat that let it go"),
    col("tile", I16, "The winning tile (136-id)"),
    col("tile34", I8, "Its 34-kind"),
    col("from_seat", I8, "Seat that released the tile (the seat itself: it discarded the winning tile it had just "
       "drawn, a declined tsumo)"),
    col("action", STR, "discard or kakan"),
    col("was_furiten", BOOL, "The seat was furiten already (any kind)"),
    col("in_riichi", BOOL, "The seat had declared riichi"),
    col("furiten_kind", STR, "The furiten the pass leaves: own_discard (its own discard), temporary, riichi"),
    col(
        "has_yaku", BOOL,
        "A win on the tile would have had a yaku, dora aside (rules.scoring; a passed tsumo scored as a tsumo)", True,
    ),  # fmt: skip
]  # fmt: skip

WIN_CHECKS = [
    *ROUND_KEY,
    col("win_idx", I8, "Order of the win within the round"),
    col("seat", I8, "Winner"),
    col("is_tsumo", BOOL, "Self-drawn win"),
    col("waits_mask", I64, "The winner's waits just before the winning tile arrived (34-bit mask)"),
    col("is_tile_in_waits", BOOL, "The winning tile is one of those waits"),
    col("is_furiten", BOOL, "A ron by a furiten seat (null for a tsumo: furiten may win by tsumo)", True),
    col("furiten_kind", STR, "own_discard, temporary or riichi when is_furiten", True),
    col("is_own_discard_furiten", BOOL, "One of those waits is among the winner's own discards of the round (for a "
       "tsumo too: furiten may win by tsumo)"),
]  # fmt: skip

RIICHI = [
    *ROUND_KEY,
    col("seat", I8, "Seat that declared riichi"),
    col("event_idx", I32, "The riichi declaration (step 1)"),
    col("discard_event_idx", I32, "The riichi discard (the declarer's next event); null: not found", True),
    col("waits_mask", I64, "Winning 34-kinds of the declared hand (after the riichi discard); null: not found", True),
    col("n_waits", I8, "Winning kinds of the declared hand; null: not found", True),
    col("is_tenpai", BOOL, "The declared hand is formally tenpai; null: not found", True),
    col("live_waits_public", I16, "Winning tiles not visible to the declarer after the riichi discard", True),
    col("is_karaten", BOOL, "Declared on a wait whose every tile is visible to the declarer", True),
    col("is_own_discard_furiten", BOOL, "Furiten riichi: a wait is among the declarer's own discards (the riichi "
       "discard included); null: not found", True),
]  # fmt: skip

ABORT_CHECKS = [
    *ROUND_KEY,
    col("abort_kind", STR, "Abortive draw derived from the events (kyuushu_kyuuhai, suufon_renda, suucha_riichi, "
       "suukaikan, sanchahou); null: none", True),
    col("abort_kind_logged", STR, "The abortive draw the log labels; null: none", True),
    col("abort_event_idx", I32, "The event the derived abort follows; null: none or sanchahou", True),
    col("n_riichi_accepted", I8, "Riichi accepted in the round"),
    col("n_kans", I8, "Kans formed in the round"),
    col("n_kan_seats", I8, "Seats that formed them"),
    col("is_four_kans_one_seat", BOOL, "Four kans by one seat (a suukantsu chance): no abort"),
    col("n_could_ron_last", I8, "Seats that could ron the round's last discard or added kan (waits, not furiten)"),
]  # fmt: skip

KYUUSHU = [
    *ROUND_KEY,
    col("seat", I8, "Seat"),
    col("first_draw_event_idx", I32, "The seat's first draw of the round"),
    col("is_uninterrupted", BOOL, "No call, kan or kita happened before it"),
    col("n_orphan_kinds", I8, "Distinct terminal and honor kinds among the seat's 13 dealt tiles and that drawn tile, "
        "counted also when a call came first (is_uninterrupted false; a seat that called holds other tiles)"),
    col("is_eligible", BOOL, "Kyuushu kyuuhai could be declared: uninterrupted and 9+ kinds"),
    col("is_declared", BOOL, "Derived: the round stopped on that eligible draw without a win"),
    col("is_declared_logged", BOOL, "The log labels the round kyuushu kyuuhai and shows this seat's hand"),
]  # fmt: skip

SEAT_ROUNDS = [
    *ROUND_KEY,
    col("seat", I8, "Seat (one row per seat with a hand: 4 per round, 3 in sanma)"),
    col("is_dealer", BOOL, "The seat deals this round"),
    col("has_riichi", BOOL, "The seat declared riichi (accepted or not: a ron on the declaration tile counts)"),
    col("n_open_calls", I8, "Chi, pon and open kans (daiminkan) the seat called"),
    col("is_win", BOOL, "The seat won the round (tsumo or ron; every winner of a multiple ron)"),
    col("win_points", I32, "Points of the seat's win as recorded (hand value, before honba and sticks); null unless "
       "it won", True),
    col("is_deal_in", BOOL, "A ron was won off the seat's discard or added kan (a multiple ron counts once)"),
    col("score_change", I32, "scores_post - scores_pre: everything the seat paid and received in the round (win or "
       "draw payments, honba, riichi deposits and sticks), full points"),
    col("n_discards", I16, "The seat's discards in the round: a turn (Mortal's jun) is one own discard"),
    col("riichi_turn", I16, "The seat's discards before its riichi declaration (the riichi discard not counted); null "
       "without one", True),
    col("is_riichi_accepted", BOOL, "The seat's riichi stick was put down (the declaration tile was not ronned)"),
    col("n_riichi_before", I8, "Riichi declarations by other seats earlier in the round; null without its own", True),
    col("n_riichi_after", I8, "Riichi declarations by other seats later in the round; null without its own", True),
    col("starting_shanten", I8, "Shanten of the 13 tiles dealt (regular, seven pairs, thirteen orphans)", True),
]  # fmt: skip

DERIVED_TABLES: dict[str, list[Column]] = {
    "hand_states": HAND_STATES,
    "draw_outcomes": DRAW_OUTCOMES,
    "round_transitions": ROUND_TRANSITIONS,
    "furiten": FURITEN,
    "furiten_passes": FURITEN_PASSES,
    "win_checks": WIN_CHECKS,
    "riichi": RIICHI,
    "abort_checks": ABORT_CHECKS,
    "kyuushu": KYUUSHU,
    "seat_rounds": SEAT_ROUNDS,
    **SCORING_TABLES,
}
"""Tables written by the rules layer (``paipu derive``), one part per games part."""
