"""The Parquet warehouse: atomic part files, partition layout and the manifest."""
