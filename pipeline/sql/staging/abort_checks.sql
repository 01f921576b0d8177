-- abort_checks: one row per round: the abortive draw derived from the events beside the labelled one (rules layer).
-- Columns and their meaning: pipeline/schema/derived.py (also README "Tables"). Written by `paipu derive`.
-- The part files are passed in by the loader as the variable abort_checks_files.
select * from read_parquet(getvariable('abort_checks_files'), union_by_name = true, hive_partitioning = false)
