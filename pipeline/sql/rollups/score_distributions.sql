-- score_distributions: the rollup of the mart score_distributions: the scored wins of every counted game
-- (wins_scored with points) counted per winner's attributes (macros/rollup_seats), fu and han bucket (13 for 13
-- han or more). Additive over games (pipeline/db/rollups.py).
select a.* exclude (game_id, seat), s.fu, least(s.han, 13) as han_bucket, count(*) as n
from wins_scored as s
join rollup_seats() as a using (game_id, seat)
where s.points is not null
group by all
