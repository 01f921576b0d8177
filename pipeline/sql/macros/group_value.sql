-- group_value: the group a seat or game falls in for a grouping (the marts' $by): null for 'all'; for one key
-- (e.g. 'room') that key's value (group_key); for several keys, comma-separated ('room,year'), their values in
-- that order joined by the unit separator chr(31) (pipeline/statistics.py splits them into one field per key).
-- A scalar macro: group_value(grouping, room, year, source, is_hanchan, n_players, name).
create or replace macro group_value(grouping, room, year, source, is_hanchan, n_players, name) as
case
    when grouping = 'all' then null
    when not contains(grouping, ',') then group_key(grouping, room, year, source, is_hanchan, n_players, name)
    else array_to_string(
        list_transform(
            string_split(grouping, ','),
            lambda k: coalesce(group_key(k, room, year, source, is_hanchan, n_players, name), '')
        ),
        chr(31)
    )
end
