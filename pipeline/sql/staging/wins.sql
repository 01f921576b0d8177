-- wins: one row per win (a multiple ron has several).
-- Columns and their meaning: pipeline/schema/facts.py (also README "Tables").
-- The part files are passed in by the loader as the variable wins_files.
select * from read_parquet(getvariable('wins_files'), union_by_name = true, hive_partitioning = false)
