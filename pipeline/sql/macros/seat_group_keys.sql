-- seat_group_keys: the groups of a grouping (the marts' $by) keyed for joining a per-seat table cheaply: with
-- the key 'player' every seat of every game with its group (seat_key = seat), otherwise every game once with its
-- group (seat_key = -1), so the join's lookup side holds one row per game, not one per seat. Join on
-- g.game_id = t.game_id and g.seat_key = seat_key($by, t.seat). A table macro: seat_group_keys($by).
create or replace macro seat_group_keys(grouping) as table
select game_id, -1 as seat_key, group_value
from grouped_games(grouping)
where not by_player(grouping)
union all
select game_id, seat as seat_key, group_value
from grouped_seats(grouping)
where by_player(grouping)
