"""The compiled sieve of the invariant checks (pipeline.invariants.sieve) never lets a failing game through.

The checks' SQL (pipeline/sql/checks) is the judge; the sieve only picks which games it must judge. Proved here
on every real log of ../shared/logs (the sieve picks exactly the games the SQL fails) and on mutants of real
games of every format: each kind of mutation breaks what one or more checks look at (an event dropped, repeated,
moved, retiled, reseated or renamed; a meld, hand, indicator, score, stick, win, draw, round or player changed,
repeated or dropped), every game the SQL fails is picked, and every kind is failed by the SQL at least once (so
the proof has teeth).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from pipeline.db.sqlfiles import sql_names
from pipeline.ingest.dedup import id_layers
from pipeline.ingest.discovery import discover_files
from pipeline.ingest.reading import read_entry
from pipeline.invariants import judge, needs_judging
from pipeline.invariants.kernel import CHECKS
from pipeline.schema import TABLES, arrow_schema, to_arrow
from pipeline.sources.base import ParsedGame, concat_buffers

Rows = dict[str, list[dict[str, Any]]]
"""One game's fact tables as rows."""

SAMPLES = (
    ("tenhou-xml/tenhou-python-bot", 4),
    ("corpus/tenhou-xml/thewaxmango-mahjong-hands", 3),
    ("tenhou-json", 4),
    ("corpus/tenhou-json/mjai-reviewer3p", 3),
    ("majsoul", 4),
    ("majsoul", 3),
    ("mjai", 4),
)
"""Folders below ../shared/logs whose first few games of that many players, with a win, are mutated (a missing
folder is passed over)."""
GAMES_PER_SAMPLE = 3
MUTANTS_PER_KIND = 12


def _games(folder: Path, limit: int | None = None, where: Callable[[ParsedGame], bool] = bool) -> list[ParsedGame]:
    """The games read from the files below ``folder`` for which ``where`` holds (at most ``limit``)."""
    games: list[ParsedGame] = []
    for entry in discover_files([folder]):
        result = read_entry(entry, {}, None)
        if result is not None and result.status in (None, "ok"):
            games += [game for game in result.games if where(game)]
        if limit is not None and len(games) >= limit:
            break
    return games[:limit]


def _with_a_win(n_players: int) -> Callable[[ParsedGame], bool]:
    """Whether a game has ``n_players`` players and a win."""
    return lambda g: g.tables["games"]["n_players"][0] == n_players and len(g.tables["wins"]["round_idx"]) > 0


def _tables(games: list[ParsedGame], dictionaries: bool) -> dict[str, pa.Table]:
    """The games' fact tables as the ingest builds them."""
    return {t: to_arrow(t, concat_buffers(games, t), keep_dictionaries=dictionaries) for t in TABLES}


def _sieve_and_judge(tables: dict[str, pa.Table]) -> tuple[set[str], set[str]]:
    """The game ids the sieve picks, and those the SQL fails."""
    ids = tables["games"].column("game_id").to_pylist()
    picked = {ids[k] for k, flag in enumerate(needs_judging(tables)) if flag}
    return picked, set(judge(tables))


def test_the_sieve_knows_every_check() -> None:
    assert list(CHECKS) == sql_names("checks")


def test_real_logs_sieve_picks_exactly_what_the_sql_fails(shared_logs: Path) -> None:
    games = _games(shared_logs)
    assert len(games) > 900
    failed = 0
    for layer in id_layers(games):
        picked, fails = _sieve_and_judge(_tables(layer, dictionaries=True))
        assert picked == fails
        failed += len(fails)
    assert failed >= 1  # a real log with a second riichi tag written (see test_ingest) fails once_per_round


# --- mutants -------------------------------------------------------------------------------------------------


def _rows(game: ParsedGame) -> Rows:
    """A game's tables as rows (one dict per row)."""
    return {t: to_arrow(t, concat_buffers([game], t)).to_pylist() for t in TABLES}


def _pick(rng: random.Random, rows: list[dict[str, Any]], where: Callable[[dict], bool] = lambda r: True) -> dict:
    """A random row of ``rows`` satisfying ``where`` (any row when none does)."""
    candidates = [r for r in rows if where(r)] or rows
    return rng.choice(candidates)


def _event_dropped(rng: random.Random, g: Rows) -> None:
    g["events"].remove(_pick(rng, g["events"], lambda r: r["action"] in ("draw", "discard", "riichi", "pon")))


def _event_repeated(rng: random.Random, g: Rows) -> None:
    row = _pick(rng, g["events"])
    g["events"].append(dict(row, event_idx=row["event_idx"] + rng.choice([0, 1])))


def _riichi_repeated(rng: random.Random, g: Rows) -> None:
    row = _pick(rng, g["events"], lambda r: r["action"] in ("riichi", "riichi_accepted"))
    last = max(r["event_idx"] for r in g["events"] if r["round_idx"] == row["round_idx"])
    action = rng.choice(["riichi", "riichi_accepted"])
    g["events"].append(dict(row, event_idx=last + 1, action=action, tile=None, tile34=None, is_red=None))


def _event_moved(rng: random.Random, g: Rows) -> None:
    a, b = rng.sample(g["events"], 2) if len(g["events"]) > 1 else (g["events"][0], {"event_idx": -1})
    a["event_idx"], b["event_idx"] = b["event_idx"], a["event_idx"]


def _event_retiled(rng: random.Random, g: Rows) -> None:
    row = _pick(rng, g["events"], lambda r: r["tile"] is not None)
    row["tile"] = rng.choice([rng.randrange(136), None, (row["tile"] + 1) % 136])


def _event_reseated(rng: random.Random, g: Rows) -> None:
    row = _pick(rng, g["events"], lambda r: r["seat"] is not None)
    row["seat"] = rng.choice([(row["seat"] + 1) % 4, None])


def _value_out_of_range(rng: random.Random, g: Rows) -> None:
    table, column, value = rng.choice([
        ("events", "seat", rng.choice([4, 7, -2])), ("events", "from_seat", 5),
        ("events", "tile", 136 + rng.randrange(99)), ("events", "tile34", 34), ("rounds", "dealer", 4),
        ("rounds", "dora_indicator", 140), ("wins", "seat", 4), ("wins", "pao_seat", 6), ("wins", "tile", 300),
        ("wins", "tile34", 40),
    ])  # fmt: skip
    if table == "events" and column in ("seat", "tile"):  # a tile drawn and discarded out of range keeps the hand
        row = _pick(rng, g["events"], lambda r: r["action"] == "draw")
        twin = next((r for r in g["events"] if r["round_idx"] == row["round_idx"] and r["tile"] == row["tile"]
                     and r["action"] == "discard"), None)  # fmt: skip
        for r in (row, twin) if twin else (row,):
            r[column] = value
        return
    _pick(rng, g[table])[column] = value


def _tiles_out_of_range(rng: random.Random, g: Rows) -> None:
    table, column = rng.choice([("events", "meld_tiles"), ("wins", "hand"), ("wins", "dora_indicators")])
    row = _pick(rng, g[table], lambda r: bool(r[column]))
    row[column] = [*(row[column] or []), 136 + rng.randrange(50)]


def _event_renamed(rng: random.Random, g: Rows) -> None:
    row = _pick(rng, g["events"])
    row["action"] = rng.choice(["draw", "discard", "chi", "pon", "ankan", "kakan", "kita", "riichi",
                                "riichi_accepted", "dora", "disconnect", "shout"])  # fmt: skip


def _meld_changed(rng: random.Random, g: Rows) -> None:
    row = _pick(rng, g["events"], lambda r: r["meld_tiles"])
    tiles = list(row["meld_tiles"] or [rng.randrange(136)])
    k = rng.randrange(len(tiles))
    choice = rng.randrange(3)
    if choice == 0:
        tiles[k] = rng.randrange(136)
    elif choice == 1:
        del tiles[k]
    else:
        tiles = None
    row["meld_tiles"] = tiles


def _hand_changed(rng: random.Random, g: Rows) -> None:
    row = _pick(rng, g["rounds"])
    hands = [list(h) for h in row["hands_start"]]
    seat = rng.randrange(len(hands))
    if hands[seat]:
        k = rng.randrange(len(hands[seat]))
        hands[seat][k] = rng.choice([rng.randrange(136), hands[seat][(k + 1) % len(hands[seat])]])
    row["hands_start"] = hands


def _indicator_changed(rng: random.Random, g: Rows) -> None:
    row = _pick(rng, g["rounds"])
    row["dora_indicator"] = rng.choice([rng.randrange(136), row["hands_start"][0][0] if row["hands_start"][0]
                                        else 0])  # fmt: skip


def _score_changed(rng: random.Random, g: Rows) -> None:
    table = rng.choice(["rounds", "wins", "draws"]) if g["draws"] else rng.choice(["rounds", "wins"])
    row = _pick(rng, g[table])
    column = rng.choice(["scores_pre", "scores_post"] if table == "rounds" else ["score_deltas"])
    values = list(row[column])
    values[rng.randrange(len(values))] += rng.choice([-1000, 100, 300])
    row[column] = values


def _sticks_changed(rng: random.Random, g: Rows) -> None:
    table = rng.choice(["rounds", "wins"])
    row = _pick(rng, g[table])
    row["riichi_sticks"] = row["riichi_sticks"] + rng.choice([1, -1]) if row["riichi_sticks"] else 1


def _result_changed(rng: random.Random, g: Rows) -> None:
    choice = rng.randrange(6)
    if choice == 0:
        g["wins"].remove(_pick(rng, g["wins"]))
    elif choice == 1:
        row = _pick(rng, g["wins"])
        g["wins"].append(dict(row, win_idx=row["win_idx"] + rng.choice([0, 1]), seat=(row["seat"] + 1) % 4))
    elif choice == 2 and g["draws"]:
        g["draws"].append(dict(_pick(rng, g["draws"])))
    elif choice == 3 and g["draws"]:
        g["draws"].remove(_pick(rng, g["draws"]))
    elif choice == 4:
        row = _pick(rng, g["rounds"])
        row["end_kind"] = "draw" if row["end_kind"] == "win" else "win"
    else:
        row = _pick(rng, g["rounds"])
        row["n_winners"] = (row["n_winners"] + 1) % 3


def _round_changed(rng: random.Random, g: Rows) -> None:
    choice = rng.randrange(4)
    if choice == 0:
        g["rounds"].remove(_pick(rng, g["rounds"]))
    elif choice == 1:
        g["rounds"].append(dict(_pick(rng, g["rounds"])))
    elif choice == 2:
        _pick(rng, g["rounds"])["round_idx"] += len(g["rounds"])
    else:
        g["games"][0]["n_rounds"] += rng.choice([1, -1])


def _player_changed(rng: random.Random, g: Rows) -> None:
    row = _pick(rng, g["players"])
    if rng.randrange(2):
        g["players"].append(dict(row))
    else:
        row["seat"] = (row["seat"] + 1) % 4


def _round_emptied(rng: random.Random, g: Rows) -> None:
    round_idx = _pick(rng, g["rounds"])["round_idx"]
    g["events"] = [r for r in g["events"] if r["round_idx"] != round_idx or r["action"] != "draw"]


MUTATIONS: dict[str, Callable[[random.Random, Rows], None]] = {
    f.__name__.lstrip("_"): f
    for f in (_event_dropped, _event_repeated, _riichi_repeated, _event_moved, _event_retiled, _event_reseated,
              _value_out_of_range, _tiles_out_of_range, _event_renamed, _meld_changed, _hand_changed,
              _indicator_changed, _score_changed, _sticks_changed, _result_changed, _round_changed, _player_changed,
              _round_emptied)
}  # fmt: skip


def _renamed(game: Rows, game_id: str) -> Rows:
    """A copy of a game's rows under another game id."""
    return {t: [dict(r, game_id=game_id) for r in rows] for t, rows in game.items()}


def _as_tables(games: list[Rows]) -> dict[str, pa.Table]:
    """Tables of the declared schemas holding the rows of ``games``."""
    return {t: pa.Table.from_pylist([r for g in games for r in g[t]], schema=arrow_schema(t)) for t in TABLES}


@pytest.fixture(scope="module")
def sample_games(shared_logs: Path) -> list[Rows]:
    """A few real games of each format, as rows."""
    games = []
    for folder, n_players in SAMPLES:
        if (shared_logs / folder).is_dir():
            games += [_rows(g) for g in _games(shared_logs / folder, GAMES_PER_SAMPLE, _with_a_win(n_players))]
    assert len(games) >= 9
    return games


def test_mutants_the_sql_fails_are_all_picked(sample_games: list[Rows]) -> None:
    rng = random.Random(19)
    mutants: list[Rows] = []
    kind_of: dict[str, str] = {}
    for kind, mutate in MUTATIONS.items():
        for k in range(MUTANTS_PER_KIND):
            game = _renamed(rng.choice(sample_games), f"{kind}-{k}")
            mutate(rng, game)
            if rng.randrange(4) == 0:
                game["games"][0]["is_server_log"] = not game["games"][0]["is_server_log"]
            mutants.append(game)
            kind_of[f"{kind}-{k}"] = kind
    clean = [_renamed(g, f"clean-{k}") for k, g in enumerate(sample_games)]
    picked, fails = _sieve_and_judge(_as_tables(clean + mutants))
    assert fails - picked == set()
    assert not any(game_id.startswith("clean-") for game_id in picked)
    failed_kinds = Counter(kind_of[game_id] for game_id in fails)
    assert set(failed_kinds) == set(MUTATIONS), f"kinds the SQL never failed: {set(MUTATIONS) - set(failed_kinds)}"
