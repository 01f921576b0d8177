"""Abortive draws derived from the events (rules.aborts): agreement with the labels of the real logs, and built cases.

The real-log test derives every round of ../shared/logs/tenhou-xml and compares the derived kind with the draw label
for the four kinds derived here. Rounds labelled sanchahou, exhaustive, nagashi_mangan or won must derive ''.

The scenarios are one-round games written by the scenario builder, one file each, ingested together once (module
fixture) and read back through the same inputs derivation uses. Each checks one abort or one near miss.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from pipeline.derive.inputs import RoundInputs, part_tables, read_inputs
from pipeline.ingest import IngestReport, ingest
from pipeline.scenario import GameBuilder, RoundBuilder, one_round
from pipeline.store.warehouse import Warehouse
from rules.aborts import ABORT_KINDS, Aborts, derive_aborts
from rules.hands import EventArrays

NOISE = {
    1: "258m258p258s1357z",
    2: "369m369p369s2467z",
    3: "147m147p147s3456z",
}
"""Far-from-tenpai hands for seats that only pass (at most 7 terminal/honor kinds each)."""


# ---- real logs ----------------------------------------------------------------------------------------------------
def read_part(warehouse: Warehouse, part: Path) -> RoundInputs:
    """The derivation inputs of one games part."""
    return read_inputs(part_tables(warehouse.root, part.relative_to(warehouse.root / "games")))


def aborts_of(inputs: RoundInputs) -> Aborts:
    """The derived aborts of every round of the inputs."""
    return derive_aborts(inputs.arrays, inputs.rounds["n_winners"].to_numpy())


def first_draw_hand(inputs: RoundInputs, aborts: Aborts, i: int, seat: int) -> list[int]:
    """Round i's seat: its dealt tiles plus the tile of its first draw."""
    arrays = inputs.arrays
    dealt = arrays.hands_start[i, seat]
    at = (arrays.round_id == i) & (arrays.event_idx == aborts.first_draw_event_idx[i, seat])
    return sorted([*dealt[dealt >= 0].tolist(), *arrays.tile[at].tolist()])


def test_derived_aborts_match_every_label_of_the_server_logs(
    tenhou_warehouse: tuple[Warehouse, IngestReport],
) -> None:
    warehouse, _ = tenhou_warehouse
    agree: Counter[str] = Counter()
    server_disagree: list[tuple[str, int, str, str]] = []
    other_disagree: list[tuple[str, int, str, str]] = []
    eligible = declared = 0
    for part in warehouse.table_files("games"):
        inputs = read_part(warehouse, part)
        aborts, rounds = aborts_of(inputs), inputs.rounds.to_pydict()
        for i, label in enumerate(rounds["draw_kind"]):
            expected = label if label in ABORT_KINDS else ""
            case = (rounds["game_id"][i], rounds["round_idx"][i], expected, aborts.kind[i])
            if expected != aborts.kind[i]:
                (server_disagree if rounds["is_server_log"][i] else other_disagree).append(case)
            elif rounds["is_server_log"][i]:
                agree[expected] += 1
            for seat in np.flatnonzero(aborts.kyuushu_declared[i]):
                # the log shows the declarer's 14 tiles: the deal plus the first draw found here
                assert sorted(rounds["hands_shown"][i][seat]) == first_draw_hand(inputs, aborts, i, seat)
        server = np.asarray(rounds["is_server_log"], dtype=bool)
        eligible += int(aborts.kyuushu_eligible[server].sum())
        declared += int(aborts.kyuushu_declared[server].sum())
    assert server_disagree == []
    assert all(agree[kind] > 0 for kind in ABORT_KINDS), agree  # every kind is exercised
    assert declared == agree["kyuushu_kyuuhai"] <= eligible
    # logs not written by the server (a bot's test fixtures) may play on where Tenhou aborts; no label is missed
    assert [expected for *_, expected, _ in other_disagree if expected] == []


# ---- scenarios ----------------------------------------------------------------------------------------------------
def kyuushu_declared() -> GameBuilder:
    """Seat 0 is eligible with exactly 9 kinds and plays on; seat 1 has 8 kinds, draws the 9th and declares."""
    game, r = one_round({0: "123459m19p19s123z", 1: "1456789m19p19s12z", 2: NOISE[2], 3: NOISE[3]}, seed=1)
    r.step(0, "6m")
    r.draw(1, "7z")
    r.abort("yao9")
    return game


def kyuushu_eight_kinds() -> GameBuilder:
    """The dealer holds 11 terminals/honors of only 8 kinds at its first draw: not eligible."""
    game, r = one_round({0: "114569m19p19s122z", **NOISE}, seed=2)
    r.step(0, "9p")
    r.run_out()
    return game


def kyuushu_after_pon() -> GameBuilder:
    """Seat 2 pons the dealer's first discard; seat 3 then draws with 11 kinds: not eligible."""
    hands = {0: "258m258p258s1357z", 1: "369m369p369s2467z", 2: "77s236m236p45689s", 3: "12349m19p19s1234z"}
    game, r = one_round(hands, seed=3)
    r.step(0, "7s")
    r.pon(2, 0)
    r.discard(2, "2m")
    r.draw(3, "5z")
    r.discard(3, "2m")
    r.run_out()
    return game


def kyuushu_after_ankan() -> GameBuilder:
    """The dealer declares an ankan on its first turn; seat 1 then draws with 10 kinds: not eligible."""
    hands = {0: "888p258m258s1357z", 1: "12349m19p19s1234z", 2: NOISE[2], 3: NOISE[3]}
    game, r = one_round(hands, seed=4)
    r.draw(0, "8p")
    r.ankan(0)
    r.dora()
    r.step(0, "6m")
    r.draw(1, "7m")
    r.discard(1, "7m")
    r.run_out()
    return game


def kyuushu_after_kita() -> GameBuilder:
    """Sanma: the dealer pulls a North on its first turn; seat 1 then draws with 10 kinds: not eligible on Tenhou."""
    hands = {0: "19m258p258s12356z", 1: "19m12349p19s1235z", 2: "99m369p369s12356z"}
    game, r = one_round(hands, players=3, seed=5)
    r.draw(0, "4z")
    r.kita(0)
    r.step(0, "7p")
    r.step(1, "7s")
    r.run_out()
    return game


def kokushi_tenhou() -> GameBuilder:
    """The dealer wins on its first draw with thirteen orphans: an eligible hand, but a win, not a declaration."""
    game, r = one_round({0: "19m19p19s1234567z", **NOISE}, seed=13)
    r.draw(0, "1m")
    r.tsumo(0)
    return game


WINDS = {0: "23m456p789s22z234s", 1: "23p456s789m33z234m", 2: "23s456m789p55z234p", 3: "567m567p567s66z88m"}
"""Hands without East: each seat draws an East and discards it first."""


def suufon_renda() -> GameBuilder:
    """All four first discards are East, nothing called: the round aborts after the fourth."""
    game, r = one_round(WINDS, seed=6)
    for seat in range(4):
        r.step(seat, "1z")
    r.abort("kaze4")
    return game


def suufon_renda_after_ankan() -> GameBuilder:
    """Four East first discards, but seat 1 declared an ankan before its East: no abort."""
    game, r = one_round({**WINDS, 1: "999m23p456s33z234m"}, seed=7)
    r.step(0, "1z")
    r.draw(1, "9m")
    r.ankan(1)
    r.dora()
    r.step(1, "1z")
    r.step(2, "1z")
    r.step(3, "1z")
    r.run_out()
    return game


RIICHI = {0: "123m456p789s111z4z", 1: "123p456s789m222z5z", 2: "123s456m789p333z6z"}
"""Tenpai hands of seats 0-2 (waits 4z, 5z, 6z)."""


def suucha_riichi() -> GameBuilder:
    """Four riichi in a row; the fourth is accepted: abort."""
    game, r = one_round({**RIICHI, 3: "234m567p345s444z7z"}, seed=8)
    for seat, tile in ((0, "9m"), (1, "9p"), (2, "9s"), (3, "8m")):
        r.draw(seat, tile)
        r.riichi(seat)
    r.abort("reach4")
    return game


def suucha_riichi_ronned() -> GameBuilder:
    """The fourth riichi discard (4z) is ronned by seat 0: never accepted, no abort."""
    game, r = one_round({**RIICHI, 3: "234m567p345s77z55z"}, seed=9)
    for seat, tile in ((0, "9m"), (1, "9p"), (2, "9s"), (3, "4z")):
        r.draw(seat, tile)
        r.riichi(seat)
    r.ron(0, 3)
    return game


KANS = {0: "1111m9999m1111p7z", 1: "999p234m678m2367s", 2: "234m345p456s678s5p", 3: "2468m2468p12356z"}
"""Seat 0 holds three quads; seat 1 three 9p; seat 2 waits on 2p-5p."""


def three_ankans(r: RoundBuilder, draws: tuple[str, str, str, str]) -> None:
    """Seat 0 draws, declares three ankans (1m, 9m, 1p) with a dora each, and draws its third replacement."""
    r.draw(0, draws[0])
    for kind, rinshan in zip(("1m", "9m", "1p"), draws[1:], strict=True):
        r.ankan(0, kind)
        r.dora()
        r.draw(0, rinshan)


def suukaikan(ronned: bool) -> Callable[[], GameBuilder]:
    """Three ankans by seat 0, then seat 1 calls daiminkan on its 9p (the fourth kan) and discards 5p: the
    round aborts once that discard passes; when seat 2 rons it, the round is a win."""

    def build() -> GameBuilder:
        game, r = one_round(KANS, seed=10 + ronned)
        three_ankans(r, ("2s", "3s", "4s", "9p"))
        r.discard(0, "9p")
        r.daiminkan(1, 0)
        r.draw(1, "5p")
        r.discard(1, "5p")
        r.dora()  # Tenhou turns an open kan's dora after the discard
        if ronned:
            r.ron(2, 1)
        else:
            r.abort("kan4")
        return game

    return build


def four_kans_one_seat() -> GameBuilder:
    """Seat 0 declares all four kans (three quads, then 7z): no abort, the round plays on."""
    game, r = one_round(KANS, seed=12)
    three_ankans(r, ("7z", "7z", "7z", "2s"))
    r.ankan(0, "7z")
    r.dora()
    r.draw(0, "3s")
    r.discard(0, "3s")
    r.run_out()
    return game


SCENARIOS: dict[str, Callable[[], GameBuilder]] = {
    "kyuushu_declared": kyuushu_declared,
    "kyuushu_eight_kinds": kyuushu_eight_kinds,
    "kyuushu_after_pon": kyuushu_after_pon,
    "kyuushu_after_ankan": kyuushu_after_ankan,
    "kyuushu_after_kita": kyuushu_after_kita,
    "kokushi_tenhou": kokushi_tenhou,
    "suufon_renda": suufon_renda,
    "suufon_renda_after_ankan": suufon_renda_after_ankan,
    "suucha_riichi": suucha_riichi,
    "suucha_riichi_ronned": suucha_riichi_ronned,
    "suukaikan": suukaikan(ronned=False),
    "suukaikan_ronned": suukaikan(ronned=True),
    "four_kans_one_seat": four_kans_one_seat,
}


def plain(value: object) -> object:
    """A numpy value or row as Python values (lists for seat columns)."""
    return value.tolist() if isinstance(value, np.ndarray | np.generic) else value


@pytest.fixture(scope="module")
def scenario_aborts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Every scenario written, ingested once and derived: name -> its round's derived values (seat columns as lists)."""
    root = tmp_path_factory.mktemp("aborts")
    (root / "logs").mkdir()
    for name, build in SCENARIOS.items():
        (root / "logs" / f"{name}.mjlog").write_text(build().to_xml())
    warehouse = Warehouse(root / "warehouse")
    report = ingest([root / "logs"], warehouse)
    assert report.files["ok"] == len(SCENARIOS), report.problems
    out: dict[str, dict] = {}
    for part in warehouse.table_files("games"):
        tables = part_tables(warehouse.root, part.relative_to(warehouse.root / "games"))
        games = tables["games"]
        files = dict(zip(games["game_id"].to_pylist(), games["source_file"].to_pylist(), strict=True))
        inputs = read_inputs(tables)
        aborts = derive_aborts(inputs.arrays, inputs.rounds["n_winners"].to_numpy())
        for i, game_id in enumerate(inputs.rounds["game_id"].to_pylist()):
            out[Path(files[game_id]).stem] = {k: plain(np.asarray(v)[i]) for k, v in vars(aborts).items()}
    assert sorted(out) == sorted(SCENARIOS)
    return out


def test_kyuushu_declared_on_the_first_draw(scenario_aborts: dict[str, dict]) -> None:
    got = scenario_aborts["kyuushu_declared"]
    assert (got["kind"], got["abort_event_idx"]) == ("kyuushu_kyuuhai", 2)
    assert got["n_orphan_kinds"][:2] == [9, 9]  # seat 1's ninth kind is the tile it drew
    assert got["kyuushu_eligible"] == [True, True, False, False]  # seats 2, 3 never drew
    assert got["kyuushu_declared"] == [False, True, False, False]  # seat 0 discarded instead
    assert got["first_draw_event_idx"] == [0, 2, -1, -1]


@pytest.mark.parametrize(
    ("name", "seat", "n_kinds", "uninterrupted"),
    [
        ("kyuushu_eight_kinds", 0, 8, True),
        ("kyuushu_after_pon", 3, 11, False),
        ("kyuushu_after_ankan", 1, 10, False),
        ("kyuushu_after_kita", 1, 10, False),
    ],
)
def test_kyuushu_near_misses_are_not_eligible(
    scenario_aborts: dict[str, dict], name: str, seat: int, n_kinds: int, uninterrupted: bool
) -> None:
    got = scenario_aborts[name]
    assert got["n_orphan_kinds"][seat] == n_kinds
    assert got["first_draw_uninterrupted"][seat] is uninterrupted
    assert not any(got["kyuushu_eligible"]) and not any(got["kyuushu_declared"])
    assert got["kind"] == ""


def test_a_win_on_an_eligible_first_draw_is_no_declaration(scenario_aborts: dict[str, dict]) -> None:
    got = scenario_aborts["kokushi_tenhou"]
    assert (got["kind"], got["n_orphan_kinds"][0], got["kyuushu_eligible"][0]) == ("", 13, True)
    assert not any(got["kyuushu_declared"])


def test_suufon_renda_aborts_after_the_fourth_wind(scenario_aborts: dict[str, dict]) -> None:
    got = scenario_aborts["suufon_renda"]
    assert (got["kind"], got["abort_event_idx"]) == ("suufon_renda", 7)


def test_suufon_renda_needs_no_call_before_the_fourth_wind(scenario_aborts: dict[str, dict]) -> None:
    got = scenario_aborts["suufon_renda_after_ankan"]
    assert (got["kind"], got["n_kans"]) == ("", 1)


def test_suucha_riichi_aborts_on_the_fourth_accepted_riichi(scenario_aborts: dict[str, dict]) -> None:
    got = scenario_aborts["suucha_riichi"]
    # per seat: draw, riichi, discard, riichi_accepted
    assert (got["kind"], got["abort_event_idx"], got["n_riichi_accepted"]) == ("suucha_riichi", 15, 4)


def test_a_ronned_fourth_riichi_is_not_accepted(scenario_aborts: dict[str, dict]) -> None:
    got = scenario_aborts["suucha_riichi_ronned"]
    assert (got["kind"], got["n_riichi_accepted"]) == ("", 3)


def test_suukaikan_aborts_when_the_discard_after_the_fourth_kan_passes(scenario_aborts: dict[str, dict]) -> None:
    got = scenario_aborts["suukaikan"]
    # seat 0: draw, 3 x (ankan, dora, draw), discard (events 0-10); seat 1: daiminkan, draw, discard (13); dora
    assert (got["kind"], got["abort_event_idx"]) == ("suukaikan", 13)
    assert (got["n_kans"], got["n_kan_seats"], got["four_kans_one_seat"]) == (4, 2, False)


def test_suukaikan_does_not_abort_when_that_discard_is_ronned(scenario_aborts: dict[str, dict]) -> None:
    got = scenario_aborts["suukaikan_ronned"]
    assert (got["kind"], got["n_kans"], got["n_kan_seats"]) == ("", 4, 2)


def test_four_kans_by_one_seat_do_not_abort(scenario_aborts: dict[str, dict]) -> None:
    got = scenario_aborts["four_kans_one_seat"]
    assert (got["kind"], got["n_kans"], got["n_kan_seats"], got["four_kans_one_seat"]) == ("", 4, 1, True)


# ---- the sanchahou hook and edge inputs -----------------------------------------------------------------------------
def test_a_triple_ron_on_the_discard_after_the_fourth_kan_is_sanchahou_not_suukaikan(tmp_path: Path) -> None:
    arrays = arrays_of(suukaikan(ronned=False)(), tmp_path)
    assert derive_aborts(arrays, np.zeros(1)).kind.tolist() == ["suukaikan"]
    assert derive_aborts(arrays, np.zeros(1), last_discard_rons=np.array([3])).kind.tolist() == ["sanchahou"]
    assert derive_aborts(arrays, np.ones(1)).kind.tolist() == [""]  # a ron on that discard: no abort


def arrays_of(game: GameBuilder, root: Path) -> EventArrays:
    """EventArrays of a one-game warehouse built in ``root``."""
    (root / "logs").mkdir()
    (root / "logs" / "game.mjlog").write_text(game.to_xml())
    warehouse = Warehouse(root / "warehouse")
    ingest([root / "logs"], warehouse)
    (part,) = warehouse.table_files("games")
    return read_part(warehouse, part).arrays
