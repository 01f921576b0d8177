-- events: one row per draw, discard, call, riichi step, dora reveal and (dis)connection, in order.
-- Columns and their meaning: pipeline/schema/facts.py (also README "Tables").
-- The part files are passed in by the loader as the variable events_files.
select * from read_parquet(getvariable('events_files'), union_by_name = true, hive_partitioning = false)
