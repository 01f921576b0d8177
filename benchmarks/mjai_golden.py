"""A golden set of the mjai parser's output: every mjai file of ../shared/logs, the first converted games of the
peers benchmark (benchmarks/peers.py's mjai copies of the ingest corpus) and a few thousand seeded mutants of them,
parsed, with each game's tables (or the error raised) kept exactly, column types included.

Made once with the parser as it was before a change (issue 19: the mjai parse within 2x of the XML one), then
compared with the parser after it. Run by hand, the output outside the repository:

    python benchmarks/mjai_golden.py dump /tmp/mjai-golden [--converted /tmp/paipu-floor/mjai-v1-1000]
    python benchmarks/mjai_golden.py compare /tmp/mjai-golden [--converted ...]

Mutants: the fuzz harness's byte and JSON mutations (tests/test_fuzz_ingest.py) and mjai-specific ones made on
the bytes of one line (a field's value changed, removed, duplicated, escaped or retyped; keys reordered or spaced;
line breaks changed), one to three per mutant, deterministic (one seed per file).
"""

from __future__ import annotations

import argparse
import gzip
import json
import pickle
import random
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from xml_golden import describe, digest, parse_outcome

from pipeline.sources import mjai

TESTS = Path(__file__).resolve().parents[1] / "tests"
LOGS = TESTS.parents[1] / "shared" / "logs"
CONVERTED = Path("/tmp/paipu-floor/mjai-v1-1000")
N_CONVERTED = 300
"""Converted games kept (the first files in path order)."""
MUTANTS_PER_REAL = 300
MUTANTS_PER_CONVERTED = 8
SEED = 19

Mutation = Callable[[bytes, random.Random], bytes]


def mjai_files(logs: Path = LOGS) -> list[Path]:
    """Every file of ``logs`` that reads as mjai by content (the mjai folders and any other), in path order."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from parse_formats import detect_format

    out = []
    for path in sorted(p for p in logs.rglob("*") if p.is_file()):
        data = _plain(path.read_bytes())
        if "mjai" in path.parts or (data is not None and detect_format(data) == "mjai"):
            out.append(path)
    return out


def _plain(data: bytes) -> bytes | None:
    if data[:2] == b"\x1f\x8b":
        try:
            return gzip.decompress(data)
        except (OSError, EOFError):
            return None
    return data


def outcome(data: bytes, name: str) -> tuple:
    """What the mjai parser gives for one file (xml_golden.parse_outcome)."""
    return parse_outcome(mjai.parse, data, name)


# --- mjai mutations, on one line's bytes ------------------------------------------------------------
_FIELD = re.compile(rb'"(type|actor|pai|target|tsumogiri|consumed|dora_marker|deltas|scores|tehais|kyoku|oya|'
                    rb'honba|kyotaku|bakaze|reason|hora_points|fu|fan|yakus|names)"\s*:\s*')  # fmt: skip
_JUNK = [b'"5m"', b'"5mr"', b'"5pr"', b'"?"', b'"N"', b'"E"', b'"C"', b'"x"', b'""', b'"5m "', b'"\\u0035m"',
         b'"1z"', b'"5sR"', b"0", b"1", b"2", b"3", b"4", b"-1", b"-0", b"0.0", b"1e0", b"1.0", b"true", b"false",
         b"null", b"[]", b"{}", b'["5m","5m"]', b'["1m","2m","3m","4m","5m"]', b'["5mr","5m","5m"]', b'"0"',
         b"99999999999999999999", b"1234567890123456", b"-99", b'"tsumo"', b'"dahai"', b'"pon"', b'"dora"',
         b'"reach"', b'"none"', b'"kita"', b'"ankan"', b'"\\"dahai"', b'["5m",null]', b'[1,2]', b'"9m\\n"']  # fmt: skip
_TYPES = [b"tsumo", b"dahai", b"chi", b"pon", b"daiminkan", b"kakan", b"ankan", b"nukidora", b"kita", b"reach",
          b"reach_accepted", b"dora", b"hora", b"ryukyoku", b"end_kyoku", b"none", b"start_kyoku", b"end_game",
          b"Dahai", b"dahai "]  # fmt: skip


def _line(data: bytes, rng: random.Random) -> tuple[list[bytes], int]:
    lines = data.split(b"\n")
    return lines, rng.randrange(len(lines))


def _value_span(line: bytes, start: int) -> int:
    """The end of the JSON value starting at ``start`` (a rough scan: strings, brackets)."""
    depth, i, quoted = 0, start, False
    while i < len(line):
        c = line[i : i + 1]
        if quoted:
            if c == b"\\":
                i += 1
            elif c == b'"':
                quoted = False
                if depth == 0:
                    return i + 1
        elif c == b'"':
            quoted = True
        elif c in b"[{":
            depth += 1
        elif c in b"]}":
            if depth == 0:
                return i
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == b"," and depth == 0:
            return i
        i += 1
    return i


def _field(data: bytes, rng: random.Random) -> tuple[list[bytes], int, re.Match[bytes], int] | None:
    """A random field of a random line: the lines, the line's index, the field's key match and where its value
    ends; None when the line holds no field."""
    lines, at = _line(data, rng)
    found = list(_FIELD.finditer(lines[at]))
    if not found:
        return None
    m = rng.choice(found)
    return lines, at, m, _value_span(lines[at], m.end())


def change_field(data: bytes, rng: random.Random) -> bytes:
    """One kept field of one line gets another value (a tile, a seat, a type, a wrong type, an extreme)."""
    picked = _field(data, rng)
    if picked is None:
        return flip_one(data, rng)
    lines, at, m, end = picked
    new = b'"' + rng.choice(_TYPES) + b'"' if m.group(1) == b"type" and rng.random() < 0.7 else rng.choice(_JUNK)
    lines[at] = lines[at][: m.end()] + new + lines[at][end:]
    return b"\n".join(lines)


def remove_field(data: bytes, rng: random.Random) -> bytes:
    """One field of one line removed (key and value)."""
    picked = _field(data, rng)
    if picked is None:
        return flip_one(data, rng)
    lines, at, m, end = picked
    line = lines[at]
    start = m.start()
    if end < len(line) and line[end : end + 1] == b",":
        end += 1
    elif start > 0 and line[start - 1 : start] == b",":
        start -= 1
    lines[at] = line[:start] + line[end:]
    return b"\n".join(lines)


def duplicate_field(data: bytes, rng: random.Random) -> bytes:
    """One field of one line written twice, the second time with another value (JSON keeps the last)."""
    lines, at = _line(data, rng)
    found = list(_FIELD.finditer(lines[at]))
    if not found or not lines[at].startswith(b"{"):
        return flip_one(data, rng)
    m = rng.choice(found)
    extra = m.group(0) + rng.choice(_JUNK) + b","
    lines[at] = b"{" + extra + lines[at][1:] if rng.random() < 0.5 else lines[at][: m.start()] + extra + lines[at][
        m.start() :]
    return b"\n".join(lines)


def reformat_line(data: bytes, rng: random.Random) -> bytes:
    """One line re-written: keys reordered, spaced, escaped (ensure_ascii), an unknown key added, or as a list."""
    lines, at = _line(data, rng)
    try:
        value = json.loads(lines[at])
    except ValueError:
        return flip_one(data, rng)
    kind = rng.randrange(6)
    if kind == 0 and isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        value = dict(items)
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    elif kind == 1:
        text = json.dumps(value, ensure_ascii=False)
    elif kind == 2:
        text = json.dumps(value, separators=(" , ", " : "))
    elif kind == 3 and isinstance(value, dict):
        value = {**value, rng.choice(["foo", "pai2", "meta", "actorx", "Pai"]): rng.choice([[1, {"a": "]"}], "}", 3])}
        text = json.dumps(value, separators=(",", ":"))
    elif kind == 4:
        text = json.dumps([value], separators=(",", ":"))
    else:
        text = re.sub(r'"(pai|actor|type)"', lambda m: '"' + "".join(f"\\u{ord(c):04x}" for c in m.group(1)) + '"',
                      json.dumps(value, separators=(",", ":")), count=1)  # fmt: skip
    lines[at] = text.encode()
    return b"\n".join(lines)


def line_breaks(data: bytes, rng: random.Random) -> bytes:
    """Line breaks and blank space changed: CRLF, blank lines, spaces around lines, a lone CR, a BOM, no last LF."""
    kind = rng.randrange(7)
    if kind == 0:
        return data.replace(b"\n", b"\r\n")
    if kind == 1:
        lines, at = _line(data, rng)
        lines.insert(at, rng.choice([b"", b"  ", b"\t"]))
        return b"\n".join(lines)
    if kind == 2:
        lines, at = _line(data, rng)
        lines[at] = b" \t" + lines[at] + b"  "
        return b"\n".join(lines)
    if kind == 3:
        lines, at = _line(data, rng)
        lines[at] = lines[at] + rng.choice([b"\r", b"\x0b", b"\x0c", b"\xc2\x85", b"\xe2\x80\xa8"])
        return b"\n".join(lines)
    if kind == 4:
        return b"\xef\xbb\xbf" + data
    if kind == 5:
        return data.rstrip(b"\n")
    lines, at = _line(data, rng)
    if at + 1 < len(lines):
        lines[at : at + 2] = [lines[at] + b" " + lines[at + 1]]
    return b"\n".join(lines)


def flip_one(data: bytes, rng: random.Random) -> bytes:
    """One byte of one line replaced by a byte that matters to a JSON reader."""
    if not data:
        return data
    out = bytearray(data)
    out[rng.randrange(len(out))] = rng.choice(b'{}[]",:\\ 0123456789-.etrunfalsmpzr?\n')
    return bytes(out)


def _mutations() -> list[Mutation]:
    """The fuzz harness's byte and JSON mutations (no gzip: parse reads plain bytes) and the mjai ones above."""
    sys.path.insert(0, str(TESTS))
    import test_fuzz_ingest as fuzz

    byte = [f for name, f in fuzz.BYTE_MUTATIONS.items() if not name.startswith("gzip")]
    mine = [change_field, change_field, change_field, remove_field, duplicate_field, reformat_line, reformat_line,
            line_breaks, flip_one]  # fmt: skip
    return [*byte, *fuzz.JSON_MUTATIONS.values(), *mine]


def seeded_mutants(mutations: list[Mutation], key: str, data: bytes, count: int) -> Iterator[tuple[str, bytes]]:
    """``count`` mutants of one file, each one to three of ``mutations`` in a row: (name, bytes), the same on every
    run (one seed per file key and size)."""
    rng = random.Random(f"{SEED}:{key}:{len(data)}")
    for number in range(count):
        mutated = data
        for _ in range(rng.choice((1, 1, 2, 3))):
            mutated = rng.choice(mutations)(mutated, rng)
        yield f"m{number}", mutated


def mutants(key: str, data: bytes, count: int) -> Iterator[tuple[str, bytes]]:
    """``count`` mutants of one file: (name, bytes), the same on every run."""
    return seeded_mutants(_mutations(), key, data, count)


def cases(logs: Path, converted: Path | None) -> Iterator[tuple[str, str, bytes, int]]:
    """(key, file name, bytes, mutants wanted) of every real mjai file and converted game kept."""
    for path in mjai_files(logs):
        data = _plain(path.read_bytes())
        if data is not None:
            yield str(path.relative_to(logs)), str(path), data, MUTANTS_PER_REAL
    if converted is not None and converted.is_dir():
        for path in sorted(p for p in converted.rglob("*") if p.is_file())[:N_CONVERTED]:
            yield "converted/" + str(path.relative_to(converted)), str(path), path.read_bytes(), MUTANTS_PER_CONVERTED


def outcomes(cases: Iterator[tuple[str, str, bytes, int]], outcome: Callable[[bytes, str], tuple],
             mutants: Callable[[str, bytes, int], Iterator[tuple[str, bytes]]]) -> dict[str, Any]:  # fmt: skip
    """A golden set: each case's outcome in full, its mutants' as digests (keys: the case's, '#' and the mutant's)."""
    out: dict[str, Any] = {}
    for key, name, data, count in cases:
        out[key] = outcome(data, name)
        for suffix, mutated in mutants(key, data, count):
            out[f"{key}#{suffix}"] = digest(outcome(mutated, f"{name}#{suffix}"))
    return out


def build(logs: Path = LOGS, converted: Path | None = CONVERTED) -> dict[str, Any]:
    """The golden set of the real mjai files and the converted games."""
    return outcomes(cases(logs, converted), outcome, mutants)


def run(argv: list[str], description: str, build_set: Callable[[Path | None], dict[str, Any]],
        converted: Path) -> int:  # fmt: skip
    """``dump OUT | compare OUT [--converted FOLDER]`` of a golden script: ``build_set(converted folder)`` made
    and saved, or compared with the set saved; returns the exit status (1 on a difference)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("command", choices=("dump", "compare"))
    parser.add_argument("out", type=Path)
    parser.add_argument("--converted", type=Path, default=converted)
    args = parser.parse_args(argv)
    target = args.out / "golden.pickle"
    now = build_set(args.converted)
    errors = sum(1 for v in now.values() if isinstance(v, tuple) and v[0] == "error")
    if args.command == "dump":
        args.out.mkdir(parents=True, exist_ok=True)
        target.write_bytes(pickle.dumps(now, protocol=pickle.HIGHEST_PROTOCOL))
        print(f"{len(now)} outcomes ({errors} full errors) written to {target}")
        return 0
    golden = pickle.loads(target.read_bytes())
    diffs = [f"{key}: only in the golden set" for key in golden.keys() - now.keys()]
    diffs += [f"{key}: not in the golden set" for key in now.keys() - golden.keys()]
    diffs += [f"{key}: {describe(golden[key], now[key])}" for key in sorted(golden.keys() & now.keys())
              if golden[key] != now[key]]  # fmt: skip
    print(f"{len(now)} outcomes compared")
    print("\n".join(diffs[:20]) or "identical")
    return 1 if diffs else 0


def main(argv: list[str]) -> int:
    """dump OUT | compare OUT [--converted FOLDER]."""
    return run(argv, __doc__.splitlines()[0], lambda converted: build(LOGS, converted), CONVERTED)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
