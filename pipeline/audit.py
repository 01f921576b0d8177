"""``paipu audit``: every derived value against what the game server recorded.

Each query in ``pipeline/sql/audit`` returns one row per compared value (check_name, game_id,
round_idx, seat, derived, logged, agrees). Agreement figures cover standard-rule games written by
the server; the other classes of log (custom-rule lobbies, converted, edited, tool-written: the
``log_class`` macro, pipeline/sql/macros/log_class.sql) are counted apart, each by its class
(``other_logs``), since their labels follow other rules or cannot be trusted. Every check compares a derived
value: in a warehouse holding games without their derived tables, no check is run and each says NOT_DERIVED.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import duckdb

from pipeline.db import load_sql, sql_names
from pipeline.statistics import NOT_DERIVED

LOG_CLASSES = ("custom_rule", "converted", "edited", "tool_written")
"""The audit's other log classes, in the truth table's column order (pipeline/sql/macros/log_class.sql)."""

SERVER_WRITTEN = "server_written"
"""The log class every check must agree on (log_class.sql)."""

_CLASSIFY = """
select a.*, log_class(g.source, g.is_server_log, g.is_custom_rule, g.log_quirks) as log_kind
from ({query}) as a
join games as g using (game_id)
order by a.game_id, a.round_idx, a.seat
"""


@dataclass
class CheckResult:
    """Agreement of one audit check: over standard-rule server logs, and over the other logs."""

    agree: int = 0
    total: int = 0
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    other_agree: int = 0
    other_total: int = 0
    other_disagreements: list[dict[str, Any]] = field(default_factory=list)
    other_by_class: dict[str, list[int]] = field(default_factory=dict)
    """Per other log class: [agree, total]."""
    note: str | None = None
    """Why the check was not run (NOT_DERIVED); None for a check that ran."""

    def to_json(self) -> dict[str, Any]:
        """The object printed by ``paipu audit --json`` for this check: its counts (null when it was not run),
        disagreements, the other logs' counts, and ``note`` (null, or why it was not run)."""
        if self.note is not None:
            return {"agree": None, "total": None, "disagreements": [], "other_logs": None, "note": self.note}
        return {
            "agree": self.agree,
            "total": self.total,
            "disagreements": self.disagreements,
            "other_logs": {
                "agree": self.other_agree,
                "total": self.other_total,
                "disagreements": self.other_disagreements,
                "by_class": {name: {"agree": a, "total": t} for name, (a, t) in sorted(self.other_by_class.items())},
            },
            "note": None,
        }


def run_audit(con: duckdb.DuckDBPyConnection, derived: bool = True) -> dict[str, CheckResult]:
    """Run every audit query; return check name -> CheckResult. With ``derived`` false (the warehouse holds games
    without derived tables: see statistics.underived_parts), none is run: each result says NOT_DERIVED."""
    if not derived:
        return {name: CheckResult(note=NOT_DERIVED) for name in sql_names("audit")}
    results: dict[str, CheckResult] = {}
    for name in sql_names("audit"):
        result = CheckResult()
        rel = con.sql(_CLASSIFY.format(query=load_sql("audit", name)))
        columns = rel.columns
        for row in rel.fetchall():
            record = dict(zip(columns, row, strict=True))
            log_kind = record.pop("log_kind")
            standard = log_kind == SERVER_WRITTEN
            agrees = bool(record.pop("agrees"))
            record.pop("check_name")
            if standard:
                result.agree += agrees
                result.total += 1
                if not agrees:
                    result.disagreements.append(record)
            else:
                result.other_agree += agrees
                result.other_total += 1
                counts = result.other_by_class.setdefault(log_kind, [0, 0])
                counts[0] += agrees
                counts[1] += 1
                if not agrees:
                    result.other_disagreements.append({**record, "log_class": log_kind})
        results[name] = result
    return results
