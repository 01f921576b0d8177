"""The Parquet warehouse: atomic part files, partition layout and the manifest."""

from pathlib import Path

DEFAULT_WAREHOUSE = Path("data/warehouse")
"""Default warehouse folder, relative to the working directory (here, not in .warehouse, so that the command
line's options name it without importing pyarrow)."""
