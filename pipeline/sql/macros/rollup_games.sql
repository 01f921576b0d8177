-- rollup_games: every counted game once per distinct player name seated in it ('unknown' for a seat without
-- one; name null for a game without seats), with the seats that name held (n_seats), the game's columns a rollup
-- keeps (as rollup_seats) and is_game_row, true on exactly one row of every game. A rollup of per-game or
-- per-round facts joins it; a mart then sums the rows with is_game_row for a grouping without the key 'player'
-- (every game once) and the rows with a name by player (every game once per distinct name seated in it).
-- A table macro: rollup_games().
create or replace macro rollup_games() as table
with names as (
    select game_id, coalesce(name, 'unknown') as name, count(*)::integer as n_seats
    from players
    group by all
)
select
    g.game_id, n.name, coalesce(n.n_seats, 0)::integer as n_seats,
    row_number() over (partition by g.game_id order by n.name) = 1 as is_game_row,
    g.source, g.year, g.room, g.n_players, g.is_hanchan, g.has_red_fives, g.has_kuitan, g.is_fast, g.is_vs_humans,
    g.is_custom_rule, g.is_server_log, g.is_complete
from counted_games as g
left join names as n using (game_id)
