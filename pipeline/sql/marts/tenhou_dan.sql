-- tenhou_dan: Tenhou's stable dan (安定段位) per room, and the placement rates of Tenhou's and Mortal's player
-- statistics, per seat of every game with final ranks (players.final_rank, the server's), split by mode (the key
-- 'mode' is added to $by). Parameter $by: any grouping; by 'player' a player's row counts only the seats that
-- player held.
-- Stable dan: the dan at which a player's expected dan points per game are 0, given its rank distribution in one
-- room. Tenhou's dan points of a 4-player hanchan (Tenhou's dan table as mahjong-dora2.com/game/02-07.html gives it):
-- 1st +30 ippan, +60 joukyuu, +75 tokujou, +90 houou; 2nd +15, +15, +30, +45; 3rd 0; 4th -(30 + 15 k) at dan k
-- (shodan k = 1: -45, ... 10-dan: -180). Solving n1 a + n2 b - n4 (30 + 15 k) = 0 for k gives
--   stable_dan_<room> = ((a n1 + b n2) / n4 - 30) / 15, over the room's seats: n1, n2, n4 the 1st, 2nd, 4th places
-- (in Houou: ((60 n1 + 30 n2) / n4 - 20) / 10, the form of mahjong-dora2.com/game/02-10.html). It is computed
-- for Tenhou's ranked rooms (games.room ippan, joukyuu, tokujou, houou of a Tenhou log, source tenhou_*) in
-- 4-player hanchan only: tonpuu moves "about 2/3" of these points and sanma has a table of its own, neither stated
-- by a source checked here. Numerator (a n1 + b n2) / 15 - 2 n4, denominator n4: the value is the stable dan; its
-- standard error is the delta method's over the multinomial rank shares p_k = n_k / n of the n seats:
-- sqrt((a^2 p1 + b^2 p2) / p4^2 + (a p1 + b p2)^2 / p4^3) / (15 sqrt(n)).
-- Definitions:
--   stable_dan_<room>          = as above, per room (ippan, joukyuu, tokujou, houou), 4-player hanchan on Tenhou
--   top_two_rate               = seats finishing 1st or 2nd / seats with a final rank (Tenhou's 連対率)
--   last_avoidance_rate        = seats not finishing last / seats with a final rank (Tenhou's ラス回避率)
--   average_rank_points_mortal = sum of 90, 45, 0, -135 by final rank / seats of 4-player games (a mean; Mortal's
--                                avg rank pt: a 7-dan's Houou hanchan points)
with grouped as (
    -- the seats with final ranks per seat's attributes and rank (rollups/placements), in their group
    select
        group_value(with_mode($by), room, year, source, is_hanchan, n_players, name) as group_value,
        r.*,
        source like 'tenhou%' and n_players = 4 and is_hanchan
            and room in ('ippan', 'joukyuu', 'tokujou', 'houou') as is_dan_table
    from rollup_placements as r
),
rooms (room, ord, first, second) as (
    values ('ippan', 1, 30, 15), ('joukyuu', 2, 60, 15), ('tokujou', 3, 75, 30), ('houou', 4, 90, 45)
),
dan_counts as (
    select
        g.group_value, g.room, r.ord, r.first as a, r.second as b,
        sum(g.n_seats)::bigint as n,
        coalesce(sum(g.n_seats) filter (where g.final_rank = 1), 0)::bigint as n1,
        coalesce(sum(g.n_seats) filter (where g.final_rank = 2), 0)::bigint as n2,
        coalesce(sum(g.n_seats) filter (where g.final_rank = 4), 0)::bigint as n4
    from grouped as g
    join rooms as r using (room)
    where g.is_dan_table
    group by all
),
stable_dan as (
    select
        'stable_dan_' || room as name, group_value,
        (a * n1 + b * n2) / 15 - 2 * n4 as numerator,
        n4 as denominator,
        sqrt((a * a * n1 / n + b * b * n2 / n) / (n4 / n) ^ 2 + ((a * n1 + b * n2) / n) ^ 2 / (n4 / n) ^ 3)
            / (15 * sqrt(n)) as std_error,
        ord,
        'stable dan in ' || room || ' (4-player hanchan): ((' || a || ' x 1st + ' || b || ' x 2nd) / 4th - 30) '
            || '/ 15, the dan whose 4th-place loss -(30 + 15 dan) balances the room''s points for 1st and 2nd '
            || '(Tenhou''s dan table; standard error by the delta method)' as definition
    from dan_counts
    where n4 > 0
),
counts as (
    select
        group_value,
        sum(n_seats)::bigint as n_seats,
        coalesce(sum(n_seats) filter (where final_rank <= 2), 0)::bigint as n_top_two,
        coalesce(sum(n_seats) filter (where final_rank < n_players), 0)::bigint as n_not_last,
        coalesce(sum(n_seats) filter (where n_players = 4), 0)::bigint as n_seats_4p,
        sum([90, 45, 0, -135][final_rank] * n_seats) filter (where n_players = 4) as rank_points,
        -- exact from integer sums (macros/sample_sd)
        sample_sd(
            sum(n_seats) filter (where n_players = 4),
            sum([90, 45, 0, -135][final_rank] * n_seats) filter (where n_players = 4),
            sum([8100, 2025, 0, 18225][final_rank] * n_seats) filter (where n_players = 4)
        ) as rank_points_sd
    from grouped
    group by group_value
),
final as (
    select name, group_value, numerator, denominator, std_error, ord, definition
    from stable_dan
    union all
    select 'top_two_rate', group_value, n_top_two, n_seats, null, 5,
           'seats finishing 1st or 2nd / seats of games with final scores (Tenhou''s rentai rate)'
    from counts
    union all
    select 'last_avoidance_rate', group_value, n_not_last, n_seats, null, 6,
           'seats not finishing last (4th, 3rd in sanma) / seats of games with final scores (Tenhou''s last '
               || 'avoidance rate)'
    from counts
    union all
    select 'average_rank_points_mortal', group_value, coalesce(rank_points, 0), n_seats_4p,
           rank_points_sd / sqrt(n_seats_4p), 7,
           'sum of 90, 45, 0, -135 points by final rank / seats of 4-player games with final scores (a mean; '
               || 'Mortal''s avg rank pt, a 7-dan''s Houou hanchan points)'
    from counts
)
select name, group_value, numerator, denominator, numerator / denominator as value, definition, std_error
from final
where denominator > 0
order by group_value nulls first, ord
