"""Peers benchmark: CPU per game of paipu beside other readers of the same games, at 1k/10k/100k distinct games.

Run by hand from the repository root (never a test; it creates a venv and installs packages from PyPI)::

    python benchmarks/peers.py                          # 1,000 and 10,000 games
    python benchmarks/peers.py --games 1000 --repeat 3  # a quick look, three runs of each
    python benchmarks/peers.py --games 100000           # ~1.3 GB of XML, long

For each N it builds (or reuses, under --workdir) benchmarks/ingest.py's corpus of N distinct Tenhou XML games
and measures, each in its own process, the CPU seconds (user + sys) of:

- ``etree walk`` and ``parse only``: benchmarks/ingest.py's children (read, gunzip, ``ElementTree.fromstring``
  and every element's attributes; paipu's Tenhou XML parser, nothing kept), the measured loop only;
- ``lxml walk``: the same walk with ``lxml.etree.fromstring`` (lxml lives in the peers venv, below);
- ``paipu ingest --no-derive`` and ``paipu ingest`` (with derive), ``--workers 1``, into an empty warehouse:
  the whole command (interpreter start and imports included), the kernel's rusage of the child and every
  process it waited for. Before them ``paipu ingest`` runs twice on a small corpus: once with an empty numba
  cache (``NUMBA_CACHE_DIR`` pointed at a new folder: the compile a first run on a new machine pays) and once
  warm; what those cost is printed on its own.

riichienv (a Rust engine on PyPI, https://pypi.org/project/riichienv/) reads mjai JSON lines
(``MjaiReplay.from_jsonl``, plain or gzip) and Mahjong Soul records, not Tenhou XML. The same games are therefore
converted once to mjai, from paipu's parsed tables (``mjai_lines``: one ``.jsonl`` per game, gzip where the XML
file was), and measured as:

- ``riichienv read``: ``MjaiReplay.from_jsonl`` (read, serde JSON of every line, the round's action list) and
  every round handed to Python (``take_kyokus``);
- ``riichienv wins``: that, then ``Kyoku.take_win_result_contexts()`` for every round: it follows the hands and
  melds to each win and scores the win (``HandEvaluator.calc``: yaku, han, fu, points); the han and fu are
  compared with the log's;
- ``riichienv steps``: read, then ``Kyoku.steps()`` over every round: the engine replays every action and builds
  the acting player's observation (legal actions) at each (on --steps-games games when given);
- ``paipu mjai parse``, ``paipu ingest --no-derive`` and ``paipu ingest`` on the same mjai files.

riichienv and lxml are installed into their own venv (--venv, created with ``python -m venv`` and ``pip install
riichienv lxml`` when missing); an install that fails is reported and those rows are left out.
TenhouDecoder.py (NegativeMjark/tenhou-log on GitHub) is not on any package registry and is not copied into
this repository, so it is not measured (it says so in the output).

It prints a Markdown table (N, tool, what it does, CPU ms per game: median and every run, games per CPU-s) and
writes every measurement to --out as JSON.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_WORKDIR = Path("/tmp/paipu-floor")
DEFAULT_VENV = Path("/tmp/paipu-peers-venv")
DEFAULT_OUT = Path("/tmp/paipu-peers.json")
PEER_PACKAGES = ("riichienv", "lxml")
MJAI_VERSION = "v1"
"""Part of the mjai corpus's folder name; raise it when ``mjai_lines`` changes."""
WARM_GAMES = 50
"""Games of the small corpus the warm-up (and the cold run) ingest."""
CHECK_FILES = 300
"""Converted files read back with paipu's mjai parser and compared with the XML game (rounds, wins, draws)."""

TENHOU_DECODER = (
    "TenhouDecoder.py (NegativeMjark/tenhou-log): not measured. It is a script in a GitHub repository, not a "
    "package on PyPI or any registry this machine reaches (PyPI's `tenhoulog` is another tool: lobby result "
    "lines, not mjlog), and this repository does not copy others' code. "
    "What it does per game: ElementTree parse, then one Python object per draw, discard, call (meld decoded), "
    "dora and win (yaku names, fu, points): a parse like paipu's without the tables (an earlier measurement by "
    "hand put it at about the CPU of `paipu ingest --no-derive`; not measured here)."
)

WHAT = {
    "etree walk": "read, gunzip, ElementTree.fromstring, every element's attributes (loop only)",
    "lxml walk": "read, gunzip, lxml.etree.fromstring, every element's attributes (loop only)",
    "paipu parse only": "Tenhou XML -> paipu's tables in memory, nothing written (loop only)",
    "paipu ingest --no-derive": "whole `paipu ingest -j 1 --no-derive` command: read, hash, parse, dedup, Parquet",
    "paipu ingest": "whole `paipu ingest -j 1` command: as --no-derive, then derive (hand states, waits, scoring)",
    "mjai: paipu parse": "mjai JSON lines -> paipu's tables in memory, nothing written (loop only)",
    "mjai: paipu ingest --no-derive": "whole `paipu ingest -j 1 --no-derive` command on the mjai files",
    "mjai: paipu ingest": "whole `paipu ingest -j 1` command on the mjai files",
    "mjai: riichienv read": "MjaiReplay.from_jsonl (Rust: read, JSON, action lists) + every round to Python",
    "mjai: riichienv wins": "read + take_win_result_contexts: follow hands to each win, score it (yaku/han/fu)",
    "mjai: riichienv steps": "read + Kyoku.steps(): engine replays every action, observation + legal actions each",
}
"""What each measurement does per game, as the table says it."""


def load_sibling(name: str) -> ModuleType:
    """Import benchmarks/<name>.py (benchmarks/ is not a package) under the module name ``bench_<name>``."""
    module_name = f"bench_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# --- children (each runs in its own process; stdlib only at import: some run in the peers venv) ------------


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _files(corpus: Path) -> list[Path]:
    return sorted(p for p in corpus.rglob("*") if p.is_file() and p.suffix in (".mjlog", ".jsonl", ".gz"))


def _documents(corpus: Path, limit: int | None) -> Iterator[tuple[Path, bytes]]:
    """The first ``limit`` files of ``corpus`` (all when None) with their bytes, gunzipped."""
    for path in _files(corpus)[:limit]:
        data = path.read_bytes()
        yield path, gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def child_lxml(corpus: Path, limit: int | None) -> dict[str, Any]:
    """Read, gunzip and lxml-parse every file of ``corpus``, touching every element's attributes."""
    from lxml import etree

    games = n_attributes = 0
    cpu = _cpu_seconds()
    for _path, data in _documents(corpus, limit):
        for element in etree.fromstring(data).iter():
            n_attributes += len(element.attrib)
        games += 1
    return {"games": games, "attributes": n_attributes, "cpu_s": _cpu_seconds() - cpu}


def _rule(path: Path, corpus: Path, sanma: set[str]) -> str:
    return "tenhou_sanma" if str(path.relative_to(corpus)) in sanma else "tenhou"


def _sanma_list(corpus: Path) -> Path:
    """The file beside an mjai corpus naming its 3-player games (outside it: the ingest would read it)."""
    return corpus.with_name(f"{corpus.name}.sanma.txt")


def _sanma(corpus: Path) -> set[str]:
    listed = _sanma_list(corpus)
    return set(listed.read_text().split()) if listed.is_file() else set()


def child_riichienv(kind: str, corpus: Path, limit: int | None) -> dict[str, Any]:
    """riichienv over every mjai file of ``corpus``: ``read``, ``wins`` (score every win) or ``steps``."""
    import riichienv

    sanma = _sanma(corpus)
    files = _files(corpus)[:limit]
    rules = [_rule(path, corpus, sanma) for path in files]
    games = rounds = wins = han_fu_agree = steps = failed = 0
    first_error = ""
    cpu = _cpu_seconds()
    for path, rule in zip(files, rules, strict=True):
        try:
            replay = riichienv.MjaiReplay.from_jsonl(str(path), rule)
            for kyoku in replay.take_kyokus():
                rounds += 1
                if kind == "wins":
                    for context in kyoku.take_win_result_contexts():
                        wins += 1
                        actual = context.actual
                        han_fu_agree += actual.han == context.expected_han and actual.fu == context.expected_fu
                elif kind == "steps":
                    for _ in kyoku.steps():
                        steps += 1
        except Exception as error:  # noqa: BLE001 - a game riichienv cannot read is counted, not fatal
            failed += 1
            first_error = first_error or f"{path.name}: {type(error).__name__}: {error}"[:300]
            continue
        games += 1
    return {
        "games": games,
        "rounds": rounds,
        "wins": wins,
        "han_fu_agree": han_fu_agree,
        "steps": steps,
        "failed": failed,
        "first_error": first_error,
        "cpu_s": _cpu_seconds() - cpu,
        "version": getattr(riichienv, "__version__", None) or _version("riichienv"),
    }


def child_mjai_parse(corpus: Path, limit: int | None) -> dict[str, Any]:
    """paipu's mjai parser over every file of ``corpus`` (gunzipped first), nothing kept."""
    from pipeline.sources import mjai

    games = rounds = 0
    cpu = _cpu_seconds()
    for path, data in _documents(corpus, limit):
        parsed = mjai.parse(data, str(path))
        games += len(parsed)
        rounds += sum(g.n_rounds for g in parsed)
    return {"games": games, "rounds": rounds, "cpu_s": _cpu_seconds() - cpu}


def _version(package: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return None


def run_child(argv: list[str]) -> dict[str, Any]:
    """Dispatch ``--child KIND CORPUS [LIMIT]``."""
    kind, corpus = argv[0], Path(argv[1])
    limit = int(argv[2]) if len(argv) > 2 and int(argv[2]) > 0 else None
    if kind == "lxml":
        return child_lxml(corpus, limit)
    if kind == "mjai-parse":
        return child_mjai_parse(corpus, limit)
    if kind.startswith("riichienv-"):
        return child_riichienv(kind.removeprefix("riichienv-"), corpus, limit)
    raise SystemExit(f"unknown child {kind!r}")


def measure_child(python: Path | str, kind: str, corpus: Path, limit: int = 0) -> dict[str, Any]:
    """Run this script's child ``kind`` with the interpreter ``python``; return the JSON it prints last."""
    command = [str(python), str(Path(__file__).resolve()), "--child", kind, str(corpus), str(limit)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- the peers venv ---------------------------------------------------------------------------------------------


def ensure_venv(venv: Path) -> tuple[Path | None, dict[str, str | None]]:
    """The peers venv's python (created, with riichienv and lxml installed, when missing) and each package's
    version (None: not installed; the reason is printed). The python is None when no venv could be made."""
    python = venv / "bin" / "python"
    if not python.is_file():
        print(f"creating the peers venv {venv}", flush=True)
        made = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True, check=False)
        if made.returncode != 0:
            print(f"!! could not create {venv}: {made.stderr.strip()[-500:]}; riichienv and lxml not measured")
            return None, dict.fromkeys(PEER_PACKAGES)
    versions: dict[str, str | None] = {}
    for package in PEER_PACKAGES:
        versions[package] = _installed(python, package)
        if versions[package] is None:
            print(f"installing {package} into {venv}", flush=True)
            command = [str(python), "-m", "pip", "install", "--quiet", package]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            versions[package] = _installed(python, package)
            if versions[package] is None:
                print(f"!! pip install {package} failed: {done.stderr.strip()[-800:]}\n!! {package} not measured")
    return python, versions


def _installed(python: Path, package: str) -> str | None:
    """The version of ``package`` importable by ``python``, else None."""
    code = f"import {package}, importlib.metadata as m; print(m.version({package!r}))"
    done = subprocess.run([str(python), "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return None
    return done.stdout.strip() or None


# --- Tenhou XML -> mjai (from paipu's parsed tables) -------------------------------------------------------------

_KIND_NAMES = [f"{n}{suit}" for suit in "mps" for n in range(1, 10)] + ["E", "S", "W", "N", "P", "F", "C"]
_RED_NAMES = {16: "5mr", 52: "5pr", 88: "5sr"}
_DRAW_REASONS = {
    "exhaustive": "fanpai",
    "nagashi_mangan": "nagashimangan",
    "kyuushu_kyuuhai": "kyushukyuhai",
    "suufon_renda": "sufonrenta",
    "suucha_riichi": "suchareach",
    "suukaikan": "sukaikan",
    "sanchahou": "sanchaho",
}
"""paipu's draw kinds -> the mjai ``ryukyoku`` reasons (gimite/mjai's spelling)."""


def mjai_lines(game: Any) -> list[str]:
    """The mjai JSON lines of one parsed game (``pipeline.sources.base.ParsedGame``).

    Written from the fact tables: ``start_game`` (names, ``uuid`` from the fingerprint (a Tenhou log id would
    make paipu take the seats from its lobby), ``kyoku_first``, ``aka_flag``), per round ``start_kyoku``, every
    event in order (tsumo, dahai with tsumogiri, chi/pon/daiminkan/kakan/ankan with ``consumed``, kita, reach,
    reach_accepted, dora), each win as ``hora`` (pai, ``ura_markers``, ``deltas``, han, fu; no yaku names) or
    the draw as ``ryukyoku`` (reason, ``tenpais``, ``deltas``), ``end_kyoku``, then ``end_game`` with the
    final scores. Disconnects are left out (mjai has none). Seats beyond the players
    (sanma) are dropped from every list.
    """
    t = game.tables
    games, players, rounds, events = t["games"], t["players"], t["rounds"], t["events"]
    red = bool(games["has_red_fives"][0])
    n = int(games["n_players"][0])

    def name(tile: int) -> str:
        return _RED_NAMES[tile] if red and tile in _RED_NAMES else _KIND_NAMES[tile // 4]

    def line(event: dict[str, Any]) -> str:
        return json.dumps(event, ensure_ascii=False, separators=(",", ":"))

    out = [
        line(
            {
                "type": "start_game",
                "names": [str(players["name"][s] or "") for s in range(n)],
                "uuid": f"paipubench-{game.fingerprint}",
                "kyoku_first": 0 if games["is_hanchan"][0] else 4,
                "aka_flag": red,
            }
        )
    ]
    e_round = events["round_idx"].tolist()
    e_seat = events["seat"].tolist()
    e_tile = events["tile"].tolist()
    e_from = events["from_seat"].tolist()
    e_tsumogiri = events["is_tsumogiri"].tolist()
    e_melds = list(events["meld_tiles"])
    action = events["action"]
    names = [action.categories[c] for c in action.codes.tolist()]
    results: dict[int, list[dict[str, Any]]] = {}
    wins = t["wins"]
    for i, r in enumerate(wins["round_idx"]):
        results.setdefault(int(r), []).append(
            {
                "type": "hora",
                "actor": wins["seat"][i],
                "target": wins["from_seat"][i],
                "pai": name(wins["tile"][i]),
                "ura_markers": [name(x) for x in wins["ura_indicators"][i]],
                "deltas": list(wins["score_deltas"][i])[:n],
                "han": wins["han"][i],
                "fu": wins["fu"][i],
            }
        )
    draws = t["draws"]
    for i, r in enumerate(draws["round_idx"]):
        results.setdefault(int(r), []).append(
            {
                "type": "ryukyoku",
                "reason": _DRAW_REASONS[draws["kind"][i]],
                "tenpais": list(draws["is_shown"][i])[:n],
                "deltas": list(draws["score_deltas"][i])[:n],
            }
        )
    k = 0
    for r in range(len(rounds["round_idx"])):
        out.append(
            line(
                {
                    "type": "start_kyoku",
                    "bakaze": "ESWN"[rounds["round_wind"][r]],
                    "kyoku": rounds["kyoku"][r] + 1,
                    "honba": rounds["honba"][r],
                    "kyotaku": rounds["riichi_sticks"][r],
                    "oya": rounds["dealer"][r],
                    "scores": list(rounds["scores_pre"][r])[:n],
                    "dora_marker": name(rounds["dora_indicator"][r]),
                    "tehais": [[name(x) for x in hand] for hand in rounds["hands_start"][r][:n]],
                }
            )
        )
        while k < len(e_round) and e_round[k] == r:
            out.append(_event_line(names[k], e_seat[k], e_tile[k], e_from[k], e_tsumogiri[k], e_melds[k], name))
            k += 1
        out.extend(line(result) for result in results.get(r, ()))
        out.append('{"type":"end_kyoku"}')
    final = [players["final_score"][s] for s in range(n)]
    out.append(line({"type": "end_game", **({"scores": final} if None not in final else {})}))
    return [x for x in out if x]


def _event_line(kind: str, seat: int, tile: int, from_seat: int, tsumogiri: int, meld: Any, name: Any) -> str:
    """One events-table row as an mjai line ('' for a row mjai has no event for)."""
    if kind == "draw":
        event: dict[str, Any] = {"type": "tsumo", "actor": seat, "pai": name(tile)}
    elif kind == "discard":
        event = {"type": "dahai", "actor": seat, "pai": name(tile), "tsumogiri": tsumogiri == 1}
    elif kind in ("chi", "pon", "daiminkan", "kakan"):
        consumed = list(meld)
        consumed.remove(tile)
        event = {"type": kind, "actor": seat, "pai": name(tile), "consumed": [name(x) for x in consumed]}
        if kind != "kakan":
            event["target"] = from_seat
    elif kind == "ankan":
        event = {"type": "ankan", "actor": seat, "consumed": [name(x) for x in meld]}
    elif kind == "kita":
        event = {"type": "kita", "actor": seat, "pai": "N"}
    elif kind == "riichi":
        event = {"type": "reach", "actor": seat}
    elif kind == "riichi_accepted":
        event = {"type": "reach_accepted", "actor": seat}
    elif kind == "dora":
        event = {"type": "dora", "dora_marker": name(tile)}
    else:  # disconnect, reconnect
        return ""
    return json.dumps(event, separators=(",", ":"))


def mjai_corpus_for(work: Path, n_games: int, xml_corpus: Path) -> tuple[Path, dict[str, Any]]:
    """The mjai copy of ``xml_corpus`` below ``work`` (built unless a finished one is there) and what it took."""
    folder = work / f"mjai-{MJAI_VERSION}-{n_games}"
    done = work / f"mjai-{MJAI_VERSION}-{n_games}.done"
    if done.is_file():
        print(f"N={n_games:,}: reusing the mjai corpus in {folder}", flush=True)
        return folder, {**json.loads(done.read_text()), "reused": True}
    from pipeline.sources import mjai, tenhou_xml

    shutil.rmtree(folder, ignore_errors=True)
    cpu, wall = time.process_time(), time.perf_counter()
    sanma, mismatches, checked, size = [], [], 0, 0
    for i, path in enumerate(_files(xml_corpus)):
        data = path.read_bytes()
        packed = data[:2] == b"\x1f\x8b"
        (game,) = tenhou_xml.parse(gzip.decompress(data) if packed else data, str(path))
        text = ("\n".join(mjai_lines(game)) + "\n").encode()
        relative = path.relative_to(xml_corpus).with_suffix(".jsonl.gz" if packed else ".jsonl")
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        blob = gzip.compress(text, compresslevel=6, mtime=0) if packed else text
        target.write_bytes(blob)
        size += len(blob)
        if game.tables["games"]["n_players"][0] == 3:
            sanma.append(str(relative))
        if i < CHECK_FILES:
            checked += 1
            (back,) = mjai.parse(text, str(target))
            got = {name: len(back.tables[name]["round_idx"]) for name in ("rounds", "wins", "draws", "events")}
            want = {name: len(game.tables[name]["round_idx"]) for name in got}
            want["events"] -= sum(a in ("disconnect", "reconnect") for a in _actions(game))
            if got != want:
                mismatches.append(f"{relative}: mjai {got} != xml {want}")
    _sanma_list(folder).write_text("".join(f"{s}\n" for s in sanma))
    info = {
        "files": n_games,
        "mb": size / 2**20,
        "cpu_s": time.process_time() - cpu,
        "wall_s": time.perf_counter() - wall,
        "sanma_files": len(sanma),
        "checked": checked,
        "mismatches": mismatches[:10],
    }
    done.write_text(json.dumps(info))
    print(
        f"N={n_games:,}: converted to mjai in {info['cpu_s']:.1f} CPU s ({size / 2**20:.0f} MB, {len(sanma)} sanma); "
        f"{checked} read back by paipu's mjai parser, {len(mismatches)} differ in rounds/wins/draws/events",
        flush=True,
    )
    for mismatch in mismatches[:5]:
        print(f"  ! {mismatch}")
    return folder, info


def _actions(game: Any) -> list[str]:
    action = game.tables["events"]["action"]
    return [action.categories[c] for c in action.codes.tolist()]


# --- paipu as a command -----------------------------------------------------------------------------------------


def paipu_ingest(
    scale: ModuleType, work: Path, corpus: Path, label: str, derive: bool, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """``paipu ingest CORPUS -w WH --workers 1 [--no-derive]`` into an empty warehouse, measured from outside."""
    warehouse = work / f"peers-warehouse-{label}"
    shutil.rmtree(warehouse, ignore_errors=True)
    command = [scale.paipu_executable(), "ingest", str(corpus), "--warehouse", str(warehouse), "--workers", "1"]
    if not derive:
        command.append("--no-derive")
    saved = {key: os.environ.get(key) for key in env or {}}
    os.environ.update(env or {})
    try:
        result = scale.run_measured(command, work / "peers-logs" / f"{label}.log")
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    shutil.rmtree(warehouse, ignore_errors=True)
    if result["returncode"] != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({result['returncode']}):\n{result['output'][-3000:]}")
    timings = scale.cli_timings(result["output"])
    return {
        "games": timings["games_new"],
        "derived": derive and "derived" in result["output"],
        "cpu_s": result["cpu_s"],
        "wall_s": result["wall_s"],
        "largest_process_mb": result["largest_process_mb"],
        "command": " ".join(command),
    }


def warm_up(scale: ModuleType, builder: ModuleType, work: Path, templates: list) -> dict[str, Any]:
    """``paipu ingest`` of WARM_GAMES games: once with an empty numba cache (cold), then twice as every run after."""
    corpus = builder.corpus_for(work, WARM_GAMES, templates)
    with tempfile.TemporaryDirectory(prefix="paipu-peers-numba-") as cache:
        cold = paipu_ingest(scale, work, corpus, "warm-cold", derive=True, env={"NUMBA_CACHE_DIR": cache})
    warm = [paipu_ingest(scale, work, corpus, f"warm-{i}", derive=True) for i in range(2)]
    plain = paipu_ingest(scale, work, corpus, "warm-plain", derive=False)
    print(
        f"warm-up, `paipu ingest -j 1` of {WARM_GAMES} games: {cold['cpu_s']:.1f} CPU s with an empty numba cache, "
        f"{', '.join(format(w['cpu_s'], '.1f') for w in warm)} s warm; --no-derive {plain['cpu_s']:.1f} s",
        flush=True,
    )
    return {"games": WARM_GAMES, "cold": cold, "warm": warm, "no_derive": plain}


# --- one N ------------------------------------------------------------------------------------------------------


def run_size(n_games: int, args: argparse.Namespace, peers: dict[str, Any], templates: list) -> dict[str, Any]:
    """Every measurement of one N, ``--repeat`` times, alternating; runs by measurement name."""
    scale = load_sibling("scale")
    builder = scale.BUILDER
    work: Path = args.workdir
    corpus = builder.corpus_for(work, n_games, templates)
    mjai_corpus, conversion = mjai_corpus_for(work, n_games, corpus)
    python = peers["python"]
    has = peers["versions"]
    steps_limit = 0 if args.no_steps else min(args.steps_games or n_games, n_games)
    runs: dict[str, list[dict[str, Any]]] = {}

    def add(name: str, measure: Any) -> None:
        start = time.perf_counter()
        result = measure()
        runs.setdefault(name, []).append(result)
        games = result.get("games") or 0
        per_game = 1000 * result["cpu_s"] / games if games else float("nan")
        print(
            f"N={n_games:,} {name}: {result['cpu_s']:.1f} CPU s, {games:,} games, {per_game:.3f} ms/game "
            f"({time.perf_counter() - start:.0f} s wall)",
            flush=True,
        )

    for run in range(args.repeat):
        add("etree walk", lambda: builder.measure("--run-baseline", "etree", str(corpus)))
        if python and has.get("lxml"):
            add("lxml walk", lambda: measure_child(python, "lxml", corpus))
        add("paipu parse only", lambda: builder.measure("--run-baseline", "parse", str(corpus)))
        add("paipu ingest --no-derive", lambda: paipu_ingest(scale, work, corpus, f"{n_games}-plain", False))
        add("paipu ingest", lambda: paipu_ingest(scale, work, corpus, f"{n_games}-derive", True))
        add("mjai: paipu parse", lambda: measure_child(sys.executable, "mjai-parse", mjai_corpus))
        add(
            "mjai: paipu ingest --no-derive",
            lambda: paipu_ingest(scale, work, mjai_corpus, f"{n_games}-mjai-plain", False),
        )
        add("mjai: paipu ingest", lambda: paipu_ingest(scale, work, mjai_corpus, f"{n_games}-mjai-derive", True))
        if python and has.get("riichienv"):
            add("mjai: riichienv read", lambda: measure_child(python, "riichienv-read", mjai_corpus))
            add("mjai: riichienv wins", lambda: measure_child(python, "riichienv-wins", mjai_corpus))
            if steps_limit > 0:
                add(
                    "mjai: riichienv steps",
                    lambda: measure_child(python, "riichienv-steps", mjai_corpus, steps_limit),
                )
        print(f"N={n_games:,}: run {run + 1} of {args.repeat} done", flush=True)
    return {"corpus": str(corpus), "mjai_corpus": str(mjai_corpus), "conversion": conversion, "runs": runs}


# --- report -----------------------------------------------------------------------------------------------------


def rows(results: dict[int, dict[str, Any]]) -> list[tuple[str, ...]]:
    """Table rows: N, tool, what it does, CPU ms/game (median; every run), games per CPU-s (median)."""
    out = []
    for n_games, result in results.items():
        for name, runs in result["runs"].items():
            per_game = [1000 * r["cpu_s"] / r["games"] for r in runs if r.get("games")]
            if not per_game:
                continue
            median = statistics.median(per_game)
            games = runs[0]["games"]
            label = name if games == n_games else f"{name} ({games:,} games)"
            shown = f"{median:.3f}" + (f" ({', '.join(f'{v:.3f}' for v in per_game)})" if len(per_game) > 1 else "")
            out.append((f"{n_games:,}", label, WHAT[name], shown, f"{1000 / median:,.0f}"))
    return out


def markdown(table: list[tuple[str, ...]]) -> str:
    """A Markdown table (pastes into benchmarks/README.md)."""
    header = ("N", "tool", "what it does per game", "CPU ms/game", "games per CPU-s")
    lines = ["| " + " | ".join(header) + " |", "|---|---|---|---:|---:|"]
    lines += ["| " + " | ".join(row) + " |" for row in table]
    return "\n".join(lines)


def notes(results: dict[int, dict[str, Any]], warm: dict[str, Any] | None) -> list[str]:
    """What the table cannot show: checks of the riichienv runs, the conversion, the warm-up."""
    out = []
    for n_games, result in results.items():
        conversion = result["conversion"]
        out.append(
            f"N={n_games:,}: mjai conversion {conversion['cpu_s']:.1f} CPU s once ({conversion['mb']:.0f} MB, "
            f"{conversion['sanma_files']} sanma files, given to riichienv with rule tenhou_sanma); "
            f"{conversion['checked']} files read back by paipu's mjai parser, "
            f"{len(conversion['mismatches'])} differing in rounds/wins/draws/events"
        )
        for name in ("mjai: riichienv read", "mjai: riichienv wins", "mjai: riichienv steps"):
            for r in result["runs"].get(name, [])[:1]:
                extra = f", {r['wins']:,} wins, han and fu as the log's for {r['han_fu_agree']:,}" if r["wins"] else ""
                extra += f", {r['steps']:,} steps" if r["steps"] else ""
                failed = f", {r['failed']} files failed (first: {r['first_error']})" if r["failed"] else ""
                out.append(f"N={n_games:,} {name}: {r['games']:,} games, {r['rounds']:,} rounds{extra}{failed}")
        for name in (
            "paipu ingest --no-derive",
            "paipu ingest",
            "mjai: paipu ingest --no-derive",
            "mjai: paipu ingest",
        ):
            for r in result["runs"].get(name, []):
                if r["games"] != n_games or r["derived"] != (not name.endswith("--no-derive")):
                    out.append(
                        f"N={n_games:,} {name}: {r['games']} new games (expected {n_games:,}), derived: {r['derived']}"
                    )
            if warm and result["runs"].get(name):
                fixed = warm["no_derive" if name.endswith("--no-derive") else "warm"]
                fixed_s = fixed["cpu_s"] if isinstance(fixed, dict) else min(w["cpu_s"] for w in fixed)
                median = statistics.median(r["cpu_s"] for r in result["runs"][name])
                out.append(
                    f"N={n_games:,} {name}: {median:.1f} CPU s in all; less the {fixed_s:.2f} s of the same command on "
                    f"{warm['games']} XML games (start, imports, those games): "
                    f"{1000 * (median - fixed_s) / (n_games - warm['games']):.3f} ms per further game"
                )
    if warm:
        out.append(
            f"`paipu ingest -j 1` of {warm['games']} games (startup and imports included): "
            f"{warm['cold']['cpu_s']:.2f} CPU s with an empty numba cache (compiling the kernels), "
            f"{', '.join(format(w['cpu_s'], '.2f') for w in warm['warm'])} s with it warm; "
            f"--no-derive {warm['no_derive']['cpu_s']:.2f} s"
        )
    out.append(TENHOU_DECODER)
    return out


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10_000], help="corpus sizes N")
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR, help="corpora (kept) and scratch warehouses")
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV, help="venv of riichienv and lxml (made if missing)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="results JSON")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each measurement, alternating")
    parser.add_argument("--steps-games", type=int, default=0, help="games of `riichienv steps` (0: all N)")
    parser.add_argument("--no-steps", action="store_true", help="leave `riichienv steps` out")
    parser.add_argument("--no-warm-up", action="store_true", help="skip the cold/warm runs on the small corpus")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Measure every N (JSON written after each), print the table and the notes."""
    args = parse_args(argv)
    if args.child:
        print(json.dumps(run_child(args.child)))
        return
    args.workdir.mkdir(parents=True, exist_ok=True)
    python, versions = ensure_venv(args.venv)
    print(f"peers venv {args.venv}: {versions}", flush=True)
    peers = {"python": python, "versions": versions}
    scale = load_sibling("scale")
    templates = scale.BUILDER.load_templates()
    if not templates:
        sys.exit(f"no template games found in {scale.BUILDER.SOURCE_LOGS}")
    meta = {
        "date": f"{datetime.now():%Y-%m-%d %H:%M}",
        "cores": os.cpu_count(),
        "python": sys.version.split()[0],
        "peers": versions,
        "templates": len(templates),
        "load_start": os.getloadavg(),
        "tenhou_decoder": TENHOU_DECODER,
    }
    warm = None if args.no_warm_up else warm_up(scale, scale.BUILDER, args.workdir, templates)
    results: dict[int, dict[str, Any]] = {}
    for n_games in sorted(args.games):
        results[n_games] = run_size(n_games, args, peers, templates)
        meta["load_end"] = os.getloadavg()
        args.out.write_text(json.dumps({"meta": meta, "warm_up": warm, "results": results}, indent=1, default=str))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\n{meta['date']}, {os.cpu_count()} cores, Python {meta['python']}, {versions}, load now {load}\n")
    print(markdown(rows(results)))
    print()
    for line in notes(results, warm):
        print(f"- {line}")
    print(f"\nresults: {args.out}")


if __name__ == "__main__":
    main()
