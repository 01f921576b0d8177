-- manifest: one row per input file ever ingested: status ok / duplicate / conflict / quarantined / not_a_log /
-- skipped / pending (pipeline/schema/facts.py says what each means).
-- Columns and their meaning: pipeline/schema/facts.py (also README "Tables").
-- The part files are passed in by the loader as the variable manifest_files.
select * from read_parquet(getvariable('manifest_files'), union_by_name = true, hive_partitioning = false)
