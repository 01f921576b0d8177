-- hand_states: one row per seat's closed hand after the deal and after every event that changed it (rules layer).
-- Columns and their meaning: pipeline/schema/derived.py (also README "Tables"). Written by `paipu derive`.
-- The part files are passed in by the loader as the variable hand_states_files.
-- Stored packed (pipeline/derive/hand_table.py): counts_low holds kinds 0-20 and counts_high kinds 21-33, 3 bits a
-- kind, then the red 5m, 5p, 5s flags at bits 39-41; flags holds four flags of two bits (0 null, 1 false, 2 true).
-- The view gives counts as a list of 34 tinyints, red_fives as a list of 3, n_waits and the four flags.
select
    game_id, round_idx, seat, event_idx,
    list_transform(range(34), lambda k: (
        case when k < 21 then (counts_low >> (3 * k)) & 7 else (counts_high >> (3 * (k - 21))) & 7 end
    )::tinyint) as counts,
    list_transform(range(3), lambda r: ((counts_high >> (39 + r)) & 1)::tinyint) as red_fives,
    n_closed, n_calls, shanten, waits_mask,
    bit_count(waits_mask)::tinyint as n_waits,
    nullif(flags & 3, 0) = 2 as is_tenpai,
    live_waits_public, live_waits_actual,
    nullif((flags >> 2) & 3, 0) = 2 as is_karaten,
    nullif((flags >> 4) & 3, 0) = 2 as is_pure_karaten,
    nullif((flags >> 6) & 3, 0) = 2 as is_own_discard_furiten
from read_parquet(getvariable('hand_states_files'), union_by_name = true, hive_partitioning = false)
