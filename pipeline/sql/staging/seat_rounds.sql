-- seat_rounds: one row per seat with a hand in every round: riichi, open calls, win, deal-in and score change
-- (a roll-up of events, wins and rounds, so that per-seat statistics need not scan the events).
-- Columns and their meaning: pipeline/schema/derived.py (also README "Tables"). Written by `paipu derive`.
-- The part files are passed in by the loader as the variable seat_rounds_files.
select * from read_parquet(getvariable('seat_rounds_files'), union_by_name = true, hive_partitioning = false)
