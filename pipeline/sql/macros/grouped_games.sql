-- grouped_games: every game with the group it falls in for a grouping (the marts' $by: one key or several,
-- comma-separated; see group_value): the game's room, year, source format, table length ('hanchan'/'tonpuu') or
-- mode, one row per game read from counted_games alone; with the key 'player', one row per distinct name seated in
-- the game ('unknown' when the log has none) with the game's other keys; for 'all', one group (null).
-- The same groups as grouped_seats, per game instead of per seat. Only the games of counted_games (every game,
-- or those of `paipu stats --where`). A table macro: grouped_games($by).
create or replace macro grouped_games(grouping) as table
select
    game_id,
    group_value(grouping, room, year, source, is_hanchan, n_players, null) as group_value
from counted_games
where not by_player(grouping)
union all
select distinct
    p.game_id,
    group_value(grouping, g.room, g.year, g.source, g.is_hanchan, g.n_players, p.name) as group_value
from players as p
join counted_games as g using (game_id)
where by_player(grouping)
