-- draw_outcomes: one row per seat at every exhaustive draw: tenpai by Tenhou's rule against the hands the log shows (rules layer).
-- Columns and their meaning: pipeline/schema/derived.py (also README "Tables"). Written by `paipu derive`.
-- The part files are passed in by the loader as the variable draw_outcomes_files.
select * from read_parquet(getvariable('draw_outcomes_files'), union_by_name = true, hive_partitioning = false)
