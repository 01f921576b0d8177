-- placements: where seats finish and with what, per seat of every game with recorded final scores, split by
-- mode (the key 'mode' is added to $by: 4p/3p and hanchan/tonpuu, since a rank in sanma is not a rank in
-- 4-player). Parameter $by: any grouping (see group_value); by 'player' a player's row counts only the seats that
-- player held. Final scores, game points and ranks are the server's (players.final_score, final_points,
-- final_rank: Tenhou's owari, Mahjong Soul's result; ties of score ranked as the server breaks them, on Tenhou
-- the seat nearer the first dealer first). A game with no final scores (the log ends before the game does: an
-- excerpt or a truncated log, games.is_complete false) has no placements and is left out; the rules layer does
-- not compute final scores of its own. Definitions:
--   average_rank         = sum of the seats' final ranks / seats with a final rank (a mean, with its standard error)
--   rank_<k>_rate        = seats finishing k-th / seats with a final rank (k = 1..4; 1..3 in 3-player games)
--   tobi_rate            = seats whose final score is below 0 / seats with a final rank
--   average_final_score  = sum of the final scores (full points) / seats with a final rank (a mean)
--   average_final_points = sum of the game points the server recorded (uma and oka included) / seats with
--                          recorded game points (a mean; formats without them, mjai, give none)
with grouped as (
    select * from ranked_seats($by)
),
counts as (
    select
        group_value,
        max(n_players) as n_players,
        count(*) as n_seats,
        sum(final_rank)::bigint as rank_sum,
        stddev_samp(final_rank) / sqrt(count(*)) as rank_se,
        count_if(final_rank = 1) as n_rank_1,
        count_if(final_rank = 2) as n_rank_2,
        count_if(final_rank = 3) as n_rank_3,
        count_if(final_rank = 4) as n_rank_4,
        count_if(final_score < 0) as n_tobi,
        sum(final_score)::bigint as score_sum,
        stddev_samp(final_score) / sqrt(count(*)) as score_se,
        count(final_points) as n_points,
        -- summed as exact decimals (the servers write tenths): a float sum's last bits depend on the threads' order
        sum(final_points::decimal(18, 3))::double as points_sum,
        stddev_samp(final_points) / sqrt(count(final_points)) as points_se
    from grouped
    group by group_value
),
final as (
    select 'average_rank' as name, group_value, rank_sum as numerator, n_seats as denominator, rank_se as std_error,
           1 as ord,
           'sum of the seats'' final ranks (the server''s; tied scores ranked as it breaks them) / seats of '
               || 'games with final scores (a mean; games whose log ends before the game does are left out)'
               as definition
    from counts
    union all
    select 'rank_' || k || '_rate', group_value, [n_rank_1, n_rank_2, n_rank_3, n_rank_4][k], n_seats, null,
           1 + k,
           'seats finishing ' || k || ['st', 'nd', 'rd', 'th'][k] || ' (final rank ' || k || ') / seats of games '
               || 'with final scores'
    from counts, range(1, 5) as r(k)
    where k <= n_players
    union all
    select 'tobi_rate', group_value, n_tobi, n_seats, null, 6,
           'seats whose final score is below 0 / seats of games with final scores'
    from counts
    union all
    select 'average_final_score', group_value, score_sum, n_seats, score_se, 7,
           'sum of the final scores (full points, as the server recorded them) / seats of games with final '
               || 'scores (a mean)'
    from counts
    union all
    select 'average_final_points', group_value, points_sum, n_points, points_se, 8,
           'sum of the game points the server recorded (Tenhou''s owari points, Mahjong Soul''s result points: '
               || 'uma and oka included) / seats with recorded game points (a mean)'
    from counts
    where n_points > 0
)
select name, group_value, numerator, denominator, numerator / denominator as value, definition, std_error
from final
where denominator > 0
order by group_value nulls first, ord
