-- server_flags: the server's own furiten and waits flags, where the format records them (Mahjong Soul's zhenting
-- and tingpais); paipu audit compares them with the rules layer. Columns: pipeline/schema/facts.py.
-- The part files are passed in by the loader as the variable server_flags_files.
select * from read_parquet(getvariable('server_flags_files'), union_by_name = true, hive_partitioning = false)
