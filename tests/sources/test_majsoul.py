"""Mahjong Soul parser: real record files read, records built here from the schema cover every record type,
a triple ron is three wins, and the server's furiten / waits flags agree with the rules layer.

Real files are read from ../shared/logs/majsoul. The game built here (four rounds: calls and kans ending in a
tsumo; riichi, furiten and a triple ron; kyuushu kyuuhai; an exhaustive draw) and a three-player round with
kita use the field names and numbers of liqi.json; the binary form is encoded here from the same records.
"""

from __future__ import annotations

import base64
import copy
import json
import lzma
import re
from pathlib import Path
from typing import Any

import pytest

import pipeline.ingest as ing
from pipeline.audit import run_audit
from pipeline.db import connect
from pipeline.derive.run import derive
from pipeline.errors import NotALogError, ParseError, UnknownCodeError
from pipeline.schema import TABLES, to_arrow
from pipeline.sources.base import ParsedGame, concat_buffers
from pipeline.sources.majsoul import SOURCE, looks_like, parse, server_flags
from pipeline.sources.majsoul.wire import SCHEMA, VARINT_TYPES
from pipeline.statistics import run_checks
from pipeline.store.warehouse import Warehouse

MAJSOUL = "majsoul"
RECORD_FILES = {"mjsoul_corpus_validation.json", "mjsoul_final_deposits.json", "mjsoul_heavenly_hand.json"}
UUID = "230101-00000000-1111-2222-3333-444444444444"
F, T = False, True


# --- records built from the schema ----------------------------------------------------------------
def tiles(text: str) -> list[str]:
    """'123m 4p' -> ['1m', '2m', '3m', '4p']."""
    return [d + group[-1] for group in text.split() for d in group[:-1]]


def rec(name: str, **data: Any) -> dict[str, Any]:
    return {"name": f".lq.Record{name}", "data": data}


def new_round(ju: int, ben: int, scores: list[int], dora: str, hands: list[str], **extra: Any) -> dict[str, Any]:
    dealt = {f"tiles{seat}": tiles(hand) for seat, hand in enumerate(hands)}
    return rec("NewRound", chang=0, ju=ju, ben=ben, liqibang=0, scores=scores, doras=[dora], **dealt, **extra)


def deal(seat: int, tile: str, zt: list[bool] | None = None, **extra: Any) -> dict[str, Any]:
    return rec("DealTile", seat=seat, tile=tile, **({"zhenting": zt} if zt else {}), **extra)


def discard(seat: int, tile: str, moqie: bool = True, zt: list[bool] | None = None, waits: str = "",
            **extra: Any) -> dict[str, Any]:  # fmt: skip
    flags = {"zhenting": zt, "tingpais": [{"tile": t} for t in tiles(waits)]} if zt else {}
    return rec("DiscardTile", seat=seat, tile=tile, moqie=moqie, **{k: v for k, v in flags.items() if v}, **extra)


def hu(seat: int, tile: str, hand: str, fans: dict[int, int], fu: int, **extra: Any) -> dict[str, Any]:
    return {"seat": seat, "hu_tile": tile, "hand": tiles(hand), "fans": [{"id": i, "val": v} for i, v in fans.items()],
            "count": sum(fans.values()), "fu": fu, **extra}  # fmt: skip


def round_calls() -> list[dict[str, Any]]:
    """East 1: pon, chi, ankan (dora at once), daiminkan and kakan (dora with the next discard), tsumo."""
    return [
        new_round(0, 0, [25000] * 4, "9m", ["1z 444p 123m 99p 34s 6s 2s 4p", "666m 123p 789m 22s 5m 8s",
                                            "11z 9s 123p 05m 66p 88m 3z", "78s 777z 2z 234m 567p 5s"]),
        discard(0, "1z", moqie=False),
        rec("ChiPengGang", seat=2, type=1, tiles=tiles("111z"), froms=[2, 2, 0]),
        discard(2, "9s", moqie=False),
        rec("ChiPengGang", seat=3, type=0, tiles=tiles("789s"), froms=[3, 3, 2]),
        discard(3, "2z", moqie=False),
        deal(0, "3p"),
        rec("AnGangAddGang", seat=0, type=3, tiles="4p", doras=["9m", "2p"]),
        deal(0, "6m"),
        discard(0, "6m"),
        rec("ChiPengGang", seat=1, type=2, tiles=tiles("6666m"), froms=[1, 1, 1, 0]),
        deal(1, "8p"),
        discard(1, "8p", doras=["9m", "2p", "3s"]),
        deal(2, "1z"),
        rec("AnGangAddGang", seat=2, type=2, tiles="1z"),
        deal(2, "7p"),
        discard(2, "7p", doras=["9m", "2p", "3s", "4s"]),
        deal(3, "5s"),
        rec("Hule", hules=[hu(3, "5s", "777z 234m 567p 5s", {9: 1, 31: 2}, 40, zimo=True, point_sum=5200,
                              point_zimo_qin=2600, point_zimo_xian=1300)],
            old_scores=[25000] * 4, delta_scores=[-2600, -1300, -1300, 5200], scores=[22400, 23700, 23700, 30200]),
    ]  # fmt: skip


def round_triple_ron() -> list[dict[str, Any]]:
    """East 2: seat 1 furiten on its own discard, seat 0 double riichi, seat 3 passes a winning tile (temporary
    furiten until its own draw), then seats 2, 3 and 0 all ron seat 1's 3s. ``zhenting`` as the server
    shows it: set on the record of another seat's discard of one of the seat's waits (before anyone rons or
    lets it go, as every such record of the real 2019 and 2021 games shows); a seat's own draw ends its
    temporary furiten."""
    own = [F, T, F, F]
    waits_at_deal = [{"seat": 2, "tingpais1": [{"tile": "3s"}, {"tile": "6s"}, {"tile": "9s"}]},
                     {"seat": 3, "tingpais1": [{"tile": "3s"}, {"tile": "5s"}]}]  # fmt: skip
    return [
        new_round(1, 0, [22400, 23700, 23700, 30200], "8m", ["111m 789p 12s 456m 9m 3z", "78p 123p 789m 234s 44z 9p",
                  "234m 345p 678s 22s 45s", "567m 567p 678s 33s 55s"], tingpai=waits_at_deal),  # fmt: skip
        discard(1, "9p", zt=own, waits="69p"),
        deal(2, "1z", own), discard(2, "1z", zt=own, waits="369s"),
        deal(3, "2z", own), discard(3, "2z", zt=own, waits="35s"),
        deal(0, "9m", own), discard(0, "3z", moqie=False, zt=own, waits="3s", is_liqi=True, is_wliqi=True),
        deal(1, "0s", own, liqi={"score": 21400, "liqibang": 1}), discard(1, "0s", zt=[F, T, F, T], waits="69p"),
        deal(2, "7z", [F, T, F, T]), discard(2, "7z", zt=[F, T, F, T], waits="369s"),
        deal(3, "8p", own), discard(3, "8p", zt=own, waits="35s"),
        deal(0, "1z", own), discard(0, "1z", zt=own, waits="3s"),
        deal(1, "5z", own), discard(1, "3s", moqie=False, zt=[T, F, T, T]),
        rec("Hule", hules=[
            hu(0, "3s", "111m 789p 12s 456m 99m", {18: 2, 31: 2}, 40, liqi=True, li_doras=["2p"], point_rong=8000),
            hu(2, "3s", "234m 345p 678s 22s 45s", {12: 1, 14: 1}, 30, point_rong=2000),
            hu(3, "3s", "567m 567p 678s 33s 55s", {12: 1}, 40, point_rong=1300),
        ], old_scores=[21400, 23700, 23700, 30200], delta_scores=[8000, -11300, 3000, 1300]),
    ]  # fmt: skip


def round_kyuushu() -> list[dict[str, Any]]:
    """East 3: the dealer declares kyuushu kyuuhai on its first draw."""
    return [
        new_round(2, 0, [29400, 12400, 26700, 31500], "5p", ["45678m 568p 45678s",
                  "678m 234p 789p 5678s", "19m 19p 19s 12345z 234m", "23m 567m 234p 67p 234s"]),
        rec("LiuJu", type=1, seat=2, tiles=tiles("19m 19p 19s 12345z 234m")),
    ]  # fmt: skip


def round_exhaustive() -> list[dict[str, Any]]:
    """East 3, 1 honba: seat 3 tenpai at the draw (its hand shown), the others noten."""
    noten = {"old_scores": [29400, 12400, 26700, 31500], "delta_scores": [-1000, -1000, -1000, 3000]}
    return [
        new_round(2, 1, [29400, 12400, 26700, 31500], "1s", ["258m 258p 258s 667z 9m", "369m 369p 369s 776z 1m",
                  "147m 147p 147s 1234z 5m", "234m 345p 678s 22s 45s"]),
        discard(2, "5m"), deal(3, "6p"), discard(3, "6p"),
        rec("NoTile", players=[{}, {}, {}, {"tingpai": True, "hand": tiles("234m 345p 678s 22s 45s")}],
            scores=[noten]),
    ]  # fmt: skip


def game_head() -> dict[str, Any]:
    """A ranked jade-room game's head, keys in protobuf's camelCase JSON as some tools write them."""
    accounts = [{"accountId": 10 + s, "seat": s, "nickname": f"P{s}", "level": {"id": 10401 + s}} for s in range(4)]
    return {"uuid": UUID, "startTime": 1672531200, "config": {"category": 2, "mode": {"mode": 2},
            "meta": {"modeId": 12}}, "accounts": accounts}  # fmt: skip


def game_records() -> list[dict[str, Any]]:
    return round_calls() + round_triple_ron() + round_kyuushu() + round_exhaustive()


def game_document() -> dict[str, Any]:
    return {"head": game_head(), "data": {"records": game_records()}}


def sanma_records() -> list[dict[str, Any]]:
    """A three-player East 1: the dealer sets a North aside (kita), draws a replacement, later wins by tsumo."""
    return [
        rec("NewRound", chang=0, ju=0, ben=0, liqibang=0, scores=[35000] * 3, doras=["2z"], tiles3=[],
            tiles0=tiles("4z 123p 456p 789s 11s 5s 9m"), tiles1=tiles("19m 20p 78p 234s 55z 67z"),
            tiles2=tiles("19m 135p 9p 289s 1236z")),
        rec("BaBei", seat=0), deal(0, "6s"), discard(0, "9m", moqie=False),
        deal(1, "9p"), discard(1, "9p"), deal(2, "3z"), discard(2, "3z"), deal(0, "7s"),
        rec("Hule", hules=[hu(0, "7s", "123p 456p 789s 11s 56s", {1: 1, 14: 1, 34: 1}, 20, zimo=True,
                              point_sum=2600, point_zimo_xian=1300)], delta_scores=[2600, -1300, -1300]),
    ]  # fmt: skip


# --- helpers -------------------------------------------------------------------------------------------
def rows(game: ParsedGame, table: str) -> list[dict[str, Any]]:
    """A table of one game as row dicts, through the declared schema (which it must fit)."""
    return to_arrow(table, concat_buffers([game], table)).to_pylist()


def read(document: Any, name: str = "game.json") -> ParsedGame:
    (game,) = parse(json.dumps(document).encode(), name)
    return game


def events_of(game: ParsedGame, round_idx: int) -> list[dict[str, Any]]:
    return [e for e in rows(game, "events") if e["round_idx"] == round_idx]


def _varint(value: int) -> bytes:
    out = bytearray()
    value &= (1 << 64) - 1
    while True:
        out.append((value & 0x7F) | (0x80 if value > 0x7F else 0))
        value >>= 7
        if not value:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited field (wire type 2)."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def encode(message: str, data: dict[str, Any]) -> bytes:
    """Protobuf bytes of a JSON-form message (repeated varints packed, as proto3 writes them)."""
    spec = {name: (number, type_, repeated) for number, (name, type_, repeated) in SCHEMA[message].items()}
    out = bytearray()
    for name, value in data.items():
        number, type_, repeated = spec[name]
        values = value if repeated else [value]
        if type_ in VARINT_TYPES:
            packed = b"".join(_varint(int(v)) for v in values)
            out += _field(number, packed) if repeated else _varint(number << 3) + packed
            continue
        for item in values:
            is_text = isinstance(item, str | bytes)
            out += _field(
                number, (item.encode() if isinstance(item, str) else item) if is_text else encode(type_, item)
            )
    return bytes(out)


def binary(records: list[dict[str, Any]]) -> bytes:
    """Wrapper(.lq.GameDetailRecords) of the records, each a Wrapper of its message."""
    wrapped = [encode("Wrapper", {"name": r["name"], "data": encode(r["name"][4:], r["data"])}) for r in records]
    details = encode("GameDetailRecords", {"records": wrapped})
    return encode("Wrapper", {"name": ".lq.GameDetailRecords", "data": details})


def ingest_derive(paths: list[Path], root: Path) -> tuple[Warehouse, ing.IngestReport]:
    """Ingest (Mahjong Soul records detected by content like every format), then derive the rules layer's tables."""
    warehouse = Warehouse(root)
    report = ing.ingest(paths, warehouse)
    derive(warehouse)
    return warehouse, report


@pytest.fixture(scope="module")
def majsoul_logs(shared_folder) -> Path:  # noqa: ANN001 - conftest's function fixture
    """../shared/logs/majsoul (skip without it; fail under CI=true)."""
    return shared_folder(MAJSOUL, "Mahjong Soul logs")


@pytest.fixture(scope="module")
def built_game() -> ParsedGame:
    return read(game_document())


@pytest.fixture(scope="module")
def built_warehouse(tmp_path_factory: pytest.TempPathFactory) -> tuple[Warehouse, Path]:
    folder = tmp_path_factory.mktemp("majsoul_built")
    path = folder / "logs" / "game.json"
    path.parent.mkdir()
    path.write_text(json.dumps(game_document()))
    warehouse, report = ingest_derive([path.parent], folder / "warehouse")
    assert report.files["ok"] == 1, report.problems
    return warehouse, path


# --- real files ----------------------------------------------------------------------------------------
def test_every_real_record_file_parses_into_schema_valid_tables(majsoul_logs: Path) -> None:
    parsed = set()
    for path in sorted(p for p in majsoul_logs.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if path.name not in RECORD_FILES:  # the folder's manifest and an mjai conversion: not records
            assert not looks_like(data)
            with pytest.raises(NotALogError):
                parse(data, str(path))
            continue
        assert looks_like(data)
        (game,) = parse(data, str(path))
        for table in TABLES:
            assert to_arrow(table, concat_buffers([game], table)).num_rows == len(rows(game, table))
        assert game.n_rounds == 1 and "majsoul_rules" in rows(game, "games")[0]["log_quirks"]
        parsed.add(path.name)
    assert parsed == RECORD_FILES


def read_real(folder: Path, name: str) -> ParsedGame:
    (path,) = folder.rglob(name)
    (game,) = parse(path.read_bytes(), str(path))
    return game


def test_real_heavenly_hand_three_players(majsoul_logs: Path) -> None:
    game = read_real(majsoul_logs, "mjsoul_heavenly_hand.json")
    (games,), (win,) = rows(game, "games"), rows(game, "wins")
    assert games["n_players"] == 3 and games["game_id"] == "250828-f11b2f40-b50f-4484-85f3-65678031db88"
    assert "rule:sanma_ron_honba_200" in games["log_quirks"] and "game_excerpt" in games["log_quirks"]
    (draw,) = rows(game, "events")  # the dealer's 14th tile, the one the server names as the winning tile
    assert (draw["seat"], draw["action"], draw["tile34"]) == (1, "draw", 26)
    assert (win["seat"], win["is_tsumo"], win["tile34"], win["yaku_names"], win["han"]) == (1, True, 26, ["tenhou"], 13)
    assert (win["points"], win["honba"], win["score_deltas"]) == (32000, 1, [-16100, 32200, -16100, 0])


def test_real_tsumo_and_exhaustive_draw_with_final_deposits(majsoul_logs: Path) -> None:
    (win,) = rows(read_real(majsoul_logs, "mjsoul_corpus_validation.json"), "wins")
    assert (win["seat"], win["yaku_names"], win["fu"], win["han"], win["points"]) == (
        1, ["honitsu", "seat_wind_south", "haku", "dora"], 40, 5, 8000)  # fmt: skip
    assert len(win["melds"]) == 3 and win["score_deltas"] == [-4000, 8000, -2000, -2000]
    game = read_real(majsoul_logs, "mjsoul_final_deposits.json")
    (draw,), events = rows(game, "draws"), rows(game, "events")
    riichi = [e["event_idx"] for e in events if e["action"] in ("riichi", "riichi_accepted")]
    assert [events[i]["seat"] for i in riichi] == [0, 0] and events[riichi[1] + 1]["action"] == "draw"
    assert (draw["kind"], draw["is_shown"], draw["riichi_sticks"]) == ("exhaustive", [T, F, F, F], 1)
    assert draw["scores_pre"] == [4400, 31300, 43000, 20300] and draw["score_deltas"] == [3000, -1000, -1000, -1000]
    players = rows(game, "players")
    assert [p["final_score"] for p in players] == [7400, 30300, 43000, 19300]
    assert [p["final_rank"] for p in players] == [4, 2, 1, 3] and rows(game, "rounds")[0]["is_last"]


def test_real_rounds_pass_the_invariant_checks(majsoul_logs: Path, tmp_path: Path) -> None:
    warehouse, report = ingest_derive([majsoul_logs], tmp_path / "warehouse")
    con = connect(warehouse)
    ours = {g for (g,) in con.sql(f"select game_id from games where source = '{SOURCE}'").fetchall()}
    assert report.files["quarantined"] == 0 and len(ours) == 3
    violations = [v for found in run_checks(con).values() for v in found if v.game_id in ours]
    assert violations == []


# --- the record forms users hold (../shared/logs/corpus/majsoul) -----------------------------------------
DOWNLOADED = "PyMajSoul/records/190503-dcd1287a-12f8-4c51-a2a2-0cb5cd284ca8"
"""A 2019 ranked gold-room game as a downloader writes it: {head, data: base64 of Wrapper(GameDetailRecords)},
the old ``records`` form (beside it ``details``, the same records decoded, which the reader does not need)."""
DECODED = "majsoul-replay-editor/products/paipu_record.json"
"""A 2021 ranked jade-room game with its data decoded: {head, data: {name: .lq.GameDetailRecords, data: {version,
actions: [{passed, type, result: {name, data}}]}}}, snake_case."""


@pytest.fixture(scope="module")
def corpus(shared_folder) -> Path:  # noqa: ANN001 - conftest's function fixture
    """../shared/logs/corpus/majsoul (skip without it; fail under CI=true)."""
    return shared_folder("corpus/majsoul", "Mahjong Soul record downloads")


@pytest.fixture(scope="module")
def liqi(shared_folder) -> dict[str, Any]:  # noqa: ANN001 - conftest's function fixture
    """Mahjong Soul's protobuf schema as JSON (../shared/formats/majsoul/liqi.json): the package ``lq``."""
    folder = shared_folder("../formats/majsoul", "Mahjong Soul's schema (liqi.json)")
    return json.loads((folder / "liqi.json").read_text())["nested"]["lq"]["nested"]


def read_path(path: Path, data: bytes | None = None) -> ParsedGame:
    (game,) = parse(path.read_bytes() if data is None else data, str(path))
    return game


def assert_same_tables(game: ParsedGame, expected: ParsedGame) -> None:
    for table in TABLES:
        assert rows(game, table) == rows(expected, table), table


def test_real_downloaded_base64_records_are_read_whole(corpus: Path) -> None:
    game = read_path(corpus / DOWNLOADED)
    (games,) = rows(game, "games")
    assert (games["game_id"], games["room"], games["n_rounds"], games["n_events"]) == (
        "190503-dcd1287a-12f8-4c51-a2a2-0cb5cd284ca8", "gold", 10, 965)  # fmt: skip
    assert games["is_complete"] and games["is_server_log"] and not games["is_custom_rule"]
    assert "majsoul_rules" in games["log_quirks"]
    assert [(r["round_wind"], r["kyoku"], r["honba"]) for r in rows(game, "rounds")] == [
        (0, 0, 0),
        (0, 1, 0),
        (0, 2, 0),
        (0, 3, 0),
        (1, 0, 0),
        (1, 1, 0),
        (1, 2, 0),
        (1, 2, 1),
        (1, 2, 2),
        (1, 3, 0),
    ]
    assert [(w["round_idx"], w["seat"], w["from_seat"], w["points"]) for w in rows(game, "wins")] == [
        (0, 1, 3, 3900), (1, 0, 0, 12000), (2, 3, 3, 8000), (3, 2, 0, 2000), (4, 3, 3, 4000), (5, 2, 2, 7900),
        (7, 2, 3, 2900), (8, 0, 0, 5200), (9, 2, 1, 7700)]  # fmt: skip
    assert rows(game, "wins")[1]["yaku_names"] == ["menzen_tsumo", "pinfu", "riichi", "dora", "aka_dora", "ura_dora"]
    (draw,) = rows(game, "draws")
    assert (draw["round_idx"], draw["kind"], draw["is_shown"]) == (6, "exhaustive", [F, T, T, F])
    players = rows(game, "players")
    assert [(p["name"], p["final_score"], p["final_points"], p["final_rank"]) for p in players] == [
        ("Flugh", 33300, 13.3, 2), ("玫瑰rty", 9300, -30.7, 4), ("Chaserhkj", 36500, 26.5, 1),
        ("云端花生", 20900, -9.1, 3)]  # fmt: skip
    assert rows(game, "rounds")[-1]["scores_post"] == [p["final_score"] for p in players]
    # every record of the file is read: the decoded copy beside the data names as many of each kind
    details = json.loads((corpus / DOWNLOADED).read_text())["details"]
    kinds = [d["@type"] for d in details]
    assert kinds.count("RecordNewRound") == 10 and len(kinds) == 960
    assert sum(1 for d in details if d["@type"] == "RecordDiscardTile") == sum(
        1 for e in rows(game, "events") if e["action"] == "discard")  # fmt: skip


def test_real_decoded_actions_are_read_whole(corpus: Path) -> None:
    game = read_path(corpus / DECODED)
    (games,) = rows(game, "games")
    assert (games["game_id"], games["room"], games["n_rounds"], games["is_complete"]) == (
        "210815-6da08e40-2605-42fb-a5e3-f8aa5940362a", "jade", 9, T)  # fmt: skip
    assert games["is_server_log"] and not games["is_custom_rule"]
    # a tsumo's points are its payments: point_sum is the winner's running total in the game (19200 = 12000 +
    # 2000 + 5200 for seat 2 in round 4)
    assert [(w["round_idx"], w["seat"], w["is_tsumo"], w["points"]) for w in rows(game, "wins")] == [
        (0, 2, F, 12000), (1, 2, F, 2000), (2, 3, T, 4000), (4, 2, T, 5200), (5, 3, T, 4000), (6, 1, F, 2000),
        (7, 3, F, 2900), (8, 3, F, 7700)]  # fmt: skip
    (draw,) = rows(game, "draws")
    assert (draw["round_idx"], draw["is_shown"], draw["score_deltas"]) == (3, [F, T, F, F], [-1000, 3000, -1000, -1000])
    assert [p["final_score"] for p in rows(game, "players")] == [-3600, 23600, 39500, 40500]
    flags = server_flags((corpus / DECODED).read_bytes(), str(corpus / DECODED))
    assert sum(z is not None for z in flags["zhenting"]) == 3240 and sum(k is not None for k in flags["tingpai_kinds"])


def camel(value: Any) -> Any:
    """A JSON value with its keys in protobuf's camelCase JSON ('part_point_1' -> 'partPoint1')."""
    if isinstance(value, dict):
        return {re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), k): camel(v) for k, v in value.items()}
    return [camel(v) for v in value] if isinstance(value, list) else value


def test_decoded_actions_in_camel_case_and_base64_read_alike(corpus: Path) -> None:
    path = corpus / DECODED
    expected = read_path(path)
    document = json.loads(path.read_text())
    assert_same_tables(read_path(path, json.dumps(camel(document)).encode()), expected)
    # the downloader's form with its Wrapper decoded and the GameDetailRecords left as base64
    downloaded = json.loads((corpus / DOWNLOADED).read_text())
    wrapper = decode_fields(base64.b64decode(downloaded["data"]))
    assert wrapper[1] == [b".lq.GameDetailRecords"]
    details = {"name": ".lq.GameDetailRecords", "data": base64.b64encode(wrapper[2][0]).decode()}
    same = {"head": downloaded["head"], "data": details}
    assert_same_tables(read_path(corpus / DOWNLOADED, json.dumps(same).encode()), read_path(corpus / DOWNLOADED))


# --- a tiny protobuf reader and writer driven by liqi.json ---------------------------------------------------
def decode_fields(data: bytes) -> dict[int, list[Any]]:
    """Field number -> its values (varints as ints, length-delimited fields as bytes) of one message."""
    out: dict[int, list[Any]] = {}
    pos = 0
    while pos < len(data):
        key, pos = _read_varint(data, pos)
        if key & 7 == 0:
            value, pos = _read_varint(data, pos)
        else:
            assert key & 7 == 2
            size, pos = _read_varint(data, pos)
            value, pos = data[pos : pos + size], pos + size
        out.setdefault(key >> 3, []).append(value)
    return out


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        value |= (data[pos] & 0x7F) << shift
        pos, shift = pos + 1, shift + 7
        if data[pos - 1] < 0x80:
            return value, pos


LIQI_VARINTS = {"uint32", "int32", "uint64", "int64", "bool"}


def liqi_message(liqi: dict[str, Any], name: str, scope: dict[str, Any]) -> dict[str, Any]:
    """The liqi.json definition of a message type named in ``scope`` (a message's nested types), else anywhere."""
    if name in scope:
        return scope[name]
    found = [v for v in _all_messages(liqi) if v[0] == name]
    assert found, name
    return found[0][1]


def _all_messages(node: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for key, value in node.items():
        if isinstance(value, dict) and "fields" in value:
            out.append((key, value))
        if isinstance(value, dict) and "nested" in value:
            out += _all_messages(value["nested"])
    return out


def liqi_encode(liqi: dict[str, Any], definition: dict[str, Any], value: dict[str, Any]) -> bytes:
    """Protobuf bytes of a JSON-form (snake_case) message by liqi.json's field numbers (repeated varints not
    packed: readers take both); keys liqi.json lacks are left out."""
    out = bytearray()
    for name, item in value.items():
        spec = definition["fields"].get(name)
        if spec is None:
            continue
        values = item if spec.get("rule") == "repeated" else [item]
        if spec["type"] in LIQI_VARINTS:
            for v in values:
                out += _varint(spec["id"] << 3) + _varint(int(v))
        elif spec["type"] in ("string", "bytes"):
            for v in values:
                out += _field(spec["id"], v.encode() if isinstance(v, str) else v)
        else:  # a message: its JSON form, or its bytes already encoded
            inner = liqi_message(liqi, spec["type"], definition.get("nested", {}))
            for v in values:
                out += _field(spec["id"], v if isinstance(v, bytes) else liqi_encode(liqi, inner, v))
    return bytes(out)


def snake(value: Any) -> Any:
    """A JSON value with camelCase keys in snake_case ('partPoint1' -> 'part_point_1')."""
    if isinstance(value, dict):
        return {re.sub(r"(?<=[a-z0-9])([A-Z])|(?<=[a-zA-Z])(\d+)$", lambda m: "_" + (m.group(1) or m.group(2)),
                       k).lower(): snake(v) for k, v in value.items()}  # fmt: skip
    return [snake(v) for v in value] if isinstance(value, list) else value


def test_the_record_response_as_captured_reads_like_the_download(corpus: Path, liqi: dict[str, Any]) -> None:
    """ResGameRecord (head = RecordGame, data = the Wrapper(GameDetailRecords) bytes) built from the real
    download, alone, in a response Wrapper (no name) and behind the websocket frame header (3, index)."""
    path = corpus / DOWNLOADED
    expected = read_path(path)
    downloaded = json.loads(path.read_text())
    head = liqi_encode(liqi, liqi_message(liqi, "RecordGame", {}), snake(downloaded["head"]))
    response = liqi_encode(liqi, liqi["ResGameRecord"], {"head": head, "data": base64.b64decode(downloaded["data"])})
    wrapped = liqi_encode(liqi, liqi["Wrapper"], {"data": response})
    for data in (response, wrapped, b"\x03\x2a\x00" + wrapped, lzma.compress(b"\x03\x2a\x00" + wrapped)):
        assert looks_like(data)
        assert_same_tables(read_path(path, data), expected)


def test_the_wire_reader_uses_liqi_field_numbers(liqi: dict[str, Any]) -> None:
    """Every field wire.py reads has its number, type and repetition in a liqi.json message of that name."""

    def matches(fields: dict[str, Any], spec: dict[int, tuple[str, str, bool]]) -> bool:
        return all(name in fields and fields[name]["id"] == number and (fields[name].get("rule") == "repeated")
                   == repeated and type_ in ("bytes", fields[name]["type"])
                   for number, (name, type_, repeated) in spec.items())  # fmt: skip

    messages = _all_messages(liqi)
    for message, spec in SCHEMA.items():
        assert any(matches(d["fields"], spec) for name, d in messages if name == message), message


def test_every_fan_of_the_real_records_has_a_tenhou_yaku(corpus: Path, majsoul_logs: Path) -> None:
    fans = set()
    for path in [corpus / DOWNLOADED, corpus / DECODED, *(majsoul_logs.rglob("mjsoul_*.json"))]:
        game = read_path(path)  # an unmapped fan would raise
        fans |= {name for w in rows(game, "wins") for name in w["yaku_names"]}
    assert {"riichi", "ippatsu", "menzen_tsumo", "pinfu", "tanyao", "honitsu", "round_wind_east", "chun", "haku",
            "dora", "aka_dora", "ura_dora", "tenhou"} <= fans  # fmt: skip


def test_the_server_marks_furiten_at_the_discard_a_seat_could_ron(corpus: Path) -> None:
    """The server's ``zhenting`` after a discard counts that discard for every seat it is a wait of: the
    winners of a ron are flagged furiten at the very discard they ron (190503 round 0: seat 1 rons seat 3's
    East, event 71), and so is a seat that lets it go (210815 round 7, event 97: seat 3 rons seat 0's 3p, seat
    1 waits on it too)."""
    for name, round_idx, event_idx, flagged in ((DOWNLOADED, 0, 71, {1}), (DECODED, 7, 97, {1, 3})):
        flags = server_flags((corpus / name).read_bytes(), str(corpus / name))
        at = {s: z for _, r, e, s, _, z, _ in zip(*flags.values(), strict=True) if (r, e) == (round_idx, event_idx)}
        before = {s: z for _, r, e, s, a, z, _ in zip(*flags.values(), strict=True)
                  if (r, e) == (round_idx, event_idx - 2)}  # fmt: skip
        assert {s for s, z in at.items() if z} == flagged and not any(before.values())


def test_real_corpus_games_pass_the_checks_and_the_audit(corpus: Path, tmp_path: Path) -> None:
    warehouse, report = ingest_derive([corpus], tmp_path / "warehouse")
    assert (report.files["ok"], report.files["quarantined"]) == (2, 0), report.problems
    con = connect(warehouse)
    assert [v for found in run_checks(con).values() for v in found] == []
    results = run_audit(con)
    assert results["server_waits"].agree == results["server_waits"].total == 878
    assert results["points"].agree == results["points"].total == 17
    for name, result in results.items():
        if name != "server_furiten":
            assert result.disagreements == [] and result.other_total == 0, name


# --- records built from the schema ------------------------------------------------------------------
def test_every_play_record_becomes_events_in_tenhou_order(built_game: ParsedGame) -> None:
    actions = [(e["seat"], e["action"]) for e in events_of(built_game, 0)]
    assert actions == [
        (0, "draw"), (0, "discard"), (2, "pon"), (2, "discard"), (3, "chi"), (3, "discard"), (0, "draw"),
        (0, "ankan"), (None, "dora"), (0, "draw"), (0, "discard"), (1, "daiminkan"), (1, "draw"), (None, "dora"),
        (1, "discard"), (2, "draw"), (2, "kakan"), (2, "draw"), (None, "dora"), (2, "discard"), (3, "draw"),
    ]  # fmt: skip
    events = events_of(built_game, 0)
    assert [e["is_rinshan"] for e in events if e["action"] == "draw"] == [F, F, T, T, F, T, F]
    assert [e["from_seat"] for e in events if e["meld_tiles"] and e["action"] != "ankan"] == [0, 2, 0, 0]
    assert [len(e["meld_tiles"]) for e in events if e["meld_tiles"]] == [3, 3, 4, 4, 4]
    assert [e["tile34"] for e in events if e["action"] == "dora"] == [10, 20, 21]  # 2p 3s 4s
    assert events[10]["is_tsumogiri"] and not events[1]["is_tsumogiri"]
    round_one = events_of(built_game, 1)
    assert [e["action"] for e in round_one[6:10]] == ["draw", "riichi", "discard", "riichi_accepted"]
    hands = rows(built_game, "rounds")[0]["hands_start"]
    assert [len(h) for h in hands] == [13] * 4 and 16 in hands[2]  # the red 5m is copy 0 of its kind


def test_tsumo_after_calls(built_game: ParsedGame) -> None:
    win = rows(built_game, "wins")[0]
    assert (win["seat"], win["is_tsumo"], win["yaku_names"], win["fu"], win["han"], win["points"]) == (
        3, True, ["chun", "dora"], 40, 3, 5200)  # fmt: skip
    assert len(win["hand"]) == 11 and [len(m) for m in win["melds"]] == [3] and len(win["dora_indicators"]) == 4


def test_triple_ron_is_three_wins_in_one_round(built_game: ParsedGame) -> None:
    wins = [w for w in rows(built_game, "wins") if w["round_idx"] == 1]
    assert [(w["win_idx"], w["seat"], w["from_seat"]) for w in wins] == [(0, 2, 1), (1, 3, 1), (2, 0, 1)]
    assert [w["points"] for w in wins] == [2000, 1300, 8000] and [w["riichi_sticks"] for w in wins] == [1, 0, 0]
    assert [w["score_deltas"] for w in wins] == [[0, -2000, 3000, 0], [0, -1300, 0, 1300], [8000, -8000, 0, 0]]
    assert wins[2]["yaku_names"] == ["double_riichi", "dora", "ura_dora"] and len(wins[2]["ura_indicators"]) == 1
    (rnd,) = [r for r in rows(built_game, "rounds") if r["round_idx"] == 1]
    assert (rnd["end_kind"], rnd["n_winners"], rnd["scores_post"]) == ("win", 3, [29400, 12400, 26700, 31500])
    assert not [d for d in rows(built_game, "draws") if d["round_idx"] == 1]


def test_abortive_and_exhaustive_draws(built_game: ParsedGame) -> None:
    kyuushu, exhaustive = rows(built_game, "draws")
    assert (kyuushu["kind"], kyuushu["is_abortive"], kyuushu["is_shown"]) == ("kyuushu_kyuuhai", T, [F, F, T, F])
    assert len(kyuushu["hands_shown"][2]) == 14
    assert (exhaustive["kind"], exhaustive["is_shown"], exhaustive["honba"]) == ("exhaustive", [F, F, F, T], 1)
    assert exhaustive["score_deltas"] == [-1000, -1000, -1000, 3000] and len(exhaustive["hands_shown"][3]) == 13


def test_head_rules_and_players(built_game: ParsedGame) -> None:
    (game,) = rows(built_game, "games")
    # a ranked match: written by the server under the ranked lobby's rules, which are Mahjong Soul's (majsoul_rules)
    assert (game["room"], game["n_rounds"], game["is_complete"], game["is_custom_rule"]) == ("jade", 4, F, F)
    assert game["is_server_log"]
    assert game["started_at"].isoformat() == "2023-01-01T09:00:00" and game["fingerprint"]
    assert game["log_quirks"] == ["majsoul_rules", "rule:double_yakuman", "rule:triple_ron_wins"]
    players = rows(built_game, "players")
    assert [(p["name"], p["dan"]) for p in players] == [("P0", 9), ("P1", 10), ("P2", 11), ("P3", 12)]


def test_sanma_kita_and_tsumo() -> None:
    game = read(sanma_records())
    events = rows(game, "events")
    assert [e["action"] for e in events[:4]] == ["draw", "kita", "draw", "discard"] and events[2]["is_rinshan"]
    (win,) = rows(game, "wins")
    assert (win["n_kita"], win["yaku_names"], win["points"], win["score_deltas"]) == (
        1, ["menzen_tsumo", "pinfu", "dora"], 2600, [2600, -1300, -1300, 0])  # fmt: skip
    (games,) = rows(game, "games")
    assert games["n_players"] == 3 and games["has_red_fives"] and rows(game, "rounds")[0]["hands_start"][3] == []


def test_binary_and_xz_forms_read_like_json() -> None:
    records = game_records()
    expected = read(records)
    for data in (binary(records), lzma.compress(binary(records))):
        assert looks_like(data)
        (game,) = parse(data, "game.json")
        for table in TABLES:
            assert rows(game, table) == rows(expected, table), table


@pytest.mark.parametrize(
    "form",
    [
        lambda: {
            "head": game_head(),
            "data": {
                "actions": [{"passed": 1, "type": 1, "result": r} for r in game_records()]
                + [{"type": 2, "user_input": {}}]
            },
        },
        lambda: {"head": game_head(), "data": base64.b64encode(binary(game_records())).decode()},
        lambda: [
            {
                "head": game_head(),
                "records": [
                    {**r, "data": base64.b64encode(encode(r["name"][4:], r["data"])).decode()} for r in game_records()
                ],
            }
        ],
    ],
    ids=["game_actions", "base64_data", "base64_records"],
)
def test_other_document_forms_read_alike(built_game: ParsedGame, form: Any) -> None:
    (game,) = parse(json.dumps(form()).encode(), "game.json")
    for table in TABLES:
        assert rows(game, table) == rows(built_game, table), table


def test_server_furiten_and_waits_agree_with_the_rules_layer(built_warehouse: tuple[Warehouse, Path]) -> None:
    """zhenting vs the furiten view (and, for the discarder, hand_states.is_own_discard_furiten); tingpais vs
    hand_states.waits_mask. Timing as the server shows it: another seat's discard of a wait sets the flag on
    its own record, and a seat's own draw ends its temporary furiten (the rules layer: its next discard)."""
    warehouse, path = built_warehouse
    flags = server_flags(path.read_bytes(), str(path))
    con = connect(warehouse)
    actor = {(r, e): s for r, e, s in con.sql("select round_idx, event_idx, seat from events").fetchall()}
    tile_kind = {(r, e): k for r, e, k in con.sql("select round_idx, event_idx, tile34 from events").fetchall()}
    intervals = con.sql("select round_idx, seat, kind, start_event_idx, end_event_idx from furiten").fetchall()
    states = {
        key[:3]: key[3:]
        for key in con.sql(
            "select round_idx, seat, coalesce(event_idx, -1), waits_mask, is_own_discard_furiten from hand_states"
        ).fetchall()
    }

    def waits_before(r: int, seat: int, e: int) -> int:
        """The seat's waits mask in its last hand state before event e (the deal's: -1)."""
        return states[max(k for k in states if k[:2] == (r, seat) and k[2] < e)][0]

    compared = {"zhenting": 0, "tingpai": 0}
    for _, r, e, seat, action, zhenting, kinds in zip(*flags.values(), strict=True):
        if kinds is not None:
            mask = states[(r, seat, -1 if e is None else e)][0]
            assert kinds == [k for k in range(34) if mask >> k & 1], (r, e, seat)
            compared["tingpai"] += 1
        if zhenting is None:
            continue
        mover = actor[(r, e)]
        kinds_on = [kind for ri, s, kind, start, end in intervals if ri == r and s == seat and start <= e
                    and (end is None or e < end)
                    and not (action == "draw" and seat == mover and kind == "temporary")]  # fmt: skip
        if action == "discard" and seat == mover:
            derived = bool(states[(r, seat, e)][1]) or "riichi" in kinds_on
        elif action == "discard":
            derived = bool(kinds_on) or bool(waits_before(r, seat, e) >> tile_kind[(r, e)] & 1)
        else:
            derived = bool(kinds_on)
        assert derived == zhenting, (r, e, seat, action)
        compared["zhenting"] += 1
    assert compared == {"zhenting": 68, "tingpai": 11}
    assert sum(flags["zhenting"][i] is True for i in range(len(flags["seat"]))) == 22


def test_built_game_passes_the_checks(built_warehouse: tuple[Warehouse, Path]) -> None:
    con = connect(built_warehouse[0])
    assert {name: violations for name, violations in run_checks(con).items() if violations} == {}


# --- errors ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "data",
    [b"", b"hello", b'{"log": [[[0, 0, 0]]]}', b'{"type":"start_game","names":["A","B","C","D"]}', b"\x0a\x03abc"],
)
def test_other_bytes_are_not_a_log(data: bytes) -> None:
    with pytest.raises(NotALogError):
        parse(data, "other.bin")


def with_record(index: int, **data: Any) -> list[dict[str, Any]]:
    records = copy.deepcopy(game_records())
    records[index]["data"].update(data)
    return records


def test_malformed_record_names_the_file_game_and_round() -> None:
    document = {"head": game_head(), "records": with_record(20, tile="9s")}  # round 1: a tile seat 1 lacks
    message = f"broken.json: a seat gives tile '9s' it does not hold (game {UUID}, round 1)"
    with pytest.raises(ParseError, match=re.escape(message)):
        read(document, "broken.json")
    with pytest.raises(ParseError, match="malformed JSON"):
        parse(json.dumps(game_document()).encode()[:-20], "cut.json")


@pytest.mark.parametrize(
    ("records", "match"),
    [
        (game_records()[:3] + [rec("ChangeTile")], "unsupported record .RecordChangeTile."),
        (with_record(18, hules=[hu(3, "5s", "777z 234m 567p 5s", {999: 1}, 40, zimo=True)]), "unknown fan id 999"),
        (
            with_record(18, hules=[hu(3, "5s", "777z 234m 567p 5s", {60: 13}, 40, zimo=True)]),
            re.escape("fan id 60 (daisharin, a local yaku) has no Tenhou yaku id"),
        ),
        (with_record(39, type=9), "unknown abortive draw type 9"),
        (with_record(1, seat=7), "seat 7 out of range"),
    ],
)
def test_unknown_codes_and_bad_values_fail_loudly(records: list[dict[str, Any]], match: str) -> None:
    with pytest.raises(ParseError, match=match) as caught:
        read(records)
    assert caught.value.round_idx is not None


def test_unknown_codes_are_unknown_code_errors() -> None:
    with pytest.raises(UnknownCodeError):
        read(game_records()[:3] + [rec("ChangeTile")])


def test_a_round_cut_short_is_dropped() -> None:
    game = read({"head": game_head(), "records": game_records()[:-1]})
    assert game.n_rounds == 3 and not game.is_complete and len(rows(game, "rounds")) == 3


def test_the_rules_layer_plays_the_triple_ron_as_three_wins(built_warehouse: tuple[Warehouse, Path]) -> None:
    # the game's rule 'rule:triple_ron_wins': three seats could ron the discard, no sanchahou is derived
    con = connect(built_warehouse[0])
    ((could_ron, derived),) = con.execute(
        "select n_could_ron_last, abort_kind from abort_checks where round_idx = 1"
    ).fetchall()
    assert (could_ron, derived) == (3, None)
    results = run_audit(con)
    assert results["abortive_kind"].agree == results["abortive_kind"].total > 0


def test_the_audit_compares_the_server_flags_with_the_rules_layer(built_warehouse: tuple[Warehouse, Path]) -> None:
    # the same comparison as above, as `paipu audit` runs it from the server_flags table (a ranked Mahjong Soul
    # game is a server-written log: it counts with the logs every check must agree on)
    warehouse, path = built_warehouse
    flags = server_flags(path.read_bytes(), str(path))
    results = run_audit(connect(warehouse))
    waits, furiten = results["server_waits"], results["server_furiten"]
    assert (waits.agree, waits.total) == (11, sum(k is not None for k in flags["tingpai_kinds"]))
    assert (furiten.agree, furiten.total) == (68, sum(z is not None for z in flags["zhenting"]))
