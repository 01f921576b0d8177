-- rollup_rows: whether a row of a per-game rollup (one joined to rollup_games) counts for a grouping (the marts'
-- $by): by player the rows with a name (a game once per distinct name), otherwise the game's one row with
-- is_game_row. A scalar macro: rollup_rows($by, name, is_game_row).
create or replace macro rollup_rows(grouping, name, is_game_row) as
case when by_player(grouping) then name is not null else is_game_row end
