"""Charts of the statistics marts as PNG, SVG or PDF files (matplotlib, Agg: no screen needed).

Every chart is drawn from the same mart SQL files as ``paipu stats`` (through ``pipeline.statistics``). Every
chart of one kind is labelled alike (CHART_KINDS): its title names the subject, the grouping and n in one pattern,
its y axis the same share in percent, its bars the 95% Wilson interval as whiskers, its caption the statistics'
definitions, and its footnote the games counted (by source, with their dates) and the paipu version.

    from pipeline.plots import write_plots
    write_plots(con, Path("charts"))             # charts/draw_rates_by_room.png, ... (PNG at DPI)
    write_plots(con, Path("paper/fig.pdf"))      # paper/fig_draw_rates_by_room.pdf, ... (vector)
    write_plots(con, Path("fig.png"), dpi=300)   # fig_draw_rates_by_room.png, ... at 300 dpi

The charts of the rules layer (CHART_MARTS) need derived tables: in a warehouse holding games not derived they
are left out (left_out_charts names them), never drawn as the zeros their empty inputs would give.

Figures are built with ``matplotlib.figure.Figure`` (never pyplot), so importing this module changes no
global matplotlib state: a notebook shows a figure with ``show(figure)``, a script saves it with ``png_bytes``.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

import duckdb
from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from pipeline.errors import PaipuError
from pipeline.report_data import chart_footnote, derived_state, provenance
from pipeline.statistics import GROUPINGS, Stat, mart_stats, round_outcome_stats, score_stats, wilson_interval

PLOT_GROUPINGS = ("room", "year")
"""The groupings of the draw-rate charts written by default."""

UNCHARTED_GROUPINGS = ("all", "player")
"""Groupings plot_groupings never adds: one bar per group is no chart for all games, nor for every player."""

DRAW_RATES = {"exhaustive_draw_rate": "exhaustive draws", "abortive_draw_rate": "abortive draws"}
"""The statistics of round_outcomes drawn side by side in the draw-rate charts, with their legend labels."""

MIN_SANMA_DRAWS = 30
"""Three-player exhaustive draws needed before the tenpai chart draws them as a series of their own."""

COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00")
"""Okabe-Ito colours: distinguishable with the common colour-vision deficiencies."""

FIGSIZE = (8.0, 5.0)
DPI = 100
"""Resolution of PNG charts unless ``dpi`` says otherwise (``paipu stats --dpi``); SVG and PDF are vector."""
CAPTION_WIDTH = 115
"""Characters per caption line (the figure is 8 inches wide, captions 8 pt)."""
LINE_INCHES = 0.15
"""Height of one caption or footnote line."""

PLOT_FORMATS = ("png", "svg", "pdf")
"""The file formats of ``write_plots``, chosen by the suffix of its target."""

ROOM_ORDER = ("ippan", "joukyuu", "tokujou", "houou")
"""Tenhou's rooms from the lowest to the highest."""

CHART_MARTS = {"fu_histogram": "score_distributions", "han_histogram": "score_distributions",
               "tenpai_at_draw": "tenpai_at_draw"}  # fmt: skip
"""Charts drawn from a mart of statistics.DERIVED_MARTS: chart name -> mart. Left out when not derived."""

AXIS_LABELS = {"all": "all games", "room": "room", "year": "year played", "source": "source format",
               "length": "table length", "mode": "players and length"}  # fmt: skip
"""The x axis of a chart by each grouping."""

WHISKERS = "whiskers: 95% Wilson interval"
"""The last sentence of every chart's caption: what the whiskers are."""


class ChartKind(NamedTuple):
    """How every chart of one kind is labelled: the noun n counts, the y axis and the caption's last line."""

    unit: str
    ylabel: str

    @property
    def legend(self) -> str:
        """The caption's last line: what the bars and whiskers show."""
        return f"Bars: share of {self.unit}s in percent; {WHISKERS}."


CHART_KINDS = {
    "draw_rates": ChartKind("round", "share of rounds (%)"),
    "share_histogram": ChartKind("win", "share of wins (%)"),
    "tenpai": ChartKind("exhaustive draw", "share of exhaustive draws (%)"),
}
"""Each kind of chart with its labels: draw rates (one chart per grouping), fu and han histograms, tenpai."""


# --- public API ----------------------------------------------------------------------------------
def plot_groupings(by: str = "all") -> tuple[str, ...]:
    """Return the groupings to chart for ``paipu stats --by BY``: room and year, plus BY when it is another
    grouping with few groups (source, length; never player, which would draw a bar per name); raises
    ValueError for a value not in GROUPINGS."""
    if by not in GROUPINGS:
        raise ValueError(f"--by must be one of {', '.join(GROUPINGS)}, not {by!r}")
    return PLOT_GROUPINGS if by in (*PLOT_GROUPINGS, *UNCHARTED_GROUPINGS) else (*PLOT_GROUPINGS, by)


def figures(
    con: duckdb.DuckDBPyConnection, by: str | Sequence[str] = PLOT_GROUPINGS, derived: bool | None = None
) -> dict[str, Figure]:
    """Return every chart as ``{file stem: Figure}``: the draw rates per grouping in ``by`` (one of GROUPINGS
    or several), then the fu and han histograms and tenpai at exhaustive draws (over all games), each with the
    warehouse's footnote (report_data.chart_footnote). The charts of CHART_MARTS are left out when ``derived``
    is false (None: read from ``con`` with report_data.derived_state)."""
    groupings = (by,) if isinstance(by, str) else tuple(by)
    for grouping in groupings:
        if grouping not in GROUPINGS:
            raise ValueError(f"by must be among {', '.join(GROUPINGS)}, not {grouping!r}")
    if derived is None:
        derived = derived_state(con).is_derived
    footnote = chart_footnote(provenance(con))
    charts: dict[str, Figure] = {}
    for grouping in groupings:
        stats = round_outcome_stats(con, grouping)
        charts[f"draw_rates_by_{grouping}"] = draw_rates_figure(stats, grouping, footnote)
    if derived:
        scores = score_stats(con)
        charts["fu_histogram"] = share_histogram_figure(scores, "fu", footnote)
        charts["han_histogram"] = share_histogram_figure(scores, "han", footnote)
        charts["tenpai_at_draw"] = tenpai_figure(mart_stats(con, "tenpai_at_draw"), footnote)
    return charts


def left_out_charts(derived: bool) -> list[str]:
    """The charts ``figures`` leaves out: those of CHART_MARTS when the warehouse is not derived, else none."""
    return [] if derived else list(CHART_MARTS)


def write_plots(
    con: duckdb.DuckDBPyConnection,
    target: Path,
    by: str | Sequence[str] = PLOT_GROUPINGS,
    dpi: int = DPI,
    derived: bool | None = None,
) -> list[Path]:
    """Write every chart of ``figures(con, by, derived)`` where ``plot_paths(target, ...)`` says: into a folder
    as ``<name>.png``, or beside a file name ending in .png, .svg or .pdf as ``<stem>_<name>.<suffix>`` (the
    folder is created); PNG at ``dpi``. Return the paths written, in order. Raises ValueError for a target of
    another suffix, PaipuError when it cannot be written."""
    target = Path(target)
    fmt = plot_format(target)
    charts = figures(con, by, derived)
    paths = plot_paths(target, list(charts))
    try:
        (target if fmt is None else target.parent).mkdir(parents=True, exist_ok=True)
        for name, figure in charts.items():
            paths[name].write_bytes(figure_bytes(figure, fmt or "png", dpi))
    except OSError as exc:
        raise PaipuError(f"cannot write the charts to {target}: {exc}") from exc
    return list(paths.values())


def plot_format(target: Path) -> str | None:
    """The format of ``write_plots(con, target)``: 'png', 'svg' or 'pdf' for a file name with that suffix, None
    for a folder (an existing one, or a name without a suffix: PNG files in it). Raises ValueError otherwise."""
    target = Path(target)
    if target.is_dir() or not target.suffix:
        return None
    fmt = target.suffix.lower().removeprefix(".")
    if fmt not in PLOT_FORMATS:
        raise ValueError(f"charts are written as .png, .svg or .pdf files, or into a folder; not {target.name!r}")
    return fmt


def plot_paths(target: Path, names: Sequence[str]) -> dict[str, Path]:
    """Where ``write_plots`` writes each chart: ``<target>/<name>.png`` into a folder, else
    ``<target's folder>/<target's stem>_<name><target's suffix>``."""
    target = Path(target)
    if plot_format(target) is None:
        return {name: target / f"{name}.png" for name in names}
    return {name: target.with_name(f"{target.stem}_{name}{target.suffix}") for name in names}


def figure_bytes(figure: Figure, fmt: str = "png", dpi: int = DPI) -> bytes:
    """Render a figure as PNG (at ``dpi``), SVG or PDF bytes; the same figure gives the same bytes (no date in
    the file, fixed SVG ids, PDF fonts embedded as TrueType, which journals accept)."""
    if fmt not in PLOT_FORMATS:
        raise ValueError(f"format must be one of {', '.join(PLOT_FORMATS)}, not {fmt!r}")
    if dpi <= 0:
        raise ValueError(f"dpi must be positive, not {dpi}")
    metadata = {"png": {"Software": "paipu"}, "svg": {"Date": None}, "pdf": {"CreationDate": None}}[fmt]
    FigureCanvasAgg(figure)
    buffer = io.BytesIO()
    with rc_context({"svg.hashsalt": "paipu", "pdf.fonttype": 42}):
        figure.savefig(buffer, format=fmt, dpi=dpi, metadata=metadata)
    return buffer.getvalue()


def png_bytes(figure: Figure, dpi: int = DPI) -> bytes:
    """Render a figure to PNG bytes with the Agg canvas (at ``dpi``)."""
    return figure_bytes(figure, "png", dpi)


def show(figure: Figure) -> None:
    """Show a figure inline in a Jupyter notebook (as PNG); do nothing outside one (a plain Python run)."""
    try:
        from IPython import get_ipython
        from IPython.display import Image, display
    except ImportError:
        return
    if get_ipython() is not None:
        display(Image(data=png_bytes(figure), format="png"))


# --- the charts ----------------------------------------------------------------------------------
def chart_title(subject: str, kind: str, n: int, by: str = "all") -> str:
    """The title of a chart of CHART_KINDS ``kind``: '<subject>[ by <grouping>] (n = <n> <unit>s)'."""
    grouping = "" if by == "all" else f" by {by}"
    return f"{subject}{grouping} (n = {_count(n, CHART_KINDS[kind].unit)})"


def draw_rates_figure(stats: list[Stat], by: str, footnote: str | None = None) -> Figure:
    """Bars of the exhaustive and abortive draw rates per group (one group for ``all``), with 95% intervals;
    each group's label carries its number of rounds; ``footnote`` (the data counted) under the caption."""
    chosen = [s for s in stats if s.name in DRAW_RATES]
    groups = _ordered_groups(chosen, by)
    n_rounds = {_group_value(s, by): s.denominator for s in chosen}
    series = {name: {_group_value(s, by): s for s in chosen if s.name == name} for name in DRAW_RATES}
    kind = "draw_rates"
    figure, ax = _new_figure(chart_title("Exhaustive and abortive draws", kind, sum(n_rounds.values()), by))
    labels = [f"{'all games' if g is None else g}\nn = {n_rounds[g]:,}" for g in groups]
    bars = [(f"{label} ({name})", [series[name].get(g) for g in groups]) for name, label in DRAW_RATES.items()]
    _grouped_bars(ax, labels, bars)
    _axis_labels(ax, AXIS_LABELS.get(by, by), kind)
    definitions = _definitions(chosen) or [f"{name} = {label} / all rounds" for name, label in DRAW_RATES.items()]
    _caption(figure, [*definitions, CHART_KINDS[kind].legend], footnote)
    return figure


def share_histogram_figure(stats: list[Stat], kind: str, footnote: str | None = None) -> Figure:
    """Histogram of the wins' fu or han (``kind``) from score_distributions (grouping ``all``): the share of
    wins at each value with its 95% interval; ``footnote`` (the data counted) under the caption."""
    if kind not in ("fu", "han"):
        raise ValueError(f"kind must be fu or han, not {kind!r}")
    chosen = _fill_buckets([s for s in stats if s.name.startswith(f"{kind}_share_")], kind)
    n_wins = chosen[0].denominator if chosen else 0
    subject = f"{'Fu' if kind == 'fu' else 'Han'} of wins"
    figure, ax = _new_figure(chart_title(subject, "share_histogram", n_wins), legend=False)
    labels = [_bucket_label(s.name) for s in chosen]
    _grouped_bars(ax, labels, [("share of wins", chosen)], legend=False)
    xlabel = "fu (rounded up; chiitoitsu 25, kokushi 0)" if kind == "fu" else "han (yaku, dora, ura dora, red fives)"
    _axis_labels(ax, xlabel, "share_histogram")
    definition = (
        f"{kind}_share_N = wins scored at N {kind} / wins. Every win that can win (complete, with a yaku), "
        "scored by paipu's rules layer; a multiple ron counts each winner."
    )
    if kind == "han":
        definition += " 13+: kazoe yakuman and yakuman."
    _caption(figure, [definition, CHART_KINDS["share_histogram"].legend], footnote)
    return figure


def tenpai_figure(stats: list[Stat], footnote: str | None = None) -> Figure:
    """Bars of the share of exhaustive draws with 0-4 tenpai seats (tenpai_at_draw mart, grouping ``all``), with
    95% intervals: four-player games, and three-player games as a second series once they have
    MIN_SANMA_DRAWS draws (the caption counts them otherwise); ``footnote`` (the data counted) at the bottom."""
    series, notes = [], []
    for n_players in (4, 3):
        chosen = {_bucket(s.name): s for s in stats if s.name.startswith(f"tenpai_share_{n_players}p_")}
        n_draws = next(iter(chosen.values())).denominator if chosen else 0
        players = "four" if n_players == 4 else "three"
        if n_players == 3 and 0 < n_draws < MIN_SANMA_DRAWS:
            notes.append(f"Three-player games ({_count(n_draws, 'exhaustive draw')}) are not drawn: too few.")
        elif chosen:
            series.append(
                (f"{players}-player games (n = {_count(n_draws, 'draw')})", [chosen.get(k) for k in range(5)])
            )
    total = sum(s.denominator for s in stats if s.name.endswith("_0"))
    figure, ax = _new_figure(chart_title("Tenpai seats at exhaustive draws", "tenpai", total), legend=bool(series))
    _grouped_bars(ax, [str(k) for k in range(5)], series or [("no exhaustive draws", [None] * 5)], legend=bool(series))
    _axis_labels(ax, "seats tenpai when the wall runs out", "tenpai")
    definition = (
        "tenpai_share_<players>p_N = exhaustive draws with exactly N seats tenpai / exhaustive draws, four-player "
        "and three-player games apart. Tenpai by Tenhou's rule: formal tenpai, pure karaten excluded (yaku, "
        "furiten and visible waits do not matter); nagashi mangan and abortive draws are not exhaustive draws."
    )
    _caption(figure, [definition, *notes, CHART_KINDS["tenpai"].legend], footnote)
    return figure


# --- drawing helpers -----------------------------------------------------------------------------
def _axis_labels(ax: Axes, xlabel: str, kind: str) -> None:
    """The x axis as given, the y axis as every chart of ``kind`` has it."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(CHART_KINDS[kind].ylabel)


def _new_figure(title: str, legend: bool = True) -> tuple[Figure, Axes]:
    """A figure with one axes and its title; room above the axes for a legend when ``legend``."""
    figure = Figure(figsize=FIGSIZE, dpi=DPI, facecolor="white")
    ax = figure.add_subplot()
    ax.set_title(title, fontsize=12, fontweight="bold", pad=24 if legend else 8)
    figure.subplots_adjust(left=0.09, right=0.97, top=1 - (0.75 if legend else 0.45) / FIGSIZE[1])
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="y", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    return figure, ax


def _grouped_bars(
    ax: Axes, labels: Sequence[str], series: Sequence[tuple[str, Sequence[Stat | None]]], legend: bool = True
) -> None:
    """Draw one bar per (label, series) in percent with Wilson whiskers; values above the bars when few."""
    width = 0.8 / max(len(series), 1)
    annotate = len(labels) * len(series) <= 16
    for i, (name, stats) in enumerate(series):
        xs = [j + (i - (len(series) - 1) / 2) * width for j in range(len(labels))]
        values = [_percent(s.value if s else None) for s in stats]
        whiskers = [_whisker(s) for s in stats]
        ax.bar(xs, values, width * 0.92, color=COLOURS[i % len(COLOURS)], label=name)
        yerr = [
            [max(v - low, 0.0) for v, (low, _) in zip(values, whiskers, strict=True)],
            [max(high - v, 0.0) for v, (_, high) in zip(values, whiskers, strict=True)],
        ]
        ax.errorbar(xs, values, yerr=yerr, fmt="none", ecolor="#333333", elinewidth=1, capsize=3)
        if annotate:
            for x, value, (_, high), stat in zip(xs, values, whiskers, stats, strict=True):
                if stat is not None:
                    ax.annotate(
                        f"{value:.1f}%",
                        (x, high),
                        xytext=(0, 2),
                        textcoords="offset points",
                        ha="center",
                        va="bottom",
                        fontsize=8,
                    )
    ax.set_xticks(range(len(labels)), labels, fontsize=9)
    pad = max(0.0, (3 - len(labels)) / 2)  # a lone group gets bars of the width three groups would have
    ax.set_xlim(-0.6 - pad, len(labels) - 0.4 + pad)
    ax.set_ylim(0, max(_upper_limit(series), 1.0) * 1.12)
    if not labels or not any(s for _, stats in series for s in stats):
        ax.text(0.5, 0.5, "no data in this warehouse", transform=ax.transAxes, ha="center", va="center")
    if legend and any(s for _, stats in series for s in stats):
        ax.legend(frameon=False, fontsize=9, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=len(series))


def _whisker(stat: Stat | None) -> tuple[float, float]:
    """The 95% interval in percent; the value itself (no whisker) when there is none."""
    if stat is None or stat.ci_low is None or stat.ci_high is None:
        value = _percent(stat.value if stat else None)
        return value, value
    return _percent(stat.ci_low), _percent(stat.ci_high)


def _upper_limit(series: Sequence[tuple[str, Sequence[Stat | None]]]) -> float:
    tops = [_percent(s.ci_high if s.ci_high is not None else s.value) for _, stats in series for s in stats if s]
    return max(tops, default=0.0)


def _caption(figure: Figure, paragraphs: Iterable[str], footnote: str | None = None) -> None:
    """Write the definitions under the axes and the footnote (smaller, in italics) under them, leaving the room
    they need."""
    lines = [line for p in paragraphs for line in textwrap.wrap(p, CAPTION_WIDTH)]
    foot = textwrap.wrap(footnote, int(CAPTION_WIDTH * 8 / 7)) if footnote else []
    height = FIGSIZE[1]
    figure.subplots_adjust(bottom=(0.75 + LINE_INCHES * (len(lines) + len(foot))) / height)
    caption_y = 0.02 + LINE_INCHES * len(foot) / height
    figure.text(0.02, caption_y, "\n".join(lines), fontsize=8, color="#444444", va="bottom", ha="left", wrap=False)
    if foot:
        figure.text(0.02, 0.02, "\n".join(foot), fontsize=7, color="#666666", style="italic", va="bottom", ha="left")


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _percent(value: float | None) -> float:
    return 0.0 if value is None else 100.0 * value


def _definitions(stats: list[Stat]) -> list[str]:
    return [f"{name} = {definition}" for name, definition in dict((s.name, s.definition) for s in stats).items()]


def _group_value(stat: Stat, by: str) -> str | None:
    return None if stat.group is None else str(stat.group[by])


def _ordered_groups(stats: list[Stat], by: str) -> list[str | None]:
    """Groups in a reading order: rooms low to high, years ascending with unknown last, else by name."""
    groups = list(dict.fromkeys(_group_value(s, by) for s in stats))
    return sorted(groups, key=lambda group: group_sort_key(group, by))


def group_sort_key(group: str | None, by: str) -> tuple[int, str]:
    """The reading order of a group of grouping ``by``: rooms low to high then the others (private), years
    ascending with unknown last, other values by name with None last."""
    if by == "room" and group in ROOM_ORDER:
        return ROOM_ORDER.index(group), ""
    if by == "room":
        return len(ROOM_ORDER), str(group)
    if by == "year":
        return int(not str(group).isdigit()), str(group)
    return int(group is None), str(group)


def _fill_buckets(stats: list[Stat], kind: str) -> list[Stat]:
    """The fu or han shares in order, with the values no win had added as 0 / wins (with their interval), so
    the histogram shows its gaps: han 1 to 13+, fu 20, 25 and every ten up to the highest seen."""
    if not stats:
        return []
    seen = {_bucket(s.name): s for s in stats}
    wanted = range(1, 14) if kind == "han" else sorted({20, 25, *range(30, max(seen) + 1, 10)})
    n = stats[0].denominator
    for value in sorted(set(wanted) - set(seen)):
        name = "han_share_13_plus" if kind == "han" and value == 13 else f"{kind}_share_{value}"
        interval = wilson_interval(0, n) or (None, None)
        seen[value] = Stat(name, stats[0].group, 0, n, 0.0, f"wins at {value} {kind} / wins", *interval)
    return [seen[value] for value in sorted(seen)]


def _bucket(name: str) -> int:
    """The number at the end of a statistic's name (han_share_13_plus: 13)."""
    digits = name.removesuffix("_plus").rsplit("_", 1)[-1]
    return int(digits)


def _bucket_label(name: str) -> str:
    return f"{_bucket(name)}+" if name.endswith("_plus") else str(_bucket(name))
