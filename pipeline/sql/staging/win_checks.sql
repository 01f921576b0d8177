-- win_checks: one row per win: the winner's waits before the winning tile, and furiten at a ron (rules layer).
-- Columns and their meaning: pipeline/schema/derived.py (also README "Tables"). Written by `paipu derive`.
-- The part files are passed in by the loader as the variable win_checks_files.
select * from read_parquet(getvariable('win_checks_files'), union_by_name = true, hive_partitioning = false)
