"""DuckDB over the warehouse: views from the staging SQL files, marts and checks from theirs."""

from pipeline.db.connection import connect, query
from pipeline.db.sqlfiles import load_sql, sql_names

__all__ = ["connect", "load_sql", "query", "sql_names"]
