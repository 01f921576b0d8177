-- tenpai_at_draw_draws: the rollup of the mart tenpai_at_draw's draws: the exhaustive draws of every counted
-- game counted per how many seats were tenpai at them (Tenhou's rule) and per game row (macros/rollup_games).
-- Additive over games (pipeline/db/rollups.py).
with draw_tenpai as (
    select game_id, round_idx, count_if(is_tenpai)::integer as n_tenpai
    from draw_outcomes
    where kind = 'exhaustive'
    group by all
)
select g.* exclude (game_id), d.n_tenpai, count(*) as n_draws
from draw_tenpai as d
join rollup_games() as g using (game_id)
group by all
