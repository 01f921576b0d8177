-- tenpai_at_draw: the rollup of the mart tenpai_at_draw's seats: the seats at every exhaustive draw of every
-- counted game (draw_outcomes), and those tenpai by Tenhou's rule, per seat's attributes (macros/rollup_seats).
-- Additive over games (pipeline/db/rollups.py); rollups/tenpai_at_draw_draws counts the draws.
select
    a.* exclude (game_id, seat),
    count(*) as n_seats,
    count_if(o.is_tenpai) as n_tenpai
from draw_outcomes as o
join rollup_seats() as a using (game_id, seat)
where o.kind = 'exhaustive'
group by all
