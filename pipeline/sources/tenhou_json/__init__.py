"""tenhou.net/6 JSON format: ``parse(data, source_file) -> list[ParsedGame]`` and ``looks_like(data)``.

The viewer format Tenhou writes (``{"ref", "rule", "name", "dan", "rate", "sx", "sc", "log": [...]}``)
and that third-party tools write for Mahjong Soul games. A file holds one document, a JSON list of
documents, or JSON lines (lines with rounds of one game are joined). It fills the same tables as the
XML parser; the order of draws, calls and discards is rebuilt by a search (replay.py).

What the JSON does not carry, per column (the parity test checks every other column equal to the XML):

games
    ``fingerprint``: the content fingerprint of every format (pipeline.identity: the first round's deal
    by tile kind, indicator and scores), so the same game read from XML and from JSON has one, and the
    second copy ingested is a duplicate; a game without a round has a hash of the rule label and the first
    kyoku as written instead (also its id's, ``'fp-'`` + it, when it has no log id). ``source``:
    'tenhou_json'.
    ``started_at``/``year``: from the Tenhou log id (``ref`` or file name); else the time a converter
    put in ``title[1]`` (Unix seconds or an HTTP date, read as Japan time); else null.
    ``rule_code``: from the log id; without one, built from ``rule.disp`` and the ``aka`` flags (vs humans
    assumed; a Mahjong Soul label has no Tenhou room bits). ``lobby``: the log id's lobby part, else the
    ``lobby`` field, else null. ``room``: Tenhou's rooms ('private' in a lobby other than 0); Mahjong Soul
    labels give bronze, silver, gold, jade, throne or tournament; 'unknown' otherwise. ``is_custom_rule``:
    also true for documents without a Tenhou log id (their rules are not known to be Tenhou's).
    ``has_red_fives``: the tiles win over a rule label that contradicts them (quirk ``red_fives_contradict_rule``).
    ``log_quirks``/``is_server_log``: ``third_party_json`` (no Tenhou log id: converted or hand-made),
    ``win_without_score``, ``draw_tenpai_unrecorded``, ``dora_count_mismatch``,
    ``red_fives_contradict_rule`` all make ``is_server_log`` false. A document whose rule label names a
    Mahjong Soul room (a tensoul-style conversion) also gets Mahjong Soul's rule quirks (``majsoul_rules``,
    ``rule:double_yakuman``, ``rule:triple_ron_wins``, at three players ``rule:sanma_ron_honba_200`` and
    ``rule:ron_on_kita``; ``rule:assumed_ranked``: the ranked rules are assumed), as the Mahjong Soul reader
    records them (pipeline.sources.majsoul.ruleset).
players
    ``dan``: Tenhou dan names map to Tenhou's index; other ranks (Mahjong Soul '雀豪★2') are null.
    ``n_disconnects``/``n_reconnects``: from ``connection`` (Tenhou writes it; converters do not): 0 without.
rounds
    ``dice``: not carried, an empty list. ``hands_start``: the JSON sorts the deal: the order dealt is lost.
    ``source_index``: synthetic (see below).
events
    ``tile``/``meld_tiles`` (and every tile id of every table): the JSON names kinds and red fives, not
    which of the four copies: ids are numbered by this parser (tiles.py); ``tile34`` and ``is_red`` are
    exact. Order: rebuilt; a dora reveal is placed as Tenhou's XML places it (ankan: right after the kan;
    daiminkan/kakan: after the replacement draw, when the caller discards). ``disconnect``/``reconnect``:
    placed by the ``connection`` entry's step (the number of the round's events before it).
    ``source_index``: synthetic, the position in the rebuilt stream of the game (rounds, events and
    results numbered in game order); it points at no element of the file. Three players: a kita ('f44'
    in the discard list) is a 'kita' event (its North as ``meld_tiles``) followed by the replacement draw;
    a call string's position counts round the four seats as at four players (seat 0's 'opposite' is seat 2);
    the empty fourth seat has no hand; a chi is a ParseError. A closed kan robbed by a ron (kokushi) turns
    its indicator only when the JSON lists one.
wins
    ``fu``: not written for limit hands ('満貫8000点'): null. ``yaku``/``yaku_han``: Tenhou's JSON drops
    0-han entries; the XML's 0-han ura dora of every riichi win is restored. Converters' names are read
    too (codes.py: Mahjong Soul's Japanese and English fan names); kita ('抜きドラ', listed apart) join the
    dora entry as the XML counts them; a wind yaku written without its wind ('役牌:自風牌', '役牌:場風牌')
    takes the winner's seat wind (East, South, West in turn order at three players) or the round wind;
    under ``rule:double_yakuman`` a double yakuman written '(役満)' counts 26. ``n_kita``: the kita of the
    winner. ``hand``: sorted ids.
    A win without a score string (some tools) has no fu (null), han and points 0 (quirk ``win_without_score``).
    ``source_index``: synthetic.
draws
    ``is_shown``/``hands_shown``: the JSON shows no hands. Exhaustive draw: the tenpai seats are the ones
    the noten payments pay (全員聴牌: all, 全員不聴: none); nagashi mangan, and a 流局 without payments,
    do not tell: no hand shown, quirk ``draw_tenpai_unrecorded``. Kyuushu kyuuhai: the declarer (the
    seat that drew last); suucha riichi: every hand; sanchahou: every seat but the discarder. The shown
    hands are the replayed closed hands. ``source_index``: synthetic.
"""

from pipeline import lazy_exports

__all__ = ["SOURCE", "looks_like", "parse"]

# the parser (and its compiled core) is imported when first used: detecting a format reads the head only
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "SOURCE": "pipeline.sources.tenhou_json.parser",
        "looks_like": "pipeline.sources.tenhou_json.document",
        "parse": "pipeline.sources.tenhou_json.parser",
    },
)
