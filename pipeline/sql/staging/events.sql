-- events: one row per draw, discard, call, riichi step, dora reveal and (dis)connection, in order.
-- Columns and their meaning: pipeline/schema/facts.py (also README "Tables").
-- The part files are passed in by the loader as the variable events_files. They hold the stored layout
-- (pipeline/schema/stored.py), given back here as the declared columns: flags packs is_red, is_tsumogiri and
-- is_rinshan two bits each (0 null, 1 false, 2 true), tile34 is the tile's kind.
select
    game_id, round_idx, event_idx, seat, action, tile,
    (tile // 4)::tinyint as tile34,
    nullif(flags & 3, 0) = 2 as is_red,
    from_seat,
    nullif((flags >> 2) & 3, 0) = 2 as is_tsumogiri,
    nullif((flags >> 4) & 3, 0) = 2 as is_rinshan,
    meld_tiles, source_index
from read_parquet(getvariable('events_files'), union_by_name = true, hive_partitioning = false)
