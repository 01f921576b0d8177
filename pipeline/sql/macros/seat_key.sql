-- seat_key: a per-seat row's key into seat_group_keys for a grouping: its seat when the grouping has the key
-- 'player', else -1 (the game's group). A scalar macro: seat_key($by, seat).
create or replace macro seat_key(grouping, seat) as case when by_player(grouping) then seat else -1 end
