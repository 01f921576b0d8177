-- rounds: one row per complete round (kyoku).
-- Columns and their meaning: pipeline/schema/facts.py (also README "Tables").
-- The part files are passed in by the loader as the variable rounds_files.
select * from read_parquet(getvariable('rounds_files'), union_by_name = true, hive_partitioning = false)
