"""paipu's pipeline: parsers, the Parquet warehouse, DuckDB SQL and the CLI (everything with I/O)."""

__version__ = "0.1.0"
