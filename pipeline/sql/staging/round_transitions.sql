-- round_transitions: one row per round: derived draw payments and next round beside the logged ones (rules layer).
-- Columns and their meaning: pipeline/schema/derived.py (also README "Tables"). Written by `paipu derive`.
-- The part files are passed in by the loader as the variable round_transitions_files.
select * from read_parquet(getvariable('round_transitions_files'), union_by_name = true, hive_partitioning = false)
