"""DuckDB over the warehouse: views from the staging SQL files, marts and checks from theirs.

``connect`` and ``query`` (and duckdb with them) are imported when first read (pipeline.lazy_exports): reading
the SQL files does not need them."""

from pipeline import lazy_exports

__all__ = ["connect", "load_sql", "query", "sql_names"]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "connect": "pipeline.db.connection",
        "query": "pipeline.db.connection",
        "load_sql": "pipeline.db.sqlfiles",
        "sql_names": "pipeline.db.sqlfiles",
    },
)
