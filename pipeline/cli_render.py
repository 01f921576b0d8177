"""How the CLI shows results: rich tables for people, CSV and JSON for machines."""

from __future__ import annotations

import csv
import json
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pipeline.audit import CheckResult
from pipeline.ingest import IngestReport
from pipeline.statistics import Stat, Violation

MAX_PROBLEMS_SHOWN = 20
"""Files listed after an ingest; the manifest view holds them all."""


def render_ingest(console: Console, report: IngestReport, seconds: float) -> None:
    """Print an ingest summary: files by status, games and rounds written, files with problems."""
    files = report.files
    console.print(
        f"files: {files['ok']} ok, {files['duplicate']} duplicate, {files['quarantined']} quarantined, "
        f"{files['not_a_log']} not a log, {files['unchanged']} unchanged"
    )
    rate = report.games / seconds if seconds > 0 else 0.0
    console.print(f"games: {report.games} new, rounds: {report.rounds} ({seconds:.1f} s, {rate:.0f} games/s)")
    problems = [p for p in report.problems if p[1] in ("quarantined", "not_a_log")]
    for path, status, error in problems[:MAX_PROBLEMS_SHOWN]:
        console.print(f"  [yellow]{status}[/yellow] {escape(error or path)}", highlight=False, soft_wrap=True)
    if len(problems) > MAX_PROBLEMS_SHOWN:
        console.print(f'  ... and {len(problems) - MAX_PROBLEMS_SHOWN} more: paipu sql "from manifest"')


def render_result(console: Console, columns: list[str], rows: list[tuple], fmt: str) -> None:
    """Print query results as a rich table, CSV or JSON (one object per row)."""
    if fmt == "csv":
        writer = csv.writer(sys.stdout)
        writer.writerow(columns)
        writer.writerows(rows)
    elif fmt == "json":
        records = [dict(zip(columns, row, strict=True)) for row in rows]
        sys.stdout.write(json.dumps(records, default=str, ensure_ascii=False) + "\n")
    else:
        table = Table(*columns)
        for row in rows:
            table.add_row(*("" if v is None else str(v) for v in row))
        console.print(table)


def _group_label(group: dict[str, Any] | None) -> str:
    return "all" if group is None else ", ".join(f"{k}={v}" for k, v in group.items())


def _format_value(s: Stat) -> str:
    if s.value is None:
        return ""
    if s.name == "rounds_per_game":
        return f"{s.value:.2f}"
    if s.name == "furiten_passes_per_round":
        return f"{100 * s.value:.2f}/100"
    return f"{s.value:.2%}"


WIDE_CONSOLE = 150
"""From this width on, definitions are printed beside each statistic; below the table otherwise."""


def render_stats(console: Console, stats: list[Stat]) -> None:
    """Print statistics as a table (group, name, value, numerator/denominator) with each definition beside
    it on a wide console, or listed once below the table on a narrow one."""
    wide = console.width >= WIDE_CONSOLE
    table = Table()
    grouped = any(s.group is not None for s in stats)
    for name in ("group", "statistic", "value", "95% CI", "n / of")[0 if grouped else 1 :]:
        table.add_column(name, no_wrap=True)
    if wide:
        table.add_column("definition")
    for s in stats:
        interval = "" if s.ci_low is None else f"{100 * s.ci_low:.1f}-{100 * s.ci_high:.1f}%"
        row = [s.name, _format_value(s), interval, f"{s.numerator} / {s.denominator}"]
        row = [_group_label(s.group), *row] if grouped else row
        table.add_row(*row, *([s.definition] if wide else []))
    console.print(table)
    if wide:
        return
    console.print("[bold]definitions[/bold]")
    for name, definition in dict((s.name, s.definition) for s in stats).items():
        console.print(f"  {name}: {definition}", highlight=False)


def render_checks(console: Console, results: dict[str, list[Violation]]) -> None:
    """Print each check's outcome; violations in logs not written by the server are shown apart."""
    for name, violations in results.items():
        real = [v for v in violations if v.is_server_log]
        known = [v for v in violations if not v.is_server_log]
        status = "[green]ok[/green]" if not real else f"[red]{len(real)} violations[/red]"
        extra = f" ({len(known)} in logs written by other tools)" if known else ""
        console.print(f"{name}: {status}{extra}")
        for v in real[:MAX_PROBLEMS_SHOWN]:
            console.print(f"  {v.game_id} round {v.round_idx}: {v.detail}", highlight=False)


def render_audit(console: Console, results: dict[str, CheckResult]) -> None:
    """Print agree/total per audit check, every disagreement, and the other logs apart."""
    for name, r in results.items():
        share = f"{r.agree / r.total:.2%}" if r.total else "n/a"
        colour = "green" if not r.disagreements else "red"
        console.print(f"{name}: [{colour}]{r.agree}/{r.total}[/{colour}] agree ({share})", highlight=False)
        for d in r.disagreements[:MAX_PROBLEMS_SHOWN]:
            console.print(
                f"  {d['game_id']} round {d['round_idx']} seat {d['seat']}: derived {d['derived']}, "
                f"logged {d['logged']}",
                highlight=False,
            )
        if len(r.disagreements) > MAX_PROBLEMS_SHOWN:
            console.print(f"  ... and {len(r.disagreements) - MAX_PROBLEMS_SHOWN} more (paipu audit --json)")
        if r.other_total:
            console.print(
                f"  other logs (custom rules, not server-written): {r.other_agree}/{r.other_total} agree",
                highlight=False,
            )
