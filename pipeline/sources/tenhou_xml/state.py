"""Running state of one Tenhou game while its elements are read, and the rows it emits.

Draws and discards, calls, riichi and dora indicators are read in bulk (elements.py, hot.py); the handlers
here add the other events as row
tuples (event_columns.ROW_FIELDS) and the rounds, wins and draws rows. The events table is built
once the document is read (event_columns.py).
"""

from __future__ import annotations

import re
import warnings
from datetime import datetime
from operator import itemgetter
from urllib.parse import unquote

import numpy as np

from pipeline.columns import Repeated
from pipeline.errors import ParseError
from pipeline.schema import TABLES, new_buffers
from pipeline.sources.base import final_ranks, set_game_id
from pipeline.sources.tenhou_xml.codes import RuleFlags, decode_rule, room_of
from pipeline.sources.tenhou_xml.event_columns import (
    ACTION_CODE,
    bulk_event_columns,
    check_tiles_enter_once,
    event_columns,
    events_per_round,
)
from pipeline.sources.tenhou_xml.hot import BulkRows
from pipeline.sources.tenhou_xml.melds import decode_meld

WIN_FIELDS = (
    "round_idx", "win_idx", "seat", "from_seat", "is_tsumo", "pao_seat", "tile", "tile34", "is_red", "hand",
    "melds", "n_kita", "fu", "han", "points", "limit_name", "yaku", "yaku_names", "yaku_han", "is_yakuman",
    "dora_indicators", "ura_indicators", "honba", "riichi_sticks", "scores_pre", "score_deltas", "source_index",
)  # fmt: skip
"""The wins columns an AGARI row fills, in the order of GameState.win_rows tuples (game_id comes last)."""

ROUND_FIELDS = (
    "round_idx", "round_wind", "kyoku", "dealer", "honba", "riichi_sticks", "dice", "dora_indicator",
    "scores_pre", "hands_start", "scores_post", "n_winners", "source_index",
)  # fmt: skip
"""The rounds columns a closed round's row fills (end_kind and is_last follow from them)."""
_ROUND_ROW = itemgetter(*ROUND_FIELDS)

TOOL_WRITTEN_QUIRKS = frozenset({"plain_shuffle_seed", "signed_scores", "empty_owari", "winning_tile_not_in_hand"})
"""Quirks only seen in logs written by other tools (bots, clients), never by Tenhou: their labels cannot be trusted."""

EDITED_QUIRKS = frozenset({"empty_shuffle_seed", "header_not_log_id"})
"""Quirks of a server log that a tool changed: the wall seed blanked (Tenhou writes one in every log with a
SHUFFLE element), or a GO header whose type or lobby is not what the log's own id says (pantheon's west.xml:
GO type 1, lobby 0, in a file that names its log 2017030413gm-0009-3821-485c5dae and was played as a hanchan)."""

NON_SERVER_QUIRKS = TOOL_WRITTEN_QUIRKS | EDITED_QUIRKS
"""Quirks that make a log not as the server wrote it (games.is_server_log false)."""

_FROM_OTHERS = frozenset({"chi", "pon", "daiminkan", "kakan"})
_HAND_KEYS = ("hai0", "hai1", "hai2", "hai3")


_ESCAPES_ONLY = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def percent_decoded(text: str) -> str:
    """``urllib.parse.unquote(text)`` (UTF-8, a bad byte replaced): a name written wholly as %XX escapes, as
    Tenhou writes them, decoded in one step (unquote splits and joins it escape by escape)."""
    if _ESCAPES_ONLY.fullmatch(text):
        return bytes.fromhex(text.replace("%", "")).decode("utf-8", "replace")
    return unquote(text)


def tiles_attr(text: str | None) -> list[int]:
    """Parse a comma-separated list of 136-ids ('' -> []); raises ParseError on an id out of range."""
    if not text:
        return []
    tiles = list(map(int, text.split(",")))
    if not 0 <= min(tiles) <= max(tiles) <= 135:
        raise ParseError(f"tile id out of range in {text!r}")
    return tiles


def read_hands(texts: list[list[str]], round_idx: list[int]) -> tuple[list[list[list[int]]], np.ndarray]:
    """The dealt hands of every round from their INIT ``haiN`` texts (four per round, '' for no player), and
    round * 136 + tile of every tile dealt: one split and one conversion for the whole game. Raises ParseError
    naming the round on a bad id or a hand of other than 13 tiles."""
    flat = [text for hands in texts for text in hands]
    joined = ",".join(text for text in flat if text)
    counts = [text.count(",") + 1 if text else 0 for text in flat]
    # numpy reads the comma-separated numbers in C; a text it cannot read raises or gives fewer values
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            values = np.fromstring(joined, dtype=np.int64, sep=",") if joined else np.zeros(0, dtype=np.int64)
    except ValueError:
        values = np.full(1, -1, dtype=np.int64)
    if len(values) != sum(counts) or (len(values) and (values.min() < 0 or values.max() > 135)):
        bad = next(i for i, text in enumerate(flat) if text and not _tile_ids_ok(text))
        raise ParseError(f"bad tile id in hai={flat[bad]!r}", round_idx=round_idx[bad // 4], tag="INIT")
    if any(n not in (0, 13) for n in counts):  # a deal is 13 tiles (none for the empty seat of sanma)
        bad = next(i for i, n in enumerate(counts) if n not in (0, 13))
        raise ParseError(f"hai{bad % 4} deals {counts[bad]} tiles, not 13", round_idx=round_idx[bad // 4], tag="INIT")
    ends = np.cumsum(counts).tolist()
    listed = values.tolist()
    out = [listed[end - n : end] for end, n in zip(ends, counts, strict=True)]
    dealt = np.repeat(np.arange(len(flat)) // 4, counts) * 136 + values
    return [out[i : i + 4] for i in range(0, len(out), 4)], dealt


def _tile_ids_ok(text: str) -> bool:
    try:
        return all(0 <= int(v) <= 135 for v in text.split(","))
    except ValueError:
        return False


INT8, INT16, INT32 = 1 << 7, 1 << 15, 1 << 31
"""Bounds of the integer column types: a number read into such a column must lie in [-bound, bound)."""


def bounded(values: list[int], bound: int, what: str, tag: str) -> list[int]:
    """Return numbers read from an attribute when they fit their column (``bound``, e.g. INT16); raises
    ParseError naming the attribute (``what``) and the tag for one that does not (a garbled 10**20)."""
    if values and not (-bound <= min(values) and max(values) < bound):
        bad = next(v for v in values if not -bound <= v < bound)
        raise ParseError(f"{what} value {bad} out of range", tag=tag)
    return values


def _scores_of(ten: str) -> list[int]:
    """INIT's ``ten``: the four seats' scores in hundreds (an empty sanma seat 0) as full points; raises
    ParseError when it does not hold four."""
    scores = ten.split(",")
    if len(scores) != 4:
        raise ParseError(f"INIT ten holds {len(scores)} scores, not one per seat (4)", tag="INIT")
    return bounded([int(v) * 100 for v in scores], INT32, "ten", "INIT")


def ints_attr(text: str) -> list[int]:
    """Parse a comma-separated list of integers."""
    return list(map(int, text.split(","))) if text else []


class GameState:
    """State of one game being read; owns the game's table buffers."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.tables = {t: new_buffers(t) for t in TABLES}
        self.rules: RuleFlags | None = None
        self.lobby: int | None = None
        self.players_set = False
        self.player_info: list[tuple[str | None, int | None, float | None, str | None]] = []
        self.n_disconnects = [0, 0, 0, 0]
        self.n_reconnects = [0, 0, 0, 0]
        self.final: list[tuple[int, float]] | None = None
        self.events: list[tuple] = []
        self.round_rows: list[tuple] = []
        """Closed rounds as tuples (ROUND_FIELDS order), turned into columns once the document is read."""
        self.win_rows: list[tuple] = []
        """AGARI rows as tuples (WIN_FIELDS order), turned into columns once the document is read."""
        self.bulk_events: tuple[dict, list[int]] | None = None
        """The events columns and events per round built with the rounds in bulk (bulk.read_rounds), the
        handlers' rows included, if so."""
        self.read_in_bulk = False
        """Whether the rounds, wins and draws columns were written at once (bulk.py), not kept as rows."""
        self.dealt = np.zeros(0, dtype=np.int64)
        """round * 136 + tile of every tile dealt in the rounds kept (known once the hands are read)."""
        self.in_round = False
        self.round_idx = -1
        self.n_rounds = 0
        self.is_complete = False
        self.round: dict = {}
        self.quirks: set[str] = set()

    # --- game header -------------------------------------------------------------------------
    def seat(self, value: int, tag: str, attr: str = "who") -> int:
        """Return a seat read from an attribute; raises ParseError when the table has no such seat."""
        n_players = self.rules.n_players if self.rules is not None else 4
        if not 0 <= value < n_players:
            raise ParseError(f"{attr}={value} is not a seat of a {n_players}-player game", tag=tag)
        return value

    def set_rules(self, rule_code: int, lobby: str | None, has_csrule: bool) -> None:
        """Decode the GO tag."""
        self.rules = decode_rule(bounded([rule_code], INT32, "type", "GO")[0], has_csrule)
        self.lobby = bounded([int(lobby)], INT32, "lobby", "GO")[0] if lobby else None

    def match_log_ids(self, named: list[tuple[int, int]]) -> None:
        """Compare the GO header with the (type, lobby) of every log id the file names (its name, a comment):
        a difference marks the header edited ('header_not_log_id'). A header without a lobby (the 2009 format)
        takes the log id's."""
        assert self.rules is not None  # an INIT before GO is a ParseError
        for rule_code, lobby in named:
            if rule_code != self.rules.rule_code or (self.lobby is not None and lobby != self.lobby):
                self.quirks.add("header_not_log_id")
        if self.lobby is None and named:
            self.lobby = named[0][1]

    def players_or_reconnect(self, attrs: dict[str, str], index: int) -> None:
        """First UN: the players; a later UN naming single seats: their reconnection."""
        if not self.players_set:
            dan = bounded(ints_attr(attrs.get("dan", "")), INT8, "dan", "UN")
            rate = [float(r) for r in attrs["rate"].split(",")] if attrs.get("rate") else []
            sex = attrs["sx"].split(",") if attrs.get("sx") else []
            self.player_info = [
                (
                    percent_decoded(attrs[f"n{s}"]) if attrs.get(f"n{s}") else None,
                    dan[s] if s < len(dan) else None,
                    rate[s] if s < len(rate) else None,
                    sex[s] if s < len(sex) and sex[s] else None,
                )
                for s in range(4)
            ]
            self.players_set = True
            return
        for seat in range(4):
            if f"n{seat}" in attrs:
                self.connection(seat, "reconnect", index)

    def connection(self, seat: int, kind: str, index: int) -> None:
        """A disconnect (BYE) or reconnect; kept as an event of the current round."""
        if not 0 <= seat < 4:
            raise ParseError(f"seat {seat} out of range", tag="BYE" if kind == "disconnect" else "UN")
        counts = self.n_disconnects if kind == "disconnect" else self.n_reconnects
        counts[seat] += 1
        # before the first INIT: kept with the first round
        self.events.append((max(self.round_idx, 0), seat, ACTION_CODE[kind], -1, -1, None, index))

    # --- rounds --------------------------------------------------------------------------------
    def start_round(self, attrs: dict[str, str], index: int) -> None:
        """INIT: close the previous round and open a new one."""
        if self.rules is None:
            raise ParseError("INIT before the GO tag (rules unknown)", tag="INIT")
        self._close_round(at_end=False)
        seed = ints_attr(attrs["seed"])
        bounded(seed[:1] + seed[3:5], INT8, "seed", "INIT")  # round and kyoku, dice
        bounded(seed[1:3], INT16, "seed", "INIT")  # honba, riichi sticks
        if "shuffle" in attrs:
            self.quirks.add("shuffle_in_init")
        hands = [attrs.get(key) or "" for key in _HAND_KEYS]  # read at the end, all rounds at once
        self.round_idx = self.n_rounds
        self.in_round = True
        self.round = {
            "round_idx": self.round_idx,
            "round_wind": seed[0] // 4,
            "kyoku": seed[0] % 4,
            "dealer": self.seat(int(attrs["oya"]), "INIT", "oya"),
            "honba": seed[1],
            "riichi_sticks": seed[2],
            "dice": [seed[3], seed[4]],
            "dora_indicator": seed[5] if 0 <= seed[5] <= 135 else tiles_attr(str(seed[5]))[0],
            "scores_pre": _scores_of(attrs["ten"]),
            "hands_start": hands,
            "source_index": index,
            "n_results": 0,
            "n_winners": 0,
            "scores_post": None,
        }

    def result_recorded(self, is_win: bool, scores_post: list[int]) -> None:
        """Note that the round has a result (AGARI or RYUUKYOKU)."""
        self.require_round("result")
        self.round["n_results"] += 1
        self.round["n_winners"] += int(is_win)
        self.round["scores_post"] = scores_post

    def _close_round(self, at_end: bool) -> None:
        if not self.in_round:
            return
        self.in_round = False
        rnd = self.round
        if rnd["n_results"] == 0:
            if not at_end:
                raise ParseError("round ended without a result", round_idx=self.round_idx, tag="INIT")
            return
        self.round_rows.append(_ROUND_ROW(rnd))
        self.n_rounds += 1

    def end_of_document(self) -> None:
        """Close the last round (dropped when it has no result)."""
        self._close_round(at_end=True)

    # --- in-round events -----------------------------------------------------------------------
    def require_round(self, what: str) -> None:
        """Raise ParseError when an in-round element comes outside a round."""
        if not self.in_round:
            raise ParseError(f"{what} outside a round")

    def call(self, seat: int, code: int, index: int) -> None:
        """N: decode the call; the seat the tile came from is absolute."""
        self.require_round("call")
        seat = self.seat(seat, "N")
        meld = decode_meld(code)
        from_seat = (seat + meld.from_rel) % 4 if meld.action in _FROM_OTHERS else -1
        row = (self.round_idx, seat, ACTION_CODE[meld.action], meld.tile, from_seat, list(meld.tiles), index)
        self.events.append(row)

    def riichi(self, seat: int, step: int, index: int) -> None:
        """REACH step 1 (declared) or 2 (accepted: the stick is on the table)."""
        self.require_round("riichi")
        seat = self.seat(seat, "REACH")
        if step not in (1, 2):
            raise ParseError(f"unknown REACH step {step}", round_idx=self.round_idx, tag="REACH")
        action = ACTION_CODE["riichi" if step == 1 else "riichi_accepted"]
        self.events.append((self.round_idx, seat, action, -1, -1, None, index))

    def new_dora(self, tile: int, index: int) -> None:
        """DORA: a new dora indicator is revealed."""
        self.require_round("dora")
        self.events.append((self.round_idx, -1, ACTION_CODE["dora"], tiles_attr(str(tile))[0], -1, None, index))

    # --- the end -------------------------------------------------------------------------------
    def fill_game_rows(
        self, bulk: BulkRows | None, source: str, fingerprint: str, source_file: str, when: datetime | None
    ) -> None:
        """Write the events, games and players rows once the whole document is read (``bulk``: the rows of the
        draws, discards, calls, riichi and dora elements read in bulk)."""
        rules = self.rules
        assert rules is not None
        if not self.read_in_bulk:
            self._fill_rounds()
            self._fill_hands()
            self._fill_wins()
        self._round_ends()
        self._fill_events(bulk)
        set_game_id(self.tables, self.game_id)
        games = self.tables["games"]
        for name, value in (
            ("game_id", self.game_id), ("source", source), ("fingerprint", fingerprint),
            ("source_file", source_file), ("started_at", when), ("year", when.year if when else None),
            ("rule_code", rules.rule_code), ("lobby", self.lobby), ("n_players", rules.n_players),
            ("room", room_of(rules.room, self.lobby)), ("is_hanchan", rules.is_hanchan),
            ("has_red_fives", rules.has_red_fives), ("has_kuitan", rules.has_kuitan), ("is_fast", rules.is_fast),
            ("is_vs_humans", rules.is_vs_humans),
            ("is_custom_rule", rules.is_custom_rule), ("n_rounds", self.n_rounds),
            ("n_events", len(self.tables["events"]["round_idx"])),
            ("log_quirks", sorted(self.quirks)), ("is_server_log", not self.quirks & NON_SERVER_QUIRKS),
            ("is_complete", self.is_complete),
        ):  # fmt: skip
            games[name].append(value)
        self._fill_players(rules.n_players)

    def _fill_rounds(self) -> None:
        """Transpose the closed rounds' rows into the rounds columns."""
        buffers = self.tables["rounds"]
        for name, values in zip(ROUND_FIELDS, _columns(self.round_rows, len(ROUND_FIELDS)), strict=True):
            buffers[name] = list(values)

    def _round_ends(self) -> None:
        """The rounds' end kinds; the last round of a complete game is last."""
        buffers = self.tables["rounds"]
        buffers["end_kind"] = ["win" if n else "draw" for n in buffers["n_winners"]]
        buffers["is_last"] = [False] * self.n_rounds
        if self.is_complete and self.n_rounds:
            buffers["is_last"][-1] = True

    def _fill_wins(self) -> None:
        """Transpose the AGARI row tuples into the wins columns (rows of rounds cut off are dropped)."""
        rows = [row for row in self.win_rows if row[0] < self.n_rounds]
        buffers = self.tables["wins"]
        for name, values in zip(WIN_FIELDS, _columns(rows, len(WIN_FIELDS)), strict=True):
            buffers[name] = list(values)

    def _fill_hands(self) -> None:
        """Turn the rounds' dealt hands (kept as the INIT attribute texts) into 136-id lists, all at once."""
        buffers = self.tables["rounds"]
        buffers["hands_start"], self.dealt = read_hands(buffers["hands_start"], buffers["round_idx"])

    def _fill_events(self, bulk: BulkRows | None) -> None:
        red = self.rules is not None and self.rules.has_red_fives
        rounds = self.tables["rounds"]
        # the events in one compiled pass (with the rounds when they were read in bulk, which then keep no bulk
        # rows), else in numpy (a call read by its handler, or an error to raise)
        built = self.bulk_events
        if built is None and bulk is not None:
            built = bulk_event_columns(bulk, self.events, self.n_rounds, red, self.dealt, rounds["dora_indicator"])
        if built is None:
            columns = event_columns(bulk, self.events, self.n_rounds, red)
            check_tiles_enter_once(columns, self.dealt, rounds["dora_indicator"])
            per_round = events_per_round(columns["round_idx"], self.n_rounds)
        else:
            columns, per_round = built
        columns["game_id"] = Repeated(self.game_id, len(columns["round_idx"]))
        self.tables["events"] = columns
        rounds["n_events"] = per_round

    def _fill_players(self, n_players: int) -> None:
        """The players rows of the seats (one per seat, a column at a time)."""
        info = (self.player_info or [(None, None, None, None)] * 4)[:n_players]
        names, dans, rates, sexes = (list(column) for column in zip(*info, strict=True))
        final = self.final[:n_players] if self.final else None
        if final is not None and len(final) < n_players:
            raise IndexError("list index out of range")  # owari read under other rules (a later GO): as before
        ranks = final_ranks([score for score, _ in self.final])[:n_players] if self.final else None
        nothing = [None] * n_players
        self.tables["players"].update(
            game_id=[self.game_id] * n_players,
            seat=list(range(n_players)),
            name=names,
            dan=dans,
            rate=rates,
            sex=sexes,
            final_score=[score for score, _ in final] if final else nothing,
            final_points=[points for _, points in final] if final else list(nothing),
            final_rank=ranks if ranks else list(nothing),
            n_disconnects=self.n_disconnects[:n_players],
            n_reconnects=self.n_reconnects[:n_players],
        )


def _columns(rows: list[tuple], width: int) -> list[tuple]:
    """Transpose row tuples of ``width`` fields into column tuples (``width`` empty ones for no row)."""
    return list(zip(*rows, strict=True)) if rows else [()] * width
