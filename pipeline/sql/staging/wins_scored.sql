-- wins_scored: one row per win: fu, han, yaku, points and score changes derived by the rules layer (rules.scoring).
-- Columns and their meaning: pipeline/schema/scoring.py (also README "Tables"). Written by `paipu derive`.
-- The part files are passed in by the loader as the variable wins_scored_files.
select * from read_parquet(getvariable('wins_scored_files'), union_by_name = true, hive_partitioning = false)
