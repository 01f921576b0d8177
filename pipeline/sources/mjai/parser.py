"""mjai parser: a file's bytes in, one ParsedGame per game it holds, built column-wise.

Each kyoku is replayed (replay.py) into event rows, its results read (results.py) once the next kyoku's
starting scores are known, and the rows of all kyoku turned into the events columns at once (events.py).
The play of a kyoku (draws, discards, calls, riichi, dora) runs compiled where it can (fast.py: lines.py reads
the events' fields from the bytes, kernel.py plays them); the replay goes on event by event from the first
event the kernel does not apply, so the tables and the errors are the same either way. When the file's rows are
known, one kernel call deals and plays every kyoku of the game first (fast.GamePlay); a kyoku it does not deal goes
the per-kyoku way (KyokuReplay deals it, fast.play_compiled plays it). A game whose every kyoku the kernel played up
to a plain result (the usual one) is read in one pass from the kernel's state (bulk.py), the same tables.
A kyoku cut off before its result (a truncated file) is dropped; the game is then incomplete.

When a game is complete (``games.is_complete``, ``rounds.is_last`` on its last kyoku, the players' final
scores and ranks filled): when no kyoku was cut before its result and either ``end_game`` came, or the last
kyoku's result ends the game by Tenhou's rules of game end (game_end.py: ``rules.rotation.game_ends``, the
rule the rules layer applies to every round; quirk ``game_end_inferred``). Anything else (a stream that
stops after a kyoku that does not end the game, or inside a kyoku) is incomplete, with null final scores.
``players.final_score``: ``end_game.scores``, else the last kyoku's scores after its result with the riichi
sticks left on the table given to the first place (Tenhou's way), null when that kyoku's score changes are
not recorded (quirk ``deltas_unrecorded``: such a kyoku never makes a game complete without ``end_game``);
``final_rank`` from them (ties to the lower seat); ``final_points`` stays null (no mjai writer records
uma or points).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pipeline.errors import ParseError
from pipeline.identity import identify
from pipeline.schema import TABLES, new_buffers
from pipeline.sources.base import (
    ParsedGame,
    RoundOutcome,
    check_storable,
    columns_of_rows,
    columns_of_tuples,
    final_ranks,
    set_game_id,
)
from pipeline.sources.mjai.bulk import BulkGame, read_game
from pipeline.sources.mjai.events import event_columns
from pipeline.sources.mjai.fast import GamePlay, play_compiled
from pipeline.sources.mjai.game_end import end_scores, final_scores, last_kyoku_ends_game, sticks_left
from pipeline.sources.mjai.header import Header, fingerprint, read_header
from pipeline.sources.mjai.kernel import OUT_MELD
from pipeline.sources.mjai.lines import line_rows
from pipeline.sources.mjai.replay import KyokuReplay, Replayed
from pipeline.sources.mjai.results import OutcomeBuilder
from pipeline.sources.mjai.stream import GameEvents, read_stream, split_games

SOURCE = "mjai"

_MALFORMED = (ValueError, IndexError, KeyError, TypeError, AttributeError)


def parse(data: bytes, source_file: str) -> list[ParsedGame]:
    """Parse one mjai file (JSON lines, plain bytes) into its games.

    Raises NotALogError for bytes that are not mjai events, ParseError (UnknownCodeError) naming the file,
    game and round for a game that cannot be read.
    """
    events, one_per_value = read_stream(data, source_file)
    lines = events.rows  # the play's rows, read by a kernel (scan.py)
    if lines is None and one_per_value:
        lines = line_rows(data, len(events))
    games = split_games(events, source_file)
    return [check_storable(_parse_game(game, source_file, lines)) for game in games]


def _parse_game(game: GameEvents, source_file: str, lines: np.ndarray | None) -> ParsedGame:
    """Read one game (``lines``: the file's rows from lines.line_rows, or None); every failure becomes a
    ParseError naming the file, game and round."""
    game_id, reader = None, None
    try:
        header = read_header(game)
        game_id = header.game_id
        reader = _GameReader(game, header, source_file, lines)
        return reader.read()
    except ParseError as exc:
        game_id = game_id or _hashed_id(game)
        round_idx = exc.round_idx if exc.round_idx is not None else (reader.round_idx if reader else None)
        raise type(exc)(f"{source_file}: {exc.message}", game_id=exc.game_id or game_id, round_idx=round_idx,
                        tag=exc.tag or (reader.tag if reader else None)) from None  # fmt: skip
    except _MALFORMED as exc:
        game_id = game_id or _hashed_id(game)
        raise ParseError(f"{source_file}: malformed event ({type(exc).__name__}: {exc})", game_id=game_id,
                         round_idx=reader.round_idx if reader else None,
                         tag=reader.tag if reader else None) from None  # fmt: skip


def _hashed_id(game: GameEvents) -> str | None:
    """The id a game without one gets (its events' fingerprint), to name it in an error raised before its header
    was read; None when its events cannot be hashed either."""
    try:
        return "fp-" + fingerprint(game)
    except (ParseError, *_MALFORMED):
        return None


class _GameReader:
    """Replays the kyoku of one game and fills its tables."""

    def __init__(self, game: GameEvents, header: Header, source_file: str, lines: np.ndarray | None) -> None:
        self.game = game
        self.lines = lines
        self.header = header
        self.source_file = source_file
        self.tables = {t: new_buffers(t) for t in TABLES}
        self.round_idx: int | None = None
        self.tag: str | None = None
        self.quirks: set[str] = set(header.quirks)
        self.events: list[list] = []
        self.compiled: list[np.ndarray | None] = []
        self.rows: dict[str, list[dict[str, Any]]] = {"rounds": [], "wins": [], "draws": []}
        """The rounds, wins and draws rows, turned into their tables' columns once the kyoku are read."""

    def read(self) -> ParsedGame:
        """Replay every kyoku and return the game: in one pass when the kernel played every kyoku up to its result
        (bulk.py), else kyoku by kyoku."""
        plan = GamePlay(self.game.events, self.lines, self.header.n_players, self.header.has_red_fives) if (
            self.lines is not None) else None  # fmt: skip
        bulk = read_game(self.game.events, plan) if plan is not None else None
        if bulk is not None:
            return self._read_bulk(bulk)
        rounds, starts, end_game = self._replay(plan)
        self.tag = None
        n_players = self.header.n_players
        outcome = None
        for round_idx, rnd in enumerate(rounds):
            self.round_idx = round_idx
            after = starts[round_idx + 1] if round_idx + 1 < len(starts) else end_scores(end_game, n_players)
            outcome = OutcomeBuilder(rnd, n_players, self.header.has_red_fives, after).build()
            self._add_round(round_idx, rnd, outcome)
        self.round_idx = None
        uncut = len(rounds) == len(starts) > 0
        if outcome is None or not uncut:
            return self._finish(False, None, 0)
        return self._ended(rounds[-1], outcome, end_game, "deltas_unrecorded" not in outcome.quirks)

    def _read_bulk(self, bulk: BulkGame) -> ParsedGame:
        """The game read in one pass (bulk.py): its tables filled as the kyoku-by-kyoku path fills them."""
        self.quirks |= bulk.quirks
        self.compiled = bulk.compiled
        self.events = [[[-1] * OUT_MELD] * len(rows) for rows in bulk.compiled]  # stand-ins: events.py reads compiled
        columns_of_tuples(self.tables, {"rounds": bulk.rounds, "wins": bulk.wins, "draws": bulk.draws})
        return self._ended(bulk.last, bulk.last_outcome, bulk.end_game, True)

    def _ended(self, last: Replayed, outcome: RoundOutcome, end_game: dict[str, Any] | None,
               scores_known: bool) -> ParsedGame:  # fmt: skip
        """The game, its every kyoku read (``last``, ``outcome``: the last one and its result; ``scores_known``: that
        result's score changes are known): complete when end_game came, or when the last kyoku ends the game by
        Tenhou's rules (quirk ``game_end_inferred``; only with its score changes known), else incomplete."""
        if end_game is None:
            if not scores_known or not last_kyoku_ends_game(last, outcome, self.header):
                return self._finish(False, None, 0)
            self.quirks.add("game_end_inferred")
        return self._finish(True, end_scores(end_game, self.header.n_players), sticks_left(outcome), scores_known)

    def _replay(self, plan: GamePlay | None) -> tuple[list[Replayed], list[list[int]], dict[str, Any] | None]:
        """The kyoku with a result, every kyoku's starting scores, and the end_game event (None when absent);
        ``plan``: the game's kernel play (None when the file's rows are not known)."""
        rounds: list[Replayed] = []
        starts: list[list[int]] = []
        current: KyokuReplay | None = None
        end_game = None
        events, pos = self.game.events, 0
        while pos < len(events):
            index, event = events[pos]
            pos += 1
            kind = self.tag = event["type"]
            if end_game is not None:
                raise ParseError(f"{kind} event after end_game")
            if kind == "start_kyoku" or kind == "end_game":
                self._close(current, rounds, final=kind == "end_game")
                current = None
            if kind == "start_kyoku":
                self.round_idx = len(rounds)
                played = plan.replay(pos - 1, index, event) if plan is not None else None
                if played is not None:  # dealt and played by the game's kernel call
                    current, done = played
                    starts.append(current.round.scores)
                else:
                    current = KyokuReplay(index, event, self.header.n_players, self.header.has_red_fives)
                    starts.append(current.round.scores)
                    done = play_compiled(current, events, pos, self.lines)  # the play up to the result, when it can
                if done:
                    pos += done
                    self.tag = events.type_of(pos - 1)
            elif kind == "end_game":
                end_game = event
            elif kind != "start_game" or index != self.game.events[0][0]:
                if current is None:
                    raise ParseError(f"{kind} event outside a kyoku")
                current.feed(index, event)
        self._close(current, rounds, final=True)
        return rounds, starts, end_game

    def _close(self, current: KyokuReplay | None, rounds: list[Replayed], final: bool) -> None:
        """Keep a finished kyoku; one without a result is dropped at the end of the stream (truncated)."""
        if current is None:
            return
        rnd = current.finish()
        if rnd.results:
            rounds.append(rnd)
        elif not final:
            raise ParseError("start_kyoku before the previous kyoku's result")

    def _add_round(self, round_idx: int, rnd: Replayed, outcome: RoundOutcome) -> None:
        self.quirks |= rnd.quirks | outcome.quirks
        self.events.append(rnd.events)
        self.compiled.append(rnd.compiled)
        for table, rows in (("wins", outcome.wins), ("draws", outcome.draws)):
            for row, result in zip(rows, [r for r in rnd.results if (r.event["type"] == "hora") == (table == "wins")],
                                   strict=True):  # fmt: skip
                self.rows[table].append({"round_idx": round_idx, **row, "source_index": result.index})
        self.rows["rounds"].append({
            "round_idx": round_idx, "round_wind": rnd.round_wind, "kyoku": rnd.kyoku, "dealer": rnd.dealer,
            "honba": rnd.honba, "riichi_sticks": rnd.riichi_sticks, "dice": [], "dora_indicator": rnd.dora[0],
            "scores_pre": rnd.scores, "hands_start": rnd.hands_start, "n_events": 0,
            "end_kind": "win" if outcome.wins else "draw", "n_winners": len(outcome.wins),
            "scores_post": outcome.scores_post, "is_last": False, "source_index": rnd.index,
        })  # fmt: skip

    def _append(self, table: str, row: dict[str, Any]) -> None:
        buffers = self.tables[table]
        for name, value in row.items():
            buffers[name].append(value)

    def _finish(
        self, is_complete: bool, final: list[int] | None, sticks: int, scores_known: bool = False
    ) -> ParsedGame:
        """Fill the tables; ``final``: end_game's scores (None when not written), ``sticks``: the riichi sticks
        left on the table after the last kyoku (the first place takes them at the end), ``scores_known``:
        the last kyoku's score changes are known (its scores after the result can stand for the final ones)."""
        header = self.header
        columns_of_rows(self.tables, self.rows)
        n_rounds = len(self.tables["rounds"]["round_idx"])
        post = self.tables["rounds"]["scores_post"][-1] if n_rounds and scores_known else None
        last = final_scores(post, header.n_players, sticks) if post is not None and is_complete else None
        if final is None and is_complete:
            final = last
        elif final is not None and last is not None and final[: header.n_players] not in (
            last[: header.n_players], post[: header.n_players]):  # fmt: skip
            self.quirks.add("score_mismatch")
        if is_complete and n_rounds:
            self.tables["rounds"]["is_last"][-1] = True
        self.tables["events"] = event_columns(header.game_id, self.events, header.has_red_fives, self.compiled)
        self.tables["rounds"]["n_events"] = [len(events) for events in self.events]
        set_game_id(self.tables, header.game_id)
        # a game with rounds is known by its content (identify), one without by its events' hash
        print_fp = header.fingerprint or ("" if n_rounds else fingerprint(self.game))
        self._fill_games(n_rounds, is_complete, print_fp)
        self._fill_players(final if is_complete else None)
        return identify(ParsedGame(header.game_id, print_fp, SOURCE, self.source_file, n_rounds, is_complete,
                                   self.tables))  # fmt: skip

    def _fill_games(self, n_rounds: int, is_complete: bool, print_fp: str) -> None:
        h = self.header
        for name, value in (
            ("game_id", h.game_id), ("source", SOURCE), ("fingerprint", print_fp),
            ("source_file", self.source_file), ("started_at", h.started_at),
            ("year", h.started_at.year if h.started_at else None), ("rule_code", h.rule_code), ("lobby", h.lobby),
            ("n_players", h.n_players), ("room", h.room), ("is_hanchan", h.is_hanchan),
            ("has_red_fives", h.has_red_fives), ("has_kuitan", True), ("is_fast", False),
            ("is_vs_humans", h.is_vs_humans), ("is_custom_rule", h.is_custom_rule), ("n_rounds", n_rounds),
            ("n_events", len(self.tables["events"]["round_idx"])), ("log_quirks", sorted(self.quirks)),
            ("is_server_log", False), ("is_complete", is_complete),
        ):  # fmt: skip
            self.tables["games"][name].append(value)

    def _fill_players(self, final: list[int] | None) -> None:
        ranks = final_ranks(final[: self.header.n_players]) if final else None
        for seat, name in enumerate(self.header.names):
            self._append("players", {
                "game_id": self.header.game_id, "seat": seat, "name": name, "dan": None, "rate": None,
                "sex": None, "final_score": final[seat] if final else None, "final_points": None,
                "final_rank": ranks[seat] if ranks else None, "n_disconnects": 0, "n_reconnects": 0,
            })  # fmt: skip
