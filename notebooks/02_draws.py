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
# # 02 · Exhaustive and abortive draws
#
# How often rounds end without a win, under the three published definitions of the exhaustive-draw rate, with
# 95% Wilson intervals; abortive draws by kind; how many seats are tenpai when the wall runs out.
# The warehouse: `PAIPU_WAREHOUSE` when set, else the bundled sample ingested into a temporary folder.
# Every table and chart is printed too, so `python notebooks/02_draws.py` shows the same numbers.

# %%

import pandas as pd

from pipeline.api import notebook_warehouse, show_table
from pipeline.plots import DRAW_RATES, draw_rates_figure, show, tenpai_figure
from pipeline.statistics import Stat, mart_stats, round_outcome_stats

wh = notebook_warehouse()  # PAIPU_WAREHOUSE, else the bundled sample in a temporary folder


def as_table(stats: list[Stat]) -> pd.DataFrame:
    """Stat objects as a table: value and interval in percent."""
    frame = pd.DataFrame([s.to_json() for s in stats])
    frame["group"] = [", ".join(map(str, (s.group or {"all": "all games"}).values())) for s in stats]
    for column in ("value", "ci_low", "ci_high"):
        frame[column] = (100 * frame[column].astype(float)).round(2)
    return frame.rename(columns={"value": "pct", "ci_low": "ci_low_pct", "ci_high": "ci_high_pct"})


RATE_COLUMNS = ["numerator", "denominator", "pct", "ci_low_pct", "ci_high_pct"]

# %% [markdown]
# ## Three definitions of the exhaustive-draw rate
# - `exhaustive_draw_rate`: exhaustive draws (nagashi mangan and abortive draws excluded) / all rounds
# - `draw_rate`: every round nobody won / all rounds
# - `exhaustive_draw_rate_2011_study`: exhaustive draws / rounds, both without East 1 honba 0 rounds and
#   without kyuushu kyuuhai and suufon renda aborts (a published 2011 Houou study: 14.67%)

# %%
outcomes = round_outcome_stats(wh.con)
three = ["exhaustive_draw_rate", "draw_rate", "exhaustive_draw_rate_2011_study"]
side_by_side = as_table([s for s in outcomes if s.name in three]).set_index("name").loc[three]
show_table("Three definitions of the exhaustive-draw rate", side_by_side[RATE_COLUMNS])

# %% [markdown]
# The mart counts what a direct count of the `draws` table gives:

# %%
direct = wh.sql(
    "select count(*) as exhaustive, (select count(*) from rounds) as rounds from draws where kind = 'exhaustive'"
)
mart = side_by_side.loc["exhaustive_draw_rate"]
assert (direct["exhaustive"][0], direct["rounds"][0]) == (mart["numerator"], mart["denominator"])
show_table("Direct count of the draws table (equal to the mart's)", direct)

# %% [markdown]
# ## Abortive draws by kind

# %%
abortive = as_table([s for s in outcomes if s.name.startswith("abortive_")])
show_table("Abortive draws by kind", abortive[["name", *RATE_COLUMNS]])

# %% [markdown]
# ## By room and by year
# The bars are the rates, the whiskers their 95% Wilson intervals; each group shows its number of rounds.
# The numbers under the charts are the bars' (`denominator`: the group's rounds).

# %%
by_group = {by: round_outcome_stats(wh.con, by=by) for by in ("room", "year")}
for by, stats in by_group.items():
    show(draw_rates_figure(stats, by))
    bars = as_table([s for s in stats if s.name in DRAW_RATES])
    show_table(f"Draw rates by {by} (the chart's bars)", bars[["group", "name", *RATE_COLUMNS]])

# %%
show_table(
    "The three definitions by year",
    as_table([s for s in by_group["year"] if s.name in three])[["group", "name", *RATE_COLUMNS]],
)

# %% [markdown]
# ## Tenpai when the wall runs out
# Seats tenpai by Tenhou's rule at each exhaustive draw (`tenpai_at_draw` mart; four- and three-player games
# apart; the chart draws three-player games once they have 30 exhaustive draws, the table always lists them).

# %%
tenpai = mart_stats(wh.con, "tenpai_at_draw")
show(tenpai_figure(tenpai))
shares = as_table([s for s in tenpai if s.name.startswith("tenpai_share_")])
show_table("Tenpai seats at exhaustive draws (the chart's bars)", shares[["name", *RATE_COLUMNS]])
