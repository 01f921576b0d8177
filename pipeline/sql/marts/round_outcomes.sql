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
with counts as (
    -- the rounds per game row (rollups/round_outcomes), summed per group: by player each game once per distinct
    -- name seated in it, otherwise once (macros/rollup_rows)
    select
        group_value($by, room, year, source, is_hanchan, n_players, name) as group_value,
        sum(n_games)::bigint as n_games,
        sum(n_rounds)::bigint as n_rounds,
        sum(n_rounds)::bigint as rounds_per_game,
        sum(win_rate)::bigint as win_rate,
        sum(exhaustive_draw_rate)::bigint as exhaustive_draw_rate,
        sum(nagashi_mangan_rate)::bigint as nagashi_mangan_rate,
        sum(draw_rate)::bigint as draw_rate,
        sum(abortive_draw_rate)::bigint as abortive_draw_rate,
        sum(abortive_rate_kyuushu_kyuuhai)::bigint as abortive_rate_kyuushu_kyuuhai,
        sum(abortive_rate_suufon_renda)::bigint as abortive_rate_suufon_renda,
        sum(abortive_rate_suucha_riichi)::bigint as abortive_rate_suucha_riichi,
        sum(abortive_rate_suukaikan)::bigint as abortive_rate_suukaikan,
        sum(abortive_rate_sanchahou)::bigint as abortive_rate_sanchahou,
        sum(exhaustive_draw_rate_2011_study)::bigint as exhaustive_draw_rate_2011_study,
        sum(n_rounds_2011_study)::bigint as n_rounds_2011_study
    from rollup_round_outcomes
    where rollup_rows($by, name, is_game_row)
    group by all
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
