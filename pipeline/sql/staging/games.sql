-- games: one row per stored game.
-- Columns and their meaning: pipeline/schema/facts.py (also README "Tables").
-- The part files are passed in by the loader as the variable games_files.
select * from read_parquet(getvariable('games_files'), union_by_name = true, hive_partitioning = false)
