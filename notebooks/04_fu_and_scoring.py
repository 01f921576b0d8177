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
# # 04 · Fu and scoring
#
# How wins are scored: the fu and han distributions of the `score_distributions` mart (every win that can win,
# scored by paipu's rules layer), the fu components behind them, and the derived score against the server's.
# The warehouse: `PAIPU_WAREHOUSE` when set, else the bundled sample. Every table and chart is printed too, so
# `python notebooks/04_fu_and_scoring.py` shows the same numbers.

# %%

import pandas as pd

from pipeline.api import notebook_warehouse, show_table
from pipeline.plots import share_histogram_figure, show
from pipeline.statistics import score_stats

wh = notebook_warehouse()  # PAIPU_WAREHOUSE, else the bundled sample in a temporary folder


# %% [markdown]
# ## Fu and han of wins
# `fu_share_N` = wins scored at N fu / wins; `han_share_N` = wins at N han / wins (13+: kazoe yakuman and
# yakuman). A multiple ron counts each winner.

# %%
scores = score_stats(wh.con)
table = pd.DataFrame([s.to_json() for s in scores])[["name", "numerator", "denominator", "value", "ci_low", "ci_high"]]
for kind in ("fu", "han"):
    show(share_histogram_figure(scores, kind))
    show_table(f"{kind} of wins (the histogram's bars)", table[table["name"].str.startswith(f"{kind}_")].round(4))

# %% [markdown]
# ## Where the fu come from
# `fu_components` splits each win's fu (base, melds, pair, wait, tsumo, closed ron, rounding); a win's
# components add up to its fu.

# %%
components = wh.sql(
    """
    select component, count(*) as wins, sum(fu) as fu, round(avg(fu), 1) as mean_fu
    from fu_components group by component order by fu desc
    """
)
show_table("Fu by component", components)

# %%
sums = wh.sql(
    """
    select count(*) as wins, count(*) filter (where c.fu is distinct from s.fu) as sum_differs
    from wins_scored as s
    left join (select game_id, round_idx, win_idx, sum(fu) as fu from fu_components group by all) as c
        using (game_id, round_idx, win_idx)
    where s.is_complete and s.form = 'regular'
    """
)
assert int(sums["sum_differs"][0]) == 0
show_table("Components add up to the fu", sums)

# %% [markdown]
# ## Derived against recorded
# The server records fu, han and points for every win; paipu scores each win from the tiles alone.

# %%
agreement = wh.sql(
    """
    select count(*) as wins,
           count(*) filter (where s.fu = w.fu) as fu_agree,
           count(*) filter (where s.han = w.han) as han_agree,
           count(*) filter (where s.points = w.points) as points_agree
    from wins as w join wins_scored as s using (game_id, round_idx, win_idx)
    """
)
show_table("Derived against recorded", agreement)

# %%
by_wait = wh.sql(
    """
    select s.wait, count(*) as wins, round(avg(s.fu), 1) as mean_fu, round(avg(s.points)) as mean_points
    from wins_scored as s where s.points is not null group by s.wait order by wins desc
    """
)
show_table("Fu and points by wait", by_wait)

# %%
limits = wh.sql(
    "select limit_name, count(*) as wins from wins_scored where points is not null group by all order by wins desc"
)
show_table("Wins by limit", limits)
