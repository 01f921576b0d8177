-- grouped_seats: every seat of every game with the group it falls in for a grouping (the marts' $by: one key or
-- several, comma-separated; see group_value): the game's room, year, source format, table length
-- ('hanchan'/'tonpuu') or mode, and the seat's player name ('unknown' when the log has none); for 'all', one
-- group (null). Only the games of counted_games (every game, or those of `paipu stats --where`).
-- A table macro: grouped_seats($by).
create or replace macro grouped_seats(grouping) as table
select
    p.game_id,
    p.seat,
    g.n_players,
    group_value(grouping, g.room, g.year, g.source, g.is_hanchan, g.n_players, p.name) as group_value
from players as p
join counted_games as g using (game_id)
