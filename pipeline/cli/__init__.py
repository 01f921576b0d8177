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

Start-up: importing the command line loads typer, rich and the options, nothing a command may not need; each
command imports what it uses in its body (duckdb, pyarrow, the parsers through pipeline.ingest.reading.PARSERS,
numba with the first kernel called: rules.compiled), so ``paipu --help`` or ``version`` loads no library of
paipu's, and ``sql`` no parser. The ``paipu`` process runs without pandas (pipeline.without_pandas): no command
uses it, and pyarrow would load it (~0.4 CPU s) to ask whether its inputs are pandas objects.
tests/test_startup.py pins what each kind of command loads; benchmarks/compile_time.py measures the start-up.
"""

from pipeline.cli import queries, stats, writers
from pipeline.cli.frame import app

__all__ = ["app", "queries", "stats", "writers"]
