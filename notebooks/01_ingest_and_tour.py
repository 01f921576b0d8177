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
# # 01 · Ingest and a tour of the warehouse
#
# Read the bundled sample (`data/sample`: 24 synthetic Tenhou games made by paipu's scenario builder) into a
# temporary warehouse, derive the rules layer, and look at every table. The same two steps as
# `paipu ingest data/sample --warehouse W`; point the other notebooks at your own archive with the
# `PAIPU_WAREHOUSE` environment variable. Every table is printed too, so `python notebooks/01_ingest_and_tour.py`
# shows the same tour.

# %%
import tempfile
from pathlib import Path

import pandas as pd

from pipeline.api import SAMPLE, open_warehouse, show_table
from pipeline.db import load_sql
from pipeline.derive.run import derive
from pipeline.ingest import ingest
from pipeline.schema import ALL_TABLES
from pipeline.store.warehouse import Warehouse

workdir = tempfile.TemporaryDirectory(prefix="paipu-")  # removed when the kernel or script ends
root = Path(workdir.name) / "warehouse"


# %% [markdown]
# ## Ingest: every file is accounted for
# The report counts files by status (ok, duplicate, quarantined, not a log, unchanged); `derive` then runs the
# rules layer (hand states, waits, tenpai at draws, furiten, scoring) over the new games.

# %%
report = ingest([SAMPLE], Warehouse(root))
derived = derive(Warehouse(root))
print("## Ingest and derive")
print(f"files: {report.files}")
print(f"games: {report.games}, rounds: {report.rounds}")
print(f"derived rows: {derived.rows}")

# %% [markdown]
# ## The views
# `open_warehouse` gives one DuckDB connection with a view per table; `view`, `mart` and `sql` return pandas
# (or Arrow with `as_="arrow"`).

# %%
wh = open_warehouse(root)
counts = {name: int(wh.sql(f"select count(*) as n from {name}")["n"][0]) for name in ALL_TABLES}
show_table("Rows per table", pd.DataFrame({"table": list(counts), "rows": list(counts.values())}))

# %%
files = wh.sql("select status, count(*) as files from manifest group by status order by files desc")
show_table("Files by status (manifest)", files)

# %%
games = wh.view("games")
columns = ["game_id", "room", "year", "n_players", "is_hanchan", "n_rounds", "is_complete", "is_server_log"]
show_table("The first games", games[columns].head())

# %%
ends = wh.sql(
    """
    select end_kind, count(*) as rounds, round(100 * count(*) / sum(count(*)) over (), 1) as pct
    from rounds group by end_kind order by rounds desc
    """
)
show_table("How rounds end", ends)

# %%
actions = wh.sql("select action, count(*) as events from events group by action order by events desc")
show_table("Events by action", actions)

# %%
show_table("Draws by kind", wh.sql("select kind, count(*) as draws from draws group by kind order by draws desc"))

# %%
show_table("Five wins", wh.sql("select seat, is_tsumo, han, fu, points, yaku_names from wins limit 5"))

# %% [markdown]
# ## Derived tables
# `draw_outcomes` holds one row per seat at every exhaustive draw: tenpai by Tenhou's rule, karaten, nagashi.

# %%
draw_seats = wh.sql(
    """
    select seat, is_tenpai, is_tenpai_shown, is_karaten, live_waits_public, waits_in_dead_wall
    from draw_outcomes order by game_id, round_idx, seat limit 8
    """
)
show_table("Seats at the first draws (draw_outcomes)", draw_seats)

# %% [markdown]
# ## The same SQL files as `paipu stats`
# Each statistic is one query in `pipeline/sql/marts/`, definitions at the top; `wh.mart` runs it.

# %%
print("\n## The top of marts/round_outcomes.sql")
print("\n".join(load_sql("marts", "round_outcomes").splitlines()[:14]))

# %%
show_table("The round_outcomes mart", wh.mart("round_outcomes")[["name", "numerator", "denominator", "value"]].round(4))
