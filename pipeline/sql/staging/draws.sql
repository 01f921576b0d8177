-- draws: one row per drawn round: exhaustive, nagashi mangan or an abortive kind.
-- Columns and their meaning: pipeline/schema/facts.py (also README "Tables").
-- The part files are passed in by the loader as the variable draws_files.
select * from read_parquet(getvariable('draws_files'), union_by_name = true, hive_partitioning = false)
