-- hand_states: one row per seat's closed hand after the deal and after every event that changed it (rules layer).
-- Columns and their meaning: pipeline/schema/derived.py (also README "Tables"). Written by `paipu derive`.
-- The part files are passed in by the loader as the variable hand_states_files.
-- counts is stored as 37 digits: kind k's count at position k + 1, then the red 5m, 5p, 5s at 35-37; the view
-- gives counts as a list of 34 tinyints and red_fives as a list of 3.
select
    game_id, round_idx, seat, event_idx,
    list_transform(range(34), lambda k: (ascii(counts[k + 1]) - 48)::tinyint) as counts,
    list_transform(range(3), lambda r: (ascii(counts[35 + r]) - 48)::tinyint) as red_fives,
    * exclude (game_id, round_idx, seat, event_idx, counts)
from read_parquet(getvariable('hand_states_files'), union_by_name = true, hive_partitioning = false)
