"""Scoring on the real logs: paipu's fu, han, yaku, points and score changes against the server's own labels
(every win of a standard-rule server game in ../shared/logs/tenhou-xml), and against the `mahjong` package.

Inputs are the real-log warehouse's parts (fixture ``tenhou_warehouse``), read the way ``paipu derive`` reads them
and scored by pipeline.derive.scoring. The oracle adapter (``oracle_results``) is reused by benchmarks/scoring.py.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pyarrow as pa
import pytest
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.hand_response import HandResponse
from mahjong.hand_calculating.yaku_config import YakuConfig
from mahjong.meld import Meld

from pipeline.columns import to_arrow_array
from pipeline.derive.furiten import pass_has_yaku, win_rows
from pipeline.derive.inputs import RoundInputs, connect_part, part_tables, read_inputs, round_positions, split_inputs
from pipeline.derive.scoring import scoring_columns, win_inputs
from pipeline.ingest import IngestReport
from pipeline.schema.scoring import SCORING_TABLES
from pipeline.store.warehouse import Warehouse
from rules.furiten import Passes
from rules.hands import hand_states
from rules.scoring import Context, has_yaku
from rules.scoring.inputs import CHI, CLOSED_KAN, NO_MELD, PON, ron_hands
from rules.scoring.situation import melds_before, round_starts

LOGGED_SQL = """
select w.game_id, w.round_idx, w.win_idx, w.fu, w.han, w.points, w.limit_name, w.yaku, w.yaku_han, w.score_deltas,
       w.pao_seat, w.hand, w.melds, w.tile, w.dora_indicators, w.ura_indicators, w.n_kita,
       g.is_server_log and not g.is_custom_rule as is_standard, g.is_server_log and g.is_custom_rule as is_custom,
       g.has_kuitan, g.has_red_fives, g.n_players
from wins w join games g using (game_id)
order by w.game_id, w.round_idx, w.win_idx
"""

ORACLE_YAKU = {
    "tsumo": 0, "riichi": 1, "ippatsu": 2, "chankan": 3, "rinshan": 4, "haitei": 5, "houtei": 6, "pinfu": 7,
    "tanyao": 8, "iipeiko": 9, "seat_wind_east": 10, "seat_wind_south": 11, "seat_wind_west": 12,
    "seat_wind_north": 13, "round_wind_east": 14, "round_wind_south": 15, "round_wind_west": 16,
    "round_wind_north": 17, "haku": 18, "hatsu": 19, "chun": 20, "daburu_riichi": 21, "chiitoitsu": 22,
    "chantai": 23, "ittsu": 24, "sanshoku": 25, "sanshoku_douko": 26, "sankantsu": 27, "toitoi": 28,
    "sanankou": 29, "shosangen": 30, "honroto": 31, "ryanpeiko": 32, "junchan": 33, "honitsu": 34, "chinitsu": 35,
    "tenhou": 37, "chiihou": 38, "daisangen": 39, "suuankou": 40, "suuankou_tanki": 41, "tsuisou": 42,
    "ryuisou": 43, "chinroto": 44, "chuuren_poutou": 45, "daburu_chuuren_poutou": 46, "kokushi": 47,
    "daburu_kokushi": 48, "daisuushi": 49, "shosuushi": 50, "suukantsu": 51, "dora": 52, "ura_dora": 53,
    "aka_dora": 54,
}  # fmt: skip
"""The mahjong package's yaku (YakuConfig attribute) -> Tenhou yaku id."""


@dataclass
class ScoredPart:
    """One part: its inputs, paipu's two tables (Arrow, declared schema) and the logged wins (Arrow)."""

    inputs: RoundInputs
    wins_scored: pa.Table
    fu_components: pa.Table
    logged: pa.Table


def as_table(name: str, columns: dict) -> pa.Table:
    """An Arrow table of one scoring table's columns with its declared schema (pipeline.schema.scoring)."""
    declared = SCORING_TABLES[name]
    arrays = [to_arrow_array(columns[c.name], c.type, c.nullable) for c in declared]
    schema = pa.schema([pa.field(c.name, c.type, nullable=c.nullable) for c in declared])
    return pa.Table.from_arrays(arrays, schema=schema)


@pytest.fixture(scope="module")
def scored_parts(tenhou_warehouse: tuple[Warehouse, IngestReport]) -> list[ScoredPart]:
    """Every games part of the real-log warehouse, scored."""
    warehouse = tenhou_warehouse[0]
    out = []
    for part in warehouse.table_files("games"):
        tables_of_part = part_tables(warehouse.root, part.relative_to(warehouse.root / "games"))
        inputs = read_inputs(tables_of_part)
        tables = scoring_columns(inputs)
        out.append(
            ScoredPart(
                inputs,
                as_table("wins_scored", tables["wins_scored"]),
                as_table("fu_components", tables["fu_components"]),
                connect_part(tables_of_part).sql(LOGGED_SQL).to_arrow_table(),
            )
        )
    assert out
    return out


def rows_of(parts: list[ScoredPart], standard: bool | None = True) -> list[tuple[dict, dict]]:
    """(paipu's row, the logged row) of every win, of standard-rule server games only (or of the others)."""
    pairs = []
    for part in parts:
        for ours, logged in zip(part.wins_scored.to_pylist(), part.logged.to_pylist(), strict=True):
            assert (ours["game_id"], ours["round_idx"], ours["win_idx"]) == (
                logged["game_id"], logged["round_idx"], logged["win_idx"]
            )  # fmt: skip
            if standard is None or logged["is_standard"] == standard:
                pairs.append((ours, logged))
    return pairs


def yaku_pairs(ids: list[int], han: list[int]) -> list[tuple[int, int]]:
    """(yaku id, han) pairs in id order."""
    return sorted(zip(ids, han, strict=True))


def disagreements(pairs: list[tuple[dict, dict]]) -> dict[str, list[str]]:
    """Per label, the wins (game, round, win: paipu vs log) where paipu and the server differ."""
    out: dict[str, list[str]] = {}
    for ours, logged in pairs:
        where = f"{ours['game_id']} r{ours['round_idx']} w{ours['win_idx']}"
        checks = {
            "fu": (ours["fu"], logged["fu"]),
            "han": (ours["han"], logged["han"]),
            "points": (ours["points"], logged["points"]),
            "limit_name": (ours["limit_name"], logged["limit_name"]),
            "yaku": (yaku_pairs(ours["yaku"], ours["yaku_han"]), yaku_pairs(logged["yaku"], logged["yaku_han"])),
            "score_deltas": (ours["score_deltas"], logged["score_deltas"]),
            "pao_seat": (ours["pao_seat"], logged["pao_seat"]),
        }
        for label, (mine, theirs) in checks.items():
            if mine != theirs:
                out.setdefault(label, []).append(f"{where}: {mine} vs {theirs}")
    return out


def test_scoring_tables_fit_their_declared_schema(scored_parts: list[ScoredPart]) -> None:
    for part in scored_parts:
        assert part.wins_scored.num_rows == part.inputs.wins.num_rows
        assert part.fu_components.num_rows > 0 or part.wins_scored.num_rows == 0


def test_chunks_of_games_score_as_the_whole_part_and_no_wins_score_to_empty_tables(
    scored_parts: list[ScoredPart],
) -> None:
    for part in scored_parts:
        chunks = [as_table("wins_scored", scoring_columns(c)["wins_scored"]) for c in split_inputs(part.inputs, 3)]
        assert pa.concat_tables(chunks).equals(part.wins_scored)
    empty = scoring_columns(replace(scored_parts[0].inputs, wins=scored_parts[0].inputs.wins.slice(0, 0)))
    assert {name: as_table(name, columns).num_rows for name, columns in empty.items()} == dict.fromkeys(empty, 0)


def test_standard_rule_wins_agree_with_the_server_labels(scored_parts: list[ScoredPart]) -> None:
    pairs = rows_of(scored_parts)
    assert len(pairs) > 900  # every standard-rule win of the logs (1002 when written)
    assert disagreements(pairs) == {}


def test_every_standard_rule_win_is_complete_with_a_yaku(scored_parts: list[ScoredPart]) -> None:
    pairs = rows_of(scored_parts)
    assert all(ours["is_complete"] and ours["has_yaku"] for ours, _ in pairs)


def test_the_logs_hold_the_cases_worth_checking(scored_parts: list[ScoredPart]) -> None:
    """The agreement above covers these: double ron, pao, yakuman, sanma with kita, chiitoitsu, kans."""
    pairs = rows_of(scored_parts)
    yaku = {y for ours, _ in pairs for y in ours["yaku"]}
    assert {2, 3, 4, 5, 6, 21, 22, 37, 39, 40, 47, 52, 53, 54} <= yaku
    assert any(logged["pao_seat"] is not None for _, logged in pairs)
    assert any(logged["n_kita"] > 0 for _, logged in pairs)
    assert sum(ours["riichi_sticks"] == 0 and ours["win_idx"] == 1 for ours, _ in pairs) >= 5  # double rons
    assert any("[" in ours["decomposition"] for ours, _ in pairs)  # a closed kan


def test_fu_components_add_up_to_the_fu(scored_parts: list[ScoredPart]) -> None:
    for part in scored_parts:
        sums: dict[tuple, int] = {}
        for row in part.fu_components.to_pylist():
            key = (row["game_id"], row["round_idx"], row["win_idx"])
            sums[key] = sums.get(key, 0) + row["fu"]
        for row in part.wins_scored.to_pylist():
            assert sums.get((row["game_id"], row["round_idx"], row["win_idx"]), 0) == row["fu"]


def test_melds_from_the_events_match_the_logged_melds_and_rons_have_a_yaku(scored_parts: list[ScoredPart]) -> None:
    """melds_before (the event stream) gives every winner the melds its win shows; with them, the closed tiles
    before the winning tile and the win's context, has_yaku says yes to every standard-rule ron (the furiten
    pass check asks the same of tiles let go)."""
    checked = 0
    for part in scored_parts:
        hands, context, frame = win_inputs(part.inputs)
        last_row = round_starts(part.inputs.arrays)[frame["round"] + 1] - 1
        kinds, types = melds_before(part.inputs.arrays, last_row, frame["seat"])
        for i in range(len(kinds)):
            from_events = sorted(zip(kinds[i].tolist(), types[i].tolist(), strict=True))
            assert from_events == sorted(zip(hands.meld_kind[i].tolist(), hands.meld_type[i].tolist(), strict=True))
        ron = np.flatnonzero(~frame["is_tsumo"] & part.logged["is_standard"].to_numpy(zero_copy_only=False))
        before = hands.closed[ron].copy()
        before[np.arange(len(ron)), hands.win_tile[ron]] -= 1
        asked = ron_hands(before, hands.win_tile[ron], kinds[ron], types[ron])
        assert has_yaku(asked, context.take(ron)).all()
        checked += len(ron)
    assert checked > 500


def test_custom_rule_wins_differ_only_in_limits_and_honba(scored_parts: list[ScoredPart]) -> None:
    """Custom lobbies may pay kiriage mangan (4 han 30 fu) or other honba: only points and score changes may differ
    there (fp-9185636aa306dc21 r0, fp-be0bb6125d64ce3a r1 and r3 when written)."""
    custom = [(ours, logged) for ours, logged in rows_of(scored_parts, standard=None) if logged["is_custom"]]
    assert len(custom) > 10
    assert set(disagreements(custom)) <= {"points", "score_deltas", "limit_name"}


# ---- the mahjong package, configured as Tenhou plays ------------------------------------------------------------
WINDS_34 = (27, 28, 29, 30)


def oracle_melds(melds: list[list[int]], types: np.ndarray) -> list[Meld]:
    """The mahjong package's melds from the logged meld tiles and paipu's meld types (by slot order)."""
    kinds = {CHI: Meld.CHI, PON: Meld.PON}
    return [
        Meld(meld_type=kinds.get(int(t), Meld.KAN), tiles=sorted(tiles), opened=int(t) != CLOSED_KAN)
        for tiles, t in zip(melds, types[types != NO_MELD], strict=True)
    ]


def oracle_config(context: Context, i: int, is_tsumo: bool, logged: dict) -> HandConfig:
    """HandConfig of win ``i`` (situational flags as derived from the events, which the yaku check confirms)."""
    return HandConfig(
        is_tsumo=is_tsumo,
        is_riichi=bool(context.is_riichi[i]),
        is_daburu_riichi=bool(context.is_double_riichi[i]),
        is_ippatsu=bool(context.is_ippatsu[i]),
        is_rinshan=bool(context.is_rinshan[i]),
        is_chankan=bool(context.is_chankan[i]),
        is_haitei=bool(context.is_haitei[i]),
        is_houtei=bool(context.is_houtei[i]),
        is_tenhou=bool(context.is_tenhou[i]),
        is_chiihou=bool(context.is_chiihou[i]),
        player_wind=WINDS_34[int(context.seat_wind[i])],
        round_wind=WINDS_34[int(context.round_wind[i])],
        num_nuki_dora=int(logged["n_kita"]),
        options=OptionalRules(
            has_open_tanyao=bool(logged["has_kuitan"]),
            has_aka_dora=bool(logged["has_red_fives"]),
            kiriage=False,
            has_double_yakuman=False,
            fu_for_open_pinfu=True,
            fu_for_pinfu_tsumo=False,
            is_three_player=logged["n_players"] == 3,
        ),
    )


@dataclass
class OracleCall:
    """The arguments of one HandCalculator.estimate_hand_value call."""

    tiles: list[int]
    win_tile: int
    melds: list[Meld]
    dora: list[int]
    ura: list[int]
    config: HandConfig

    def run(self) -> HandResponse:
        """Evaluate the hand with the mahjong package."""
        return HandCalculator.estimate_hand_value(
            self.tiles, self.win_tile, self.melds, self.dora, self.config, ura_dora_indicators=self.ura
        )


def oracle_calls(inputs: RoundInputs, logged: list[dict]) -> list[OracleCall]:
    """One oracle call per win of ``inputs`` (logged: the LOGGED_SQL rows of the same wins, in order)."""
    hands, context, frame = win_inputs(inputs)
    calls = []
    for i, row in enumerate(logged):
        tiles = list(row["hand"]) + [t for meld in row["melds"] for t in meld]
        ura = list(row["ura_indicators"]) if context.is_riichi[i] else []
        melds = oracle_melds(row["melds"], np.asarray(hands.meld_type[i]))
        config = oracle_config(context, i, bool(frame["is_tsumo"][i]), row)
        calls.append(OracleCall(tiles, row["tile"], melds, list(row["dora_indicators"]), ura, config))
    return calls


ORACLE_IDS = {type(yaku): ORACLE_YAKU[name] for name, yaku in vars(YakuConfig()).items() if name in ORACLE_YAKU}
"""The mahjong package's yaku class -> Tenhou yaku id."""


def oracle_result(response: HandResponse) -> dict:
    """fu, han, points and (Tenhou id, han) yaku pairs of a mahjong HandResponse."""
    pairs = sorted(
        (ORACLE_IDS[type(yaku)], yaku.han_open if response.is_open_hand else yaku.han_closed)
        for yaku in response.yaku or []
    )
    points = response.cost["total"] if response.cost else None
    return {"fu": response.fu, "han": response.han, "points": points, "yaku": pairs}


def test_the_mahjong_package_agrees_on_every_standard_rule_win(scored_parts: list[ScoredPart]) -> None:
    differences = []
    n = 0
    for part in scored_parts:
        logged = part.logged.to_pylist()
        for call, ours, row in zip(
            oracle_calls(part.inputs, logged), part.wins_scored.to_pylist(), logged, strict=True
        ):
            if not row["is_standard"]:
                continue
            n += 1
            result = oracle_result(call.run())
            # the package lists no yaku at 0 han (Tenhou lists ura dora 0 on riichi wins)
            listed = [(y, h) for y, h in yaku_pairs(ours["yaku"], ours["yaku_han"]) if h > 0]
            mine = {"fu": ours["fu"], "han": ours["han"], "points": ours["points"], "yaku": listed}
            if result != mine:
                differences.append(f"{row['game_id']} r{row['round_idx']} w{row['win_idx']}: {mine} vs {result}")
    assert n > 900
    assert differences == []


def test_the_pass_path_finds_a_yaku_for_every_standard_rule_win(scored_parts: list[ScoredPart]) -> None:
    # furiten_passes.has_yaku scores a let-go tile from the hand state just before it came; asked of every
    # real win's tile at its own event row, that same path must find the yaku the server scored
    checked = 0
    for part in scored_parts:
        inputs = part.inputs
        if not inputs.wins.num_rows:
            continue
        ev = inputs.arrays
        wins = inputs.wins
        rows = win_rows(inputs, round_positions(inputs.rounds, wins))
        seats = wins["seat"].to_numpy().astype(np.int64)
        tiles = wins["tile"].to_numpy().astype(np.int64)
        passes = Passes(rows, seats, wins["from_seat"].to_numpy().astype(np.int64), tiles, *[np.zeros(len(rows))] * 3)
        found = pass_has_yaku(inputs, hand_states(ev), passes)
        standard = part.logged["is_standard"].to_numpy(zero_copy_only=False)
        # bot-written logs leave the winning tile out of the shown hand but their event streams are whole
        assert found[standard].all(), np.flatnonzero(~found.astype(bool) & standard)
        checked += int(standard.sum())
    assert checked >= 900


def test_a_declined_tsumo_in_riichi_had_a_yaku(tenhou_db) -> None:  # noqa: ANN001
    """A tsumo let go in riichi had riichi for a yaku: the hand asked is the 13 tiles before the draw plus the
    drawn tile, not 15 tiles (2020071200gm-00a9-0000-2703badd round 10, seat 1, tsumogiri at event 87)."""
    rows = tenhou_db.execute(
        "select game_id, round_idx, event_idx, has_yaku from furiten_passes where from_seat = seat and in_riichi"
    ).fetchall()
    assert ("2020071200gm-00a9-0000-2703badd", 10, 87, True) in rows
    assert all(has for *_, has in rows)
