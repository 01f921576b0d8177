-- grouped_seats: every seat of every game with the group it falls in for a grouping (the marts' $by): the
-- game's room, year, source format or table length ('hanchan'/'tonpuu'), or by 'player' the seat's player
-- name ('unknown' when the log has none); for 'all', one group (null). A table macro: grouped_seats($by).
create or replace macro grouped_seats(grouping) as table
select
    p.game_id,
    p.seat,
    g.n_players,
    case grouping
        when 'room' then g.room
        when 'year' then coalesce(g.year::varchar, 'unknown')
        when 'source' then g.source
        when 'length' then case when g.is_hanchan then 'hanchan' else 'tonpuu' end
        when 'player' then coalesce(p.name, 'unknown')
    end as group_value
from players as p
join games as g using (game_id)
