-- waits_tiles: the tiles of a 34-bit mask (hand_states.waits_mask, riichi.waits_mask: bit k = 34-kind k) as their
-- MPSZ names in kind order: waits_tiles(9) = ['1m', '4m']. A scalar macro for users' queries; [] for 0, null
-- for null.
create or replace macro waits_tiles(mask) as
case when mask is null then null
     else list_transform(list_filter(range(34), lambda k: (mask >> k) & 1 = 1), lambda k: tile_name(k, false))
end
