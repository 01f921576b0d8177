-- rollup_seats: every seat of every counted game with what a rollup keeps of it to group and filter by: the seat's
-- player name and the game's source, year, room, player count, table length and rule and log flags
-- (ROLLUP_GAME_COLUMNS of pipeline/db/rollups.py: a `paipu stats --where` over these columns only filters the
-- stored rollups; any other needs the games). The rollups (pipeline/sql/rollups) join their per-seat facts to it
-- and sum them per these columns and their own flags. A table macro: rollup_seats().
create or replace macro rollup_seats() as table
select
    p.game_id, p.seat, p.name,
    g.source, g.year, g.room, g.n_players, g.is_hanchan, g.has_red_fives, g.has_kuitan, g.is_fast, g.is_vs_humans,
    g.is_custom_rule, g.is_server_log, g.is_complete
from players as p
join counted_games as g using (game_id)
