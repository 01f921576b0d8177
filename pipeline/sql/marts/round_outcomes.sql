-- round_outcomes: how rounds end, as rates over all stored rounds (every game in the warehouse).
-- Parameter $by: 'all' (one group), 'room', 'year', 'source', 'length' (hanchan or tonpuu, from games.is_hanchan)
-- or 'player': every statistic here counts rounds, so a player's row counts the rounds (and games) of the games
-- that player sat in (each round once, even when the name held two seats of the game).
-- A round is one kyoku; a multiple ron is one round with one win outcome. Definitions:
--   rounds_per_game        = rounds stored / games stored
--   win_rate               = rounds ending in at least one win (tsumo or ron) / all rounds
--   exhaustive_draw_rate   = exhaustive draws (wall exhausted; nagashi mangan excluded) / all rounds
--   nagashi_mangan_rate    = rounds ending in nagashi mangan / all rounds
--   abortive_draw_rate     = abortive draws of any kind / all rounds
--   abortive_rate_<kind>   = abortive draws of that kind / all rounds
--   draw_rate              = rounds not won (exhaustive, nagashi mangan or abortive) / all rounds
--   exhaustive_draw_rate_2011_study = exhaustive draws / rounds, both leaving out East 1 honba 0 rounds and
--                            kyuushu kyuuhai and suufon renda aborts (the definition of a published 2011 Houou
--                            study, which found 14.67%)
with game_groups as (
    -- a game's group; by player, one row per distinct name seated in the game
    select game_id, group_value from grouped_games($by)
),
labelled as (
    select
        g.group_value,
        r.game_id, r.end_kind, d.kind,
        -- the 2011 study's population: not East 1 honba 0, not a kyuushu or suufon abort
        not (r.round_wind = 0 and r.kyoku = 0 and r.honba = 0)
            and coalesce(d.kind, '') not in ('kyuushu_kyuuhai', 'suufon_renda') as in_2011_study
    from rounds as r
    join game_groups as g using (game_id)
    left join draws as d using (game_id, round_idx)
),
counts as (
    select
        group_value,
        count(distinct game_id) as n_games,
        count(*) as n_rounds,
        count(*) as rounds_per_game,
        count(*) filter (where end_kind = 'win') as win_rate,
        count(*) filter (where kind = 'exhaustive') as exhaustive_draw_rate,
        count(*) filter (where kind = 'nagashi_mangan') as nagashi_mangan_rate,
        count(*) filter (where end_kind = 'draw') as draw_rate,
        count(*) filter (where kind not in ('exhaustive', 'nagashi_mangan')) as abortive_draw_rate,
        count(*) filter (where kind = 'kyuushu_kyuuhai') as abortive_rate_kyuushu_kyuuhai,
        count(*) filter (where kind = 'suufon_renda') as abortive_rate_suufon_renda,
        count(*) filter (where kind = 'suucha_riichi') as abortive_rate_suucha_riichi,
        count(*) filter (where kind = 'suukaikan') as abortive_rate_suukaikan,
        count(*) filter (where kind = 'sanchahou') as abortive_rate_sanchahou,
        count(*) filter (where in_2011_study and kind = 'exhaustive') as exhaustive_draw_rate_2011_study,
        count(*) filter (where in_2011_study) as n_rounds_2011_study
    from labelled
    group by group_value
),
definitions (name, ord, per, definition) as (
    values
        ('rounds_per_game', 1, 'game', 'rounds stored / games stored'),
        ('win_rate', 2, 'round', 'rounds ending in at least one win (tsumo or ron; a multiple ron counts once) / all rounds'),
        ('exhaustive_draw_rate', 3, 'round', 'exhaustive draws (wall exhausted, nagashi mangan excluded) / all rounds'),
        ('nagashi_mangan_rate', 4, 'round', 'rounds ending in nagashi mangan / all rounds'),
        ('draw_rate', 5, 'round', 'rounds not won (exhaustive, nagashi mangan or abortive draw) / all rounds'),
        ('abortive_draw_rate', 6, 'round', 'abortive draws of any kind / all rounds'),
        ('abortive_rate_kyuushu_kyuuhai', 7, 'round', 'kyuushu kyuuhai (nine terminals declared) / all rounds'),
        ('abortive_rate_suufon_renda', 8, 'round', 'suufon renda (four same winds discarded first) / all rounds'),
        ('abortive_rate_suucha_riichi', 9, 'round', 'suucha riichi (four riichi) / all rounds'),
        ('abortive_rate_suukaikan', 10, 'round', 'suukaikan (four kans by more than one player) / all rounds'),
        ('abortive_rate_sanchahou', 11, 'round', 'sanchahou (triple ron aborts) / all rounds'),
        ('exhaustive_draw_rate_2011_study', 12, 'study_round',
         'exhaustive draws / rounds, both without East 1 honba 0 rounds and kyuushu or suufon aborts '
         '(a published 2011 Houou study: 14.67%)')
),
unpivoted as (
    unpivot counts
    on rounds_per_game, win_rate, exhaustive_draw_rate, nagashi_mangan_rate, draw_rate, abortive_draw_rate,
       abortive_rate_kyuushu_kyuuhai, abortive_rate_suufon_renda, abortive_rate_suucha_riichi,
       abortive_rate_suukaikan, abortive_rate_sanchahou, exhaustive_draw_rate_2011_study
    into name name value numerator
),
final as (
    select
        d.name,
        u.group_value,
        u.numerator,
        case d.per when 'game' then u.n_games when 'study_round' then u.n_rounds_2011_study else u.n_rounds end
            as denominator,
        d.definition,
        d.ord
    from unpivoted as u
    join definitions as d using (name)
)
select name, group_value, numerator, denominator, numerator / denominator as value, definition
from final
where denominator > 0
order by group_value nulls first, ord
