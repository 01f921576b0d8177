# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 05 · Placements and styles
#
# Where players finish and how they play: per player and mode the `placements` mart (average rank, rank rates,
# tobi, game points, with standard errors and 95% intervals), per player and mode the style measures of the
# `seat_outcomes` mart (win, deal-in, riichi and call rates), the rank distribution by room, and each player's
# win rate against their deal-in rate. The warehouse: `PAIPU_WAREHOUSE` when set, else the bundled sample.
# Every table and chart is printed too, so `python notebooks/05_placements_and_styles.py` shows the same numbers.
#
# A player's rows count only the seats that player held, split by mode (`4p_hanchan`, `4p_tonpuu`, `3p_hanchan`,
# `3p_tonpuu`): a rank in sanma is not a rank in four-player, and sanma wins come more often.

# %%
import os

import pandas as pd
from matplotlib.figure import Figure

from pipeline.api import notebook_warehouse, show_table
from pipeline.plots import COLOURS, FIGSIZE, ROOM_ORDER, show
from pipeline.statistics import Z_95, Stat, mart_stats

wh = notebook_warehouse()  # PAIPU_WAREHOUSE, else the bundled sample in a temporary folder

MIN_GAMES = int(os.environ.get("PAIPU_MIN_GAMES", "5"))
"""Games with final scores a player needs in a mode before their row is shown and plotted (raise it for an archive:
``PAIPU_MIN_GAMES=20``)."""
ANONYMOUS = ("NoName", "unknown")
"""Tenhou's name for an anonymous seat, and seats without a name: many people, never one player."""
SHOWN = 20
"""Rows of the per-player tables: the players with the most games."""
KEYS = ["player", "mode"]  # the groups of the per-player tables: the marts by="player" (placements add "mode")
NAMES = [
    *("average_rank", "rank_1_rate", "rank_2_rate", "rank_3_rate", "rank_4_rate", "tobi_rate"),
    *("average_final_score", "average_final_points"),
    *("seat_win_rate", "deal_in_rate", "riichi_rate", "call_rate", "average_win_points"),
]
"""The statistics of the placements and seat_outcomes marts read here (a mart leaves out what no seat has)."""


def wide(stats: list[Stat], keys: list[str], field: str = "value") -> pd.DataFrame:
    """One row per group (indexed by its keys), one column per statistic of NAMES: its ``field`` (value,
    denominator, std_error, ci_low or ci_high), NaN where the mart has no row."""
    rows = [{**(s.group or {}), "name": s.name, field: getattr(s, field)} for s in stats]
    table = pd.DataFrame(rows, columns=[*keys, "name", field]).astype({field: float})
    return table.pivot(index=keys, columns="name", values=field).reindex(columns=NAMES)


def pct(column: pd.Series) -> pd.Series:
    """A proportion in percent, one decimal."""
    return (100 * column.astype(float)).round(1)


# %% [markdown]
# ## Placements per player and mode
# `games`: the player's games with final scores in that mode (a log that ends before the game does has none).
# `avg_rank ± rank_se` and `points ± points_se` are means with their standard errors; `points_low`/`points_high`
# the 95% normal interval of the mean game points (uma and oka included, as the server recorded them).

# %%
placement_stats = mart_stats(wh.con, "placements", by="player")
values, errors = wide(placement_stats, KEYS), wide(placement_stats, KEYS, "std_error")
placements = pd.DataFrame(
    {
        "games": wide(placement_stats, KEYS, "denominator")["average_rank"].astype(int),
        "avg_rank": values["average_rank"].round(3),
        "rank_se": errors["average_rank"].round(3),
        **{f"rank_{k}_pct": pct(values[f"rank_{k}_rate"]) for k in range(1, 5)},
        "tobi_pct": pct(values["tobi_rate"]),
        "points": values["average_final_points"].round(1),
        "points_se": errors["average_final_points"].round(1),
    }
)
placements["points_low"] = (placements["points"] - Z_95 * placements["points_se"]).round(1)
placements["points_high"] = (placements["points"] + Z_95 * placements["points_se"]).round(1)
players = placements.index.get_level_values("player")
regulars = placements[(placements["games"] >= MIN_GAMES) & ~players.isin(ANONYMOUS)].sort_values(
    ["games", "avg_rank"], ascending=[False, True]
)
print(f"{len(regulars)} of {len(placements)} (player, mode) rows have at least {MIN_GAMES} games")
show_table(
    f"Placements per player and mode (the {min(SHOWN, len(regulars))} with most games)", regulars[:SHOWN].reset_index()
)

# %% [markdown]
# ## The field's style, and each player's
# `seat_outcomes` per seat-round (one seat in one round): `win_pct` the seat won, `deal_in_pct` a ron was won
# off its discard, `riichi_pct` it declared riichi, `call_pct` it made a chi, pon or open kan;
# `win_points` the mean value of its wins. First the field (every seat of the mode), then the players above.
# Style measures added later as marts of their own join this table on (player, mode) the same way.


# %%
def style(stats: list[Stat], keys: list[str]) -> pd.DataFrame:
    """The seat_outcomes rates of each group in percent, with its seat-rounds and mean win points."""
    values = wide(stats, keys)
    return pd.DataFrame(
        {
            "seat_rounds": wide(stats, keys, "denominator")["seat_win_rate"].astype(int),
            "win_pct": pct(values["seat_win_rate"]),
            "deal_in_pct": pct(values["deal_in_rate"]),
            "riichi_pct": pct(values["riichi_rate"]),
            "call_pct": pct(values["call_rate"]),
            "win_points": values["average_win_points"].round(0),
        }
    )


field = style(mart_stats(wh.con, "seat_outcomes", by="mode"), ["mode"])
show_table("The field's style per mode (every seat)", field)
style_stats = mart_stats(wh.con, "seat_outcomes", by="player,mode")
styles = style(style_stats, KEYS)
player_styles = regulars[["games"]].join(styles, how="inner")
show_table(
    f"Style per player and mode (the {min(SHOWN, len(player_styles))} with most games)",
    player_styles[:SHOWN].reset_index(),
)

# %% [markdown]
# ## The rank distribution by room
# Every finished game has one seat of each rank, so over all the seats of a room each rank rate is 1/n by
# construction (a check that the mart counts each game's seats once); what differs between rooms is how often
# a seat ends below zero (`tobi_pct`) and how far the final scores spread (`score_sd`, their standard deviation).

# %%
room_stats = mart_stats(wh.con, "placements", by="room")
room_values = wide(room_stats, ["room", "mode"])
by_room = pd.DataFrame(
    {
        "seats": wide(room_stats, ["room", "mode"], "denominator")["average_rank"].astype(int),
        **{f"rank_{k}_pct": pct(room_values[f"rank_{k}_rate"]) for k in range(1, 5)},
        "tobi_pct": pct(room_values["tobi_rate"]),
    }
)
score_se = wide(room_stats, ["room", "mode"], "std_error")["average_final_score"]
by_room["score_sd"] = (score_se * by_room["seats"] ** 0.5).round(0)  # the standard deviation of the final scores
rooms = by_room.index.get_level_values("room")
order = sorted(set(rooms), key=lambda r: (ROOM_ORDER.index(r) if r in ROOM_ORDER else len(ROOM_ORDER), r))
show_table("Rank distribution by room and mode", by_room.loc[order])

# %% [markdown]
# ## Win rate against deal-in rate
# One point per player and mode with at least `MIN_GAMES` games (every row of the tables above, not only their
# first `SHOWN`), numbered as in the table under the chart; a cross marks the field of that mode. Up and to the
# left wins more and deals in less. The table gives each rate's 95% Wilson interval.

# %%
low, high = wide(style_stats, KEYS, "ci_low"), wide(style_stats, KEYS, "ci_high")
points = player_styles[["games", "seat_rounds", "win_pct", "deal_in_pct"]].copy()
for name, column in (("seat_win_rate", "win"), ("deal_in_rate", "deal_in")):
    points[f"{column}_low"] = pct(low[name].reindex(points.index))
    points[f"{column}_high"] = pct(high[name].reindex(points.index))
points = points.reset_index()
points.insert(0, "point", range(1, len(points) + 1))

figure = Figure(figsize=FIGSIZE, facecolor="white")
ax = figure.add_subplot()
for colour, (mode, group) in zip(COLOURS, points.groupby("mode"), strict=False):
    ax.scatter(group["deal_in_pct"], group["win_pct"], s=24, color=colour, label=f"{mode} ({len(group)})")
    if mode in field.index:
        ax.scatter(field.loc[mode, "deal_in_pct"], field.loc[mode, "win_pct"], marker="X", s=90, color=colour)
    for point, x, y in zip(group["point"], group["deal_in_pct"], group["win_pct"], strict=True):
        ax.annotate(str(point), (x, y), xytext=(3, 3), textcoords="offset points", fontsize=7)
ax.set_title(f"Win rate against deal-in rate ({len(points)} player-modes with {MIN_GAMES}+ games)")
ax.set_xlabel("deal-in rate (% of seat-rounds)")
ax.set_ylabel("win rate (% of seat-rounds)")
ax.grid(color="#dddddd", linewidth=0.8)
if len(points):
    ax.legend(frameon=False, fontsize=8, title="mode (players); X: the field", title_fontsize=8)
show(figure)
show_table("Win and deal-in rates per player and mode (the chart's points)", points)
