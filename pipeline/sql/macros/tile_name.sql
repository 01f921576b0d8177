-- tile_name: a tile's MPSZ name from its 34-kind (0-8 m, 9-17 p, 18-26 s, 27-33 z: E S W N haku hatsu chun) and
-- whether it is a red five: tile_name(4, false) = '5m', tile_name(4, true) = '0m', tile_name(31, false) = '5z'.
-- A scalar macro for users' queries (e.g. select tile_name(tile34, is_red) from events); null for a null kind.
create or replace macro tile_name(kind, is_red) as
case when kind is null then null
     else (case when coalesce(is_red, false) then 0 else kind % 9 + 1 end)::varchar || ('mpsz'[kind // 9 + 1])
end
