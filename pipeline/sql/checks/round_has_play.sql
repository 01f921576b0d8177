-- round_has_play: every round was played: its events hold at least one draw (even a round ended by the dealer's
-- tsumo on the first draw, or a kyuushu kyuuhai declared on it, has that draw).
with drawn as (
    select game_id, round_idx, count(*) filter (where action = 'draw') as n_draws
    from events
    group by all
),
final as (
    select r.game_id, r.round_idx, 'no draw in the round (' || coalesce(d.n_draws, 0) || ')' as detail
    from rounds as r
    left join drawn as d using (game_id, round_idx)
    where coalesce(d.n_draws, 0) = 0
)
select 'round_has_play' as check_name, game_id, round_idx, detail from final
