"""The ingest's state machine (pipeline.ingest.status): one function decides a file's status from what a stage
found, every reason code leads to one status, and a transition the machine does not allow is an internal error."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pipeline.errors import WarehouseError
from pipeline.ingest.commit import legacy_reason
from pipeline.ingest.dedup import CONFLICTING, PARTIAL
from pipeline.ingest.status import OK, REASONS, STATUS_OF, STATUSES, TRANSITIONS, Verdict, decide, restatable

INGEST = Path(__file__).resolve().parents[1] / "pipeline" / "ingest"


def test_every_status_has_its_reasons_and_every_reason_one_status() -> None:
    assert set(REASONS) == set(STATUSES)
    codes = [code for codes in REASONS.values() for code in codes]
    assert len(codes) == len(set(codes)) == len(STATUS_OF)
    assert all(STATUS_OF[code] == status for status, codes in REASONS.items() for code in codes)


@pytest.mark.parametrize("reason", ["not_read", "not_downloaded", "unreadable", "too_large", "malformed",
                                    "unknown_code", "reader_error", "unknown_format", "not_a_log"])  # fmt: skip
def test_reading_findings_decide_a_new_file(reason: str) -> None:
    verdict = decide(reason, "f: why")
    assert verdict == Verdict(STATUS_OF[reason], reason, "f: why")


@pytest.mark.parametrize("reason", ["copy_of_stored", "partial_copy", "round_disagrees", "game_id_taken",
                                    "unstorable", "invariant_check", "no_complete_round"])  # fmt: skip
def test_later_stages_move_a_read_file_on_but_never_a_file_being_read(reason: str) -> None:
    assert decide(reason, "f: why", OK).status == STATUS_OF[reason]
    with pytest.raises(WarehouseError, match="internal error: a file being read cannot become"):
        decide(reason, "f: why")


def test_final_states_stay_final() -> None:
    for status, codes in REASONS.items():
        for code in codes:
            if (status, code) in TRANSITIONS:
                continue
            with pytest.raises(WarehouseError, match="cannot become"):
                decide("copy_of_stored", "f: again", Verdict(status, code, "f: why"))


def test_restating_follows_the_table() -> None:
    assert decide("partial_copy", "f", Verdict("quarantined", "no_complete_round")).status == "duplicate"
    assert decide("round_disagrees", "f", Verdict("duplicate", "copy_of_stored")).status == "conflict"
    with pytest.raises(WarehouseError):
        decide("copy_of_stored", "f", Verdict("conflict", "game_id_taken"))
    with pytest.raises(WarehouseError):
        decide("copy_of_stored", "f", Verdict("quarantined", "malformed"))
    assert restatable("duplicate", "partial_copy") and not restatable("ok", None)
    assert not restatable("conflict", "game_id_taken")


def test_unknown_reason_is_an_internal_error() -> None:
    with pytest.raises(WarehouseError, match="unknown manifest reason 'bogus'"):
        decide("bogus", "f: why")


def test_rows_written_before_reason_codes_get_theirs_from_the_wording() -> None:
    assert legacy_reason("conflict", f"f: {CONFLICTING} x: round 2 differs") == "round_disagrees"
    assert legacy_reason("conflict", "f: game id x is already stored") == "game_id_taken"
    assert legacy_reason("duplicate", f"same game as x, stored from y{PARTIAL}") == "partial_copy"
    assert legacy_reason("duplicate", "same game as x, stored from y") == "copy_of_stored"
    assert legacy_reason("quarantined", "f: no complete round (the log ends...)") == "no_complete_round"
    assert legacy_reason("quarantined", "f: malformed") is None
    assert legacy_reason("ok", None) is None


def _status_writes(tree: ast.AST) -> list[int]:
    """Lines that assign a status, reason or verdict attribute other than through status.decide."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names = target.elts if isinstance(target, ast.Tuple) else [target]
                for name in names:
                    if isinstance(name, ast.Attribute) and name.attr in ("status", "reason"):
                        lines.append(node.lineno)
                    elif isinstance(name, ast.Attribute) and name.attr == "verdict":
                        value = node.value
                        if not (isinstance(value, ast.Call) and getattr(value.func, "id", None) == "decide"):
                            lines.append(node.lineno)
    return lines


def test_only_the_state_machine_decides_a_status() -> None:
    """No module of the ingest sets a file's status or reason itself: each calls status.decide (directly or
    through FileResult.found) with what it found."""
    writes = {
        path.name: lines
        for path in sorted(INGEST.glob("*.py"))
        if (lines := _status_writes(ast.parse(path.read_text())))
    }
    assert writes == {}
