"""Mahjong Soul game records: ``parse(data, source_file)``, ``looks_like(data)``, ``server_flags(data, source_file)``.

Input: the record messages of Mahjong Soul's schema (liqi.json) — RecordNewRound, RecordDealTile,
RecordDiscardTile, RecordChiPengGang, RecordAnGangAddGang, RecordBaBei, RecordHule, RecordNoTile,
RecordLiuJu — in JSON (a head + records document, records alone, round excerpts) or in the binary
protobuf form (read without a protobuf package: wire.py); see document.py. Other record types (special
modes) raise UnknownCodeError.

Seats: Mahjong Soul's seats are absolute and seat 0 is the first dealer (East of East 1; the dealer of
kyoku ``ju`` is seat ``ju``), so they are kept as they are. A three-player game uses seats 0-2 and leaves
seat 3 empty. Tiles: '1m'..'9m', '0m' the red 5m (same for p, s), '1z'..'7z' East South West North haku
hatsu chun, numbered as 136-ids (tiles.py).

How the tables are filled, per column where Mahjong Soul differs from Tenhou's XML:

games
    ``game_id``: the game uuid (head, a top-level key naming the source file, or the file name), else 'fp-' + a hash
    of the first round as written. ``fingerprint``: the content fingerprint of every format (pipeline.identity); a
    game without a round has a hash of the uuid (else of its first round as written). ``started_at``: the head's
    start_time as Japan time; ``year`` also from the uuid's YYMMDD. ``rule_code``: Tenhou GO bits built from the
    rules (vs humans, red fives, kuitan, hanchan, sanma; no room bits). ``room``: bronze, silver, gold, jade, throne
    (ranked ``mode_id``), friendly, tournament, unknown. ``lobby``: friendly room id or contest id. ``is_fast``:
    false. ``is_custom_rule``: false for a ranked match (the head's ``mode_id``), else true; ``is_server_log``: true
    (the records are the server's) unless a quirk below says otherwise. ``log_quirks``: ``majsoul_rules`` (Mahjong
    Soul's rules, not Tenhou's) and the ``rule:`` quirks of ruleset.py (the rules that differ from the rules layer's
    Tenhou rules), ``game_excerpt`` (the file starts after East 1 0 honba), ``draw_tenpai_unrecorded``,
    ``tsumogiri_mismatch``; the last two make ``is_server_log`` false.
players
    ``name``/``dan``: the head's accounts (``dan``: novice 1 = 0 ... saint 3 = 14, celestial 15+);
    ``rate``/``sex``: null; ``final_points``: the head's total_point / 1000, else null.
rounds
    ``kyoku``/``dealer``: ``ju``; ``dice``: empty (not recorded); ``hands_start``: 13 tiles each, the
    dealer's 14th dealt tile is its first draw (event 0): the last tile dealt, or the tile a tsumogiri
    first discard or a heavenly hand names. ``source_index``: the record's position in the file.
events
    Tenhou XML's order (play.py; the compiled play, kernel.py, applies the same rules). ``is_tsumogiri`` follows
    the ids, which follow ``moqie``.
wins
    Tenhou yaku ids (codes.FAN_TO_YAKU); yakuman 13 han per multiple (double yakuman: 26). ``points``:
    point_rong, a tsumo's point_zimo_qin / point_zimo_xian payments (not point_sum: since 2021 the
    winner's running total in the game), else the winner's gain less sticks and honba. ``score_deltas``:
    see results.py.
    ``pao_seat``: ``baopai_seats`` if recorded, else the seat that fed the completing pon/kan of a
    daisangen or daisuushii.
draws
    RecordLiuJu types 1-5: kyuushu kyuuhai, suufon renda, suukaikan, suucha riichi, sanchahou (checked
    against the events). Tenpai at an exhaustive draw: ``players[].tingpai``, else the noten payments.

``server_flags`` returns the server's own ``zhenting`` (RecordDealTile, RecordDiscardTile,
RecordChiPengGang: one flag per seat) and ``tingpais`` (the discarder's waits; RecordNewRound ``tingpai``:
waits at the deal) per (game_id, round_idx, event_idx, seat), for the audit against the rules layer.
"""

from pipeline import lazy_exports

__all__ = ["SOURCE", "looks_like", "parse", "server_flags"]

# the parser (and its compiled core) is imported when first used: detecting a format reads the head only
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "SOURCE": "pipeline.sources.majsoul.parser",
        "looks_like": "pipeline.sources.majsoul.document",
        "parse": "pipeline.sources.majsoul.parser",
        "server_flags": "pipeline.sources.majsoul.parser",
    },
)
