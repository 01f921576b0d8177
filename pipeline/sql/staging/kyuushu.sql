-- kyuushu: one row per seat's first draw of a round: kyuushu kyuuhai eligibility and declaration (rules layer).
-- Columns and their meaning: pipeline/schema/derived.py (also README "Tables"). Written by `paipu derive`.
-- The part files are passed in by the loader as the variable kyuushu_files.
select * from read_parquet(getvariable('kyuushu_files'), union_by_name = true, hive_partitioning = false)
