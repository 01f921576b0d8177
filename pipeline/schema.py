"""The declared schema of every warehouse table: column name, type, nullability, description.

Parsers fill per-table column lists (``new_buffers``) and turn them into one Arrow table per batch
(``to_arrow``), which checks that every declared column is there and casts to the declared type.
Descriptions travel with the data as Parquet field metadata.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from pipeline.columns import ColumnValues, to_arrow_array
from pipeline.errors import SchemaError

SCHEMA_VERSION = "1"
"""Bumped whenever a table's columns change; stored in every Parquet file's key-value metadata."""

I8, I16, I32, I64 = pa.int8(), pa.int16(), pa.int32(), pa.int64()
STR, BOOL, F64 = pa.string(), pa.bool_(), pa.float64()
TILES = pa.list_(I16)
"""A list of 136-ids."""


@dataclass(frozen=True)
class Column:
    """One declared column: name, Arrow type, whether nulls are allowed, what it means."""

    name: str
    type: pa.DataType
    nullable: bool
    description: str


def _c(name: str, type_: pa.DataType, description: str, nullable: bool = False) -> Column:
    return Column(name, type_, nullable, description)


_ROUND_KEY = [
    _c("game_id", STR, "Game id: the provider's log id when known, else 'fp-' + the content fingerprint"),
    _c("round_idx", I16, "0-based index of the round (kyoku) in the game"),
]

GAMES = [
    _c("game_id", STR, "Game id: the provider's log id when known, else 'fp-' + the content fingerprint"),
    _c("source", STR, "Input format the game was read from, e.g. 'tenhou_xml'"),
    _c("fingerprint", STR, "Hash of the shuffle seed and first deal: the same game in two files has one"),
    _c("source_file", STR, "Path of the file the stored copy was read from"),
    _c("started_at", pa.timestamp("ms"), "Start time from the log id (Japan time), null when unknown", True),
    _c("year", I16, "Year the game was played, from the log id; null when unknown", True),
    _c("rule_code", I32, "Provider rule code (Tenhou GO type bit field)"),
    _c("lobby", I32, "Provider lobby number, null when not recorded", True),
    _c("n_players", I8, "3 (sanma) or 4"),
    _c("room", STR, "ippan, joukyuu, tokujou or houou"),
    _c("is_hanchan", BOOL, "East+South game (false: East only, tonpuu)"),
    _c("has_red_fives", BOOL, "Red fives are in play"),
    _c("has_kuitan", BOOL, "Open tanyao counts"),
    _c("is_fast", BOOL, "Fast (soku) table"),
    _c("is_vs_humans", BOOL, "Played against humans (not computer opponents)"),
    _c("is_custom_rule", BOOL, "Custom-rule lobby (rule code above 0xFF or a csrule): rules may differ"),
    _c("n_rounds", I16, "Rounds stored for this game (complete rounds only)"),
    _c("n_events", I32, "Events stored for this game"),
    _c("log_quirks", pa.list_(STR), "Departures from the server's own format found while reading (see README)"),
    _c("is_server_log", BOOL, "No quirk says another tool wrote or edited the log: its labels can be trusted"),
    _c("is_complete", BOOL, "The log reaches the game's end (final scores recorded)"),
]

PLAYERS = [
    _c("game_id", STR, "Game id"),
    _c("seat", I8, "Absolute seat 0-3; seat 0 is the first dealer"),
    _c("name", STR, "Player name (percent-decoded)", True),
    _c("dan", I8, "Rank index as the provider records it (Tenhou: 0 = shinjin ... 20 = tenhoui)", True),
    _c("rate", F64, "Rating at the start of the game", True),
    _c("sex", STR, "Sex as recorded ('M', 'F', 'C' computer)", True),
    _c(
        "final_score",
        I32,
        "Score at the end of the game, full points; null when the game is incomplete",
        True,
    ),
    _c("final_points", F64, "Game points with uma/oka as the provider computed them", True),
    _c("final_rank", I8, "Placement 1-4 at the end (ties broken by seat), null when incomplete", True),
    _c("n_disconnects", I16, "Disconnections recorded for this seat"),
    _c("n_reconnects", I16, "Reconnections recorded for this seat"),
]

ROUNDS = [
    *_ROUND_KEY,
    _c("round_wind", I8, "Prevailing wind: 0 East, 1 South, 2 West, 3 North"),
    _c("kyoku", I8, "Hand number within the wind, 0-3 (East 1 = 0)"),
    _c("dealer", I8, "Seat of the dealer"),
    _c("honba", I16, "Honba (repeat) counter at the start"),
    _c("riichi_sticks", I16, "Riichi sticks on the table at the start"),
    _c("dice", pa.list_(I8), "The two dice"),
    _c("dora_indicator", I16, "136-id of the first dora indicator"),
    _c("scores_pre", pa.list_(I32), "Scores of seats 0-3 at the start, full points (empty sanma seat: 0)"),
    _c("hands_start", pa.list_(TILES), "Starting 13 tiles of seats 0-3 (136-ids; empty list for no player)"),
    _c("n_events", I32, "Events in the round"),
    _c("end_kind", STR, "'win' or 'draw'"),
    _c("n_winners", I8, "Winners (2 or 3 on a multiple ron; 0 on a draw)"),
    _c("scores_post", pa.list_(I32), "Scores at the end after all payments, full points"),
    _c("is_last", BOOL, "Last round of a complete game"),
    _c("source_index", I32, "Index of the round's first element in the source file"),
]

EVENTS = [
    *_ROUND_KEY,
    _c("event_idx", I32, "0-based order of the event within the round"),
    _c("seat", I8, "Seat acting (null for a dora reveal)", True),
    _c(
        "action",
        STR,
        "draw, discard, chi, pon, daiminkan, kakan, ankan, kita, riichi (declared), riichi_accepted, "
        "dora (new indicator), disconnect, reconnect",
    ),
    _c("tile", I16, "136-id: drawn/discarded tile, called or added tile, kita tile, dora indicator", True),
    _c("tile34", I8, "34-kind of tile", True),
    _c("is_red", BOOL, "tile is a red five (and red fives are in play)", True),
    _c("from_seat", I8, "Seat the called tile came from (chi, pon, daiminkan; kakan: the pon's)", True),
    _c("is_tsumogiri", BOOL, "Discard of the tile just drawn (discards only)", True),
    _c("is_rinshan", BOOL, "Replacement draw after a kan or kita (draws only)", True),
    _c("meld_tiles", TILES, "All tiles of the meld after the call (calls only), 136-ids", True),
    _c("source_index", I32, "Index of the element in the source file"),
]

WINS = [
    *_ROUND_KEY,
    _c("win_idx", I8, "Order of the win within the round (multiple ron: 0, 1, 2)"),
    _c("seat", I8, "Winner's seat"),
    _c("from_seat", I8, "Seat that dealt in; equals seat on a tsumo"),
    _c("is_tsumo", BOOL, "Self-drawn win"),
    _c("pao_seat", I8, "Seat liable (pao/sekinin barai), null when none", True),
    _c("tile", I16, "136-id of the winning tile"),
    _c("tile34", I8, "34-kind of the winning tile"),
    _c("is_red", BOOL, "The winning tile is a red five"),
    _c("hand", TILES, "Closed tiles at the win, winning tile included (136-ids, as the log shows them)"),
    _c("melds", pa.list_(TILES), "Tiles of each chi, pon and kan at the win (136-ids); kita not included"),
    _c("n_kita", I8, "North tiles set aside as kita (sanma nuki dora) at the win"),
    _c("fu", I16, "Fu as recorded by the server"),
    _c("han", I16, "Han as recorded: sum of the yaku han (13 per yakuman)"),
    _c("points", I32, "Hand value as recorded (before honba and sticks), full points"),
    _c("limit_name", STR, "'' (below mangan), mangan, haneman, baiman, sanbaiman, yakuman"),
    _c("yaku", pa.list_(I16), "Provider yaku ids (yakuman ids for a yakuman hand)"),
    _c("yaku_names", pa.list_(STR), "English names of the yaku, in the order recorded"),
    _c("yaku_han", pa.list_(I16), "Han of each yaku (13 for each yakuman)"),
    _c("is_yakuman", BOOL, "The hand is a yakuman"),
    _c("dora_indicators", TILES, "Dora indicators at the win"),
    _c("ura_indicators", TILES, "Ura dora indicators (riichi wins), empty otherwise"),
    _c("honba", I16, "Honba counter of the round"),
    _c("riichi_sticks", I16, "Riichi sticks on the table when the round's result came"),
    _c("scores_pre", pa.list_(I32), "Scores of seats 0-3 before this result, full points"),
    _c("score_deltas", pa.list_(I32), "Score change of seats 0-3 from this result, full points"),
    _c("source_index", I32, "Index of the element in the source file"),
]

DRAWS = [
    *_ROUND_KEY,
    _c(
        "kind",
        STR,
        "exhaustive, nagashi_mangan, kyuushu_kyuuhai, suufon_renda, suucha_riichi, suukaikan, sanchahou",
    ),
    _c("is_abortive", BOOL, "An abortive draw (tochuu ryuukyoku): not exhaustive and not nagashi mangan"),
    _c("honba", I16, "Honba counter of the round"),
    _c("riichi_sticks", I16, "Riichi sticks on the table at the draw"),
    _c("is_shown", pa.list_(BOOL), "Seats 0-3 whose hand the log shows (exhaustive draw: the tenpai seats)"),
    _c("n_shown", I8, "Number of hands shown"),
    _c("hands_shown", pa.list_(TILES), "Shown closed hands of seats 0-3 (empty list when not shown)"),
    _c("scores_pre", pa.list_(I32), "Scores of seats 0-3 before the draw's payments, full points"),
    _c("score_deltas", pa.list_(I32), "Score change of seats 0-3 at the draw, full points"),
    _c("source_index", I32, "Index of the element in the source file"),
]

MANIFEST = [
    _c("path", STR, "Input file path as given (absolute)"),
    _c("size", I64, "File size in bytes"),
    _c("content_hash", STR, "BLAKE2b-128 of the file's bytes"),
    _c("format", STR, "Detected format, null when none", True),
    _c("status", STR, "ok, duplicate (game already stored), quarantined (unreadable), not_a_log"),
    _c("error", STR, "Why the file was quarantined or is a duplicate, naming game/round/tag", True),
    _c("n_games", I32, "Games read from the file"),
    _c("game_ids", pa.list_(STR), "Ids of the games the file holds (as read from this file)"),
    _c("fingerprints", pa.list_(STR), "Fingerprints of those games: join games.fingerprint to find the stored copy"),
    _c("paipu_version", STR, "paipu version that read the file"),
    _c("ingested_at", pa.timestamp("ms"), "When the file was read (UTC)"),
]

HAND_STATES = [
    *_ROUND_KEY,
    _c("seat", I8, "Seat whose hand it is"),
    _c("event_idx", I32, "The event after which the hand is this; null: as dealt", True),
    _c("counts", pa.list_(I8, 34), "Closed tiles per 34-kind (0-4)"),
    _c("red_fives", pa.list_(I8, 3), "Red 5m, 5p, 5s among the closed tiles"),
    _c("n_closed", I8, "Closed tiles held"),
    _c("n_calls", I8, "Melds called (chi, pon, kans); each replaces one of the four melds"),
    _c("shanten", I8, "Tiles away from tenpai (0 tenpai, -1 complete): regular, seven pairs, thirteen orphans"),
    _c("waits_mask", I64, "Winning 34-kinds as bits (bit k = kind k), a fifth copy included; null mid-turn", True),
    _c("n_waits", I8, "Winning kinds; null mid-turn", True),
    _c("is_tenpai", BOOL, "Formal tenpai: some tile completes the hand (no yaku needed); null mid-turn", True),
    _c("live_waits_public", I16, "Winning tiles not visible to the player (not in its hand, ponds, calls, dora "
       "indicators); null unless tenpai", True),
    _c("live_waits_actual", I16, "Winning tiles really left in the wall (also not in any other hand); null unless "
       "tenpai", True),
    _c("is_karaten", BOOL, "Tenpai with every winning tile visible to the player (live_waits_public = 0)", True),
    _c("is_pure_karaten", BOOL, "Every copy of every wait is in the player's own closed hand: Tenhou's noten",
       True),
    _c("is_own_discard_furiten", BOOL, "A wait is among the seat's own discards of the round so far; null mid-turn",
       True),
]  # fmt: skip

DRAW_OUTCOMES = [
    *_ROUND_KEY,
    _c("seat", I8, "Seat"),
    _c("kind", STR, "exhaustive or nagashi_mangan"),
    _c("is_tenpai", BOOL, "Tenpai at the draw by Tenhou's rule: formal tenpai, not pure karaten"),
    _c("is_tenpai_shown", BOOL, "The log shows this seat's hand (Tenhou shows the tenpai hands)"),
    _c("is_formal_tenpai", BOOL, "Some tile completes the hand (a fifth copy included)"),
    _c("is_karaten", BOOL, "Tenpai with every winning tile visible to the player"),
    _c("is_pure_karaten", BOOL, "Every copy of every wait in the player's own closed hand"),
    _c("waits_mask", I64, "Winning 34-kinds as bits at the draw"),
    _c("live_waits_public", I16, "Winning tiles not visible to the player at the draw; null unless tenpai", True),
    _c("live_waits_actual", I16, "Winning tiles left in the wall at the draw; null unless tenpai", True),
    _c("shown_matches_hand", BOOL, "The shown hand equals the tracked closed hand; null when not shown", True),
    _c("is_nagashi", BOOL, "Nagashi mangan by the ponds: discarded, only terminals and honors, none called"),
    _c("is_nagashi_logged", BOOL, "The log pays this seat nagashi mangan (nm draw, score up)"),
]  # fmt: skip

ROUND_TRANSITIONS = [
    *_ROUND_KEY,
    _c("outcome", STR, "win, or the draw kind (exhaustive vs nagashi_mangan derived from the ponds)"),
    _c("draw_payments", pa.list_(I32), "Derived score changes of seats 0-3 at a draw; null when won", True),
    _c("draw_payments_logged", pa.list_(I32), "The draw's score changes in the log; null when won", True),
    _c("ends_game", BOOL, "Derived: the game ends after this round"),
    _c("ends_game_logged", BOOL, "The log's game ends after this round; null after the last round of a cut game", True),
    *[
        c
        for name, meaning in (
            ("round_wind", "prevailing wind"), ("kyoku", "kyoku"), ("dealer", "dealer seat"),
            ("honba", "honba"), ("riichi_sticks", "riichi sticks on the table"),
        )
        for c in (
            _c(f"next_{name}", I16, f"Derived {meaning} of the next round; null when the game ends", True),
            _c(f"next_{name}_logged", I16, f"The next stored round's {meaning}; null when there is none", True),
        )
    ],
]  # fmt: skip

FURITEN = [
    *_ROUND_KEY,
    _c("seat", I8, "Seat"),
    _c("kind", STR, "own_discard (a wait among its own discards), temporary (a pass, until its next discard), riichi "
       "(a pass after riichi, to the round's end)"),
    _c("start_event_idx", I32, "First event in furiten (the pass, or the discard that made it)"),
    _c("end_event_idx", I32, "The event that ends it (the seat's next discard); null: the round's end", True),
]  # fmt: skip

FURITEN_PASSES = [
    *_ROUND_KEY,
    _c("event_idx", I32, "The event that let the winning tile go (a discard, or an added kan: a chankan chance)"),
    _c("seat", I8, "The tenpai seat that let it go"),
    _c("tile", I16, "The winning tile (136-id)"),
    _c("tile34", I8, "Its 34-kind"),
    _c("from_seat", I8, "Seat that released the tile (the seat itself: it discarded the winning tile it had just "
       "drawn, a declined tsumo)"),
    _c("action", STR, "discard or kakan"),
    _c("was_furiten", BOOL, "The seat was furiten already (any kind)"),
    _c("in_riichi", BOOL, "The seat had declared riichi"),
    _c("furiten_kind", STR, "The furiten the pass leaves: own_discard (its own discard), temporary, riichi"),
    _c("has_yaku", BOOL, "A ron on the tile would have had a yaku (null until scoring exists)", True),
]  # fmt: skip

WIN_CHECKS = [
    *_ROUND_KEY,
    _c("win_idx", I8, "Order of the win within the round"),
    _c("seat", I8, "Winner"),
    _c("is_tsumo", BOOL, "Self-drawn win"),
    _c("waits_mask", I64, "The winner's waits just before the winning tile arrived (34-bit mask)"),
    _c("is_tile_in_waits", BOOL, "The winning tile is one of those waits"),
    _c("is_furiten", BOOL, "A ron by a furiten seat (null for a tsumo: furiten may win by tsumo)", True),
    _c("furiten_kind", STR, "own_discard, temporary or riichi when is_furiten", True),
]  # fmt: skip

ABORT_CHECKS = [
    *_ROUND_KEY,
    _c("abort_kind", STR, "Abortive draw derived from the events (kyuushu_kyuuhai, suufon_renda, suucha_riichi, "
       "suukaikan, sanchahou); null: none", True),
    _c("abort_kind_logged", STR, "The abortive draw the log labels; null: none", True),
    _c("abort_event_idx", I32, "The event the derived abort follows; null: none or sanchahou", True),
    _c("n_riichi_accepted", I8, "Riichi accepted in the round"),
    _c("n_kans", I8, "Kans formed in the round"),
    _c("n_kan_seats", I8, "Seats that formed them"),
    _c("is_four_kans_one_seat", BOOL, "Four kans by one seat (a suukantsu chance): no abort"),
    _c("n_could_ron_last", I8, "Seats that could ron the round's last discard or added kan (waits, not furiten)"),
]  # fmt: skip

KYUUSHU = [
    *_ROUND_KEY,
    _c("seat", I8, "Seat"),
    _c("first_draw_event_idx", I32, "The seat's first draw of the round"),
    _c("is_uninterrupted", BOOL, "No call, kan or kita happened before it"),
    _c("n_orphan_kinds", I8, "Distinct terminal and honor kinds in the 14 tiles after that draw"),
    _c("is_eligible", BOOL, "Kyuushu kyuuhai could be declared: uninterrupted and 9+ kinds"),
    _c("is_declared", BOOL, "Derived: the round stopped on that eligible draw without a win"),
    _c("is_declared_logged", BOOL, "The log labels the round kyuushu kyuuhai and shows this seat's hand"),
]  # fmt: skip

DERIVED_TABLES: dict[str, list[Column]] = {
    "hand_states": HAND_STATES,
    "draw_outcomes": DRAW_OUTCOMES,
    "round_transitions": ROUND_TRANSITIONS,
    "furiten": FURITEN,
    "furiten_passes": FURITEN_PASSES,
    "win_checks": WIN_CHECKS,
    "abort_checks": ABORT_CHECKS,
    "kyuushu": KYUUSHU,
}
"""Tables written by the rules layer (``paipu derive``), one part per games part."""

TABLES: dict[str, list[Column]] = {
    "games": GAMES,
    "players": PLAYERS,
    "rounds": ROUNDS,
    "events": EVENTS,
    "wins": WINS,
    "draws": DRAWS,
}
"""The fact tables written by the parsers, by name."""

ALL_TABLES: dict[str, list[Column]] = {**TABLES, **DERIVED_TABLES, "manifest": MANIFEST}
"""Every table of the warehouse, the manifest included."""


def arrow_schema(table: str) -> pa.Schema:
    """Return the declared Arrow schema of a table, descriptions as field metadata."""
    return pa.schema(
        [
            pa.field(c.name, c.type, nullable=c.nullable, metadata={"description": c.description})
            for c in ALL_TABLES[table]
        ]
    )


def new_buffers(table: str) -> dict[str, list]:
    """Return empty per-column lists for a table, to be filled by a parser."""
    return {c.name: [] for c in ALL_TABLES[table]}


def to_arrow(table: str, buffers: dict[str, ColumnValues]) -> pa.Table:
    """Build an Arrow table with the declared schema from column values (see pipeline.columns).

    Raises SchemaError when a column is missing, lengths differ, or a value does not fit its type.
    """
    schema = arrow_schema(table)
    missing = [name for name in schema.names if name not in buffers]
    if missing:
        raise SchemaError(f"table {table}: missing columns {missing}")
    lengths = {len(buffers[name]) for name in schema.names}
    if len(lengths) > 1:
        raise SchemaError(f"table {table}: columns of different lengths {sorted(lengths)}")
    try:
        arrays = [to_arrow_array(buffers[f.name], f.type, f.nullable) for f in schema]
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as exc:
        raise SchemaError(f"table {table}: {exc}") from exc
    null_in_required = [f.name for f, a in zip(schema, arrays, strict=True) if not f.nullable and a.null_count]
    if null_in_required:
        raise SchemaError(f"table {table}: nulls in non-nullable columns {null_in_required}")
    return pa.Table.from_arrays(arrays, schema=schema)


def markdown_tables() -> str:
    """Return the README's description of every table (one markdown table each), from the declarations."""
    out: list[str] = []
    for table, columns in ALL_TABLES.items():
        out += [f"#### `{table}`", "", "| column | type | meaning |", "|---|---|---|"]
        for c in columns:
            type_name = str(c.type).replace("<item: ", "<")
            out.append(f"| `{c.name}` | {type_name}{', null' if c.nullable else ''} | {c.description} |")
        out.append("")
    return "\n".join(out)
