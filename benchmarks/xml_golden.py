"""A golden set of the Tenhou XML parser's output: every XML file of ../shared/logs and a few thousand mutants of
them, parsed, with each game's tables (or the error raised) kept exactly: every column's values as they would be stored.

Made once with the parser as it was before a change (issue 19: the parse in numba kernels), then compared with
the parser after it. Run by hand, the output outside the repository (the whole warehouse's tables are compared
by benchmarks/golden.py; this adds the mutants, and the errors raised):

    python benchmarks/xml_golden.py dump /tmp/xml-golden
    python benchmarks/xml_golden.py compare /tmp/xml-golden
"""

from __future__ import annotations

import gzip
import hashlib
import pickle
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.columns import to_arrow_array
from pipeline.errors import NotALogError, ParseError
from pipeline.identity import identify
from pipeline.schema import arrow_schema
from pipeline.sources import tenhou_xml

TESTS = Path(__file__).resolve().parents[1] / "tests"
LOGS = TESTS.parents[1] / "shared" / "logs"
XML_FOLDERS = ("tenhou-xml", "corpus/tenhou-xml")
"""The folders of ../shared/logs holding Tenhou XML files."""
MUTANTS_PER_LOG = 5
"""Mutants made of each real log (deterministic: one seed per log)."""
SEED = 19


def xml_files(logs: Path = LOGS) -> list[Path]:
    """Every file below the Tenhou XML folders of ``logs``, in path order."""
    return sorted(p for folder in XML_FOLDERS for p in (logs / folder).rglob("*") if p.is_file())


def column_form(table: str, name: str, column: Any) -> tuple:
    """One column buffer as it would be stored: its Arrow values under the declared type (pipeline.schema), or
    why it cannot be converted. How a parser holds a column (lists, numpy, Lists, Coded) is its own affair."""
    field = arrow_schema(table).field(name)
    try:
        return ("values", to_arrow_array(column, field.type, field.nullable).to_pylist())
    except (pa.ArrowException, OverflowError, TypeError, ValueError) as exc:
        return ("unstorable", type(exc).__name__)


def parse_outcome(parse: Callable[[bytes, str], list], data: bytes, name: str) -> tuple:
    """What ``parse`` (a format's parse function) gives for one file: ('games', [game forms]) or ('error', type,
    message, game, round, tag). Each game as the ingest keeps it: identified (pipeline.identity; the parsers do it
    themselves since the twenty-second session, read_file did it before)."""
    try:
        games = [identify(game) for game in parse(data, name)]
    except (ParseError, NotALogError) as exc:
        return ("error", type(exc).__name__, str(exc), getattr(exc, "game_id", None), exc.round_idx, exc.tag)
    forms = []
    for game in games:
        head = (game.game_id, game.fingerprint, game.source, game.source_file, game.n_rounds, game.is_complete)
        tables = {t: {c: column_form(t, c, v) for c, v in cols.items()} for t, cols in game.tables.items()}
        forms.append((head, tables))
    return ("games", forms)


def outcome(data: bytes, name: str) -> tuple:
    """What the Tenhou XML parser gives for one file (see parse_outcome)."""
    return parse_outcome(tenhou_xml.parse, data, name)


def digest(form: tuple) -> str:
    """A short hash of an outcome (the mutants' outcomes are kept as hashes)."""
    return hashlib.blake2b(repr(form).encode(), digest_size=16).hexdigest()


def _mutations() -> list:
    """The byte-level and XML mutations of the fuzz harness (tests/test_fuzz_ingest.py)."""
    sys.path.insert(0, str(TESTS))
    import test_fuzz_ingest as fuzz

    return [*fuzz.BYTE_MUTATIONS.values(), *fuzz.XML_MUTATIONS.values()]


def mutants(path: Path, data: bytes) -> Iterator[tuple[str, bytes]]:
    """MUTANTS_PER_LOG mutants of one real log: (file name, bytes), the same on every run."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    if b"<mjloggm" not in data[:512]:
        return
    mutations = _mutations()
    rng = random.Random(f"{SEED}:{path.name}:{len(data)}")
    for number in range(MUTANTS_PER_LOG):
        mutated = data
        for _ in range(rng.choice((1, 1, 2))):
            mutated = rng.choice(mutations)(mutated, rng)
        yield f"m{number}-{path.name}", mutated


def cases(logs: Path = LOGS) -> Iterator[tuple[str, str, bytes]]:
    """(key, file name, bytes) of every real XML file and of its mutants."""
    for path in xml_files(logs):
        data = path.read_bytes()
        relative = str(path.relative_to(logs))
        yield relative, str(path), data
        for name, mutated in mutants(path, data):
            yield f"{relative}#{name}", str(path.parent / name), mutated


def build(logs: Path = LOGS) -> dict[str, Any]:
    """The golden set: real files' outcomes in full, mutants' as digests."""
    return {key: outcome(data, name) if "#" not in key else digest(outcome(data, name))
            for key, name, data in cases(logs)}  # fmt: skip


def differences(golden: dict[str, Any], logs: Path = LOGS) -> list[str]:
    """The keys whose outcome differs from the golden set's now (with the first differing table or error)."""
    now = build(logs)
    out = [f"{key}: only in the golden set" for key in golden.keys() - now.keys()]
    out += [f"{key}: not in the golden set" for key in now.keys() - golden.keys()]
    for key in sorted(golden.keys() & now.keys()):
        if golden[key] != now[key]:
            out.append(f"{key}: {describe(golden[key], now[key])}")
    return out


def describe(before: Any, after: Any) -> str:
    """Say where two outcomes differ."""
    if isinstance(before, str) or before[0] != "games" or after[0] != "games":
        return f"{str(before)[:300]} != {str(after)[:300]}"
    for (head_b, tables_b), (head_a, tables_a) in zip(before[1], after[1], strict=False):
        if head_b != head_a:
            return f"game {head_b} != {head_a}"
        for table, columns in tables_b.items():
            for column, form in columns.items():
                if tables_a.get(table, {}).get(column) != form:
                    return f"{table}.{column}: {str(form)[:200]} != {str(tables_a.get(table, {}).get(column))[:200]}"
    return "games differ"


def main(argv: list[str]) -> int:
    """dump OUT | compare OUT."""
    command, out = argv[0], Path(argv[1])
    target = out / "golden.pickle"
    if command == "dump":
        out.mkdir(parents=True, exist_ok=True)
        golden = build()
        target.write_bytes(pickle.dumps(golden, protocol=pickle.HIGHEST_PROTOCOL))
        print(f"{len(golden)} outcomes written to {target}")
        return 0
    diffs = differences(pickle.loads(target.read_bytes()))
    print("\n".join(diffs[:20]) or "identical")
    return 1 if diffs else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
