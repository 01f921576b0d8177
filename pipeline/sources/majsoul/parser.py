"""Mahjong Soul parser: a file's bytes in, one ParsedGame per game it holds, built column-wise; beside it,
the server's own furiten and waits flags per event (``server_flags``).

Records are split into rounds (RecordNewRound to the Hule, NoTile or LiuJu record that ends it; a round
cut short at the end of the file is dropped and the game marked incomplete), each round dealt (play.py), its
play records applied by the compiled play (fast.py, kernel.py; play.py's handlers where the kernel declines the
round) and its result read (results.py). ``source_index`` is the record's position in the file.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pipeline.columns import Coded, Repeated
from pipeline.errors import ParseError
from pipeline.identity import identify
from pipeline.schema import TABLES, new_buffers
from pipeline.sources.base import ParsedGame, check_storable, errors_named, final_ranks, set_game_id
from pipeline.sources.majsoul.codes import RESULT_KINDS, check_kind
from pipeline.sources.majsoul.document import Document, Record, read_documents
from pipeline.sources.majsoul.fast import play_compiled
from pipeline.sources.majsoul.header import Header, final_scores, player_rows, read_header
from pipeline.sources.majsoul.kernel import FLAG_ACTIONS, FLAG_CODE
from pipeline.sources.majsoul.play import PLAY_HANDLERS, Play, accept_riichi, start_round
from pipeline.sources.majsoul.results import hule_rows, liuju_row, notile_row
from pipeline.sources.majsoul.ruleset import MajsoulRules, rules_of
from pipeline.sources.tenhou_json.event_table import EventColumns

SOURCE = "majsoul"

NON_SERVER_QUIRKS = frozenset({"draw_tenpai_unrecorded", "tsumogiri_mismatch"})
"""Quirks saying a label was not written, or written inconsistently, in the file."""

FLAG_ROW_COLUMNS = ("round_idx", "event_idx", "seat", "zhenting", "waits_mask", "action")
"""A game's flag rows as the reader keeps them: integers, -1 for null (event_idx at the deal, zhenting and
waits_mask where not given), the action as a code of kernel.FLAG_ACTIONS."""

FLAG_COLUMNS = ("game_id", "round_idx", "event_idx", "seat", "action", "zhenting", "tingpai_kinds")
"""Columns of ``server_flags``."""


def parse(data: bytes, source_file: str) -> list[ParsedGame]:
    """Parse one Mahjong Soul record file (JSON or binary, see document.py) into its games.

    Raises NotALogError for bytes that are not this format, ParseError (UnknownCodeError) naming the
    file, game and round for a game that cannot be read."""
    games = []
    for game, flags in _read_file(data, source_file):
        _fill_server_flags(game, flags)
        games.append(check_storable(game))
    return games


def _fill_server_flags(game: ParsedGame, flags: np.ndarray) -> None:
    """Put the server's furiten and waits flags (FLAG_ROW_COLUMNS rows) into the game's server_flags table."""
    if not len(flags):
        return
    round_idx, event_idx, seat, zhenting, mask, action = flags.T
    game.tables["server_flags"] = {
        "game_id": Repeated(game.game_id, len(flags)), "round_idx": round_idx, "event_idx": event_idx, "seat": seat,
        "action": Coded(action, FLAG_ACTIONS), "is_furiten": zhenting.astype(np.int8), "waits_mask": mask,
    }  # fmt: skip


def server_flags(data: bytes, source_file: str) -> dict[str, list]:
    """The server's furiten and waits per (game_id, round_idx, event_idx, seat), for the audit.

    Columns: ``game_id``, ``round_idx``, ``event_idx`` (the event of the record that carries the flag:
    the draw, discard or call; None for the deal), ``seat``, ``action`` (deal, draw, discard, chi, pon,
    daiminkan), ``zhenting`` (the seat's furiten as the server shows it after that record; None when
    the record gives only waits), ``tingpai_kinds`` (sorted 34-kinds the server lists as the seat's
    waits: the discarder's after a discard, a seat's at the deal; [] when it lists none; None for
    seats it does not speak of). Rows only where the file carries the flags. Raises as ``parse``."""
    columns: dict[str, list] = {name: [] for name in FLAG_COLUMNS}
    for game, flags in _read_file(data, source_file):
        for round_idx, event_idx, seat, zhenting, mask, action in flags.tolist():
            kinds = None if mask < 0 else [kind for kind in range(34) if mask >> kind & 1]
            row = (game.game_id, round_idx, None if event_idx < 0 else event_idx, seat, FLAG_ACTIONS[action],
                   None if zhenting < 0 else bool(zhenting), kinds)  # fmt: skip
            for name, value in zip(FLAG_COLUMNS, row, strict=True):
                columns[name].append(value)
    return columns


def _read_file(data: bytes, source_file: str) -> list[tuple[ParsedGame, np.ndarray]]:
    return [_read_document(doc, source_file) for doc in read_documents(data, source_file)]


def _read_document(doc: Document, source_file: str) -> tuple[ParsedGame, np.ndarray]:
    """Read one document; every failure becomes a ParseError naming the file, game and round."""
    state: dict[str, Any] = {}  # the game id and the reader, once known
    where = lambda: (state.get("game_id"), state["reader"].round_idx if "reader" in state else None)  # noqa: E731
    with errors_named(source_file, "record", where):
        header = read_header(doc, source_file)
        state["game_id"] = header.game_id
        state["reader"] = _GameReader(doc, header, rules_of(doc), source_file)
        return state["reader"].read()


def flag_rows(round_idx: int, play: Play) -> np.ndarray:
    """A round's flag rows (FLAG_ROW_COLUMNS): play.py's, then the compiled play's."""
    rows = [(round_idx, -1 if event_idx is None else event_idx, seat, -1 if zhenting is None else int(zhenting),
             -1 if kinds is None else sum(1 << kind for kind in kinds), FLAG_CODE[action])
            for event_idx, seat, zhenting, kinds, action in play.flags]  # fmt: skip
    python = np.array(rows, dtype=np.int64).reshape(len(rows), len(FLAG_ROW_COLUMNS))
    if play.compiled_flags is None or not len(play.compiled_flags):
        return python
    compiled = np.empty((len(play.compiled_flags), len(FLAG_ROW_COLUMNS)), dtype=np.int64)
    compiled[:, 0] = round_idx
    compiled[:, 1:] = play.compiled_flags
    return np.concatenate([python, compiled])


def split_rounds(records: list[Record]) -> tuple[list[list[Record]], bool]:
    """The records of each round that has a result, and whether a round was cut short at the end."""
    rounds: list[list[Record]] = []
    current: list[Record] | None = None
    for record in records:
        check_kind(record.kind, len(rounds))
        if record.kind == "NewRound":
            if current is not None:
                raise ParseError("a RecordNewRound before the previous round's result")
            current = [record]
        elif current is None:
            raise ParseError(f"a Record{record.kind} outside a round")
        else:
            current.append(record)
            if record.kind in RESULT_KINDS:
                rounds.append(current)
                current = None
    return rounds, current is not None


class _GameReader:
    """Reads the rounds of one document into a ParsedGame's tables and its server flags."""

    def __init__(self, doc: Document, header: Header, rules: MajsoulRules, source_file: str) -> None:
        self.doc = doc
        self.header = header
        self.rules = rules
        self.source_file = source_file
        self.tables = {t: new_buffers(t) for t in TABLES}
        self.events = EventColumns(rules.has_red_fives)
        self.flags: list[np.ndarray] = []
        """Each round's flag rows (FLAG_ROW_COLUMNS)."""
        self.quirks = rules.quirks()
        self.round_idx: int | None = None

    def read(self) -> tuple[ParsedGame, np.ndarray]:
        """Read every complete round; return the game and its flag rows (FLAG_ROW_COLUMNS)."""
        rounds, cut_short = split_rounds(self.doc.records)
        for round_idx, records in enumerate(rounds):
            self.round_idx = round_idx
            self._read_round(round_idx, records)
        self.round_idx = None
        first = rounds[0][0].data if rounds else {}
        if any(first.get(key, 0) for key in ("chang", "ju", "ben")):
            self.quirks.add("game_excerpt")  # the file starts after the game's first round
        last = rounds[-1][-1].data if rounds and not cut_short else None
        flags = np.concatenate(self.flags) if self.flags else np.zeros((0, len(FLAG_ROW_COLUMNS)), dtype=np.int64)
        return self._finish(len(rounds), final_scores(self.doc, self.rules.n_players, last)), flags

    def _read_round(self, round_idx: int, records: list[Record]) -> None:
        first, result = records[0], records[-1]
        play = start_round(first, records[1] if len(records) > 1 else None, self.rules.n_players,
                           self.rules.has_red_fives)  # fmt: skip
        scores_pre, sticks_pre = list(play.scores), play.sticks
        if not play_compiled(play, records[1:-1]):
            for record in records[1:-1]:
                PLAY_HANDLERS[record.kind](play, record)
        honba, round_wind = first.data.get("ben", 0), first.data.get("chang", 0)
        wins, draws = [], []
        if result.kind == "Hule":
            wins = hule_rows(play, result, honba, round_wind)
        else:
            accept_riichi(play, result)
            draws = [(notile_row if result.kind == "NoTile" else liuju_row)(play, result, honba)]
        for table, rows in (("wins", wins), ("draws", draws)):
            for row in rows:
                self._append(table, {"round_idx": round_idx, **row, "source_index": result.index})
        self._append("rounds", {
            "round_idx": round_idx, "round_wind": round_wind, "kyoku": play.dealer, "dealer": play.dealer,
            "honba": honba, "riichi_sticks": sticks_pre, "dice": [], "dora_indicator": play.dora[0],
            "scores_pre": scores_pre, "hands_start": play.hands_start, "n_events": 0,
            "end_kind": "win" if wins else "draw", "n_winners": len(wins), "scores_post": list(play.scores),
            "is_last": False, "source_index": first.index,
        })  # fmt: skip
        self.events.add_rows(round_idx, *play.event_rows())
        self.flags.append(flag_rows(round_idx, play))
        self.quirks |= play.quirks

    def _append(self, table: str, row: dict[str, Any]) -> None:
        buffers = self.tables[table]
        for name, value in row.items():
            buffers[name].append(value)

    def _finish(self, n_rounds: int, final: list[tuple] | None) -> ParsedGame:
        header = self.header
        if final and n_rounds:
            self.tables["rounds"]["is_last"][-1] = True
        columns = self.events.columns()
        columns["game_id"] = Repeated(header.game_id, len(columns["round_idx"]))
        self.tables["events"] = columns
        self.tables["rounds"]["n_events"] = self.events.per_round(n_rounds)
        set_game_id(self.tables, header.game_id)
        self._fill_games(n_rounds, final is not None)
        self._fill_players(final)
        return identify(ParsedGame(header.game_id, header.fingerprint, SOURCE, self.source_file, n_rounds,
                                   final is not None, self.tables))  # fmt: skip

    def _fill_games(self, n_rounds: int, is_complete: bool) -> None:
        header, rules = self.header, self.rules
        rule_code = 0x01 | (0 if rules.has_red_fives else 0x02) | (0 if rules.has_kuitan else 0x04)
        rule_code |= (0x08 if rules.is_hanchan else 0) | (0x10 if rules.n_players == 3 else 0)
        for name, value in (
            ("game_id", header.game_id), ("source", SOURCE), ("fingerprint", header.fingerprint),
            ("source_file", self.source_file), ("started_at", header.started_at), ("year", header.year),
            ("rule_code", rule_code), ("lobby", header.lobby), ("n_players", rules.n_players),
            ("room", header.room), ("is_hanchan", rules.is_hanchan), ("has_red_fives", rules.has_red_fives),
            ("has_kuitan", rules.has_kuitan), ("is_fast", False), ("is_vs_humans", header.is_vs_humans),
            ("is_custom_rule", not rules.is_ranked), ("n_rounds", n_rounds),
            ("n_events", len(self.tables["events"]["round_idx"])),
            ("log_quirks", sorted(self.quirks)), ("is_server_log", not self.quirks & NON_SERVER_QUIRKS),
            ("is_complete", is_complete),
        ):  # fmt: skip
            self.tables["games"][name].append(value)

    def _fill_players(self, final: list[tuple] | None) -> None:
        ranks = final_ranks([score for score, _ in final]) if final else None
        for seat, (name, dan) in enumerate(player_rows(self.doc, self.rules.n_players)):
            self._append("players", {
                "game_id": self.header.game_id, "seat": seat, "name": name, "dan": dan, "rate": None, "sex": None,
                "final_score": final[seat][0] if final else None, "final_points": final[seat][1] if final else None,
                "final_rank": ranks[seat] if ranks else None, "n_disconnects": 0, "n_reconnects": 0,
            })  # fmt: skip
