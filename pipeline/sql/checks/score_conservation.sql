-- score_conservation: points are only moved, never made.
-- (1) scores + 1000 x riichi sticks on the table is the same at the start of every round of a game;
-- (2) each round ends with the scores the next one starts with;
-- (3) a draw moves no points in total; the wins of a round hand out exactly the sticks on the table.
with starts as (
    select game_id, round_idx, list_sum(scores_pre) + 1000 * riichi_sticks as total,
           first_value(list_sum(scores_pre) + 1000 * riichi_sticks) over w as first_total,
           scores_post, lead(scores_pre) over w as next_scores_pre
    from rounds
    window w as (partition by game_id order by round_idx)
),
total_changed as (
    select game_id, round_idx, 'scores + sticks = ' || total || ', first round had ' || first_total as detail
    from starts where total != first_total
),
handover as (
    select game_id, round_idx, 'ends with ' || scores_post::varchar || ', next starts with ' || next_scores_pre::varchar
    from starts where next_scores_pre is not null and scores_post != next_scores_pre
),
draw_moves as (
    select game_id, round_idx, 'draw deltas sum to ' || list_sum(score_deltas) as detail
    from draws where list_sum(score_deltas) != 0
),
win_moves as (
    select game_id, round_idx,
           'win deltas sum to ' || sum(list_sum(score_deltas)) || ', sticks on the table ' || max(riichi_sticks)
    from wins group by game_id, round_idx
    having sum(list_sum(score_deltas)) != 1000 * max(riichi_sticks)
),
final as (
    select * from total_changed union all select * from handover
    union all select * from draw_moves union all select * from win_moves
)
select 'score_conservation' as check_name, game_id, round_idx, detail from final
