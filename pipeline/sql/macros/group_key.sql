-- group_key: one key of a grouping (the marts' $by) for one seat or game: the game's room, year ('unknown' when
-- the log has none), source format, table length ('hanchan'/'tonpuu', from games.is_hanchan), mode (players and
-- length: '4p_hanchan', '4p_tonpuu', '3p_hanchan', '3p_tonpuu') or the seat's player name ('unknown' for none).
-- A scalar macro: group_key(key, room, year, source, is_hanchan, n_players, name).
create or replace macro group_key(key, room, year, source, is_hanchan, n_players, name) as
case key
    when 'room' then room
    when 'year' then coalesce(year::varchar, 'unknown')
    when 'source' then source
    when 'length' then case when is_hanchan then 'hanchan' else 'tonpuu' end
    when 'mode' then n_players::varchar || 'p_' || case when is_hanchan then 'hanchan' else 'tonpuu' end
    when 'player' then coalesce(name, 'unknown')
end
