-- score_distributions: how wins are scored, from the rules layer's scoring (wins_scored, which agrees with
-- the server's fu and han on every standard-rule win).
-- Parameter $by: 'all' (one group), 'room', 'year', 'source', 'length' (hanchan or tonpuu, from games.is_hanchan)
-- or 'player': a win is the winner's, so a player's row counts only the wins of the seats that player held.
-- Definitions (every win that can win: complete with a yaku; a double ron counts each winner):
--   fu_share_N   = wins scored at N fu / wins (N: 20, 25, 30, ... 110; yakuman hands as Tenhou records them)
--   han_share_N  = wins at N han / wins (N: 1 ... 12; yaku, dora, ura dora and red fives)
--   han_share_13_plus = wins at 13 han or more (kazoe yakuman and yakuman) / wins
with scored as (
    -- wins per group, fu and han bucket (rollups/score_distributions): the distributions below read this small
    -- table, not the wins
    select group_value($by, room, year, source, is_hanchan, n_players, name) as group_value, fu, han_bucket, sum(n)::bigint as n
    from rollup_score_distributions
    group by all
),
group_totals as (
    select group_value, sum(n)::bigint as n_wins from scored group by all
),
-- every group gets every value seen anywhere (0 where it has none), so groups add up to the total
fu_counts as (
    select t.group_value, v.fu, coalesce(sum(s.n), 0)::bigint as n
    from group_totals as t
    cross join (select distinct fu from scored) as v
    left join scored as s on s.group_value is not distinct from t.group_value and s.fu = v.fu
    group by all
),
han_counts as (
    select t.group_value, v.han_bucket, coalesce(sum(s.n), 0)::bigint as n
    from group_totals as t
    cross join (select distinct han_bucket from scored) as v
    left join scored as s on s.group_value is not distinct from t.group_value and s.han_bucket = v.han_bucket
    group by all
),
final as (
    select 'fu_share_' || f.fu as name, f.group_value, f.n as numerator, t.n_wins as denominator,
           f.n / t.n_wins as value, 1000 + f.fu as ord,
           'wins scored at ' || f.fu || ' fu / wins' as definition
    from fu_counts as f join group_totals as t on t.group_value is not distinct from f.group_value
    union all
    select case when h.han_bucket = 13 then 'han_share_13_plus' else 'han_share_' || h.han_bucket end,
           h.group_value, h.n, t.n_wins, h.n / t.n_wins, 2000 + h.han_bucket,
           case when h.han_bucket = 13 then 'wins at 13 han or more (kazoe yakuman, yakuman) / wins'
                else 'wins at ' || h.han_bucket || ' han (yaku, dora, ura, red fives) / wins' end
    from han_counts as h join group_totals as t on t.group_value is not distinct from h.group_value
)
select name, group_value, numerator, denominator, value, definition
from final
where denominator > 0
order by group_value nulls first, ord
