"""The rule set of a Mahjong Soul game, and how it is recorded in games.log_quirks.

Sources: the game head (``config.mode.mode``, ``config.meta``, ``config.mode.detail_rule``) when the file
has one; else Mahjong Soul's ranked-match (段位戦) defaults: the ranked "basic rule" values
(``have_liujumanguan`` true, ``have_qieshangmanguan`` false, ``have_sanjiahele`` false, ``have_toutiao``
false, ``shiduan`` true, ``dora_count`` 3, ...), the client's defaults for friendly rooms (noten payments
1000/1500/3000, sanma 1000/2000; honba 300, sanma 200) and the records themselves (3 seats dealt: sanma;
red fives seen or not).

Every game gets the quirk ``majsoul_rules`` (its rules are Mahjong Soul's, not Tenhou's); ``is_custom_rule``
is false for a ranked match (the head's ``mode_id``: the ranked lobby's standard rules) and true otherwise
(friendly rooms and tournaments set their own ``detail_rule``; a file without a head does not say). The
rules that differ from the Tenhou rules paipu's rules layer follows (rules.payments, rules.rotation,
rules.scoring) each add a ``rule:`` quirk:

* ``rule:triple_ron_wins``: three rons on one discard are three wins (no sanchahou abort;
  ``have_sanjiahele`` false). Absent when a head's detail_rule turns the abort on.
* ``rule:double_yakuman``: junsei chuuren poutou, suuankou tanki, kokushi musou 13-sided and daisuushii
  count two yakuman (fan ``val`` 2; Tenhou counts one).
* ``rule:sanma_ron_honba_200``: sanma only: a honba counter is worth (players - 1) x 100, so a ron pays
  200 per counter (the rules layer pays 300); a tsumo 100 per payer, as in the rules layer.
* ``rule:ron_on_kita``: sanma only: a North set aside (kita) may be ronned like an added kan, and letting it
  go is a furiten pass (the rules layer passes only discards and added kans).
* ``rule:kiriage_mangan`` / ``rule:no_nagashi_mangan``: only when a head's detail_rule says so (ranked:
  no kiriage, nagashi mangan on).
* ``rule:assumed_ranked``: the file has no head: the ranked defaults above are assumed.

Rules that are the same as the rules layer's (no quirk): open tanyao, red fives (one 5m, 5p, 5s; sanma:
5p, 5s), noten payments (3000 in total; sanma 2000), double ron (honba and sticks to the winner nearest
the discarder), pao for daisangen and daisuushii, kan dora of open kans after the discard, kazoe yakuman,
stacked yakuman, no kiriage, agari-yame and tenpai-yame, South/West entry below 30000 (sanma 40000) with
sudden death, tobi below 0, sanma tsumo loss, leftover sticks to first place, ties broken by seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pipeline.errors import UnknownCodeError
from pipeline.sources.base import RULE_DOUBLE_YAKUMAN, RULE_TRIPLE_RON_WINS
from pipeline.sources.majsoul.codes import RANKED_ROOMS, RED_KINDS, parse_tile
from pipeline.sources.majsoul.document import Document

MODES = {1: (4, False), 2: (4, True), 11: (3, False), 12: (3, True)}
"""GameMode.mode -> (players, hanchan): 1/2 four-player East/South, 11/12 three-player East/South."""


@dataclass(frozen=True)
class MajsoulRules:
    """The rules of one game (see the module docstring)."""

    n_players: int
    is_hanchan: bool
    has_red_fives: bool
    has_kuitan: bool = True
    has_nagashi_mangan: bool = True
    has_kiriage_mangan: bool = False
    triple_ron_aborts: bool = False
    has_double_yakuman: bool = True
    is_known: bool = False
    """The values come from the file's head (false: ranked defaults assumed)."""
    is_ranked: bool = False
    """The head names a ranked match: the rules are the ranked lobby's standard ones, not a room's own."""

    def quirks(self) -> set[str]:
        """The ``majsoul_rules`` and ``rule:`` quirks of these rules (see the module docstring)."""
        out = {"majsoul_rules"}
        for flag, quirk in (
            (not self.triple_ron_aborts, RULE_TRIPLE_RON_WINS), (self.has_double_yakuman, RULE_DOUBLE_YAKUMAN),
            (self.n_players == 3, "rule:sanma_ron_honba_200"), (self.n_players == 3, "rule:ron_on_kita"),
            (self.has_kiriage_mangan, "rule:kiriage_mangan"), (not self.has_nagashi_mangan, "rule:no_nagashi_mangan"),
            (not self.is_known, "rule:assumed_ranked"),
        ):  # fmt: skip
            if flag:
                out.add(quirk)
        return out


def _mode(doc: Document) -> int | None:
    """GameMode.mode from the head, else a top-level ``mode`` (round excerpts), else None."""
    config = doc.head.get("config") or {}
    mode = (config.get("mode") or {}).get("mode", doc.extra.get("mode"))
    return mode if isinstance(mode, int) else None


def seats_dealt(doc: Document) -> int:
    """Seats dealt a hand in the first RecordNewRound (4 when there is none)."""
    for record in doc.records:
        if record.kind == "NewRound":
            return sum(bool(record.data.get(f"tiles{s}")) for s in range(4))
    return 4


def red_fives_seen(doc: Document) -> bool | None:
    """What the tiles say: True when a red five appears, False when a wall (paishan) without one or four
    plain copies of a five kind are seen in a round, None when they do not tell."""
    four_plain = False
    for record in doc.records:
        texts = _tile_texts(record.kind, record.data)
        if any(isinstance(t, str) and t[:1] == "0" for t in texts):
            return True
        wall = record.data.get("paishan") if record.kind == "NewRound" else None
        if isinstance(wall, str) and wall:
            return "0" in wall[::2]  # the whole wall: conclusive
        if record.kind == "NewRound":
            kinds = [parse_tile(t)[0] for t in texts]
            four_plain |= any(kinds.count(k) >= 4 for k in RED_KINDS)
    return False if four_plain else None


def _tile_texts(kind: str, data: dict[str, Any]) -> list[Any]:
    """Tile strings a record names (hands, draws, discards, calls, indicators)."""
    if kind == "NewRound":
        return [t for s in range(4) for t in data.get(f"tiles{s}") or []] + list(data.get("doras") or [])
    if kind in ("DealTile", "DiscardTile"):
        return [data.get("tile")]
    return list(data.get("tiles") or []) if kind == "ChiPengGang" else []


def rules_of(doc: Document) -> MajsoulRules:
    """The rules of a document's game; raises UnknownCodeError for a mode paipu does not read
    (two players, one-round modes)."""
    mode = _mode(doc)
    if mode is None:
        n_players, hanchan = (3 if seats_dealt(doc) == 3 else 4), True
    elif mode in MODES:
        n_players, hanchan = MODES[mode]
    else:
        raise UnknownCodeError(f"unsupported game mode {mode}", tag="GameMode")
    seen = red_fives_seen(doc)
    config = doc.head.get("config") or {}
    detail = (config.get("mode") or {}).get("detail_rule")
    ranked = (config.get("meta") or {}).get("mode_id") in RANKED_ROOMS
    if not isinstance(detail, dict) or ranked:
        red = True if seen is None else seen
        return MajsoulRules(n_players, hanchan, red, is_known=bool(doc.head) and ranked, is_ranked=ranked)
    red = bool(detail.get("dora_count")) if seen is None else seen
    return MajsoulRules(
        n_players, hanchan, red, has_kuitan=bool(detail.get("shiduan")),
        has_nagashi_mangan=bool(detail.get("have_liujumanguan")),
        has_kiriage_mangan=bool(detail.get("have_qieshangmanguan")),
        triple_ron_aborts=bool(detail.get("have_sanjiahele")),
        has_double_yakuman=not detail.get("disable_double_yakuman"), is_known=True,
    )  # fmt: skip
