-- riichi: one row per riichi declaration: the declared hand's waits, karaten and furiten riichi (rules layer).
-- Columns and their meaning: pipeline/schema/derived.py (also README "Tables"). Written by `paipu derive`.
-- The part files are passed in by the loader as the variable riichi_files.
select * from read_parquet(getvariable('riichi_files'), union_by_name = true, hive_partitioning = false)
