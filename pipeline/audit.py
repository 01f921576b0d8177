"""``paipu audit``: every derived value against what the game server recorded.

Each query in ``pipeline/sql/audit`` returns one row per compared value (check_name, game_id,
round_idx, seat, derived, logged, agrees). Agreement figures cover standard-rule games written by
the server; games from custom-rule lobbies and logs written or edited by other tools are counted
apart (``other_logs``), since their labels follow other rules or cannot be trusted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import duckdb

from pipeline.db import load_sql, sql_names

_CLASSIFY = """
select a.*,
       case when not g.is_server_log then 'not_server_written'
            when g.is_custom_rule then 'custom_rule'
            else 'standard' end as log_kind
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

    def to_json(self) -> dict[str, Any]:
        """The object printed by ``paipu audit --json`` for this check."""
        return {
            "agree": self.agree,
            "total": self.total,
            "disagreements": self.disagreements,
            "other_logs": {
                "agree": self.other_agree,
                "total": self.other_total,
                "disagreements": self.other_disagreements,
            },
        }


def run_audit(con: duckdb.DuckDBPyConnection) -> dict[str, CheckResult]:
    """Run every audit query; return check name -> CheckResult."""
    results: dict[str, CheckResult] = {}
    for name in sql_names("audit"):
        result = CheckResult()
        rel = con.sql(_CLASSIFY.format(query=load_sql("audit", name)))
        columns = rel.columns
        for row in rel.fetchall():
            record = dict(zip(columns, row, strict=True))
            standard = record.pop("log_kind") == "standard"
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
                if not agrees:
                    result.other_disagreements.append(record)
        results[name] = result
    return results
