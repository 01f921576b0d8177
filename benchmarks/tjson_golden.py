"""A golden set of the tenhou.net/6 parser's output: every tenhou.net/6 file of ../shared/logs, the first games of
the converted corpus (benchmarks/tjson_corpus.py's tenhou.net/6 copies of the ingest corpus) and a few thousand
seeded mutants of them, parsed, with each game's tables (or the error raised) kept exactly, column types included.

Made once with the parser as it was before a change (issue 19: the tenhou.net/6 parse within 2x of the XML one),
then compared with the parser after it. Run by hand, the output outside the repository:

    python benchmarks/tjson_golden.py dump /tmp/tjson-golden [--converted /tmp/paipu-floor/tjson-v1-1000]
    python benchmarks/tjson_golden.py compare /tmp/tjson-golden [--converted ...]

Mutants: the fuzz harness's byte and JSON mutations (tests/test_fuzz_ingest.py) and tenhou.net/6 ones made on one
round's lists (an entry replaced by another tile code, 60, 0, a neighbour's entry or a changed call string; two
entries swapped; one removed or repeated; the result or the indicators changed), one to three per mutant,
deterministic (one seed per file).
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

from pipeline.sources import tenhou_json

CONVERTED = Path("/tmp/paipu-floor/tjson-v1-1000")
N_CONVERTED = 300
"""Converted games kept (the first files in path order)."""
MUTANTS_PER_REAL = 100
MUTANTS_PER_CONVERTED = 8


def tjson_files(logs: Path = LOGS) -> list[Path]:
    """Every file of ``logs`` that reads as tenhou.net/6 by content, in path order."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from parse_formats import detect_format

    paths = sorted(p for p in logs.rglob("*") if p.is_file())
    return [p for p in paths if detect_format(p.read_bytes()) == "tenhou_json"]


def outcome(data: bytes, name: str) -> tuple:
    """What the tenhou.net/6 parser gives for one file (xml_golden.parse_outcome)."""
    return parse_outcome(tenhou_json.parse, data, name)


# --- tenhou.net/6 mutations, on one round's lists ---------------------------------------------------
_CODES = [*range(11, 20), *range(21, 30), *range(31, 40), *range(41, 48), 51, 52, 53]
_JUNK = [60, 0, 10, 48, 54, 61, -1, "r60", "r11", "c111213", "p454545", "45p4545", "4545p45", "k45454545",
         "454545a45", "151515a51", "f44", "m15151515", "15m151515", "151515m15", "c5", "x111213", "", None,
         1.5]  # fmt: skip


def _round(data: bytes, rng: random.Random) -> tuple[Any, list] | None:
    """The parsed document (or list of them) and one of its rounds; None when the bytes are not one JSON value
    with a round."""
    try:
        value = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return None
    docs = value if isinstance(value, list) else [value]
    rounds = [r for d in docs if isinstance(d, dict) and isinstance(d.get("log"), list)
              for r in d["log"] if isinstance(r, list) and len(r) >= 8]  # fmt: skip
    return (value, rng.choice(rounds)) if rounds else None


def _text(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def change_entry(data: bytes, rng: random.Random) -> bytes:
    """One entry of one seat's hand, take or give list becomes another tile code, a junk value or a call."""
    found = _round(data, rng)
    if found is None:
        return flip_one(data, rng)
    value, rnd = found
    lists = [part for part in rnd[4:-1] if isinstance(part, list) and part]
    if not lists:
        return flip_one(data, rng)
    part = rng.choice(lists)
    at = rng.randrange(len(part))
    roll = rng.random()
    if roll < 0.5:
        part[at] = rng.choice(_CODES)
    elif roll < 0.7 and isinstance(part[at], str):
        text = part[at]
        cut = rng.randrange(len(text) + 1)
        part[at] = text[:cut] + rng.choice(["1", "5", "0", "p", "c", "k", "a", "m", "r", ""]) + text[cut + 1 :]
    else:
        part[at] = rng.choice(_JUNK)
    return _text(value)


def shuffle_entries(data: bytes, rng: random.Random) -> bytes:
    """Two entries of one list swapped, or one removed or repeated."""
    found = _round(data, rng)
    if found is None:
        return flip_one(data, rng)
    value, rnd = found
    lists = [part for part in rnd[4:-1] if isinstance(part, list) and len(part) > 1]
    if not lists:
        return flip_one(data, rng)
    part = rng.choice(lists)
    at, other = rng.randrange(len(part)), rng.randrange(len(part))
    kind = rng.randrange(3)
    if kind == 0:
        part[at], part[other] = part[other], part[at]
    elif kind == 1:
        del part[at]
    else:
        part.insert(at, part[at])
    return _text(value)


def change_round(data: bytes, rng: random.Random) -> bytes:
    """The round's header, scores, indicators or result changed (a value, a name, an entry removed)."""
    found = _round(data, rng)
    if found is None:
        return flip_one(data, rng)
    value, rnd = found
    at = rng.choice([0, 1, 2, 3, len(rnd) - 1])
    part = rnd[at]
    if at == len(rnd) - 1 and isinstance(part, list) and part:
        choices = ["和了", "流局", "九種九牌", "四家立直", "三家和了", "流し満貫", "全員聴牌", "x"]
        inner = rng.randrange(len(part))
        if inner == 0:
            part[0] = rng.choice(choices)
        elif isinstance(part[inner], list) and part[inner]:
            slot = rng.randrange(len(part[inner]))
            part[inner][slot] = rng.choice([0, 1, 2, 3, 4, -1, "30符1飜1000点", "満貫8000点", "立直(1飜)", "x(1飜)"])
        else:
            del part[inner]
    elif isinstance(part, list) and part and rng.random() < 0.3:
        del part[rng.randrange(len(part))]
    elif isinstance(part, list):
        part.append(rng.choice(_CODES))
    return _text(value)


def _mutations() -> list[Mutation]:
    """The fuzz harness's byte and JSON mutations (no gzip: parse reads plain bytes) and, three times as often
    each, the ones above (a byte mutation mostly makes the file unreadable as a whole)."""
    sys.path.insert(0, str(TESTS))
    import test_fuzz_ingest as fuzz

    byte = [f for name, f in fuzz.BYTE_MUTATIONS.items() if not name.startswith("gzip")]
    mine = [change_entry, change_entry, change_entry, change_entry, shuffle_entries, shuffle_entries, change_round,
            flip_one]  # fmt: skip
    return [*byte, *fuzz.JSON_MUTATIONS.values(), *mine * 3]


def mutants(key: str, data: bytes, count: int) -> Iterator[tuple[str, bytes]]:
    """``count`` mutants of one file: (name, bytes), the same on every run."""
    return seeded_mutants(_mutations(), key, data, count)


def cases(logs: Path, converted: Path | None) -> Iterator[tuple[str, str, bytes, int]]:
    """(key, file name, bytes, mutants wanted) of every real tenhou.net/6 file and converted game kept."""
    for path in tjson_files(logs):
        yield str(path.relative_to(logs)), str(path), path.read_bytes(), MUTANTS_PER_REAL
    if converted is not None and converted.is_dir():
        for path in sorted(p for p in converted.rglob("*.json"))[:N_CONVERTED]:
            yield "converted/" + str(path.relative_to(converted)), str(path), path.read_bytes(), MUTANTS_PER_CONVERTED


def build(logs: Path = LOGS, converted: Path | None = CONVERTED) -> dict[str, Any]:
    """The golden set of the real tenhou.net/6 files and the converted games."""
    return outcomes(cases(logs, converted), outcome, mutants)


def main(argv: list[str]) -> int:
    """dump OUT | compare OUT [--converted FOLDER]."""
    return run(argv, __doc__.splitlines()[0], lambda converted: build(LOGS, converted), CONVERTED)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
