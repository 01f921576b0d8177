-- placements: the rollup of the mart placements (and of tenhou_dan): the seats of every counted game with final
-- ranks (players.final_rank, the server's) per seat's attributes (macros/rollup_seats) and final rank, with the
-- exact sums and sums of squares of their final scores and game points (decimals: the servers write tenths).
-- Additive over games (pipeline/db/rollups.py).
select
    a.* exclude (game_id, seat),
    p.final_rank,
    count(*) as n_seats,
    count_if(p.final_score < 0) as n_tobi,
    sum(p.final_score::bigint) as score_sum,
    sum(p.final_score::bigint * p.final_score) as score_sq,
    count(p.final_points) as n_points,
    sum(p.final_points::decimal(18, 3)) as points_sum,
    sum(p.final_points::decimal(18, 3) * p.final_points::decimal(18, 3)) as points_sq
from players as p
join rollup_seats() as a using (game_id, seat)
where p.final_rank is not null
group by all
