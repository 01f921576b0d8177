"""tenhou.net/6 JSON parser: a file's bytes in, one ParsedGame per game it holds, built column-wise.

Each kyoku is replayed (replay.py), its tiles numbered (tiles.py), its result read (results.py) and
its events appended to the game's event columns (event_table.py). The replay and the numbering run compiled
(fast.py: replay_kernel, ids_kernel) and fall back to the Python search where the kernels give up, so the
tables and the errors are the same either way; a game the kernels replayed whole has its rows read in one pass
(bulk.py). ``source_index`` is a synthetic
position in the rebuilt stream (the JSON has no elements): rounds, events and results are numbered
in game order.
"""

from __future__ import annotations

from typing import Any

from pipeline.columns import Repeated
from pipeline.errors import ParseError
from pipeline.identity import identify
from pipeline.schema import TABLES, new_buffers
from pipeline.sources.base import (
    RULE_DOUBLE_YAKUMAN,
    ParsedGame,
    RoundOutcome,
    check_storable,
    columns_of_rows,
    columns_of_tuples,
    errors_named,
    final_ranks,
    set_game_id,
)
from pipeline.sources.tenhou_json.bulk import BulkRounds, read_game
from pipeline.sources.tenhou_json.document import read_documents
from pipeline.sources.tenhou_json.event_table import EventColumns
from pipeline.sources.tenhou_json.fast import GameLists, replay_arrays, replay_rounds
from pipeline.sources.tenhou_json.header import Header, final_scores, fingerprint, player_rows, read_header
from pipeline.sources.tenhou_json.results import OutcomeBuilder
from pipeline.sources.tenhou_json.round import Kyoku, Prepared, finish_kyoku, prepare_kyoku
from pipeline.sources.tenhou_json.rows import EventRows, RowSpan
from pipeline.sources.tenhou_json.seat_lists import game_seats, read_lists

SOURCE = "tenhou_json"

NON_SERVER_QUIRKS = frozenset({"third_party_json", "win_without_score", "draw_tenpai_unrecorded",
                               "dora_count_mismatch", "red_fives_contradict_rule"})  # fmt: skip
"""Quirks saying the labels were not written (or not fully) by the game server."""


def parse(data: bytes, source_file: str) -> list[ParsedGame]:
    """Parse one tenhou.net/6 JSON file (one document, a list, or JSON lines) into its games.

    Raises NotALogError for bytes that are not this format, ParseError (UnknownCodeError) naming the
    file, game and round for a document that cannot be read.
    """
    documents = read_documents(data, source_file)
    lists = read_lists(data) if len(documents) == 1 else None  # a one-document file's seat lists, from its bytes
    return [check_storable(_parse_document(doc, source_file, lists)) for doc in documents]


def _parse_document(doc: dict[str, Any], source_file: str, lists: tuple[Any, ...] | None = None) -> ParsedGame:
    """Read one document (``lists``: seat_lists.read_lists of the file, when it holds this document alone); every
    failure becomes a ParseError naming the file, game and round."""
    state: dict[str, Any] = {}  # the game id and the reader, once known
    where = lambda: (state.get("game_id"), state["reader"].round_idx if "reader" in state else None)  # noqa: E731
    with errors_named(source_file, "document", where):
        header = read_header(doc, source_file)
        state["game_id"] = header.game_id
        state["reader"] = _GameReader(doc, header, source_file, lists)
        return state["reader"].read()


class _GameReader:
    """Reads the kyoku of one document into a ParsedGame's tables."""

    def __init__(self, doc: dict[str, Any], header: Header, source_file: str, lists: tuple[Any, ...] | None) -> None:
        self.doc = doc
        self.lists = lists
        self.header = header
        self.source_file = source_file
        self.tables = {t: new_buffers(t) for t in TABLES}
        self.round_idx: int | None = None
        self.index = 0
        self.events = EventColumns(header.rules.has_red_fives)
        self.quirks: set[str] = set(header.rule_quirks) | (set() if header.is_tenhou else {"third_party_json"})
        if header.red_contradicted:
            self.quirks.add("red_fives_contradict_rule")
        self.connections = _connections(doc.get("connection"))
        self.rows: dict[str, list[dict[str, Any]]] = {"rounds": [], "wins": [], "draws": []}
        """The rounds, wins and draws rows, turned into their tables' columns once the kyoku are read."""
        self.double_yakuman = RULE_DOUBLE_YAKUMAN in header.rule_quirks

    def read(self) -> ParsedGame:
        """Read every kyoku and return the game: each is checked and encoded, the kernels replay them all in one
        call, then each is finished and its result read, in order (a kyoku that could not be read raises its error
        after the kyoku before it are finished, as when they were read one by one)."""
        rules = self.header.rules
        game, prepared, failure = GameLists(), [], None
        seats = game_seats(self.lists, self.doc["log"], game) if self.lists is not None else None
        for round_idx, raw in enumerate(self.doc["log"]):
            self.round_idx = round_idx
            try:
                prepared.append(prepare_kyoku(raw, rules.n_players, game, seats[round_idx] if seats else None))
            except Exception as exc:  # noqa: BLE001 - raised below, at its round's turn
                failure = exc
                break
        arrays = replay_arrays(game, rules.has_red_fives) if failure is None and prepared else None
        if arrays is not None:  # every kyoku read: in one pass when the kernels played them all
            bulk = read_game(game, prepared, arrays, rules.n_players, rules.has_red_fives, self.double_yakuman,
                             self.connections)  # fmt: skip
            if bulk is not None:
                self._add_bulk(bulk)
                self.round_idx = None
                return self._finish()
        for round_idx, (ready, compiled) in enumerate(zip(prepared, replay_rounds(game, rules.has_red_fives, arrays),
                                                          strict=True)):  # fmt: skip
            self.round_idx = round_idx
            self._read_kyoku(round_idx, ready, compiled)
        if failure is not None:
            self.round_idx = len(prepared)
            raise failure
        self.round_idx = None
        return self._finish()

    def _add_bulk(self, bulk: BulkRounds) -> None:
        """Take the rows of a game read in one pass (bulk.py) as _add_round takes each kyoku's."""
        self.quirks |= bulk.quirks
        for round_idx, (rows, first) in enumerate(bulk.events):
            self.events.add_rows(round_idx, rows, first)
        self.index = bulk.next_index
        columns_of_tuples(self.tables, {"rounds": bulk.rounds, "wins": bulk.wins, "draws": bulk.draws})

    def _read_kyoku(self, round_idx: int, ready: Prepared, compiled: tuple | None) -> None:
        """Finish one kyoku (the Python path where ``compiled`` is None), read its result and add its rows."""
        rules = self.header.rules
        kyoku = finish_kyoku(ready, compiled, rules.has_red_fives)
        if kyoku.ids.dora_mismatch:
            self.quirks.add("dora_count_mismatch")
        outcome = OutcomeBuilder(kyoku, rules.n_players, rules.has_red_fives, self.double_yakuman).build()
        self._add_round(round_idx, kyoku, outcome)

    def _next_index(self) -> int:
        self.index += 1
        return self.index - 1

    def _add_round(self, round_idx: int, kyoku: Kyoku, outcome: RoundOutcome) -> None:
        start = self._next_index()
        self.quirks |= outcome.quirks
        rows = self._with_connections(round_idx, kyoku)
        self.events.add_rows(round_idx, rows, self.index)
        self.index += len(rows)
        for table, rows in (("wins", outcome.wins), ("draws", outcome.draws)):
            for row in rows:
                self.rows[table].append({"round_idx": round_idx, **row, "source_index": self._next_index()})
        rnd = {
            "round_idx": round_idx, "round_wind": kyoku.round_wind, "kyoku": kyoku.kyoku, "dealer": kyoku.dealer,
            "honba": kyoku.honba, "riichi_sticks": kyoku.riichi_sticks, "dice": [],
            "dora_indicator": kyoku.ids.dora[0], "scores_pre": kyoku.scores, "hands_start": kyoku.ids.hands_start,
            "n_events": 0, "end_kind": "win" if outcome.wins else "draw", "n_winners": len(outcome.wins),
            "scores_post": outcome.scores_post, "is_last": False, "source_index": start,
        }  # fmt: skip
        self.rows["rounds"].append(rnd)

    def _with_connections(self, round_idx: int, kyoku: Kyoku) -> EventRows | RowSpan:
        """The round's events with its disconnections and reconnections put in at their step."""
        items = self.connections.get(round_idx)
        return kyoku.ids.rows.inserted(sorted(items, reverse=True)) if items else kyoku.ids.rows

    def _append(self, table: str, row: dict[str, Any]) -> None:
        buffers = self.tables[table]
        for name, value in row.items():
            buffers[name].append(value)

    def _finish(self) -> ParsedGame:
        header, rules = self.header, self.header.rules
        columns_of_rows(self.tables, self.rows)
        n_rounds = len(self.tables["rounds"]["round_idx"])
        final = final_scores(self.doc, rules.n_players)
        if final and n_rounds:
            self.tables["rounds"]["is_last"][-1] = True
        self._fill_events(n_rounds)
        set_game_id(self.tables, header.game_id)
        # a game with rounds is known by its content (identify), one without by its document's hash
        print_fp = header.fingerprint or ("" if n_rounds else fingerprint(self.doc))
        self._fill_games(n_rounds, final is not None, print_fp)
        self._fill_players(final)
        return identify(ParsedGame(header.game_id, print_fp, SOURCE, self.source_file, n_rounds, final is not None,
                                   self.tables))  # fmt: skip

    def _fill_events(self, n_rounds: int) -> None:
        columns = self.events.columns()
        columns["game_id"] = Repeated(self.header.game_id, len(columns["round_idx"]))
        self.tables["events"] = columns
        self.tables["rounds"]["n_events"] = self.events.per_round(n_rounds)

    def _fill_games(self, n_rounds: int, is_complete: bool, print_fp: str) -> None:
        header, rules = self.header, self.header.rules
        when = header.started_at
        for name, value in (
            ("game_id", header.game_id), ("source", SOURCE), ("fingerprint", print_fp),
            ("source_file", self.source_file), ("started_at", when), ("year", when.year if when else None),
            ("rule_code", rules.rule_code), ("lobby", header.lobby), ("n_players", rules.n_players),
            ("room", header.room), ("is_hanchan", rules.is_hanchan), ("has_red_fives", rules.has_red_fives),
            ("has_kuitan", rules.has_kuitan), ("is_fast", rules.is_fast), ("is_vs_humans", rules.is_vs_humans),
            ("is_custom_rule", rules.is_custom_rule or not header.is_tenhou), ("n_rounds", n_rounds),
            ("n_events", len(self.tables["events"]["round_idx"])), ("log_quirks", sorted(self.quirks)),
            ("is_server_log", not self.quirks & NON_SERVER_QUIRKS), ("is_complete", is_complete),
        ):  # fmt: skip
            self.tables["games"][name].append(value)

    def _fill_players(self, final: list[tuple[int, float]] | None) -> None:
        n_players = self.header.rules.n_players
        ranks = final_ranks([score for score, _ in final]) if final else None
        counts = {kind: [0] * 4 for kind in ("disconnect", "reconnect")}
        for items in self.connections.values():
            for _, seat, kind in items:
                counts[kind][seat] += 1
        for seat, (name, dan, rate, sex) in enumerate(player_rows(self.doc, n_players)):
            self._append("players", {
                "game_id": self.header.game_id, "seat": seat, "name": name, "dan": dan, "rate": rate, "sex": sex,
                "final_score": final[seat][0] if final else None, "final_points": final[seat][1] if final else None,
                "final_rank": ranks[seat] if ranks else None, "n_disconnects": counts["disconnect"][seat],
                "n_reconnects": counts["reconnect"][seat],
            })  # fmt: skip


def _connections(value: Any) -> dict[int, list[tuple[int, int, str]]]:
    """The ``connection`` entries per round: (step, seat, 'disconnect' | 'reconnect')."""
    out: dict[int, list[tuple[int, int, str]]] = {}
    if not isinstance(value, list):
        return out
    for item in value:
        if not isinstance(item, dict) or item.get("what") not in (0, 1):
            raise ParseError(f"malformed connection entry {item!r}")
        seat, round_idx, step = int(item["who"]), int(item["log"]), int(item.get("step", 0))
        if not 0 <= seat < 4:
            raise ParseError(f"connection entry names seat {seat}")
        out.setdefault(round_idx, []).append((step, seat, "disconnect" if item["what"] == 0 else "reconnect"))
    return out
