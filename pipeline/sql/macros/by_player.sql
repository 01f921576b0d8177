-- by_player: true when a grouping (the marts' $by, one key or several comma-separated) has the key
-- 'player': its groups are then per seat (the seat's name), not per game. A scalar macro: by_player($by).
create or replace macro by_player(grouping) as list_contains(string_split(grouping, ','), 'player')
