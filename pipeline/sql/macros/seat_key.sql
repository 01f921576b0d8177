-- seat_key: a per-seat row's key into seat_group_keys for a grouping: its seat by 'player', else -1 (the game's
-- group). A scalar macro: seat_key($by, seat).
create or replace macro seat_key(grouping, seat) as case when grouping = 'player' then seat else -1 end
