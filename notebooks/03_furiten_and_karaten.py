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
# # 03 · Furiten and karaten
#
# What the rules layer derives about furiten (own-discard, temporary, riichi) and about karaten at exhaustive
# draws, the rates of the `rules_rates` mart with their 95% intervals, and the audit checks that tie them to what
# the server recorded. The warehouse: `PAIPU_WAREHOUSE` when set, else the bundled sample. Every table is
# printed too, so `python notebooks/03_furiten_and_karaten.py` shows the same numbers.

# %%

import pandas as pd

from pipeline.api import notebook_warehouse, show_table
from pipeline.audit import run_audit
from pipeline.statistics import rules_stats

wh = notebook_warehouse()  # PAIPU_WAREHOUSE, else the bundled sample in a temporary folder


# %% [markdown]
# ## The rates, with their definitions
# `furiten_passes_per_round` is a count per round (not a proportion: no interval); the others are proportions.

# %%
stats = rules_stats(wh.con)
rates = pd.DataFrame([s.to_json() for s in stats]).round(4)
show_table("The rules layer's rates", rates[["name", "numerator", "denominator", "value", "ci_low", "ci_high"]])
print("\n".join(f"{s.name} = {s.definition}" for s in stats))

# %% [markdown]
# ## Furiten intervals
# One row per interval a seat spent furiten: `own_discard` (a wait among its own discards), `temporary` (after
# letting a winning tile go, until its next discard), `riichi` (a pass after riichi, to the round's end).

# %%
intervals = wh.sql(
    """
    select kind, count(*) as intervals, count(*) filter (where end_event_idx is null) as to_round_end
    from furiten group by kind order by intervals desc
    """
)
show_table("Furiten intervals by kind", intervals)

# %% [markdown]
# ## Passes: winning tiles let go
# Every winning tile a tenpai seat let go, with the furiten it leaves and whether the win would have had a yaku.

# %%
passes = wh.sql(
    """
    select action, furiten_kind, in_riichi, count(*) as passes,
           count(*) filter (where has_yaku) as with_yaku
    from furiten_passes group by all order by passes desc
    """
)
show_table("Winning tiles let go", passes)

# %% [markdown]
# ## No ron from furiten
# Tenhou never lets a furiten seat ron: in a log the server wrote, every ron by a seat paipu marks furiten would
# be a bug in the rules layer (the audit below asserts it; a log another tool rewrote may hold one). `win_checks`
# holds the check for every win, of every log.

# %%
ron_checks = wh.sql(
    """
    select count(*) filter (where not is_tsumo) as rons,
           count(*) filter (where is_furiten) as rons_from_furiten,
           count(*) filter (where not is_tile_in_waits) as winning_tile_not_in_waits
    from win_checks
    """
)
show_table("Rons and furiten (win_checks)", ron_checks)

# %% [markdown]
# ## Karaten at exhaustive draws
# Tenpai (Tenhou's rule) with every winning tile visible to the player; pure karaten (every wait held four times
# in the hand) is noten for Tenhou.

# %%
karaten = wh.sql(
    """
    select count(*) as seats,
           count(*) filter (where is_tenpai) as tenpai,
           count(*) filter (where is_tenpai and is_karaten) as karaten,
           count(*) filter (where is_pure_karaten) as pure_karaten,
           round(avg(live_waits_public) filter (where is_tenpai), 2) as mean_live_waits_seen,
           round(avg(waits_in_dead_wall) filter (where is_tenpai), 2) as mean_waits_in_dead_wall
    from draw_outcomes where kind = 'exhaustive'
    """
)
show_table("Karaten at exhaustive draws", karaten)

# %% [markdown]
# ## The audit: derived against recorded
# Tenpai at draws against the hands Tenhou shows, no ron in furiten, every winning tile among the waits.
# `agree`/`total` cover standard-rule logs written by the server; logs written by other tools (the bundled
# sample's synthetic games among them) and custom-rule lobbies are counted apart.

# %%
audit = run_audit(wh.con)
checks = ["tenpai_at_draw", "no_ron_in_furiten", "win_tile_in_waits"]
checked = pd.DataFrame(
    [
        {"check": name, "agree": r.agree, "total": r.total, "other_agree": r.other_agree, "other_total": r.other_total}
        for name, r in audit.items()
        if name in checks
    ]
)
show_table("The audit: derived against recorded", checked)
assert (checked["agree"] == checked["total"]).all(), "a server-written log disagrees with the rules layer"
