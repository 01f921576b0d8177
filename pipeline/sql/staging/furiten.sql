-- furiten: one row per furiten interval of a seat: own_discard, temporary or riichi (rules layer).
-- Columns and their meaning: pipeline/schema/derived.py (also README "Tables"). Written by `paipu derive`.
-- The part files are passed in by the loader as the variable furiten_files.
select * from read_parquet(getvariable('furiten_files'), union_by_name = true, hive_partitioning = false)
