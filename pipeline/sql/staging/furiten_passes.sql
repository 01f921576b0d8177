-- furiten_passes: one row per winning tile a tenpai seat let go (another's discard or added kan not ronned, or its own discard) (rules layer).
-- Columns and their meaning: pipeline/schema/derived.py (also README "Tables"). Written by `paipu derive`.
-- The part files are passed in by the loader as the variable furiten_passes_files.
select * from read_parquet(getvariable('furiten_passes_files'), union_by_name = true, hive_partitioning = false)
