"""How the CLI shows results: rich tables for people, CSV and JSON for machines."""

from __future__ import annotations

import csv
import json
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from pipeline.audit import LOG_CLASSES, CheckResult
from pipeline.cli.frame import MAX_PROBLEMS_SHOWN
from pipeline.statistics import NOT_PROPORTIONS, TOPICS, Stat, Violation, topic_of

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Unicode's bidirectional controls: printed escaped, like control characters (they reorder what follows)."""


def escape_controls(text: str) -> str:
    """Return ``text`` with every control character (C0, DEL, C1) and bidirectional control written as its Python
    escape (``\\x1b``, ``\\u202e``), so that a value printed to a terminal cannot move the cursor, change colours
    or reorder the line; other characters (CJK names included) are kept."""
    if text.isprintable():
        return text
    return "".join(_escape_char(c) for c in text)


def _escape_char(c: str) -> str:
    """One character as printed: itself, or its escape when it is a control character (see escape_controls)."""
    code = ord(c)
    if code < 0x20 or 0x7F <= code < 0xA0:
        return f"\\x{code:02x}"
    if c in BIDI_CONTROLS:
        return f"\\u{code:04x}"
    return c


def plain(value: object) -> Text:
    """Return a value as plain text for a table cell: never read as markup, control characters escaped ('' for
    null)."""
    return Text("" if value is None else escape_controls(str(value)))


def render_result(console: Console, columns: list[str], rows: list[tuple], fmt: str) -> None:
    """Print query results as a table, CSV or JSON (one object per row).

    The table's values are plain text (never markup; control characters escaped: see escape_controls); on a
    terminal it fits the terminal's width, cutting long cells; elsewhere (a file, a pipe) every cell is whole.
    CSV and JSON write the values as they are.
    """
    if fmt == "csv":
        writer = csv.writer(sys.stdout)
        writer.writerow(columns)
        writer.writerows(rows)
    elif fmt == "json":
        records = [dict(zip(columns, row, strict=True)) for row in rows]
        sys.stdout.write(json.dumps(records, default=str, ensure_ascii=False) + "\n")
    else:
        table = Table()
        for column in columns:
            table.add_column(plain(column))
        for row in rows:
            table.add_row(*(plain(v) for v in row))
        _print_whole(console, table)


UNBOUNDED_WIDTH = 1_000_000
"""The width a table is measured in when it is printed whole (not to a terminal)."""


def _print_whole(console: Console, table: Table) -> None:
    """Print a table on ``console``; when that is not a terminal, as wide as its widest row needs (nothing cut)."""
    if console.is_terminal:
        console.print(table)
        return
    width = Measurement.get(console, console.options.update(width=UNBOUNDED_WIDTH), table).maximum
    Console(file=console.file, width=max(width, 1), highlight=False, color_system=None).print(table)


STAT_FIELDS = (
    "name", "group", "numerator", "denominator", "value", "definition", "ci_low", "ci_high", "std_error", "note",
)  # fmt: skip
"""The fields of one statistic in ``paipu stats --json`` and ``--csv`` (where ``group`` becomes one column per
key of the groups)."""


def _group_label(group: dict[str, Any] | None) -> str:
    return "all" if group is None else ", ".join(f"{k}={escape_controls(str(v))}" for k, v in group.items())


def _format_value(s: Stat) -> str:
    if s.note is not None:
        return s.note
    if s.value is None:
        return ""
    if s.name == "rounds_per_game":
        return f"{s.value:.2f}"
    if s.name.endswith("_per_round"):
        return f"{100 * s.value:.2f}/100"
    if s.name == "average_rank":
        return f"{s.value:.3f}"
    if s.name == "average_final_points":
        return f"{s.value:+.2f}"
    if s.name in NOT_PROPORTIONS:  # a mean: of points (whole), of turns, calls, shanten or a dan (two decimals)
        return f"{s.value:,.0f}" if abs(s.value) >= 100 else f"{s.value:.2f}"
    return f"{s.value:.2%}"


WIDE_CONSOLE = 150
"""From this width on, definitions are printed beside each statistic; below the tables otherwise."""


def _by_topic(stats: list[Stat]) -> dict[str, list[Stat]]:
    """The statistics under their topics, topics in the order of TOPICS ('other' last); within a topic, a group's
    statistics together (groups in order of first appearance), each group's in their order."""
    order = {topic: i for i, (topic, _) in enumerate(TOPICS)}
    groups: dict[str, int] = {}
    topics: dict[str, list[Stat]] = {}
    for s in stats:
        groups.setdefault(_group_label(s.group), len(groups))
        topics.setdefault(topic_of(s.name), []).append(s)
    for topic_stats in topics.values():
        topic_stats.sort(key=lambda s: groups[_group_label(s.group)])
    return dict(sorted(topics.items(), key=lambda item: order.get(item[0], len(order))))


def _stats_table(title: str, stats: list[Stat], grouped: bool, wide: bool) -> Table:
    """One topic's table; when grouped, each group's rows follow a heading row naming the group."""
    table = Table(title=title, title_justify="left", title_style="bold")
    table.add_column("statistic", overflow="fold")
    for name in ("value", "95% CI", "n / of"):
        table.add_column(name, no_wrap=True)
    if wide:
        table.add_column("definition")
    heading = None
    for s in stats:
        if grouped and _group_label(s.group) != heading:
            if heading is not None:
                table.add_section()
            heading = _group_label(s.group)
            table.add_row(f"[bold]{escape(heading)}[/bold]")
        interval = "" if s.ci_low is None else f"{100 * s.ci_low:.1f}-{100 * s.ci_high:.1f}%"
        if s.std_error is not None:  # a mean: its standard error instead of an interval
            interval = f"± {s.std_error:.3g} (s.e.)"
        numerator = f"{s.numerator:,.1f}" if isinstance(s.numerator, float) else s.numerator
        counts = "" if s.numerator is None else f"{numerator} / {s.denominator}"
        row = [s.name, escape(_format_value(s)), interval, counts]
        table.add_row(*row, *([escape(s.definition)] if wide else []))
    return table


MAX_GROUPS_SHOWN = 20
"""Groups printed in the terminal tables (the largest); --csv and --json print every group."""

SIZE_STAT = "seat_win_rate"
"""The statistic whose denominator (seat-rounds) ranks groups by size when there are too many to print."""


def _largest_groups(stats: list[Stat], n: int) -> list[Stat]:
    """Only the statistics of the n groups with the most seat-rounds (ties: first listed first). A group split by
    mode besides --by (the placements mart's) goes with its group of --by: shown when that one is."""
    sizes: dict[str, int] = {}
    for s in stats:
        label = _group_label(s.group)
        if s.name == SIZE_STAT:
            sizes[label] = s.denominator or 0
    for s in stats:
        sizes.setdefault(_size_label(s.group, sizes), 0)
    keep = set(sorted(sizes, key=lambda label: -sizes[label])[:n])
    return [s for s in stats if _size_label(s.group, sizes) in keep]


def _size_label(group: dict[str, Any] | None, sizes: dict[str, int]) -> str:
    """The label of the group whose size ranks this one: its own, or without its 'mode' key when only that one
    has a size (a placements group of a --by that has no mode)."""
    label = _group_label(group)
    if label in sizes or group is None or "mode" not in group:
        return label
    rest = {key: value for key, value in group.items() if key != "mode"}
    return _group_label(rest or None)


def render_stats(console: Console, stats: list[Stat], max_groups: int | None = MAX_GROUPS_SHOWN) -> None:
    """Print statistics as one table per topic (name, value, 95% CI, numerator/denominator; each group's rows
    under a heading row) with each definition beside it on a wide console, or listed once below the tables on a
    narrow one. When every statistic is of one group (a player's profile), the group is printed once above.
    Past ``max_groups`` groups, only the largest (most seat-rounds) are printed, with a note saying so."""
    wide = console.width >= WIDE_CONSOLE
    groups = {_group_label(s.group) for s in stats}
    grouped = len(groups) > 1
    if len(groups) == 1 and stats[0].group is not None:
        console.print(f"[bold]{escape(groups.pop())}[/bold]", highlight=False)
    shown = stats if max_groups is None or len(groups) <= max_groups else _largest_groups(stats, max_groups)
    for topic, topic_stats in _by_topic(shown).items():
        console.print(_stats_table(topic, topic_stats, grouped, wide))
    if len(shown) < len(stats):
        console.print(
            f"[yellow]showing the {max_groups} groups with the most seat-rounds of {len(groups)}[/yellow]: "
            "--csv or --json print every group (paipu stats --player NAME: one player's profile)",
            highlight=False,
        )
    if wide:
        return
    console.print("[bold]definitions[/bold]")
    definitions = {s.name: s.definition for ts in _by_topic(stats).values() for s in ts if s.note is None}
    for name, definition in definitions.items():
        console.print(f"  {name}: {escape(definition)}", highlight=False)


def _columns(stats: list[Stat]) -> tuple[list[str], dict[str, dict[str, Stat]]]:
    """The groups of the statistics as columns (labels in order of first appearance) and, per statistic name in
    order, its Stat in each column."""
    columns = list(dict.fromkeys(_group_label(s.group) for s in stats))
    rows: dict[str, dict[str, Stat]] = {}
    for s in stats:
        rows.setdefault(s.name, {})[_group_label(s.group)] = s
    return columns, rows


def _cell(s: Stat | None) -> str:
    """A wide table's cell: the value and, under it, its 95% interval or standard error ('' without a Stat)."""
    if s is None:
        return ""
    if s.std_error is not None:
        return f"{_format_value(s)}\n± {s.std_error:.3g}"
    if s.ci_low is not None and s.ci_high is not None:
        return f"{_format_value(s)}\n{100 * s.ci_low:.1f}-{100 * s.ci_high:.1f}%"
    return _format_value(s)


def render_stats_wide(console: Console, stats: list[Stat], max_groups: int | None = MAX_GROUPS_SHOWN) -> None:
    """Print statistics side by side: per topic one table, a row per statistic and a column per group (players
    compared, rooms...), each cell the value over its 95% interval (a mean: its standard error); a statistic a
    group lacks is blank there. Past ``max_groups`` groups only the largest are shown (as render_stats does).
    Definitions are listed once below the tables."""
    n_groups = len({_group_label(s.group) for s in stats})
    shown = stats if max_groups is None or n_groups <= max_groups else _largest_groups(stats, max_groups)
    _, rows = _columns(shown)
    for topic, topic_stats in _by_topic(shown).items():
        columns, _ = _columns(topic_stats)  # the groups this topic's statistics have
        table = Table(title=topic, title_justify="left", title_style="bold")
        table.add_column("statistic", no_wrap=True, min_width=min(max(len(s.name) for s in topic_stats), 40))
        for label in columns:
            table.add_column(escape(label), overflow="fold", justify="right")
        for name in dict.fromkeys(s.name for s in topic_stats):
            table.add_row(name, *(escape(_cell(rows[name].get(label))) for label in columns))
        console.print(table)
    if len(shown) < len(stats):
        console.print(f"[yellow]showing the {max_groups} groups with the most seat-rounds of {n_groups}[/yellow]: "
                      "--csv prints every group", highlight=False)  # fmt: skip
    console.print("[bold]definitions[/bold]")
    for name, by_group in rows.items():
        definition = next((s.definition for s in by_group.values() if s.note is None), None)
        if definition is not None:
            console.print(f"  {name}: {escape(definition)}", highlight=False)


def render_stats_wide_csv(stats: list[Stat]) -> None:
    """Write statistics as a wide CSV on stdout: a row per statistic, for each group (in order of first
    appearance) three columns, '<group> value', '<group> ci_low' and '<group> ci_high' (a mean's: value and
    standard error), the group named as in the tables ('all', or 'room=houou, year=2010')."""
    columns, rows = _columns(stats)
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(["name", *(f"{label} {field}" for label in columns for field in ("value", "ci_low", "ci_high"))])
    for name, by_group in rows.items():
        cells: list[Any] = [name]
        for label in columns:
            s = by_group.get(label)
            low, high = (None, None) if s is None else (s.ci_low, s.ci_high)
            if s is not None and s.std_error is not None:
                low, high = s.value - 1.96 * s.std_error, s.value + 1.96 * s.std_error
            cells += [None if s is None else s.value, low, high]
        writer.writerow(cells)


def _stat_row(s: Stat, keys: list[str]) -> list[Any]:
    """One statistic as a CSV row: the JSON fields, the group as one column per key ('' where the statistic's
    group has no such key, e.g. every key for 'all')."""
    group = [("" if s.group is None else s.group.get(key, "")) for key in keys]
    values = [s.numerator, s.denominator, s.value, s.definition, s.ci_low, s.ci_high, s.std_error, s.note]
    return [s.name, *group, *values]


def render_stats_csv(stats: list[Stat]) -> None:
    """Write statistics as CSV on stdout: a header (STAT_FIELDS, ``group`` replaced by one column per key of the
    groups, in the order they first appear: none for --by all but the placements' mode), then one row per
    statistic."""
    keys = list(dict.fromkeys(key for s in stats for key in (s.group or {})))
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow([STAT_FIELDS[0], *keys, *STAT_FIELDS[2:]])
    writer.writerows(_stat_row(s, keys) for s in stats)


def render_stats_json(stats: list[Stat]) -> None:
    """Write ``{"stats": [...]}`` on stdout, one object per statistic (STAT_FIELDS)."""
    sys.stdout.write(json.dumps({"stats": [s.to_json() for s in stats]}, ensure_ascii=False) + "\n")


def render_checks(console: Console, results: dict[str, list[Violation]]) -> None:
    """Print each check's outcome; violations in logs not written by the server are shown apart."""
    for name, violations in results.items():
        real = [v for v in violations if v.is_server_log]
        known = [v for v in violations if not v.is_server_log]
        status = "[green]ok[/green]" if not real else f"[red]{len(real)} violations[/red]"
        extra = f" ({len(known)} in logs written by other tools)" if known else ""
        console.print(f"{name}: {status}{extra}")
        for v in real[:MAX_PROBLEMS_SHOWN]:
            console.print(Text(f"  {v.game_id} round {v.round_idx}: {escape_controls(str(v.detail))}"))


def audit_markdown(results: dict[str, CheckResult]) -> str:
    """The truth table: a Markdown row per audit check with its agreement on the server-written standard-rule
    logs (agree/total, share) and on each other log class (agree/total, '-' where it has none)."""

    def cell(agree: int, total: int) -> str:
        return f"{agree:,}/{total:,}" if total else "-"

    header = ["check", "server-written, standard rules", "share", *(c.replace("_", " ") for c in LOG_CLASSES)]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, r in results.items():
        if r.note is not None:
            lines.append("| " + " | ".join([f"`{name}`", r.note, *["-"] * (len(header) - 2)]) + " |")
            continue
        share = f"{r.agree / r.total:.2%}" if r.total else "n/a"
        others = [cell(*r.other_by_class.get(c, (0, 0))) for c in LOG_CLASSES]
        lines.append("| " + " | ".join([f"`{name}`", cell(r.agree, r.total), share, *others]) + " |")
    return "\n".join(lines) + "\n"


def render_audit(console: Console, results: dict[str, CheckResult]) -> None:
    """Print agree/total per audit check over server-written standard-rule logs, every disagreement, and the
    other log classes apart (log_class.sql)."""
    for name, r in results.items():
        if r.note is not None:
            console.print(f"{name}: [yellow]{escape(r.note)}[/yellow]", highlight=False)
            continue
        share = f"{r.agree / r.total:.2%}" if r.total else "n/a"
        colour = "green" if not r.disagreements else "red"
        console.print(f"{name}: [{colour}]{r.agree}/{r.total}[/{colour}] agree ({share})", highlight=False)
        for d in r.disagreements[:MAX_PROBLEMS_SHOWN]:
            where = f"{d['game_id']} round {d['round_idx']} seat {d['seat']}"
            line = f"  {where}: derived {d['derived']}, logged {d['logged']}"
            console.print(Text(escape_controls(line)))
        if len(r.disagreements) > MAX_PROBLEMS_SHOWN:
            console.print(f"  ... and {len(r.disagreements) - MAX_PROBLEMS_SHOWN} more (paipu audit --json)")
        for log_class, (agree, total) in sorted(r.other_by_class.items()):
            console.print(f"  other logs, {log_class.replace('_', ' ')}: {agree}/{total} agree", highlight=False)
