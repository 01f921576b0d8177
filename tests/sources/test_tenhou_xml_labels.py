"""The warehouse holds exactly what each real Tenhou log labels, file by file.

Labels are counted here straight from the XML text with plain string operations, independently
of the parser: complete rounds (an INIT followed by a result), AGARI tags, RYUUKYOKU tags by type,
tenpai hands shown at exhaustive draws, and the fu of every win.
"""

from __future__ import annotations

import gzip
import re
from collections import Counter
from pathlib import Path

import pytest

from pipeline.sources.tenhou_xml.codes import DRAW_KINDS

_ATTR = re.compile(r'(\w+)="([^"]*)"')


def log_labels(path: Path) -> dict | None:
    """Count what a Tenhou XML file labels in its complete rounds; None when it is not a log."""
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    text = data.decode("utf-8", "replace")
    if "<mjloggm" not in text:
        return None
    rounds = [seg for seg in text.split("<INIT")[1:] if "<AGARI" in seg or "<RYUUKYOKU" in seg]
    agari = [dict(_ATTR.findall(tag)) for seg in rounds for tag in re.findall(r"<AGARI[^>]*>", seg)]
    ryuukyoku = [dict(_ATTR.findall(tag)) for seg in rounds for tag in re.findall(r"<RYUUKYOKU[^>]*>", seg)]
    return {
        "rounds": len(rounds),
        "wins": len(agari),
        "fu": sorted(int(a["ten"].split(",")[0]) for a in agari),
        "draws": Counter(DRAW_KINDS[r.get("type", "")] for r in ryuukyoku),
        "tenpai_shown": sum(sum(f"hai{s}" in r for s in range(4)) for r in ryuukyoku if "type" not in r),
    }


def stored_labels(db, game_id: str) -> dict:
    """The same counts from the warehouse tables of one game."""
    params = {"g": game_id}
    n_rounds = db.execute("select count(*) from rounds where game_id = $g", params).fetchone()[0]
    fu = [r[0] for r in db.execute("select fu from wins where game_id = $g order by fu", params).fetchall()]
    draws = Counter(
        dict(db.execute("select kind, count(*) from draws where game_id = $g group by kind", params).fetchall())
    )
    shown = db.execute(
        "select coalesce(sum(n_shown), 0) from draws where game_id = $g and kind = 'exhaustive'", params
    ).fetchone()[0]
    return {"rounds": n_rounds, "wins": len(fu), "fu": fu, "draws": draws, "tenpai_shown": int(shown)}


@pytest.fixture(scope="module")
def manifest(tenhou_db) -> list[tuple[str, str, list[str], list[str]]]:
    return tenhou_db.execute("select path, status, game_ids, fingerprints from manifest order by path").fetchall()


def test_every_stored_file_holds_exactly_its_labels(tenhou_db, manifest) -> None:
    checked = 0
    for path, status, game_ids, _ in manifest:
        if status != "ok":
            continue
        expected = log_labels(Path(path))
        assert expected is not None, path
        assert stored_labels(tenhou_db, game_ids[0]) == expected, path
        checked += 1
    assert checked >= 120


def test_every_duplicate_is_a_copy_of_a_stored_game_with_at_least_its_rounds(tenhou_db, manifest) -> None:
    for path, status, _, fingerprints in manifest:
        if status != "duplicate":
            continue
        stored = tenhou_db.execute(
            "select n_rounds from games where fingerprint = $f", {"f": fingerprints[0]}
        ).fetchall()
        labels = log_labels(Path(path))
        assert labels is not None
        # the stored copy is the most complete one of the same game (same shuffle seed and first deal)
        assert stored and stored[0][0] >= labels["rounds"], path


def test_corpus_totals_match_the_labels(tenhou_db, manifest) -> None:
    totals: Counter = Counter()
    for path, status, _, _ in manifest:
        if status == "ok":
            labels = log_labels(Path(path))
            totals.update({"rounds": labels["rounds"], "wins": labels["wins"], **labels["draws"]})
    stored = dict(tenhou_db.execute("select 'rounds', count(*) from rounds").fetchall())
    stored["wins"] = tenhou_db.execute("select count(*) from wins").fetchone()[0]
    stored.update(dict(tenhou_db.execute("select kind, count(*) from draws group by kind").fetchall()))
    assert stored == dict(totals)
    # every abortive kind and nagashi mangan occur in the real logs
    assert set(DRAW_KINDS.values()) <= set(stored)
