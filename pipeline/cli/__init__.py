"""The ``paipu`` command line: thin typer commands over plain functions.

Exit codes: 0 success (also when the reader of the output went away, e.g. ``| head``); 1 a check or the audit
found violations or disagreements, or ``stats --player`` (or ``report --player``) names no stored player; 2 usage
error (bad option, missing or empty path, empty query: one line); 3 some input files were quarantined (the rest was
written); 4 warehouse or SQL error (another writer holds the warehouse included); 5 ``stats``, ``audit`` or
``report`` found games not derived (their rules-layer statistics and checks say so instead of a value; the report
is written all the same); 70 an internal error (a bug: reported in one line, never as a traceback); 130
interrupted (Ctrl-C): what was published stays, the next run finishes the job.

The frame (app, options, wrappers) is pipeline.cli.frame; the commands register on it from writers (ingest,
derive, compact), queries (audit, sql, schema, check, version) and stats (stats, report); render prints.
"""

from pipeline.cli import queries, stats, writers
from pipeline.cli.frame import app

__all__ = ["app", "queries", "stats", "writers"]
