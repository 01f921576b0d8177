"""mjai JSON lines: ``parse(data, source_file) -> list[ParsedGame]`` and ``looks_like(data)``.

The event stream bots and simulators speak (gimite/mjai, akochan, Mortal/libriichi, RiichiEnv,
mjai.app): one JSON event per line (or a JSON list of events per line, or one list), ``start_game``,
``start_kyoku``, ``tsumo``, ``dahai``, ``chi``/``pon``/``daiminkan``/``kakan``/``ankan``,
``nukidora``/``kita``, ``reach``/``reach_accepted``, ``dora``, ``hora``, ``ryukyoku``, ``end_kyoku``,
``end_game``. A file may hold several games (cut at each ``start_game``). Plain bytes only: the caller
decompresses gzip. It fills the same tables as the Tenhou parsers, so every rule, check and audit runs
unchanged.

Decisions
    *Who wrote it.* mjai logs are written by simulators, bots and converters, never by a game server:
    every game carries the quirk ``bot_written`` (or ``converted`` when ``start_game`` holds a Tenhou
    log id, e.g. gimite's ``uri``) and ``is_server_log`` is false, so checks and the audit count them
    apart from server logs.
    *Identity.* ``game_id`` is the Tenhou log id found in ``start_game``, else a ``game_id``/``log_id``/
    ``uuid`` string there, else ``'fp-'`` + a hash of the names and the whole first kyoku as written (two
    copies of a game share it, two games dealt the same wall do not: bot matches often replay seeds).
    ``start_game.id`` is the seat of the bot the stream was sent to (mjai protocol), not a game id.
    ``fingerprint`` is the content fingerprint of every format (pipeline.identity); a game without a
    round has that hash instead.
    *Hidden hands.* A seat whose dealt hand shows a '?' (a log written from one player's view) is not
    followed: ``rounds.hands_start`` is an empty list for it (as for an empty seat), its '?' draws have
    a null ``tile``, each tile it shows (discard, call, kita) gets a fresh id of its kind, and a tsumogiri
    discard also fills in the id of the draw before it. No tile is invented, so the tile-level checks
    (tile_held, tile_once) report such seats: they belong to a non-server log. Quirk ``hidden_hands``.
    *Tile ids.* As the tenhou.net/6 parser: copies numbered per kind in the order tiles enter the round
    (hands, first indicator, draws and later indicators, ura indicators); red fives are 16, 52, 88.

What mjai does not carry, per column (null or the default the schema allows):

games
    ``started_at``/``year``: null (from the log id when converted from Tenhou). ``rule_code``: Tenhou GO
    bits built from what is known (0x02 no red fives, 0x08 hanchan, 0x10 sanma; no vs-humans bit, no
    room bits). ``lobby``: null. ``room``: 'unknown'. ``has_kuitan``: true (assumed, Tenhou-like rules;
    mjai does not say). ``is_fast``: false. ``is_vs_humans``: false (bots). ``is_custom_rule``: true
    (the rules are not known to be Tenhou's; false only with a Tenhou log id). ``is_hanchan``:
    ``kyoku_first`` (0 hanchan, 4 East only); without it, inferred (quirk ``game_length_inferred``): a
    kyoku past East says hanchan, a game that ended in East with no seat below 0 says East only.
    ``has_red_fives``: ``aka_flag``, or red five names anywhere in the game when it is absent (a red
    tile in a game flagged without them: quirk ``red_fives_contradict_rule``, the tiles win).
    ``n_players``: the seats dealt (a fourth seat with 0 points that never acts is an empty sanma seat).
    ``is_complete``: no kyoku was cut before its result, and ``end_game`` came or the last kyoku's
    result ends the game by Tenhou's rules of game end (rules.rotation; quirk ``game_end_inferred``; see
    parser.py).
players
    ``name``: ``start_game.names`` (null when empty). ``dan``, ``rate``, ``sex``, ``final_points``:
    null. ``n_disconnects``/``n_reconnects``: 0. ``final_score`` (complete games only):
    ``end_game.scores``, else the last kyoku's scores after its result with the riichi sticks left on the
    table given to the first place (quirk ``score_mismatch`` when end_game's differ from both).
rounds
    ``dice``: empty. ``hands_start``: empty for a hidden seat. ``source_index``: index of the event in
    the file (lists flattened), as for every table.
events
    ``tile``: numbered ids (kind and red exact); null for a hidden draw. ``is_tsumogiri``: derived from
    the ids (discard of the id just drawn), which follows the log's flag (quirk ``tsumogiri_mismatch``
    when it cannot). ``dora``: where mjai writes it. No ``disconnect``/``reconnect`` events.
wins
    ``tile``: the last tile given (ron, chankan, ron on a kita) or the winner's draw (tsumo); ``pai``,
    when written, must agree. ``hand``: the followed closed tiles with the winning tile; for a hidden
    seat ``hora_tehais`` (empty when not shown); quirk ``shown_hand_mismatch`` when ``hora_tehais``
    differ from the followed tiles. ``fu``: null when not written; rounded up to 10 (25 kept) when a
    writer gives raw fu (akochan; quirk ``fu_unrounded``). ``han``/``yaku``/``yaku_names``/
    ``yaku_han``: from ``yakus`` (or ``yaku``) mapped to Tenhou ids (labels.py), else ``fan``/``han``
    with empty yaku lists (quirk ``win_without_yaku``), else 0 (quirk ``win_without_han``); a yakuman is
    13 han; ``sangenpai`` that the tiles cannot split: quirk ``yaku_unresolved``; ``fan`` differing
    from the yaku: quirk ``han_mismatch``. ``is_yakuman``: a yakuman yaku, or ``fan`` of 100 or more.
    ``points``: ``hora_points``, else the winner's gain less honba and sticks (0 when not known).
    ``limit_name``: from the points (labels.limit_name). ``pao_seat``: the seat the score changes show
    liable, else null. ``ura_indicators``: ``ura_markers``/``uradora_markers``/``uradora_marker`` for a
    riichi winner. ``score_deltas``/``scores_pre``: results.py (``deltas``, else ``scores``, else the
    next kyoku's scores, quirk ``deltas_from_next_round``, else zeros, quirk ``deltas_unrecorded``).
draws
    ``kind``: from ``reason`` (codes.draw_kind); without one, exhaustive when the live wall ran out
    (nagashi mangan when a seat gains more than noten payments give), else the abort the events show
    (quirk ``draw_reason_inferred`` for both). ``is_shown``: ``tenpais`` at an exhaustive draw or
    nagashi, else the seats noten payments pay (neither: none, quirk ``draw_tenpai_unrecorded``); the
    declarer of kyuushu kyuuhai, all at suucha riichi, the winners at sanchahou, none otherwise.
    ``hands_shown``: the followed hands of the shown seats (a hidden seat: the ryukyoku ``tehais``).

Quirks found only as facts of a log: ``no_start_game`` (the stream starts without start_game),
``score_mismatch`` (a kyoku's scores after its result differ from the next kyoku's starting scores or
from ``end_game``). Errors: NotALogError for bytes that are not mjai events; ParseError (or
UnknownCodeError for an unknown tile name, reason, yaku or kyoku_first) naming the file, game, round
and event type for anything else.
"""

from pipeline import lazy_exports

__all__ = ["SOURCE", "looks_like", "parse", "starts_like"]

# the parser (and its compiled core) is imported when first used: detecting a format reads the head only
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "SOURCE": "pipeline.sources.mjai.parser",
        "looks_like": "pipeline.sources.mjai.detect",
        "starts_like": "pipeline.sources.mjai.detect",
        "parse": "pipeline.sources.mjai.parser",
    },
)
