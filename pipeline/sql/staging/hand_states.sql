-- hand_states: one row per seat's closed hand after the deal and after every event that changed it (rules layer).
-- Columns and their meaning: pipeline/schema/derived.py (also README "Tables"). Written by `paipu derive`.
-- The part files are passed in by the loader as the variable hand_states_files.
-- counts is stored as 34 digits (kind k at position k + 1); the view gives it as a list of 34 tinyints.
select * replace (list_transform(range(34), lambda k: (ascii(counts[k + 1]) - 48)::tinyint) as counts)
from read_parquet(getvariable('hand_states_files'), union_by_name = true, hive_partitioning = false)
