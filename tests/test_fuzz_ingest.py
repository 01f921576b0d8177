"""Fuzzing the ingest: mutated real logs never crash a batch.

A few thousand files are made (deterministically, from one seed) by mutating the real logs of
../shared/logs of every format: truncated, bytes flipped, spans inserted or removed, elements (XML)
or values, keys, list items and lines (JSON, JSON lines) removed, duplicated, swapped or garbled,
tags renamed, tiles renumbered, attributes emptied, made negative, huge or junk, gzip cut short. They
are written into tmp_path (never into the repository) with a few untouched real files, the controls,
and ingested as one run. Each must be read or quarantined with a reason, the controls' rows must be
exactly those they have when ingested alone, and the rules layer must derive every game stored.

Half of the Tenhou XML mutants are salted (another first dora indicator, of a tile that never enters the first
round; a file name without a log id) so that they are distinct games (a game is known by its first round:
pipeline.identity): stored, and derived, instead of being collapsed into one copy per game by the
deduplication. The other mutants are copies of their original's game: stored, duplicates or conflicts.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import string
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pipeline.db import connect
from pipeline.derive.run import DeriveReport, derive
from pipeline.errors import NotALogError, ParseError
from pipeline.ingest import STATUSES, FileResult, IngestReport, ingest, read_file
from pipeline.ingest.status import REASONS
from pipeline.schema import DERIVED_TABLES, TABLES
from pipeline.sources.tenhou_xml.melds import decode_meld
from pipeline.store.warehouse import Warehouse

pytestmark = [pytest.mark.slow, pytest.mark.e2e]  # a few thousand files read, ingested and derived: ~40 s on two cores

SEED = 20250611
"""Seed of the one random generator every mutant is drawn from."""
N_MUTANTS = 3000
"""Mutated files made per run."""
FORMAT_WEIGHTS = {"tenhou_xml": 0.6, "tenhou_json": 0.2, "mjai": 0.1, "majsoul": 0.1}
"""Share of the mutants made from the real logs of each format (the formats present in ../shared/logs)."""
SALTED_SHARE = 0.5
"""Share of the mutants (of the SALTABLE formats) made distinct games, so that they are stored and derived."""
SLOW_FILE_SECONDS = 5.0
"""A single mutant taking longer than this to read is reported (a parser stuck on odd input)."""

_ELEMENT = re.compile(rb"<[^<>]*>")
_ATTRIBUTE = re.compile(rb'([\w.-]+)="([^"]*)"')
_TILE_ELEMENT = re.compile(rb"<([DEFGTUVW])(\d+)")
_ELEMENT_NAME = re.compile(rb"<([A-Za-z]+)")
_DUPLICATE_OF = re.compile(r"^same game as (\S+?),")
_TAG_NAMES = (b"INIT", b"N", b"REACH", b"DORA", b"AGARI", b"RYUUKYOKU", b"BYE", b"UN", b"GO", b"SHUFFLE",
              b"TAIKYOKU", b"T", b"D", b"FOO")  # fmt: skip
_JUNK_CHARS = string.ascii_letters + string.digits + ",-+. %&;"


# --- the real logs ----------------------------------------------------------------------------
@dataclass(frozen=True)
class RealLog:
    """A real log: where it is, its format, its bytes (decompressed when gzip) and its games' identities."""

    path: Path
    relative: str
    format: str
    plain: bytes
    is_gzip: bool
    identities: frozenset[str]
    """Game ids and fingerprints of its games ('id:...', 'fp:...')."""
    stores_a_game: bool
    """It reads ok alone, with at least one complete round."""


def real_logs(shared_logs: Path) -> list[RealLog]:
    """Every file of ../shared/logs that reads as a log of a known format, in path order."""
    logs = []
    for path in sorted(p for p in shared_logs.rglob("*") if p.is_file()):
        result = read_file(path)
        if result.status != "ok" or result.format is None:
            continue
        data = path.read_bytes()
        is_gzip = data[:2] == b"\x1f\x8b"
        identities = frozenset(
            [f"id:{g.game_id}" for g in result.games] + [f"fp:{g.fingerprint}" for g in result.games]
        )
        logs.append(RealLog(path, str(path.relative_to(shared_logs)), result.format,
                            gzip.decompress(data) if is_gzip else data, is_gzip, identities,
                            any(g.n_rounds for g in result.games)))  # fmt: skip
    return logs


def choose_controls(logs: list[RealLog]) -> list[RealLog]:
    """A few real logs to leave untouched: per format the first whose games share no id or fingerprint with
    any other real log (so no mutant can be a copy of them), and for Tenhou XML one plain and one gzip."""
    seen = Counter(identity for log in logs for identity in log.identities)
    controls, wanted = [], {(fmt, False) for fmt in FORMAT_WEIGHTS} | {("tenhou_xml", True)}
    for log in logs:
        key = (log.format, log.is_gzip and log.format == "tenhou_xml")
        if key in wanted and log.stores_a_game and all(seen[i] == 1 for i in log.identities):
            wanted.discard(key)
            controls.append(log)
    return controls


# --- mutations --------------------------------------------------------------------------------
Mutation = Callable[[bytes, random.Random], bytes]


def _spans(pattern: re.Pattern[bytes], data: bytes) -> list[tuple[int, int]]:
    """(start, end) of every match of a pattern."""
    return [m.span() for m in pattern.finditer(data)]


def truncate(data: bytes, rng: random.Random) -> bytes:
    """Cut the bytes at a random offset."""
    return data[: rng.randrange(len(data))] if data else data


def flip_bytes(data: bytes, rng: random.Random) -> bytes:
    """XOR one to eight random bytes with a random non-zero value (sometimes a single bit)."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if out:
            out[rng.randrange(len(out))] ^= 1 << rng.randrange(8) if rng.random() < 0.5 else rng.randrange(1, 256)
    return bytes(out)


def insert_bytes(data: bytes, rng: random.Random) -> bytes:
    """Insert 1-16 random bytes at a random offset."""
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.randbytes(rng.randint(1, 16)) + data[at:]


def delete_span(data: bytes, rng: random.Random) -> bytes:
    """Remove a random span of 1-200 bytes."""
    at = rng.randrange(len(data) + 1)
    return data[:at] + data[at + rng.randint(1, 200) :]


def duplicate_span(data: bytes, rng: random.Random) -> bytes:
    """Copy a random span of 1-200 bytes to another random offset."""
    at = rng.randrange(len(data) + 1)
    span = data[at : at + rng.randint(1, 200)]
    to = rng.randrange(len(data) + 1)
    return data[:to] + span + data[to:]


def gzip_truncated(data: bytes, rng: random.Random) -> bytes:
    """Gzip the bytes, then cut the gzip stream short (its magic kept)."""
    packed = gzip.compress(data, mtime=0)
    return packed[: rng.randrange(2, len(packed))]


def gzip_flipped(data: bytes, rng: random.Random) -> bytes:
    """Gzip the bytes, then flip a byte of the compressed stream (after its ten-byte header)."""
    packed = bytearray(gzip.compress(data, mtime=0))
    packed[rng.randrange(10, len(packed))] ^= rng.randrange(1, 256)
    return bytes(packed)


def _delete_one(pattern: re.Pattern[bytes], data: bytes, rng: random.Random, otherwise: Mutation) -> bytes:
    """Remove one random match of ``pattern``; ``otherwise(data, rng)`` when there is none."""
    spans = _spans(pattern, data)
    if not spans:
        return otherwise(data, rng)
    a, b = rng.choice(spans)
    return data[:a] + data[b:]


def delete_element(data: bytes, rng: random.Random) -> bytes:
    """XML: remove one random element."""
    return _delete_one(_ELEMENT, data, rng, truncate)


def duplicate_element(data: bytes, rng: random.Random) -> bytes:
    """XML: repeat one random element right after itself (or, one time in four, somewhere else)."""
    spans = _spans(_ELEMENT, data)
    if not spans:
        return truncate(data, rng)
    a, b = rng.choice(spans)
    to = b if rng.random() < 0.75 else rng.choice(spans)[0]
    return data[:to] + data[a:b] + data[to:]


def swap_elements(data: bytes, rng: random.Random) -> bytes:
    """XML: exchange two elements (neighbours, or two anywhere)."""
    spans = _spans(_ELEMENT, data)
    if len(spans) < 2:
        return truncate(data, rng)
    i = rng.randrange(len(spans) - 1)
    j = i + 1 if rng.random() < 0.7 else rng.randrange(i + 1, len(spans))
    (a, b), (c, d) = spans[i], spans[j]
    return data[:a] + data[c:d] + data[b:c] + data[a:b] + data[d:]


def rename_element(data: bytes, rng: random.Random) -> bytes:
    """XML: give one element another tag's name (or an unknown one)."""
    spans = [m.span(1) for m in _ELEMENT_NAME.finditer(data)]
    if not spans:
        return truncate(data, rng)
    a, b = rng.choice(spans)
    return data[:a] + rng.choice(_TAG_NAMES) + data[b:]


def retile(data: bytes, rng: random.Random) -> bytes:
    """XML: change a draw/discard element's seat letter or tile id (to another id, 0-140)."""
    found = list(_TILE_ELEMENT.finditer(data))
    if not found:
        return flip_bytes(data, rng)
    m = rng.choice(found)
    letter = bytes([rng.choice(b"DEFGTUVW")]) if rng.random() < 0.4 else m.group(1)
    tile = str(rng.randrange(141)).encode() if rng.random() < 0.8 else m.group(2)
    return data[: m.start()] + b"<" + letter + tile + data[m.end() :]


def junk_value(value: bytes, rng: random.Random) -> bytes:
    """A garbled attribute value: empty, negative, huge, junk, a character or a list item changed."""
    items = value.split(b",")
    kind = rng.randrange(12)
    if kind == 0:
        return b""
    if kind == 1:
        return b"-" + (value or b"1")
    if kind == 2:
        return value + b"9" * rng.randint(5, 25)
    if kind == 3:
        return rng.choice([b"-1", b"99999999999999999999", b"NaN", b"1e9", b"0x10", b"\xc3\xa9", b"%ZZ", b" "])
    if kind == 4:
        return "".join(rng.choice(_JUNK_CHARS) for _ in range(rng.randint(1, 12))).encode()
    if kind == 5 and value:  # one character replaced
        at = rng.randrange(len(value))
        return value[:at] + bytes([rng.choice(b"0123456789,-+x. ")]) + value[at + 1 :]
    if kind == 6 and len(items) > 1:  # a list item dropped
        del items[rng.randrange(len(items))]
        return b",".join(items)
    if kind == 7:  # a list item repeated
        at = rng.randrange(len(items))
        return b",".join(items[: at + 1] + items[at:])
    if kind == 8:  # a list item replaced by a random number
        items[rng.randrange(len(items))] = str(rng.choice([-1, 0, 3, 35, 136, 255, 4096, 65536])).encode()
        return b",".join(items)
    if kind == 9:  # a number changed a little
        at = rng.randrange(len(items))
        if items[at].lstrip(b"-").isdigit():
            items[at] = str(int(items[at]) + rng.choice([-3, -2, -1, 1, 2, 3])).encode()
        return b",".join(items)
    if kind == 10:
        return b",".join(items + [b""])
    return value[: rng.randrange(len(value) + 1)]


def garble_attribute(data: bytes, rng: random.Random) -> bytes:
    """XML: garble one random attribute's value (see junk_value)."""
    found = list(_ATTRIBUTE.finditer(data))
    if not found:
        return flip_bytes(data, rng)
    m = rng.choice(found)
    a, b = m.span(2)
    return data[:a] + junk_value(m.group(2), rng) + data[b:]


def delete_attribute(data: bytes, rng: random.Random) -> bytes:
    """XML: remove one random attribute (name and value)."""
    return _delete_one(_ATTRIBUTE, data, rng, flip_bytes)


def _json_slots(value: Any) -> list[tuple[Any, Any]]:
    """(container, key or index) of every value inside a JSON value, depth first."""
    slots, todo = [], [value]
    while todo:
        node = todo.pop()
        keys = node.keys() if isinstance(node, dict) else range(len(node)) if isinstance(node, list) else ()
        for key in keys:
            slots.append((node, key))
            todo.append(node[key])
    return slots


def _json_junk(old: Any, rng: random.Random, slots: list[tuple[Any, Any]]) -> Any:
    """A replacement JSON value: a nearby number, a wrong type, an extreme, or another value of the document."""
    kind = rng.randrange(6)
    if kind <= 1 and isinstance(old, int) and not isinstance(old, bool):
        return old + rng.choice([-10, -3, -1, 1, 2, 3, 10, 40])
    if kind == 2:
        container, key = rng.choice(slots)
        return json.loads(json.dumps(container[key]))  # a copy of another value of the document
    if kind == 3 and isinstance(old, str):
        return old[: rng.randrange(len(old) + 1)] + rng.choice(["", "x", "0", "m", "p", "s", "z", "r", "?", "é"])
    return rng.choice([None, -1, 0, 1, 10**20, -(10**20), 1.5, "", "x", "5m", [], {}, True, [1, 2, 3], "\u0000"])


def mutate_json_value(value: Any, rng: random.Random) -> Any:
    """Mutate one random place of a parsed JSON value (in place when it is a container): remove a key
    or list item, repeat or swap list items, or replace a value (see _json_junk). Returns the value."""
    slots = _json_slots(value)
    if not slots:
        return _json_junk(value, rng, [(["x"], 0)])
    container, key = rng.choice(slots)
    kind = rng.randrange(5)
    if kind == 0:
        del container[key]
    elif kind == 1 and isinstance(container, list):
        container.insert(key, json.loads(json.dumps(container[key])))
    elif kind == 2 and isinstance(container, list) and len(container) > 1:
        other = rng.randrange(len(container))
        container[key], container[other] = container[other], container[key]
    else:
        container[key] = _json_junk(container[key], rng, slots)
    return value


def mutate_json(data: bytes, rng: random.Random) -> bytes:
    """JSON: mutate the document, or, for JSON lines, one line's value (see mutate_json_value)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:  # mutated already
        return mutate_lines(data, rng)
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        lines = text.splitlines()
        if not any(line.strip() for line in lines):
            return insert_bytes(data, rng)
        at = rng.choice([i for i, line in enumerate(lines) if line.strip()])
        try:
            lines[at] = json.dumps(mutate_json_value(json.loads(lines[at]), rng), ensure_ascii=False)
        except json.JSONDecodeError:
            return flip_bytes(data, rng)
        return "\n".join(lines).encode() + b"\n"
    return json.dumps(mutate_json_value(value, rng), ensure_ascii=False).encode()


def mutate_lines(data: bytes, rng: random.Random) -> bytes:
    """Text: remove, repeat or swap random lines (a JSON-lines file's events or a pretty-printed JSON's values)."""
    lines = data.split(b"\n")
    if len(lines) < 2:
        return truncate(data, rng)
    at = rng.randrange(len(lines))
    kind = rng.randrange(3)
    if kind == 0:
        del lines[at]
    elif kind == 1:
        lines.insert(at, lines[at])
    else:
        other = rng.randrange(len(lines))
        lines[at], lines[other] = lines[other], lines[at]
    return b"\n".join(lines)


BYTE_MUTATIONS: dict[str, Mutation] = {
    "truncate": truncate, "flip_bytes": flip_bytes, "insert_bytes": insert_bytes, "delete_span": delete_span,
    "duplicate_span": duplicate_span, "gzip_truncated": gzip_truncated, "gzip_flipped": gzip_flipped,
}  # fmt: skip
"""Mutations of any format's bytes."""
XML_MUTATIONS: dict[str, Mutation] = {
    "delete_element": delete_element, "duplicate_element": duplicate_element, "swap_elements": swap_elements,
    "rename_element": rename_element, "retile": retile, "garble_attribute": garble_attribute,
    "delete_attribute": delete_attribute,
}  # fmt: skip
"""Mutations of Tenhou XML, element by element."""
JSON_MUTATIONS: dict[str, Mutation] = {"mutate_json": mutate_json, "mutate_lines": mutate_lines}
"""Mutations of JSON documents and JSON lines, value by value and line by line."""


def mutations_for(fmt: str) -> list[tuple[str, Mutation, int]]:
    """The mutations of a format with their weights: structural ones weigh more than the byte-level ones."""
    structural = XML_MUTATIONS if fmt == "tenhou_xml" else JSON_MUTATIONS
    weight = 3 if fmt == "tenhou_xml" else 8
    return [(name, fn, 2) for name, fn in BYTE_MUTATIONS.items()] + [
        (name, fn, weight) for name, fn in structural.items()
    ]


@dataclass(frozen=True)
class Mutant:
    """A mutated file: its bytes, the real log it came from and the mutations applied, in order."""

    name: str
    data: bytes
    origin: str
    kinds: tuple[str, ...]

    def describe(self) -> str:
        """One line naming the mutant, its origin and its mutations (to reproduce a failure)."""
        return f"{self.name} (from {self.origin}: {' + '.join(self.kinds)})"


SALTABLE = ("tenhou_xml",)
"""Formats whose games a mutant can be made distinct from the original in (see salt)."""

_FIRST_ROUND = re.compile(rb"<INIT [^>]*>.*?(?=<INIT |</mjloggm>|$)", re.S)
_SEED_DORA = re.compile(rb'(<INIT [^>]*?seed="(?:\d+,){5})(\d+)"')


def salt(data: bytes, fmt: str, number: int) -> bytes:
    """Make the game a distinct one without changing its play, so the deduplication keeps it: the first round's
    dora indicator becomes a tile of another kind that never enters that round (the content fingerprint hashes
    the first round's deal and indicator by kind). Unchanged when the log has no such round."""
    first = _FIRST_ROUND.search(data)
    seed = _SEED_DORA.search(data)
    if fmt != "tenhou_xml" or first is None or seed is None:
        return data
    used = {int(t) for t in re.findall(rb"(?<![\w.-])(?:hai\d?=\"|[TUVWDEFG])([\d,]+)", first.group(0)) for t in
            t.split(b",") if t}  # fmt: skip
    dora = int(seed.group(2))
    free = [t for t in range(136) if t not in used and t // 4 != dora // 4]
    if not free:
        return data
    tile = free[number % len(free)]
    return data[: seed.start(2)] + str(tile).encode() + data[seed.end(2) :]


def make_mutant(number: int, log: RealLog, rng: random.Random) -> Mutant:
    """Mutate a real log once, sometimes two or three times; salt half of those of the SALTABLE formats; gzip
    some of the mutants of gzip logs again. The file name keeps the original's (and its log id) unless salted."""
    salted = log.format in SALTABLE and rng.random() < SALTED_SHARE
    data = salt(log.plain, log.format, number) if salted else log.plain
    choices = mutations_for(log.format)
    kinds = []
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        name, fn, _ = rng.choices(choices, weights=[w for *_, w in choices])[0]
        data = fn(data, rng)
        kinds.append(name)
        if name.startswith("gzip_"):
            break
    if log.is_gzip and not kinds[-1].startswith("gzip_") and rng.random() < 0.5:
        data = gzip.compress(data, mtime=0)
        kinds.append("gzip")
    original = Path(log.relative).name
    stem = f"salted{Path(original).suffix}" if salted else original
    return Mutant(f"m{number:05d}-{stem}", data, log.relative, tuple(kinds))


def make_mutants(logs: list[RealLog], n: int, seed: int) -> list[Mutant]:
    """``n`` mutants of the given real logs, the format of each drawn by FORMAT_WEIGHTS (formats present)."""
    rng = random.Random(seed)
    by_format = {fmt: [log for log in logs if log.format == fmt] for fmt in FORMAT_WEIGHTS}
    formats = [fmt for fmt in FORMAT_WEIGHTS if by_format[fmt]]
    weights = [FORMAT_WEIGHTS[fmt] for fmt in formats]
    mutants = []
    for number in range(n):
        fmt = rng.choices(formats, weights=weights)[0]
        mutants.append(make_mutant(number, rng.choice(by_format[fmt]), rng))
    return mutants


# --- the fuzzed batch -------------------------------------------------------------------------
@dataclass
class FuzzBatch:
    """The files of the fuzzed batch: mutants and controls by absolute path, and the folder holding them."""

    folder: Path
    mutants: dict[str, Mutant]
    controls: dict[str, RealLog]

    def describe(self, path: str) -> str:
        """Name a file of the batch for a failure message."""
        return self.mutants[path].describe() if path in self.mutants else f"control {self.controls[path].relative}"


@pytest.fixture(scope="module")
def batch(shared_logs: Path, tmp_path_factory: pytest.TempPathFactory) -> FuzzBatch:
    """N_MUTANTS mutants of the real logs and the untouched controls, written into one folder."""
    logs = real_logs(shared_logs)
    controls = choose_controls(logs)
    assert {c.format for c in controls} >= {"tenhou_xml"}, "no Tenhou XML control found"
    sources = [log for log in logs if log not in controls]
    folder = tmp_path_factory.mktemp("fuzz") / "in"
    folder.mkdir()
    written: dict[str, Mutant] = {}
    for mutant in make_mutants(sources, N_MUTANTS, SEED):
        path = folder / mutant.name
        path.write_bytes(mutant.data)
        written[str(path.resolve())] = mutant
    kept: dict[str, RealLog] = {}
    for number, log in enumerate(controls):
        path = folder / f"control{number}-{log.path.name}"
        path.write_bytes(log.path.read_bytes())
        kept[str(path.resolve())] = log
    return FuzzBatch(folder, written, kept)


@pytest.fixture(scope="module")
def read_alone(batch: FuzzBatch) -> dict[str, FileResult | str]:
    """Every file of the batch read on its own with ingest.read_file: its result, or the traceback of
    what escaped (anything escaping is a crash)."""
    out: dict[str, FileResult | str] = {}
    for path in (*batch.mutants, *batch.controls):
        started = time.perf_counter()
        try:
            out[path] = read_file(Path(path))
        except (ParseError, NotALogError) as exc:  # read_file turns these into results: escaping is a bug
            out[path] = f"{type(exc).__name__} escaped read_file: {exc}"
        except Exception:  # noqa: BLE001 - every crash is collected and reported with its mutant
            out[path] = traceback.format_exc(limit=-3)
        elapsed = time.perf_counter() - started
        if elapsed > SLOW_FILE_SECONDS and isinstance(out[path], FileResult):
            out[path] = f"read_file took {elapsed:.1f} s"
    return out


@pytest.fixture(scope="module")
def fuzzed(batch: FuzzBatch) -> tuple[Warehouse, IngestReport]:
    """The whole batch ingested in one run (several batches of files at the default batch size) into a fresh
    warehouse."""
    warehouse = Warehouse(batch.folder.parent / "warehouse")
    return warehouse, ingest([batch.folder], warehouse)


@pytest.fixture(scope="module")
def fuzzed_derived(fuzzed: tuple[Warehouse, IngestReport]) -> DeriveReport:
    """The rules layer run over the fuzzed warehouse (mutated but readable games included)."""
    return derive(fuzzed[0])


@pytest.fixture(scope="module")
def controls_alone(batch: FuzzBatch) -> Warehouse:
    """The controls alone (the same paths) ingested and derived into another warehouse."""
    warehouse = Warehouse(batch.folder.parent / "controls_warehouse")
    report = ingest([Path(p) for p in batch.controls], warehouse)
    assert report.files["ok"] == len(batch.controls), report.problems
    derive(warehouse)
    return warehouse


def rows_of_games(warehouse: Warehouse, game_ids: list[str], tables: list[str]) -> dict[str, list[tuple]]:
    """The rows of the given games in each table (through the DuckDB views), sorted, as tuples."""
    con = connect(warehouse)
    out = {}
    for table in tables:
        result = con.execute(f"select * from {table} where game_id in (select unnest($ids)) order by all",
                             {"ids": game_ids})  # fmt: skip
        out[table] = result.fetchall()
    return out


def stored_game_ids(warehouse: Warehouse) -> set[str]:
    """Ids of the games stored in a warehouse (in the controls' warehouse: the controls' games)."""
    return {r[0] for r in connect(warehouse).execute("select game_id from games").fetchall()}


def manifest_by_path(warehouse: Warehouse) -> dict[str, dict]:
    """The manifest rows by path."""
    return {row["path"]: row for row in warehouse.read_manifest().to_pylist()}


def put(folder: Path, name: str, data: bytes) -> Path:
    """Write a file into a folder (made when missing); return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)
    return folder / name


# --- the fuzzed batch: the tests --------------------------------------------------------------
def test_the_mutants_cover_every_format_and_mutation(batch: FuzzBatch) -> None:
    """The fuzzing is what it claims: thousands of mutants, every format and mutation kind drawn."""
    assert len(batch.mutants) == N_MUTANTS
    formats = Counter(m.origin.split("/")[0] for m in batch.mutants.values())
    assert set(formats) >= {"tenhou-xml", "tenhou-json", "mjai", "majsoul"}, formats
    kinds = Counter(k for m in batch.mutants.values() for k in m.kinds)
    assert set(kinds) >= set(BYTE_MUTATIONS) | set(XML_MUTATIONS) | set(JSON_MUTATIONS), kinds
    assert len({m.data for m in batch.mutants.values()}) > 0.9 * N_MUTANTS  # mostly distinct files
    assert {log.format for log in batch.controls.values()} == set(FORMAT_WEIGHTS)


def test_every_mutant_is_read_or_quarantined_alone(batch: FuzzBatch, read_alone: dict[str, FileResult | str]) -> None:
    """read_file never raises on a mutant: it returns a result whose status is known, and a failure's
    message (one line) names the file."""
    crashes = [f"{batch.describe(p)}:\n{r}" for p, r in read_alone.items() if not isinstance(r, FileResult)]
    assert not crashes, f"{len(crashes)} files crashed read_file; the first ones:\n" + "\n".join(crashes[:5])
    for path, result in read_alone.items():
        assert isinstance(result, FileResult)
        assert result.status in STATUSES
        if result.status != "ok":
            assert result.error and Path(path).name in result.error, (batch.describe(path), result.error)
            assert "\n" not in result.error and "Traceback" not in result.error, (batch.describe(path), result.error)
    statuses = Counter(r.status for r in read_alone.values() if isinstance(r, FileResult))
    # not vacuous: many mutants are still readable, many are not
    assert statuses["ok"] > N_MUTANTS // 5 and statuses["quarantined"] > N_MUTANTS // 4, statuses
    assert statuses["not_a_log"] > 0, statuses


def test_the_batch_accounts_for_every_file(batch: FuzzBatch, fuzzed: tuple[Warehouse, IngestReport]) -> None:
    """The batch ran through (no exception escaped ingest); one manifest row per file with a known status; a
    file not stored says why: a quarantined or not-a-log file's message names it, a duplicate's the game kept."""
    warehouse, report = fuzzed
    rows = warehouse.read_manifest().to_pylist()
    paths = Counter(r["path"] for r in rows)
    assert set(paths) == set(batch.mutants) | set(batch.controls)
    assert max(paths.values()) == 1
    assert sum(report.files.values()) == len(paths) and report.files["unchanged"] == 0
    for row in rows:
        what = batch.describe(row["path"])
        assert row["status"] in STATUSES, what
        assert row["reason"] in (REASONS[row["status"]] or (None,)), (what, row["reason"])
        if row["status"] == "ok":
            assert not row["error"] and row["n_games"] >= 1, (what, row)
        elif row["status"] == "duplicate":
            assert _DUPLICATE_OF.match(row["error"] or ""), (what, row["error"])
        else:
            assert row["error"] and Path(row["path"]).name in row["error"], (what, row["error"])
            assert "\n" not in row["error"], (what, row["error"])
    statuses = Counter(r["status"] for r in rows)
    assert min(statuses[s] for s in ("ok", "duplicate", "quarantined", "not_a_log")) > 0, statuses
    # every mutant the invariant checks reject is quarantined, never stored (pipeline.invariants)
    assert any("fails the invariant check" in (r["error"] or "") for r in rows), statuses


def test_every_game_the_manifest_names_is_stored(batch: FuzzBatch, fuzzed: tuple[Warehouse, IngestReport]) -> None:
    """An ok file's games are in the games table, and so is the game a duplicate names as kept."""
    warehouse = fuzzed[0]
    stored = stored_game_ids(warehouse)
    lost = []
    for row in warehouse.read_manifest().to_pylist():
        named = set(row["game_ids"]) if row["status"] == "ok" else set()
        if row["status"] == "duplicate" and (found := _DUPLICATE_OF.match(row["error"] or "")):
            named = {found[1]}
        if named - stored:
            lost.append(f"{batch.describe(row['path'])}: {row['status']}, names {sorted(named - stored)}")
    assert not lost, f"{len(lost)} manifest rows name games not stored:\n" + "\n".join(lost[:5])


def test_a_file_unreadable_alone_is_quarantined_in_the_batch_for_the_same_reason(
    batch: FuzzBatch, read_alone: dict[str, FileResult | str], fuzzed: tuple[Warehouse, IngestReport]
) -> None:
    """Reading in a batch does not change what becomes of a file the parser rejects."""
    rows = manifest_by_path(fuzzed[0])
    for path, alone in read_alone.items():
        if isinstance(alone, FileResult) and alone.status in ("quarantined", "not_a_log"):
            assert (rows[path]["status"], rows[path]["error"]) == (alone.status, alone.error), batch.describe(path)


def test_the_controls_rows_are_those_they_have_alone(
    batch: FuzzBatch, fuzzed: tuple[Warehouse, IngestReport], controls_alone: Warehouse
) -> None:
    """The untouched files are stored exactly as when ingested without the mutants, in every fact table."""
    rows = manifest_by_path(fuzzed[0])
    assert {batch.describe(p): rows[p]["status"] for p in batch.controls} == dict.fromkeys(
        (batch.describe(p) for p in batch.controls), "ok"
    )
    ids = sorted(stored_game_ids(controls_alone))
    assert len(ids) == len(batch.controls)
    alone = rows_of_games(controls_alone, ids, list(TABLES))
    assert all(alone[t] for t in ("games", "players", "rounds", "events"))
    assert rows_of_games(fuzzed[0], ids, list(TABLES)) == alone


def test_every_stored_game_derives(fuzzed: tuple[Warehouse, IngestReport], fuzzed_derived: DeriveReport) -> None:
    """The rules layer derives the fuzzed warehouse, mutated but readable games included, without raising
    (the fixture runs it), and derives every part."""
    n_games = len(stored_game_ids(fuzzed[0]))
    assert n_games > N_MUTANTS // 15  # the salted mutants are stored: derive meets many mutated games
    assert fuzzed_derived.parts == len(fuzzed[0].table_files("games"))
    assert fuzzed_derived.rows and fuzzed_derived.rows["hand_states"] > 0


def test_the_controls_derive_as_alone(
    fuzzed: tuple[Warehouse, IngestReport], fuzzed_derived: DeriveReport, controls_alone: Warehouse
) -> None:
    """The controls' derived rows are those derived without the mutants, in every derived table."""
    ids = sorted(stored_game_ids(controls_alone))
    tables = list(DERIVED_TABLES)
    assert rows_of_games(fuzzed[0], ids, tables) == rows_of_games(controls_alone, ids, tables)


# --- the bugs the fuzzing found, reduced to real logs -------------------------------------------
def test_a_copy_read_in_a_later_batch_leaves_the_stored_game(shared_logs: Path, tmp_path: Path) -> None:
    """Two copies of one game read in two batches: the first stays stored, the second is its duplicate.

    (Parts were once named by their games' fingerprints alone: the later batch staged its copy on the stored
    part's name, the copy lost, and removing it deleted the published part.)"""
    log_id = "2010081709gm-00a9-0000-fe3371ad"
    game = (shared_logs / f"tenhou-xml/mjx/tests_py/resources/mjlog/{log_id}.mjlog").read_bytes()
    put(tmp_path / "in", f"a-{log_id}.mjlog", game)
    put(tmp_path / "in", f"b-{log_id}.mjlog", game + b"\n")  # the same game, other bytes
    warehouse = Warehouse(tmp_path / "warehouse")
    ingest([tmp_path / "in"], warehouse, batch_size=1)
    assert [r["status"] for r in sorted(manifest_by_path(warehouse).values(), key=lambda r: r["path"])] == [
        "ok", "duplicate"
    ]  # fmt: skip
    assert stored_game_ids(warehouse) == {log_id}


def discard_a_called_tile(xml: bytes) -> bytes:
    """The log with the first discard after a pon, by the seat that called it, turned into a discard of a tile
    the pon took from its hand (a tile leaving the hand twice)."""
    for call in re.finditer(rb'<N who="(\d)" m="(\d+)" */>', xml):
        meld = decode_meld(int(call.group(2)))
        if meld.action != "pon":
            continue
        from_hand = next(t for t in meld.tiles if t != meld.tile)
        seat = int(call.group(1))
        discard = re.compile(rb"<" + b"DEFG"[seat : seat + 1] + rb"(\d+)/>").search(xml, call.end())
        assert discard is not None
        return xml[: discard.start(1)] + str(from_hand).encode() + xml[discard.end(1) :]
    raise AssertionError("no pon in the log")


def test_a_tile_discarded_from_a_meld_is_quarantined_by_tile_held(shared_logs: Path, tmp_path: Path) -> None:
    """A seat discarding a tile it had called with (fuzz mutant m01575: its hand went to -1 of a kind, and the
    rules layer's kernels refused the hand) is quarantined naming the check; the genuine log is stored."""
    log_id = "2010081709gm-00a9-0000-fe3371ad"
    game = (shared_logs / f"tenhou-xml/mjx/tests_py/resources/mjlog/{log_id}.mjlog").read_bytes()
    put(tmp_path / "in", f"{log_id}.mjlog", discard_a_called_tile(game))
    result = read_file(tmp_path / "in" / f"{log_id}.mjlog")
    assert result.status == "ok"  # the parser reads it: only the invariant check can tell
    warehouse = Warehouse(tmp_path / "warehouse")
    report = ingest([tmp_path / "in"], warehouse)
    ((path, status, error),) = report.problems
    assert status == "quarantined" and "fails the invariant check tile_held" in error, error
    assert "again, gone from its hand" in error and stored_game_ids(warehouse) == set()


def test_a_game_derives_the_same_whatever_games_follow_it_in_its_part(shared_logs: Path, tmp_path: Path) -> None:
    """bug1.xml's derived rows are the same alone and with two other real games after it in its part.

    The two (pantheon's full_hanchan.xml, tenhou-python-bot's 8.txt) are salted (another first dora indicator):
    distinct games whose ids (no log id: a hash of the seed and first INIT) now sort after bug1's. Derived
    with them, bug1 loses the temporary furiten of seat 1 in round 10 (event 139) and the furiten pass that
    starts it, and abort_checks.n_could_ron_last of its rounds 2 and 8 turns from 1 to 0."""
    logs = shared_logs / "tenhou-xml"
    bug1 = (logs / "dnovikoff-tenhou/log/test_data/bug1.xml").read_bytes()
    followers = [
        salt((logs / "pantheon/Mimir/tests/models/testdata/full_hanchan.xml").read_bytes(), "tenhou_xml", 16),
        salt((logs / "tenhou-python-bot/project/system_testing/fixtures/8.txt").read_bytes(), "tenhou_xml", 3),
    ]
    alone, paired = Warehouse(tmp_path / "alone"), Warehouse(tmp_path / "paired")
    ingest([put(tmp_path / "in_alone", "bug1.xml", bug1)], alone)
    put(tmp_path / "in_paired", "bug1.xml", bug1)
    for number, data in enumerate(followers):
        put(tmp_path / "in_paired", f"follower{number}.xml", data)
    ingest([tmp_path / "in_paired"], paired)
    (bug1_id,) = stored_game_ids(alone)
    assert len(stored_game_ids(paired)) == 3 and min(stored_game_ids(paired)) == bug1_id  # the others sort after
    assert [p.parent.name for p in paired.table_files("games")] == ["year=unknown"]  # one part holds the three
    derive(alone)
    derive(paired)
    tables = list(DERIVED_TABLES)
    assert rows_of_games(paired, [bug1_id], tables) == rows_of_games(alone, [bug1_id], tables)
