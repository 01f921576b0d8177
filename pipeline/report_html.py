"""HTML pieces of the report (pipeline.report): the style, escaped tables, statistics as people read them.

Every text is escaped here; the sections (pipeline.report_sections) pass plain strings and get HTML back.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import NamedTuple

from pipeline.statistics import NOT_DERIVED, NOT_PROPORTIONS, Stat, is_round_level

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2rem auto; max-width: 1100px;
       color: #222; line-height: 1.4; padding: 0 1rem; }
h1 { margin-bottom: 0.2rem; }
h2 { border-bottom: 2px solid #e4e4e4; padding-bottom: 0.2rem; margin-top: 2.5rem; }
.meta { color: #666; margin-top: 0; }
nav.toc { background: #f7f7f7; border: 1px solid #e4e4e4; border-radius: 4px; padding: 0.6rem 1.2rem; }
nav.toc h2 { border: none; margin: 0.2rem 0; font-size: 1.1rem; }
nav.toc ol { margin: 0.2rem 0; padding-left: 1.4rem; }
nav.toc ol ol { font-size: 0.9rem; columns: 3; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.9rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
table.facts th { background: none; font-weight: 600; color: #555; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.name { font-family: ui-monospace, Menlo, Consolas, monospace; white-space: nowrap; }
td.definition { color: #444; min-width: 18rem; }
td.ok { color: #1a7f37; font-weight: 600; }
td.bad { color: #b42318; font-weight: 600; }
span.ci { display: block; color: #777; font-size: 0.75rem; }
div.wide { overflow-x: auto; }
details { margin: 0.3rem 0 1rem; }
summary { cursor: pointer; color: #335; }
figure { margin: 1rem 0 2rem; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { color: #666; font-size: 0.85rem; }
.mart-header { color: #555; font-size: 0.9rem; margin: 0; }
.not-derived { background: #fff4e5; border: 1px solid #f0b45a; padding: 0.6rem 1rem; border-radius: 4px; }
td.not-derived-value { color: #a05a00; font-style: italic; white-space: nowrap; }
@media print { section.page { break-before: page; } nav.toc ol ol { columns: 2; } details { display: none; } }
"""
"""The page's whole style (inline: the report loads nothing). In print each player's section is a page."""


class Cell(NamedTuple):
    """One table cell: its text (escaped when written), css class, and a tooltip."""

    text: str
    cls: str = ""
    title: str = ""
    html: bool = False
    """``text`` is HTML already (built by this module): written as it is."""
    span: int = 1
    """Columns the cell spans."""


def table(header: Sequence[str], rows: Sequence[Sequence[Cell | tuple[str, str]]]) -> str:
    """An HTML table: the header's names, then one row per list of cells (a Cell, or (text, css class))."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "\n".join("<tr>" + "".join(_cell(c) for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>"


def _cell(cell: Cell | tuple[str, str]) -> str:
    c = cell if isinstance(cell, Cell) else Cell(*cell)
    attributes = (f' class="{c.cls}"' if c.cls else "") + (f' title="{escape(c.title)}"' if c.title else "")
    attributes += f' colspan="{c.span}"' if c.span > 1 else ""
    return f"<td{attributes}>{c.text if c.html else escape(c.text)}</td>"


def facts(pairs: Sequence[tuple[str, str]]) -> str:
    """A table of (what, value) pairs without a header: the name of each in its row's header cell."""
    rows = "\n".join(f'<tr><th scope="row">{escape(k)}</th><td>{escape(v)}</td></tr>' for k, v in pairs)
    return f'<table class="facts"><tbody>\n{rows}\n</tbody></table>'


def details(summary: str, body_html: str) -> str:
    """A folded block: ``summary`` (text) shown, ``body_html`` on a click."""
    return f"<details><summary>{escape(summary)}</summary>\n{body_html}\n</details>"


def format_value(stat: Stat) -> str:
    """A statistic's value as people read it: per 100 rounds for the ``*_per_round`` ratios, a plain number for
    the other ratios that are not proportions (rounds per game), a percentage for proportions; the note (e.g.
    NOT_DERIVED) of a statistic that has one instead of a value."""
    if stat.note is not None:
        return stat.note
    if stat.value is None:
        return "n/a"
    if stat.name.endswith("_per_round"):
        return f"{100 * stat.value:.2f} per 100 rounds"
    if stat.name in NOT_PROPORTIONS:
        return f"{stat.value:,.2f}"
    return f"{100 * stat.value:.2f}%"


def format_interval(stat: Stat) -> str:
    """The 95% Wilson interval in percent, or an empty string when there is none."""
    if stat.ci_low is None or stat.ci_high is None or stat.name in NOT_PROPORTIONS:
        return ""
    return f"{100 * stat.ci_low:.2f}-{100 * stat.ci_high:.2f}%"


def format_counts(stat: Stat) -> str:
    """'numerator / denominator' with thousands separators, or an empty string when they are unknown."""
    if stat.numerator is None or stat.denominator is None:
        return ""
    return f"{stat.numerator:,} / {stat.denominator:,}"


def stat_label(stat: Stat, shown: Sequence[str] = ()) -> str:
    """A statistic's name with the values of its group's keys not in ``shown`` (the placements mart's mode), e.g.
    'average_rank (4p_hanchan)'."""
    extra = [str(v) for k, v in (stat.group or {}).items() if k not in shown]
    return f"{stat.name} ({', '.join(extra)})" if extra else stat.name


def stats_table(stats: Sequence[Stat], shown: Sequence[str] = (), mark_round_level: bool = False) -> str:
    """A table of statistics, one row each: the values of their group's keys not in ``shown`` (the placements
    mart's mode), statistic, value, 95% interval, counts, definition. With ``mark_round_level`` (a player's
    page), a column says whether the statistic counts the rounds of the player's games or the player's seats
    (statistics.is_round_level)."""
    keys = list(dict.fromkeys(k for s in stats for k in (s.group or {}) if k not in shown))
    header = [*keys, "statistic", "value", "95% interval", "numerator / denominator"]
    header += ["counts", "definition"] if mark_round_level else ["definition"]
    rows = []
    for s in stats:
        row = [Cell(str((s.group or {}).get(k, ""))) for k in keys]
        row += [
            Cell(s.name, "name"),
            Cell(format_value(s), "not-derived-value" if s.note == NOT_DERIVED else "num"),
            Cell(format_interval(s), "num"),
            Cell(format_counts(s), "num"),
        ]
        if mark_round_level:
            row.append(Cell("rounds" if is_round_level(s.name) else "seats"))
        rows.append([*row, Cell(s.definition, "definition")])
    return table(header, rows)


def pivot_table(stats: Sequence[Stat], keys: Sequence[str], columns: Sequence[tuple]) -> str:
    """Statistics as a grid: a row per statistic (with the group keys not in ``keys``: the placements mode), a
    column per group (``columns``: tuples of the values of ``keys``, in order); each cell the value with its
    95% interval under it, the counts as a tooltip. A statistic without a group (NOT_DERIVED) spans the row."""
    rows: dict[str, dict[tuple, Stat]] = {}
    definitions: dict[str, str] = {}
    for s in stats:
        label = stat_label(s, keys)
        group = tuple(str((s.group or {}).get(k)) for k in keys) if s.group else ()
        rows.setdefault(label, {})[group] = s
        definitions[label] = s.definition
    header = ["statistic", *(" · ".join(c) for c in columns)]
    body = [_pivot_row(label, cells, definitions[label], columns) for label, cells in rows.items()]
    return f'<div class="wide">{table(header, body)}</div>'


def _pivot_row(label: str, cells: dict[tuple, Stat], definition: str, columns: Sequence[tuple]) -> list[Cell]:
    row = [Cell(label, "name", definition)]
    if () in cells and cells[()].note is not None:  # not derived: one note for the whole row
        return [*row, Cell(cells[()].note or "", "not-derived-value", span=max(len(columns), 1))]
    for column in columns:
        s = cells.get(column)
        if s is None:
            row.append(Cell("", "num"))
            continue
        interval = format_interval(s)
        text = escape(format_value(s)) + (f'<span class="ci">{escape(interval)}</span>' if interval else "")
        row.append(Cell(text, "num", format_counts(s), html=True))
    return row
