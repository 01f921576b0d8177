-- fu_components: one row per win and non-zero fu component: the derived fu broken down (they add up to wins_scored.fu).
-- Columns and their meaning: pipeline/schema/scoring.py (also README "Tables"). Written by `paipu derive`.
-- The part files are passed in by the loader as the variable fu_components_files.
select * from read_parquet(getvariable('fu_components_files'), union_by_name = true, hive_partitioning = false)
