"""Tenhou XML (mjlog) parser: one file's bytes in, one ParsedGame out, built column-wise.

The document is tokenised by a compiled kernel (kernel.py); draws, discards, calls, riichi and dora
indicators are read in bulk (elements.py, hot.py), and so are the rounds, results and events of a document
written as the server writes them, by one more compiled call (attributes.py, bulk.py, event_columns.py); the few
other elements (GO, UN, BYE, SHUFFLE) are dispatched on their tag. A document the bulk reading refuses is read
element by element, every element dispatched on its tag, which raises the error of the first element that fails.
Rows go straight into the game's per-table column lists.
A round whose result never came (a truncated file) is rolled back; the game is then marked
incomplete.
"""

from __future__ import annotations

import hashlib
import os
import re
import zlib
from datetime import datetime
from pathlib import PurePath
from urllib.parse import unquote

from pipeline.errors import NotALogError, ParseError
from pipeline.identity import content_fingerprint
from pipeline.limits import DEFAULT_LIMITS, GZIP_MAGIC, TooLargeError, gunzip
from pipeline.sources.base import ParsedGame
from pipeline.sources.tenhou_xml.bulk import INIT, Refused, read_rounds
from pipeline.sources.tenhou_xml.elements import Elements, scan_elements
from pipeline.sources.tenhou_xml.hot import bulk_rows, players_of_go
from pipeline.sources.tenhou_xml.results import ResultReader
from pipeline.sources.tenhou_xml.state import GameState, tiles_attr

SOURCE = "tenhou_xml"

_ATTR = re.compile(r"([\w.-]+)\s*=\s*\"([^\"]*)\"")
_N_AS_WRITTEN = re.compile(r'\s*who="(\d+)"\s+m="(\d+)"\s*/?$')
_REACH_AS_WRITTEN = re.compile(r'\s*who="(\d+)"\s+(?:ten="[\d,]*"\s+)?step="(\d+)"\s*/?$')
_LOG_ID = re.compile(r"(\d{10})gm-([0-9a-f]{4})-(\d{4,5})-([0-9a-f]{8})")
"""A Tenhou log id: start hour, GO type (hex), lobby (decimal), game hash."""


def decode_bytes(data: bytes, source_file: str, max_bytes: int = DEFAULT_LIMITS.max_bytes) -> bytes:
    """Return the XML bytes of a Tenhou log (plain or gzip, detected by content; gzip decompressed in chunks up
    to ``max_bytes``, a stream cut short giving the document it holds, whose complete rounds are kept).

    Raises NotALogError when the bytes are not an mjlog document, ParseError when gzip is corrupt
    (TooLargeError when it expands past ``max_bytes``).
    """
    if data[:2] == GZIP_MAGIC:
        try:
            data = gunzip(data, max_bytes)
        except TooLargeError as exc:
            raise TooLargeError(f"{source_file}: {exc.message}") from None
        except (zlib.error, EOFError) as exc:
            raise ParseError(f"{source_file}: corrupt gzip data ({exc})") from None
    if b"<mjloggm" not in data[:512]:
        raise NotALogError(f"{source_file}: not a Tenhou mjlog document (no <mjloggm> root)")
    return data


def log_id_from_path(source_file: str) -> str | None:
    """Return the Tenhou log id carried by a file name (percent-decoded), e.g.
    '2020052700gm-00a9-0000-75a4695c', or None."""
    name = os.path.basename(source_file)  # what PurePath(...).name gives (either separator on Windows), cheaper
    if name in ("", ".", ".."):
        name = PurePath(source_file).name
    match = _LOG_ID.search(unquote(name))
    return match.group(0) if match else None


def log_ids_in_header(document: bytes) -> list[str]:
    """The log ids named in the text before the <mjloggm> root (a comment an archive or tool wrote)."""
    head = document[: document.find(b"<mjloggm")].decode("utf-8", "replace")
    return [match.group(0) for match in _LOG_ID.finditer(head)]


def rules_of_log_id(log_id: str) -> tuple[int, int]:
    """(GO type, lobby) that a Tenhou log id writes: its second field in hex, its third in decimal."""
    match = _LOG_ID.search(log_id)
    assert match is not None, log_id
    return int(match.group(2), 16), int(match.group(3))


def started_at(log_id: str | None) -> datetime | None:
    """Return the start hour encoded in a Tenhou log id (YYYYMMDDHH), or None."""
    if log_id is None or not log_id[:10].isdigit():
        return None
    try:  # what strptime("%Y%m%d%H") reads, at a tenth of its cost
        return datetime(int(log_id[:4]), int(log_id[4:6]), int(log_id[6:8]), int(log_id[8:10]))
    except ValueError:
        return None


def parse(data: bytes, source_file: str) -> list[ParsedGame]:
    """Parse one Tenhou XML file (plain or gzip) into a list holding its one game.

    A log truncated before its first result comes back with ``n_rounds == 0``: the caller decides
    (a partial copy of a stored game, or nothing to keep). Raises NotALogError for bytes that are
    not an mjlog, ParseError (naming the file, game, round and tag) for a log that cannot be read.
    """
    document = decode_bytes(data, source_file)
    log_id = log_id_from_path(source_file)
    reader = _DocumentReader(source_file, log_id)
    try:
        game = reader.read(document)
    except ParseError as exc:
        state = reader.state
        round_idx = exc.round_idx if exc.round_idx is not None else (state.round_idx if state.in_round else None)
        raise type(exc)(
            f"{source_file}: {exc.message}",
            game_id=exc.game_id or state.game_id,
            round_idx=round_idx,
            tag=exc.tag or reader.current_tag or None,
        ) from None
    except (ValueError, IndexError, KeyError, TypeError) as exc:
        raise ParseError(
            f"{source_file}: malformed element ({type(exc).__name__}: {exc})",
            game_id=reader.state.game_id,
            round_idx=reader.state.round_idx if reader.state.in_round else None,
            tag=reader.current_tag,
        ) from None
    return [game]


class _DocumentReader:
    """Walks the elements of one document and feeds a GameState."""

    def __init__(self, source_file: str, log_id: str | None) -> None:
        self.source_file = source_file
        self.log_id = log_id
        self.state = GameState(log_id or "")
        self.results = ResultReader(self.state)
        self.current_tag = ""
        self.first_init = ""
        self.shuffle_seed = ""

    def read(self, document: bytes) -> ParsedGame:
        """Read every element of the document and return the game."""
        self.named_ids = [i for i in (self.log_id, *log_ids_in_header(document)) if i]
        elements = scan_elements(document)
        go = [(index, players_of_go(attr_text)) for index, name, attr_text in elements.others if name == "GO"]
        try:
            return self._read_at_once(document, elements, go)
        except (Refused, ParseError, ValueError, IndexError, KeyError, TypeError):
            self._start_over()  # read element by element: the first element that fails names the error
        self.bulk, refused = bulk_rows(elements, go)
        if elements.is_cut:
            self.state.quirks.add("cut_mid_element")
        for index, name, attr_text in sorted(elements.named + refused) if refused else elements.named:
            self.current_tag = name
            self._named_tag(name, attr_text, index)
        self.current_tag = elements.last_tag
        return self._finish()

    def _start_over(self) -> None:
        """Forget what a reading gathered."""
        self.state = GameState(self.log_id or "")
        self.results = ResultReader(self.state)
        self.current_tag = self.first_init = self.shuffle_seed = ""

    def _read_at_once(self, document: bytes, elements: Elements, go: list[tuple[int, int]]) -> ParsedGame:
        """Read the document with its rounds and results in bulk (bulk.py), the other named elements by their
        handlers; raises Refused (or the error of a handler) for a document to be read element by element."""
        state, at, tags, others = self.state, elements.at, elements.tags, elements.others
        if len(go) != 1 or not len(at) or go[0][0] > at[0] or elements.one_by_one:
            raise Refused  # the state an element meets would not be the same for all
        if elements.is_cut:
            state.quirks.add("cut_mid_element")
        if tags[0] != INIT:
            raise Refused  # a result before the first round
        first = elements.inits_before.count(0)  # the elements before the first INIT (GO, the players...)
        for index, name, attr_text in others[:first]:
            self.current_tag = name
            self._named_tag(name, attr_text, index)
        rules = state.rules
        assert rules is not None  # the GO came first
        # the elements after the first INIT (disconnections, reconnections: event rows) before the rounds, whose
        # reading builds the events with their rows
        for (index, name, attr_text), n_inits in zip(others[first:], elements.inits_before[first:], strict=True):
            state.round_idx = n_inits - 1  # a disconnection or reconnection is an event of its round
            self.current_tag = name
            self._named_tag(name, attr_text, index)
        read = read_rounds(document, elements, tags, at, go[0], rules.n_players, rules.has_red_fives, state.events)
        self.bulk, state.bulk_events = read.bulk, read.events
        self.first_init = read.first_init
        self._set_identity(read.first_round, self.first_init)
        for owari in read.owari:
            self.results.owari({"owari": owari})
        state.tables["rounds"].update(read.rounds)
        state.tables["wins"].update(read.wins)
        state.tables["draws"].update(read.draws)
        state.dealt, state.n_rounds, state.read_in_bulk = read.dealt, read.n_rounds, True
        state.quirks |= read.quirks
        state.round_idx, state.in_round = elements.n_inits - 1, False
        self.current_tag = elements.last_tag
        return self._finish()

    def _named_tag(self, name: str, attr_text: str, index: int) -> None:
        state = self.state
        # the most frequent tags in the server's own attribute order: read without an attribute dict
        if name == "N" and (found := _N_AS_WRITTEN.match(attr_text)):
            state.call(int(found[1]), int(found[2]), index)
            return
        if name == "REACH" and (found := _REACH_AS_WRITTEN.match(attr_text)):
            state.riichi(int(found[1]), int(found[2]), index)
            return
        if name == "TAIKYOKU" or name == "mjloggm":
            return  # nothing read of them
        attrs = dict(_ATTR.findall(attr_text))
        if name == "INIT":
            state.start_round(attrs, index)
            if not self.first_init:
                self.first_init = attr_text
                hands = [tiles_attr(text) for text in self.state.round["hands_start"]]
                self._set_identity({**self.state.round, "hands_start": hands}, attr_text)
        elif name == "N":
            state.call(int(attrs["who"]), int(attrs["m"]), index)
        elif name == "REACH":
            state.riichi(int(attrs["who"]), int(attrs["step"]), index)
        elif name == "DORA":
            state.new_dora(int(attrs["hai"]), index)
        elif name == "AGARI":
            self.results.agari(attrs, index)
        elif name == "RYUUKYOKU":
            self.results.ryuukyoku(attrs, index)
        elif name == "BYE":
            state.connection(int(attrs["who"]), "disconnect", index)
        elif name == "UN":
            state.players_or_reconnect(attrs, index)
        elif name == "GO":
            state.set_rules(int(attrs["type"]), attrs.get("lobby"), "csrule" in attrs)
        elif name == "SHUFFLE":
            self.shuffle_seed = attrs.get("seed", "")
            if not self.shuffle_seed:
                state.quirks.add("empty_shuffle_seed")
            elif not self.shuffle_seed.startswith("mt19937ar"):
                state.quirks.add("plain_shuffle_seed")
        else:
            raise ParseError(f"unknown tag <{name}>", tag=name)

    def _set_identity(self, first_round: dict, first_init: str) -> None:
        """The game's content fingerprint from its first round (``first_round``, its hands as 136-id lists;
        pipeline.identity: the same for every copy of the game in any format), and, without a log id, its id from
        the wall seed and the first INIT's text."""
        self.fingerprint = content_fingerprint(first_round)
        if not self.log_id:
            digest = hashlib.blake2b((self.shuffle_seed + "|" + first_init).encode(), digest_size=8)
            self.state.game_id = "fp-" + digest.hexdigest()

    def _finish(self) -> ParsedGame:
        state = self.state
        if not self.first_init:
            raise ParseError("no round in the log (no INIT tag)")
        state.match_log_ids(list(map(rules_of_log_id, self.named_ids)))
        state.end_of_document()
        when = started_at(self.log_id)
        game = ParsedGame(
            game_id=state.game_id,
            fingerprint=self.fingerprint,
            source=SOURCE,
            source_file=self.source_file,
            n_rounds=state.n_rounds,
            is_complete=state.is_complete,
            tables=state.tables,
        )
        state.fill_game_rows(self.bulk, SOURCE, self.fingerprint, self.source_file, when)
        return game
