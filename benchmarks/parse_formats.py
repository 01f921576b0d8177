"""Parse time per game of every format's parser over the real files of ../shared/logs, each with its floor
(issue 19: every format's path at most 2x the Tenhou XML path per game).

Every file below ../shared/logs is read into memory (gzip undone) and its format detected by content as the
ingest does (``pipeline.ingest.reading.detect_format``); files that are not logs or do not parse are left out.
Per format, ``parse(data, name)`` is timed over its files, several repeats, the best repeat reported as ms per
game (games: what the parser returns) and games per second; the floor reads the same bytes with the standard
library only: an ElementTree walk touching every element's tag and attributes for Tenhou XML, ``json.loads``
of the document (mjai: of each line) for the JSON formats. The first parse in the process (imports, a numba
kernel's compile or cache load) is timed apart.

    python benchmarks/parse_formats.py [--format tenhou_xml mjai tenhou_json] [--repeats 5] [--profile FORMAT]
    python benchmarks/parse_formats.py --converted [/tmp/paipu-floor/mjai-v1-1000] [--games 1000] [--repeats 10]

``--profile FORMAT`` runs cProfile over one repeat of that format and prints the 30 most costly functions
(cumulative and own time). ``--converted`` times the mjai parser and the Tenhou XML parser on the same games:
benchmarks/peers.py's mjai copies of an ingest corpus (``mjai-v1-N``, built by ``peers.mjai_corpus_for`` from
``corpus-v3-N`` beside it), the two parsers alternated over a few hundred games at a time, each one's best run
kept (CPU time: other work on the machine inflates both less than wall time).
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import json
import pstats
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from pipeline.errors import NotALogError, ParseError

REPO = Path(__file__).resolve().parents[1]
LOGS = REPO.parent / "shared" / "logs"
FORMATS = ("tenhou_xml", "mjai", "tenhou_json", "majsoul")

Files = list[tuple[str, bytes]]


def detect_format(data: bytes) -> str | None:
    """The format of plain bytes, looked at in the order of pipeline.ingest.reading.detect_format (not imported:
    the benchmark needs the parsers only)."""
    from pipeline.sources import majsoul, mjai, tenhou_json

    if b"<mjloggm" in data[:4096]:
        return "tenhou_xml"
    for name, module in (("tenhou_json", tenhou_json), ("majsoul", majsoul), ("mjai", mjai)):
        if module.looks_like(data):
            return name
    return None


def read_logs(logs: Path = LOGS) -> dict[str, Files]:
    """(path, plain bytes) of every file below ``logs`` whose format is detected, by format, in path order."""
    out: dict[str, Files] = {name: [] for name in FORMATS}
    for path in sorted(p for p in logs.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if data[:2] == b"\x1f\x8b":
            try:
                data = gzip.decompress(data)
            except (OSError, EOFError):
                continue
        fmt = detect_format(data)
        if fmt in out:
            out[fmt].append((str(path), data))
    return out


def parser_of(fmt: str) -> Callable[[bytes, str], list]:
    """The parse function of a format."""
    import importlib

    return importlib.import_module(f"pipeline.sources.{fmt}").parse


def parseable(fmt: str, files: Files) -> tuple[Files, int, int, float]:
    """The files that parse, the games and rounds they hold, and the first parse's time (s) in this process."""
    parse = parser_of(fmt)
    out, games, rounds, first = [], 0, 0, None
    for name, data in files:
        start = time.perf_counter()
        try:
            parsed = parse(data, name)
        except (NotALogError, ParseError):
            continue
        finally:
            first = time.perf_counter() - start if first is None else first
        out.append((name, data))
        games += len(parsed)
        rounds += sum(game.n_rounds for game in parsed)
    return out, games, rounds, first or 0.0


def best_of(repeats: int, work: Callable[[], object]) -> float:
    """Best wall time (s) of ``repeats`` runs of ``work``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def _etree_walk(data: bytes) -> int:
    """Parse with ElementTree and touch every element's tag and attributes (the XML floor)."""
    return sum(len(element.attrib) + len(element.tag) for element in ET.fromstring(data).iter())


def _json_document(data: bytes) -> int:
    """json.loads of the whole document (the tenhou.net/6 and Mahjong Soul floor)."""
    return len(json.loads(data))


def _json_lines(data: bytes) -> int:
    """json.loads of the non-empty lines read as one JSON array, as the mjai reader reads them (the mjai floor)."""
    return len(json.loads(b"[" + b",".join(line for line in data.splitlines() if line.strip()) + b"]"))


FLOORS: dict[str, tuple[str, Callable[[bytes], int]]] = {
    "tenhou_xml": ("ElementTree walk", _etree_walk),
    "mjai": ("json.loads of the lines", _json_lines),
    "tenhou_json": ("json.loads", _json_document),
    "majsoul": ("json.loads", _json_document),
}


def floor_files(fmt: str, files: Files) -> Files:
    """The files the floor can read (a JSON document that is really JSON lines, say, is left out)."""
    walk = FLOORS[fmt][1]
    out = []
    for name, data in files:
        try:
            walk(data)
        except (ET.ParseError, ValueError):
            continue
        out.append((name, data))
    return out


def report(what: str, seconds: float, n_games: int, n_rounds: int) -> None:
    """Print one line: ms per game, games per second and ms per round."""
    print(
        f"  {what:<30} {1000 * seconds / n_games:8.3f} ms/game {n_games / seconds:8.0f} games/s"
        f" {1000 * seconds / max(n_rounds, 1):8.3f} ms/round"
    )


def measure(fmt: str, files: Files, repeats: int) -> None:
    """Time one format's parser and floor and print them."""
    games, n_games, n_rounds, first = parseable(fmt, files)
    if not n_games:
        print(f"{fmt}: no game parses")
        return
    parse = parser_of(fmt)
    megabytes = sum(len(d) for _, d in games) / 1e6
    print(
        f"{fmt}: {n_games} games ({n_rounds} rounds) in {len(games)} of {len(files)} files ({megabytes:.1f} MB),"
        f" best of {repeats}"
    )
    print(f"  first parse in the process     {1000 * first:8.1f} ms (imports, kernel compile or cache load)")
    report(f"{fmt}.parse", best_of(repeats, lambda: [parse(d, n) for n, d in games]), n_games, n_rounds)
    label, walk = FLOORS[fmt]
    readable = floor_files(fmt, games)
    if len(readable) == len(games):
        report(f"{label} (floor)", best_of(repeats, lambda: [walk(d) for _, d in readable]), n_games, n_rounds)
    else:
        print(f"  {label} (floor): reads {len(readable)} of {len(games)} files; not comparable")


def profile(fmt: str, files: Files) -> None:
    """cProfile one parse of every file of the format; print the 30 most costly functions."""
    games = parseable(fmt, files)[0]
    parse = parser_of(fmt)
    profiler = cProfile.Profile()
    profiler.enable()
    for name, data in games:
        parse(data, name)
    profiler.disable()
    stats = pstats.Stats(profiler).strip_dirs()
    stats.sort_stats("cumulative").print_stats(30)
    stats.sort_stats("tottime").print_stats(30)


def _corpus(folder: Path, n_games: int) -> Files:
    """(path, plain bytes) of the first ``n_games`` files of a benchmark corpus, in path order."""
    out = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file())[:n_games]:
        data = path.read_bytes()
        out.append((str(path), gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data))
    return out


def converted(folder: Path, n_games: int, repeats: int, chunk: int = 250) -> None:
    """Time mjai's parse of the converted games in ``folder`` and Tenhou XML's of the same games (the ingest corpus
    ``corpus-v3-N`` beside it), alternated ``chunk`` games at a time; print the best CPU ms a game of each."""
    xml_folder = folder.parent / f"corpus-v3-{folder.name.rsplit('-', 1)[1]}"  # mjai-v1-N was made from it
    mjai_files, xml_files = _corpus(folder, n_games), _corpus(xml_folder, n_games)
    if [Path(n).stem.split(".")[0] for n, _ in mjai_files] != [Path(n).stem.split(".")[0] for n, _ in xml_files]:
        raise SystemExit(f"{folder} and {xml_folder} do not hold the same games")
    parsers = {"mjai": parser_of("mjai"), "tenhou_xml": parser_of("tenhou_xml")}
    files = {"mjai": mjai_files, "tenhou_xml": xml_files}
    for fmt, parse in parsers.items():  # imports and kernels loaded before timing
        parse(files[fmt][0][1], files[fmt][0][0])
    best = {fmt: [float("inf")] * len(range(0, len(mjai_files), chunk)) for fmt in parsers}
    for _ in range(repeats):
        for part, start in enumerate(range(0, len(mjai_files), chunk)):
            for fmt, parse in parsers.items():
                cpu = time.process_time()
                for name, data in files[fmt][start : start + chunk]:
                    parse(data, name)
                best[fmt][part] = min(best[fmt][part], time.process_time() - cpu)
    ms = {fmt: 1000 * sum(times) / len(mjai_files) for fmt, times in best.items()}
    print(f"{len(mjai_files)} games of {folder} and the same games as Tenhou XML ({xml_folder}), best of {repeats}"
          f" per {chunk} games, CPU:")  # fmt: skip
    print(f"  mjai.parse {ms['mjai']:8.3f} ms/game   tenhou_xml.parse {ms['tenhou_xml']:8.3f} ms/game"
          f"   ratio {ms['mjai'] / ms['tenhou_xml']:.2f}")  # fmt: skip


def main() -> None:
    """Run the benchmark (or the profile, or the converted games' comparison) and print its lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", nargs="+", choices=FORMATS, default=["tenhou_xml", "mjai", "tenhou_json"])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--profile", choices=FORMATS)
    parser.add_argument("--converted", type=Path, nargs="?", const=Path("/tmp/paipu-floor/mjai-v1-1000"))
    parser.add_argument("--games", type=int, default=1000, help="--converted: the first games of the corpus")
    args = parser.parse_args()
    if args.converted:
        converted(args.converted, args.games, args.repeats)
        return
    files = read_logs()
    if args.profile:
        profile(args.profile, files[args.profile])
        return
    for fmt in args.format:
        measure(fmt, files[fmt], args.repeats)


if __name__ == "__main__":
    main()
