-- rules_rates: the rollup of the mart rules_rates' seat counts, per seat's attributes (macros/rollup_seats) of
-- every counted game: furiten passes (with and without a yaku, yaku known), riichi declarations with a known hand
-- and those in furiten (riichi), tsumo wins and those in furiten (win_checks), seats at exhaustive draws, tenpai,
-- karaten and pure karaten (draw_outcomes), first draws, eligible and declared kyuushu (kyuushu). One row per
-- source and attributes, its other counts null. Additive over games (pipeline/db/rollups.py); the rounds come
-- from rollups/round_outcomes.
select
    a.* exclude (game_id, seat),
    count(*) as n_passes,
    count_if(t.has_yaku) as n_passes_with_yaku,
    count_if(not t.has_yaku) as n_passes_without_yaku,
    count(t.has_yaku) as n_passes_yaku_known
from furiten_passes as t
join rollup_seats() as a using (game_id, seat)
group by all
union all by name
select a.* exclude (game_id, seat), count(*) as n_riichi, count_if(r.is_own_discard_furiten) as n_riichi_furiten
from riichi as r
join rollup_seats() as a using (game_id, seat)
where r.is_own_discard_furiten is not null
group by all
union all by name
select a.* exclude (game_id, seat), count(*) as n_tsumo, count_if(w.is_own_discard_furiten) as n_tsumo_furiten
from win_checks as w
join rollup_seats() as a using (game_id, seat)
where w.is_tsumo
group by all
union all by name
select
    a.* exclude (game_id, seat),
    count(*) as n_draw_seats,
    count_if(t.is_tenpai) as n_draw_tenpai,
    count_if(t.is_tenpai and t.is_karaten) as n_draw_karaten,
    count_if(t.is_pure_karaten) as n_draw_pure
from draw_outcomes as t
join rollup_seats() as a using (game_id, seat)
where t.kind = 'exhaustive'
group by all
union all by name
select
    a.* exclude (game_id, seat),
    count(*) as n_first_draws,
    count_if(t.is_eligible) as n_eligible,
    count_if(t.is_eligible and t.is_declared) as n_declared
from kyuushu as t
join rollup_seats() as a using (game_id, seat)
group by all
