-- players: one row per seat of each game.
-- Columns and their meaning: pipeline/schema/facts.py (also README "Tables").
-- The part files are passed in by the loader as the variable players_files.
select * from read_parquet(getvariable('players_files'), union_by_name = true, hive_partitioning = false)
