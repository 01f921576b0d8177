"""The fact tables written by the parsers, and the manifest."""

from __future__ import annotations

import pyarrow as pa

from pipeline.schema.base import BOOL, F64, I8, I16, I32, I64, ROUND_KEY, STR, TILES, Column, col

GAMES = [
    col("game_id", STR, "Game id: the provider's log id when known, else 'fp-' + a hash of the file's own first "
        "round (its text)"),
    col("source", STR, "Input format the game was read from, e.g. 'tenhou_xml'"),
    col("fingerprint", STR, "Content fingerprint: the first round's deal, indicator, scores (pipeline.identity); "
        "one per game, the same in every format and layout"),
    col("source_file", STR, "Path of the file the stored copy was read from"),
    col("started_at", pa.timestamp("ms"), "Start time from the log id (Japan time), null when unknown", True),
    col("year", I16, "Year the game was played, from the log id; null when unknown", True),
    col("rule_code", I32, "Provider rule code (Tenhou GO type bit field)"),
    col("lobby", I32, "Provider lobby number, null when not recorded", True),
    col("n_players", I8, "3 (sanma) or 4"),
    col("room", STR, "ippan, joukyuu, tokujou or houou"),
    col("is_hanchan", BOOL, "East+South game (false: East only, tonpuu)"),
    col("has_red_fives", BOOL, "Red fives are in play"),
    col("has_kuitan", BOOL, "Open tanyao counts"),
    col("is_fast", BOOL, "Fast (soku) table"),
    col("is_vs_humans", BOOL, "Played against humans (not computer opponents)"),
    col("is_custom_rule", BOOL, "Custom-rule lobby (rule code above 0xFF or a csrule): rules may differ"),
    col("n_rounds", I16, "Rounds stored for this game (complete rounds only)"),
    col("n_events", I32, "Events stored for this game"),
    col("log_quirks", pa.list_(STR), "Departures from the server's own format found while reading (see README)"),
    col("is_server_log", BOOL, "No quirk says another tool wrote or edited the log: its labels can be trusted"),
    col("is_complete", BOOL, "The log reaches the game's end (final scores recorded)"),
]

PLAYERS = [
    col("game_id", STR, "Game id"),
    col("seat", I8, "Absolute seat 0-3; seat 0 is the first dealer"),
    col("name", STR, "Player name (percent-decoded)", True),
    col("dan", I8, "Rank index as the provider records it (Tenhou: 0 = shinjin ... 20 = tenhoui)", True),
    col("rate", F64, "Rating at the start of the game", True),
    col("sex", STR, "Sex as recorded ('M', 'F', 'C' computer)", True),
    col(
        "final_score",
        I32,
        "Score at the end of the game, full points; null when the game is incomplete",
        True,
    ),
    col("final_points", F64, "Game points with uma/oka as the provider computed them", True),
    col("final_rank", I8, "Placement 1-4 at the end (ties broken by seat), null when incomplete", True),
    col("n_disconnects", I16, "Disconnections recorded for this seat"),
    col("n_reconnects", I16, "Reconnections recorded for this seat"),
]

ROUNDS = [
    *ROUND_KEY,
    col("round_wind", I8, "Prevailing wind: 0 East, 1 South, 2 West, 3 North"),
    col("kyoku", I8, "Hand number within the wind, 0-3 (East 1 = 0)"),
    col("dealer", I8, "Seat of the dealer"),
    col("honba", I16, "Honba (repeat) counter at the start"),
    col("riichi_sticks", I16, "Riichi sticks on the table at the start"),
    col("dice", pa.list_(I8), "The two dice"),
    col("dora_indicator", I16, "136-id of the first dora indicator"),
    col("scores_pre", pa.list_(I32), "Scores of seats 0-3 at the start, full points (empty sanma seat: 0)"),
    col("hands_start", pa.list_(TILES), "Starting 13 tiles of seats 0-3 (136-ids; empty list for no player)"),
    col("n_events", I32, "Events in the round"),
    col("end_kind", STR, "'win' or 'draw'"),
    col("n_winners", I8, "Winners (2 or 3 on a multiple ron; 0 on a draw)"),
    col("scores_post", pa.list_(I32), "Scores at the end after all payments, full points"),
    col("is_last", BOOL, "Last round of a complete game"),
    col("source_index", I32, "Index of the round's first element in the source file"),
]

EVENTS = [
    *ROUND_KEY,
    col("event_idx", I32, "0-based order of the event within the round"),
    col("seat", I8, "Seat acting (null for a dora reveal)", True),
    col(
        "action",
        STR,
        "draw, discard, chi, pon, daiminkan, kakan, ankan, kita, riichi (declared), riichi_accepted, "
        "dora (new indicator), disconnect, reconnect",
    ),
    col("tile", I16, "136-id: drawn/discarded tile, called or added tile, kita tile, dora indicator", True),
    col("tile34", I8, "34-kind of tile", True),
    col("is_red", BOOL, "tile is a red five (and red fives are in play)", True),
    col("from_seat", I8, "Seat the called tile came from (chi, pon, daiminkan; kakan: the pon's)", True),
    col("is_tsumogiri", BOOL, "Discard of the tile just drawn (discards only)", True),
    col("is_rinshan", BOOL, "Replacement draw after a kan or kita (draws only)", True),
    col("meld_tiles", TILES, "All tiles of the meld after the call (calls only), 136-ids", True),
    col("source_index", I32, "Index of the element in the source file"),
]

WINS = [
    *ROUND_KEY,
    col("win_idx", I8, "Order of the win within the round (multiple ron: 0, 1, 2)"),
    col("seat", I8, "Winner's seat"),
    col("from_seat", I8, "Seat that dealt in; equals seat on a tsumo"),
    col("is_tsumo", BOOL, "Self-drawn win"),
    col("pao_seat", I8, "Seat liable (pao/sekinin barai), null when none", True),
    col("tile", I16, "136-id of the winning tile"),
    col("tile34", I8, "34-kind of the winning tile"),
    col("is_red", BOOL, "The winning tile is a red five"),
    col("hand", TILES, "Closed tiles at the win, winning tile included (136-ids, as the log shows them)"),
    col("melds", pa.list_(TILES), "Tiles of each chi, pon and kan at the win (136-ids); kita not included"),
    col("n_kita", I8, "North tiles set aside as kita (sanma nuki dora) at the win"),
    col("fu", I16, "Fu as recorded by the server; null when the log does not record it (JSON limit hands)", True),
    col("han", I16, "Han as recorded: sum of the yaku han (13 per yakuman)"),
    col("points", I32, "Hand value as recorded (before honba and sticks), full points"),
    col("limit_name", STR, "'' (below mangan), mangan, haneman, baiman, sanbaiman, yakuman"),
    col("yaku", pa.list_(I16), "Provider yaku ids (yakuman ids for a yakuman hand)"),
    col("yaku_names", pa.list_(STR), "English names of the yaku, in the order recorded"),
    col("yaku_han", pa.list_(I16), "Han of each yaku (13 for each yakuman)"),
    col("is_yakuman", BOOL, "The hand is a yakuman"),
    col("dora_indicators", TILES, "Dora indicators at the win"),
    col("ura_indicators", TILES, "Ura dora indicators (riichi wins), empty otherwise"),
    col("honba", I16, "Honba counter of the round"),
    col("riichi_sticks", I16, "Riichi sticks on the table when the round's result came"),
    col("scores_pre", pa.list_(I32), "Scores of seats 0-3 before this result, full points"),
    col("score_deltas", pa.list_(I32), "Score change of seats 0-3 from this result, full points"),
    col("source_index", I32, "Index of the element in the source file"),
]

DRAWS = [
    *ROUND_KEY,
    col(
        "kind",
        STR,
        "exhaustive, nagashi_mangan, kyuushu_kyuuhai, suufon_renda, suucha_riichi, suukaikan, sanchahou",
    ),
    col("is_abortive", BOOL, "An abortive draw (tochuu ryuukyoku): not exhaustive and not nagashi mangan"),
    col("honba", I16, "Honba counter of the round"),
    col("riichi_sticks", I16, "Riichi sticks on the table at the draw"),
    col("is_shown", pa.list_(BOOL), "Seats 0-3 whose hand the log shows (exhaustive draw: the tenpai seats)"),
    col("n_shown", I8, "Number of hands shown"),
    col("hands_shown", pa.list_(TILES), "Shown closed hands of seats 0-3 (empty list when not shown)"),
    col("scores_pre", pa.list_(I32), "Scores of seats 0-3 before the draw's payments, full points"),
    col("score_deltas", pa.list_(I32), "Score change of seats 0-3 at the draw, full points"),
    col("source_index", I32, "Index of the element in the source file"),
]

SERVER_FLAGS = [
    *ROUND_KEY,
    col("event_idx", I32, "The event whose record carries the flags; null: at the deal", True),
    col("seat", I8, "Seat the flags are about"),
    col("action", STR, "The record's action: deal, draw, discard, chi, pon, daiminkan"),
    col("is_furiten", BOOL, "The server's furiten flag for the seat after that record (Mahjong Soul zhenting); "
       "null when the record gives only waits", True),
    col("waits_mask", I64, "The server's waits for the seat as 34-kind bits (Mahjong Soul tingpais; bit k = kind k); "
       "null when the record lists none for the seat", True),
]  # fmt: skip

MANIFEST = [
    col("path", STR, "Input file path as given (absolute)"),
    col("size", I64, "File size in bytes"),
    col("mtime_ns", I64, "File modification time when read, ns since the epoch (null: a container's member)", True),
    col("content_hash", STR, "BLAKE2b-128 of the file's bytes"),
    col("format", STR, "Detected format, null when none", True),
    col("status", STR, "ok, duplicate (game already stored), conflict (disagrees with the copy stored), quarantined "
        "(unreadable or failing a check), not_a_log, skipped (not read: FIFO, link...), pending (not downloaded)"),
    col("reason", STR, "Why the file has its status, as a code (pipeline.ingest.status.REASONS; null when ok): e.g. "
        "copy_of_stored, round_disagrees, malformed, invariant_check, not_read", True),
    col("error", STR, "Why the file was quarantined or is a duplicate, naming game/round/tag", True),
    col("n_games", I32, "Games read from the file"),
    col("game_ids", pa.list_(STR), "Ids of the games the file holds (as read from this file)"),
    col("fingerprints", pa.list_(STR), "Fingerprints of those games: join games.fingerprint to find the stored copy"),
    col("paipu_version", STR, "paipu version that read the file"),
    col("ingested_at", pa.timestamp("ms"), "When the file was read (UTC)"),
]


TABLES: dict[str, list[Column]] = {
    "games": GAMES,
    "players": PLAYERS,
    "rounds": ROUNDS,
    "events": EVENTS,
    "wins": WINS,
    "draws": DRAWS,
    "server_flags": SERVER_FLAGS,
}
"""The fact tables written by the parsers, by name (server_flags only by formats that record such flags)."""
