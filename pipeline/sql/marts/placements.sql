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
with ranked as (
    -- the seats with final ranks per seat's attributes and rank (rollups/placements), in their group
    select group_value(with_mode($by), room, year, source, is_hanchan, n_players, name) as group_value, r.*
    from rollup_placements as r
),
counts as (
    -- standard errors from exact sums (macros/sample_sd; the game points, in tenths, as decimals)
    select
        group_value,
        max(n_players) as n_players,
        sum(n_seats)::bigint as n_seats,
        sum(final_rank * n_seats)::bigint as rank_sum,
        sample_sd(sum(n_seats), sum(final_rank * n_seats), sum(final_rank * final_rank * n_seats))
            / sqrt(sum(n_seats)) as rank_se,
        coalesce(sum(n_seats) filter (where final_rank = 1), 0)::bigint as n_rank_1,
        coalesce(sum(n_seats) filter (where final_rank = 2), 0)::bigint as n_rank_2,
        coalesce(sum(n_seats) filter (where final_rank = 3), 0)::bigint as n_rank_3,
        coalesce(sum(n_seats) filter (where final_rank = 4), 0)::bigint as n_rank_4,
        sum(n_tobi)::bigint as n_tobi,
        sum(score_sum)::bigint as score_sum,
        sample_sd(sum(n_seats), sum(score_sum), sum(score_sq)) / sqrt(sum(n_seats)) as score_se,
        sum(n_points)::bigint as n_points,
        sum(points_sum)::double as points_sum,
        decimal_sample_sd(sum(n_points), sum(points_sum), sum(points_sq)) / sqrt(sum(n_points)) as points_se
    from ranked
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
