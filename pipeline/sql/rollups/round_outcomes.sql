-- round_outcomes: the rollup of the mart round_outcomes: the rounds of every counted game counted per how they
-- end (the round's draw, if any, by kind; the 2011 study's population: not East 1 honba 0, not a kyuushu or
-- suufon abort) and per game row (macros/rollup_games: the game's attributes, once per distinct name seated,
-- with the seats that name held). Additive over games (pipeline/db/rollups.py); rules_rates reads it too.
with labelled as (
    select
        r.game_id, r.end_kind, d.kind,
        not (r.round_wind = 0 and r.kyoku = 0 and r.honba = 0)
            and coalesce(d.kind, '') not in ('kyuushu_kyuuhai', 'suufon_renda') as in_2011_study
    from rounds as r
    left join draws as d using (game_id, round_idx)
)
select
    g.* exclude (game_id),
    count(distinct l.game_id) as n_games,
    count(*) as n_rounds,
    count(*) filter (where l.end_kind = 'win') as win_rate,
    count(*) filter (where l.kind = 'exhaustive') as exhaustive_draw_rate,
    count(*) filter (where l.kind = 'nagashi_mangan') as nagashi_mangan_rate,
    count(*) filter (where l.end_kind = 'draw') as draw_rate,
    count(*) filter (where l.kind not in ('exhaustive', 'nagashi_mangan')) as abortive_draw_rate,
    count(*) filter (where l.kind = 'kyuushu_kyuuhai') as abortive_rate_kyuushu_kyuuhai,
    count(*) filter (where l.kind = 'suufon_renda') as abortive_rate_suufon_renda,
    count(*) filter (where l.kind = 'suucha_riichi') as abortive_rate_suucha_riichi,
    count(*) filter (where l.kind = 'suukaikan') as abortive_rate_suukaikan,
    count(*) filter (where l.kind = 'sanchahou') as abortive_rate_sanchahou,
    count(*) filter (where l.in_2011_study and l.kind = 'exhaustive') as exhaustive_draw_rate_2011_study,
    count(*) filter (where l.in_2011_study) as n_rounds_2011_study
from labelled as l
join rollup_games() as g using (game_id)
group by all
