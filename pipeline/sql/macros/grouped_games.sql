-- grouped_games: every game with the group it falls in for a grouping (the marts' $by): the game's room, year,
-- source format or table length ('hanchan'/'tonpuu'), one row per game read from games alone; by 'player', one
-- row per distinct name seated in the game ('unknown' when the log has none); for 'all', one group (null).
-- The same groups as grouped_seats, per game instead of per seat. A table macro: grouped_games($by).
create or replace macro grouped_games(grouping) as table
select
    game_id,
    case grouping
        when 'room' then room
        when 'year' then coalesce(year::varchar, 'unknown')
        when 'source' then source
        when 'length' then case when is_hanchan then 'hanchan' else 'tonpuu' end
    end as group_value
from games
where grouping <> 'player'
union all
select distinct game_id, coalesce(name, 'unknown') as group_value
from players
where grouping = 'player'
