"""A golden set of the Mahjong Soul parser's output: every Mahjong Soul file of ../shared/logs (decoded records, a
downloader's base64 protobuf, round excerpts) and seeded mutants of them, parsed, with each game's tables and the
server's flags (or the error raised) kept exactly, column types included.

Made once with the parser as it was before a change (issue 19: every format's path within 2x of the XML one), then
compared with the parser after it. Run by hand, the output outside the repository:

    python benchmarks/majsoul_golden.py dump /tmp/majsoul-golden
    python benchmarks/majsoul_golden.py compare /tmp/majsoul-golden

Mutants: the fuzz harness's byte and JSON mutations (tests/test_fuzz_ingest.py) and Mahjong Soul ones made on one
record of the decoded document (a field's value replaced by another tile, seat, flag or junk; a field removed; the
record removed, repeated or swapped with its neighbour; its name changed), one to three per mutant, deterministic
(one seed per file).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mjai_golden import LOGS, TESTS, Mutation, flip_one, outcomes, run, seeded_mutants
from xml_golden import parse_outcome

from pipeline.errors import NotALogError, ParseError
from pipeline.sources import majsoul

MUTANTS_PER_FILE = 150
"""Mutants of each file."""


def majsoul_files(logs: Path = LOGS) -> list[Path]:
    """Every file of ``logs`` that reads as Mahjong Soul by content, in path order."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from parse_formats import detect_format

    return [p for p in sorted(logs.rglob("*")) if p.is_file() and detect_format(p.read_bytes()) == "majsoul"]


def outcome(data: bytes, name: str) -> tuple:
    """What the Mahjong Soul parser gives for one file (xml_golden.parse_outcome) and its server flags."""
    try:
        flags: Any = majsoul.server_flags(data, name)
    except (ParseError, NotALogError) as exc:
        flags = ("error", type(exc).__name__, str(exc))
    return parse_outcome(majsoul.parse, data, name), repr(flags)


# --- Mahjong Soul mutations, on one record of the decoded document ------------------------------------------
def _records(value: Any) -> list[dict[str, Any]] | None:
    """The records ({name, data}) of a decoded document, in the forms the reader takes; None for another."""
    if isinstance(value, list):
        return value if value and all(isinstance(r, dict) and "name" in r for r in value) else None
    if not isinstance(value, dict):
        return None
    for key in ("records", "data", "events"):
        inner = value.get(key)
        if isinstance(inner, dict) and "data" in inner:  # {name: .lq.GameDetailRecords, data: {...}}
            inner = inner["data"]
        if isinstance(inner, dict):
            actions = [a["result"] for a in inner.get("actions", []) if isinstance(a, dict) and a.get("result")]
            inner = inner.get("records") or actions
        if isinstance(inner, list) and inner and all(isinstance(r, dict) and "name" in r for r in inner):
            return inner
    return None


_JUNK = ["1m", "5m", "0p", "9s", "7z", "8z", "0z", "", "x", 0, 1, 2, 3, 4, -1, 99, True, False, None, [], {},
         ["1m"], [0, 1], "1m1m"]  # fmt: skip
_NAMES = [".lq.RecordDealTile", ".lq.RecordDiscardTile", ".lq.RecordChiPengGang", ".lq.RecordAnGangAddGang",
          ".lq.RecordHule", ".lq.RecordNoTile", ".lq.RecordLiuJu", ".lq.RecordNewRound", ".lq.RecordBaBei",
          ".lq.RecordUnknown"]  # fmt: skip


def _record(data: bytes, rng: random.Random) -> tuple[Any, list[dict[str, Any]], int] | None:
    try:
        value = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return None
    records = _records(value)
    if not records:
        return None
    return value, records, rng.randrange(len(records))


def _text(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode()


def change_field(data: bytes, rng: random.Random) -> bytes:
    """One field of one record's data gets another value (a tile, seat, flag or junk)."""
    found = _record(data, rng)
    if found is None or not isinstance(found[1][found[2]].get("data"), dict) or not found[1][found[2]]["data"]:
        return flip_one(data, rng)
    value, records, k = found
    fields = records[k]["data"]
    key = rng.choice(sorted(fields))
    current = fields[key]
    if isinstance(current, list) and current and rng.random() < 0.6:
        current[rng.randrange(len(current))] = rng.choice(_JUNK)
    else:
        fields[key] = rng.choice(_JUNK)
    return _text(value)


def remove_field(data: bytes, rng: random.Random) -> bytes:
    """One field of one record's data removed."""
    found = _record(data, rng)
    if found is None or not isinstance(found[1][found[2]].get("data"), dict) or not found[1][found[2]]["data"]:
        return flip_one(data, rng)
    value, records, k = found
    del records[k]["data"][rng.choice(sorted(records[k]["data"]))]
    return _text(value)


def move_record(data: bytes, rng: random.Random) -> bytes:
    """One record removed, repeated, swapped with the next or renamed."""
    found = _record(data, rng)
    if found is None:
        return flip_one(data, rng)
    value, records, k = found
    how = rng.randrange(4)
    if how == 0:
        del records[k]
    elif how == 1:
        records.insert(k, json.loads(json.dumps(records[k])))
    elif how == 2 and k + 1 < len(records):
        records[k], records[k + 1] = records[k + 1], records[k]
    else:
        records[k]["name"] = rng.choice(_NAMES)
    return _text(value)


def _mutations() -> list[Mutation]:
    """The fuzz harness's byte and JSON mutations (no gzip: parse reads plain bytes) and, three times as often
    each, the ones above."""
    sys.path.insert(0, str(TESTS))
    import test_fuzz_ingest as fuzz

    byte = [f for name, f in fuzz.BYTE_MUTATIONS.items() if not name.startswith("gzip")]
    mine = [change_field, change_field, change_field, remove_field, move_record, move_record, flip_one]
    return [*byte, *fuzz.JSON_MUTATIONS.values(), *mine * 3]


def mutants(key: str, data: bytes, count: int) -> Iterator[tuple[str, bytes]]:
    """``count`` mutants of one file: (name, bytes), the same on every run."""
    return seeded_mutants(_mutations(), key, data, count)


def cases(logs: Path) -> Iterator[tuple[str, str, bytes, int]]:
    """(key, file name, bytes, mutants wanted) of every real Mahjong Soul file."""
    for path in majsoul_files(logs):
        data = path.read_bytes()
        key = str(path.relative_to(logs))
        yield key, str(path), data, MUTANTS_PER_FILE


def build(logs: Path = LOGS) -> dict[str, Any]:
    """The golden set of the real Mahjong Soul files and their mutants."""
    return outcomes(cases(logs), outcome, mutants)


def main(argv: list[str]) -> int:
    """dump OUT | compare OUT."""
    return run(argv, __doc__.splitlines()[0], lambda _converted: build(LOGS), Path("/nonexistent"))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
