"""The same games in Tenhou XML and in tenhou.net/6 JSON: a converter from paipu's tables to tenhou.net/6, checked
on the games Tenhou wrote in both formats, and the parse of both formats timed on the same games (issue 19: every
format's parse within 2x of the Tenhou XML path per game; the real tenhou.net/6 files are mostly short edge cases).

Run by hand from the repository root, the output outside the repository:

    python benchmarks/tjson_corpus.py check                    # the six pairs of ../shared/logs
    python benchmarks/tjson_corpus.py build --games 1000       # /tmp/paipu-floor/tjson-v1-1000 from corpus v3
    python benchmarks/tjson_corpus.py measure --games 1000 [--repeats 5]

``tenhou6_document(game)`` writes one game parsed from Tenhou XML (``pipeline.sources.base.ParsedGame``) as the
document Tenhou's own converter writes (keys in its order; tile codes from the 136-ids; per seat the take list of
draws and chi/pon/daiminkan strings and the give list of discards (60: the tile just drawn), riichi 'r..', kakan,
ankan and kita strings and the 0 after a daiminkan; the result as Tenhou writes it: score string, yaku with han,
0-han entries dropped). ``check`` converts the XML of each pair of tenhou-xml/mjlog2json and tenhou-json/mjlog2json
and compares the document with Tenhou's, value by value, then byte by byte (the yaku names of ids 10-20 carry
Tenhou's space, e.g. '役牌 白'; a name the pairs do not show is written as YAKU_JA spells it). ``build`` converts
benchmarks/ingest.py's corpus v3 (built by that script, or reused from /tmp/paipu-floor) and reads every
converted game back, comparing its rows with the XML game's. ``measure`` times ``tenhou_xml.parse`` over the XML
files and ``tenhou_json.parse`` over their conversions, alternated by chunks of 100 games, CPU seconds
(time.process_time), each chunk's best of the repeats, as ms per game.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path
from typing import Any

from pipeline.sources import tenhou_json, tenhou_xml
from pipeline.sources.base import ParsedGame
from pipeline.sources.tenhou_json.codes import DAN_NAMES, YAKU_JA

REPO = Path(__file__).resolve().parents[1]
LOGS = REPO.parent / "shared" / "logs"
WORK = Path("/tmp/paipu-floor")
VERSION = "v1"
PAIRS = ("tenhou-xml/mjlog2json/data", "tenhou-json/mjlog2json/data")
"""The folders of ../shared/logs holding the games Tenhou wrote in both formats (same file names)."""

_RED_IDS = {16: 51, 52: 52, 88: 53}
"""Red five 136-id -> tenhou.net/6 code (when the game plays red fives)."""
_LIMITS = {"mangan": "満貫", "haneman": "跳満", "baiman": "倍満", "sanbaiman": "三倍満", "yakuman": "役満"}
_DRAWS = {"nagashi_mangan": "流し満貫", "kyuushu_kyuuhai": "九種九牌", "suufon_renda": "四風連打",
          "suucha_riichi": "四家立直", "suukaikan": "四槓散了", "sanchahou": "三家和了"}  # fmt: skip
_ROOMS = {"ippan": "般", "joukyuu": "上", "tokujou": "特", "houou": "鳳"}
_CALL_POSITION = {"chi": {3: 0}, "pon": {3: 0, 2: 2, 1: 4}, "kakan": {3: 0, 2: 2, 1: 4},
                  "daiminkan": {3: 0, 2: 2, 1: 6}}  # fmt: skip
"""Where the letter stands (in tiles) by the seat the tile came from, relative to the caller (3: previous)."""


def yaku_text(yaku: int) -> str:
    """Tenhou's name of a yaku id as its JSON writes it (the wind and dragon yakuhai with a space)."""
    name = YAKU_JA[yaku]
    return name[:2] + " " + name[2:] if 10 <= yaku <= 20 else name


class _Game:
    """One parsed game's tables, read into Python lists once."""

    def __init__(self, game: ParsedGame) -> None:
        t = game.tables
        self.tables = t
        self.red = bool(t["games"]["has_red_fives"][0])
        self.n = int(t["games"]["n_players"][0])
        events = t["events"]
        action = events["action"]
        self.actions = [action.categories[c] for c in action.codes.tolist()]
        self.e_round = events["round_idx"].tolist()
        self.e_seat = events["seat"].tolist()
        self.e_tile = events["tile"].tolist()
        self.e_from = events["from_seat"].tolist()
        self.e_tsumogiri = events["is_tsumogiri"].tolist()
        self.e_meld = list(events["meld_tiles"])

    def code(self, tile: int) -> int:
        """The tenhou.net/6 code of a 136-id."""
        if self.red and tile in _RED_IDS:
            return _RED_IDS[tile]
        kind = tile // 4
        return 41 + kind - 27 if kind >= 27 else 11 + 10 * (kind // 9) + kind % 9

    def codes(self, tiles: list[int]) -> list[int]:
        """Codes of tiles in Tenhou's order: by kind, a red five after the plain ones."""
        return [self.code(t) for t in sorted(tiles, key=lambda t: (t // 4, self.red and t in _RED_IDS))]


def _call_text(g: _Game, kind: str, tile: int, meld: list[int], rel: int) -> str:
    """A chi, pon, daiminkan or kakan string: the other tiles with the letter and the named tile at the position
    of the seat it came from (a kakan: where the pon named its tile, the added tile then the pon's)."""
    rest = list(meld)
    rest.remove(tile)
    codes = [f"{c:02d}" for c in g.codes(rest)]
    at = _CALL_POSITION[kind][rel]
    return "".join(codes[: at // 2]) + kind[0].replace("d", "m") + f"{g.code(tile):02d}" + "".join(codes[at // 2 :])


def _kakan_text(g: _Game, seat: int, tile: int, pon: tuple[int, str]) -> str:
    """A kakan string from the pon's: 'k' and the added tile where the pon's letter stood."""
    _, text = pon
    at = text.index("p")
    return text[:at] + f"k{g.code(tile):02d}" + text[at + 1 :]


def _round_lists(g: _Game, start: int, stop: int) -> tuple[list[list], list[list], list[int], list[dict]]:
    """The take and give lists of seats 0-3, the later dora indicators and the connection entries of one round's
    events (rows ``start`` to ``stop``)."""
    takes: list[list] = [[] for _ in range(4)]
    gives: list[list] = [[] for _ in range(4)]
    dora: list[int] = []
    connections: list[dict] = []
    pons: dict[tuple[int, int], tuple[int, str]] = {}
    riichi = [False] * 4
    step = 0
    for k in range(start, stop):
        action, seat, tile = g.actions[k], g.e_seat[k], g.e_tile[k]
        if action in ("disconnect", "reconnect"):
            what = 0 if action == "disconnect" else 1
            connections.append({"what": what, "log": g.e_round[k], "who": seat, "step": step})
            continue
        step += 1
        if action == "draw":
            takes[seat].append(g.code(tile))
        elif action == "discard":
            code = 60 if g.e_tsumogiri[k] == 1 else g.code(tile)
            gives[seat].append(f"r{code}" if riichi[seat] else code)
            riichi[seat] = False
        elif action == "riichi":
            riichi[seat] = True
        elif action in ("chi", "pon", "daiminkan"):
            text = _call_text(g, action, tile, list(g.e_meld[k]), (g.e_from[k] - seat) % 4)
            takes[seat].append(text)
            if action == "pon":
                pons[(seat, tile // 4)] = (g.e_from[k], text)
            if action == "daiminkan":
                gives[seat].append(0)
        elif action == "kakan":
            gives[seat].append(_kakan_text(g, seat, tile, pons[(seat, tile // 4)]))
        elif action == "ankan":
            codes = [f"{c:02d}" for c in g.codes(list(g.e_meld[k]))]
            gives[seat].append("".join(codes[:3]) + "a" + codes[3])
        elif action == "kita":
            gives[seat].append(f"f{g.code(tile):02d}")
        elif action == "dora":
            dora.append(g.code(tile))
    return takes, gives, dora, connections


def _score_text(g: _Game, w: dict[str, list], i: int, dealer: int) -> str:
    """The score string of win ``i``: '30符3飜3900点', '満貫2000-4000点', '30符2飜1000点∀' (pipeline's parse_score
    read backwards: a tsumo's total split into what each seat pays)."""
    points, seat, limit = int(w["points"][i]), int(w["seat"][i]), w["limit_name"][i]
    if not w["is_tsumo"][i]:
        paid = f"{points}点"
    elif seat == dealer:
        paid = f"{points // (g.n - 1)}点∀"
    else:
        each = -(-points // g.n // 100) * 100  # a non-dealer pays the base rounded up, the dealer twice it rounded up
        paid = f"{each}-{points - each * (g.n - 2)}点"
    return _LIMITS[limit] + paid if limit else f"{w['fu'][i]}符{w['han'][i]}飜{paid}"


def _yaku_texts(w: dict[str, list], i: int) -> list[str]:
    """The yaku entries of win ``i`` ('立直(1飜)', '大三元(役満)'); 0-han entries are not written."""
    out = []
    for yaku, han in zip(w["yaku"][i], w["yaku_han"][i], strict=True):
        if han:
            out.append(f"{yaku_text(yaku)}({'役満' if w['is_yakuman'][i] and han >= 13 else f'{han}飜'})")
    return out


def _result(g: _Game, r: int, dealer: int) -> tuple[list, list[int]]:
    """A round's result entry and its ura indicators (codes)."""
    w, d = g.tables["wins"], g.tables["draws"]
    wins = [i for i, x in enumerate(w["round_idx"]) if x == r]
    if wins:
        out: list[Any] = ["和了"]
        ura: list[int] = []
        for i in wins:
            seat = int(w["seat"][i])
            pao = w["pao_seat"][i]
            detail = [seat, int(w["from_seat"][i]), seat if pao is None else int(pao), _score_text(g, w, i, dealer)]
            out += [list(w["score_deltas"][i]), detail + _yaku_texts(w, i)]
            ura = ura or [g.code(t) for t in w["ura_indicators"][i]]
        return out, ura
    (i,) = [i for i, x in enumerate(d["round_idx"]) if x == r]
    kind, deltas = d["kind"][i], list(d["score_deltas"][i])
    if kind == "exhaustive":
        if any(deltas):
            return ["流局", deltas], []
        return ["全員聴牌" if d["n_shown"][i] == g.n else "全員不聴"], []
    return ([_DRAWS[kind], deltas] if kind == "nagashi_mangan" else [_DRAWS[kind]]), []


def _number(value: float | None) -> int | float | None:
    """A float as Tenhou writes it: whole numbers without a fraction (None stays null)."""
    return int(value) if value is not None and float(value).is_integer() else value


def log_id(game_id: str, rule_code: int) -> str:
    """The game's Tenhou log id with the rule code of its GO type (benchmarks/ingest.py's copies all say 00a9,
    three-player games too: the JSON's rules are read from the log id)."""
    head, _, rest = game_id.partition("gm-")
    return f"{head}gm-{rule_code:04x}{rest[4:]}" if rest else game_id


def _dan(index: int | None) -> str:
    """The dan name of a rank index; '' for none (read back as none)."""
    return "" if index is None else DAN_NAMES[index]


def _header(g: _Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """The header entries written before ``log`` and those written after it (``connection`` goes between)."""
    games, players = g.tables["games"], g.tables["players"]
    red = bool(games["has_red_fives"][0])
    disp = ("三" if g.n == 3 else "") + _ROOMS.get(games["room"][0], "般") + ("南" if games["is_hanchan"][0] else "東")
    disp += ("喰" if games["has_kuitan"][0] else "") + ("赤" if red else "") + ("速" if games["is_fast"][0] else "")
    seats = range(4)
    final = [(players["final_score"][s], players["final_points"][s]) if s < g.n else (0, 0) for s in seats]
    before = {"ver": 2.3, "ref": log_id(games["game_id"][0], int(games["rule_code"][0]))}
    after = {
        "ratingc": f"PF{g.n}", "rule": {"disp": disp, "aka53": int(red), "aka52": int(red), "aka51": int(red)},
        "lobby": int(games["lobby"][0] or 0),
        "dan": [_dan(players["dan"][s]) if s < g.n else "新人" for s in seats],
        "rate": [_number(players["rate"][s]) if s < g.n else 1500 for s in seats],
        "sx": [players["sex"][s] or "" if s < g.n else "C" for s in seats],
        "sc": [_number(v) for pair in final for v in pair],
        "name": [players["name"][s] or "" if s < g.n else "" for s in seats],
    }  # fmt: skip
    return before, after


def tenhou6_document(game: ParsedGame) -> dict[str, Any]:
    """The tenhou.net/6 document of one game parsed from Tenhou XML, as Tenhou's converter writes it."""
    g = _Game(game)
    rounds = g.tables["rounds"]
    log, connections, k = [], [], 0
    for r in range(len(rounds["round_idx"])):
        start = k
        while k < len(g.e_round) and g.e_round[k] == r:
            k += 1
        takes, gives, kan_dora, round_connections = _round_lists(g, start, k)
        connections += round_connections
        dealer = int(rounds["dealer"][r])
        result, ura = _result(g, r, dealer)
        kyoku: list[Any] = [[4 * int(rounds["round_wind"][r]) + int(rounds["kyoku"][r]), int(rounds["honba"][r]),
                             int(rounds["riichi_sticks"][r])], [int(s) for s in rounds["scores_pre"][r]],
                            [g.code(int(rounds["dora_indicator"][r])), *kan_dora], ura]  # fmt: skip
        for seat in range(4):
            kyoku += [g.codes(list(rounds["hands_start"][r][seat])), takes[seat], gives[seat]]
        log.append([*kyoku, result])
    before, after = _header(g)
    return {**before, "log": log, **({"connection": connections} if connections else {}), **after}


def document_text(doc: dict[str, Any]) -> bytes:
    """A document's bytes as Tenhou writes them (compact, UTF-8)."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()


def _first_difference(mine: Any, theirs: Any, where: str = "") -> str | None:
    """Where two JSON values first differ (a path and both values), None when equal."""
    if type(mine) is not type(theirs) and not (isinstance(mine, int | float) and isinstance(theirs, int | float)):
        return f"{where}: {mine!r} != {theirs!r}"
    if isinstance(mine, dict):
        if list(mine) != list(theirs):
            return f"{where}: keys {list(mine)} != {list(theirs)}"
        return next((d for key in mine if (d := _first_difference(mine[key], theirs[key], f"{where}.{key}"))), None)
    if isinstance(mine, list):
        if len(mine) != len(theirs):
            return f"{where}: {len(mine)} entries {str(mine)[:200]} != {len(theirs)} {str(theirs)[:200]}"
        return next((d for i, (a, b) in enumerate(zip(mine, theirs, strict=True))
                     if (d := _first_difference(a, b, f"{where}[{i}]"))), None)  # fmt: skip
    return None if mine == theirs else f"{where}: {mine!r} != {theirs!r}"


def check(logs: Path = LOGS) -> int:
    """Convert every XML game of the pairs and compare with Tenhou's JSON; print each difference."""
    xml_folder, json_folder = (logs / p for p in PAIRS)
    bad = 0
    for path in sorted(json_folder.glob("*.json")):
        xml = xml_folder / path.with_suffix(".xml").name
        (game,) = tenhou_xml.parse(xml.read_bytes(), str(xml))
        mine, theirs = tenhou6_document(game), json.loads(path.read_bytes())
        found = _first_difference(mine, theirs)
        if found is None and document_text(mine) != path.read_bytes():
            found = "the same values, other bytes"
        bad += found is not None
        print(f"{path.name}: {found or 'the same bytes'}")
    return 1 if bad else 0


def _xml_files(corpus: Path) -> list[Path]:
    return sorted(p for p in corpus.rglob("*") if p.is_file() and p.suffix in (".mjlog", ".gz"))


def _plain(data: bytes) -> bytes:
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def _xml_corpus(n_games: int) -> Path:
    """benchmarks/ingest.py's corpus v3 of ``n_games`` under WORK (built there unless it is)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import ingest

    return ingest.corpus_for(WORK, n_games, ingest.load_templates())


def _counts(game: ParsedGame) -> dict[str, int]:
    return {name: len(game.tables[name]["round_idx"]) for name in ("rounds", "wins", "draws", "events")}


def build(n_games: int) -> Path:
    """Convert the XML corpus of ``n_games`` to tenhou.net/6 (plain .json files) and read every file back."""
    corpus = _xml_corpus(n_games)
    folder = WORK / f"tjson-{VERSION}-{n_games}"
    done = folder.with_name(folder.name + ".done")
    if done.is_file():
        return folder
    mismatches = []
    for path in _xml_files(corpus):
        (game,) = tenhou_xml.parse(_plain(path.read_bytes()), str(path))
        text = document_text(tenhou6_document(game))
        target = folder / path.relative_to(corpus).with_suffix("").with_suffix(".json")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text)
        (back,) = tenhou_json.parse(text, str(target))
        if _counts(back) != _counts(game) or back.game_id != log_id(game.game_id, game.tables["games"]["rule_code"][0]):
            mismatches.append(f"{target}: {_counts(back)} != {_counts(game)}")
    done.write_text(json.dumps({"files": n_games, "mismatches": mismatches[:20]}))
    print(f"{n_games} games converted to {folder}; {len(mismatches)} read back with other row counts")
    print("\n".join(mismatches[:10]))
    return folder


def measure(n_games: int, repeats: int, chunk: int = 100) -> None:
    """Time both parsers on the same games and print ms a game: the games in chunks of ``chunk``, each chunk parsed
    by one parser then the other, ``repeats`` times; a chunk's best CPU time (time.process_time) per parser, summed
    (the alternation keeps a busy machine's load alike for both)."""
    xml_files = [(str(p), _plain(p.read_bytes())) for p in _xml_files(_xml_corpus(n_games))]
    json_folder = build(n_games)
    json_files = [(str(p), p.read_bytes()) for p in sorted(json_folder.rglob("*.json"))]
    parsers = {"tenhou_xml": (tenhou_xml.parse, xml_files), "tenhou_json": (tenhou_json.parse, json_files)}
    for parse, files in parsers.values():  # warm: imports, kernels' cache
        parse(files[0][1], files[0][0])
    starts = range(0, n_games, chunk)
    best = {name: [float("inf")] * len(starts) for name in parsers}
    for _ in range(repeats):
        for k, start in enumerate(starts):
            for name, (parse, files) in parsers.items():
                began = time.process_time()
                for path, data in files[start : start + chunk]:
                    parse(data, path)
                best[name][k] = min(best[name][k], time.process_time() - began)
    for name, seconds in best.items():
        print(f"{name:<12} {1000 * sum(seconds) / n_games:7.3f} CPU ms/game  ({len(parsers[name][1])} files)")
    print(f"ratio tenhou_json / tenhou_xml: {sum(best['tenhou_json']) / sum(best['tenhou_xml']):.2f}")


def main(argv: list[str]) -> int:
    """check | build --games N | measure --games N [--repeats R]."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("check", "build", "measure"))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    if args.command == "check":
        return check()
    if args.command == "build":
        build(args.games)
        return 0
    measure(args.games, args.repeats)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
