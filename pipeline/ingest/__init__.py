"""Ingest: input files -> parsed games -> one stored copy of each game + one manifest row per input.

The stages, each in its own module:

- discovery: the inputs as the files and container members to read (what is not read by design is listed too);
- containers: zip, tar and log-database members read in place, within the bounds of pipeline.limits;
- reading: a file's format detected by content and parsed into games known by their content (pipeline.identity);
- batch: a worker's batch read, checked (every copy passes the invariant checks) and staged;
- dedup: the one best-copy rule, and copies that must agree on the rounds they share;
- commit: a staged batch deduplicated against the warehouse and published whole, with its manifest rows;
- status: the state machine every stage reports to; one function (``status.decide``) decides a file's status
  and reason code from what a stage found;
- run: ``ingest()``, the whole run under the warehouse's writer lock.

The names below are imported from their stage when first read (pipeline.lazy_exports).
"""

from pipeline import lazy_exports

__all__ = [
    "PARSERS", "REASONS", "STATUSES", "FileResult", "IngestReport", "content_hash", "detect_format",
    "discover_files", "discover_paths", "ingest", "read_file",
]  # fmt: skip

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "discover_files": "pipeline.ingest.discovery",
        "discover_paths": "pipeline.ingest.discovery",
        "PARSERS": "pipeline.ingest.reading",
        "FileResult": "pipeline.ingest.reading",
        "content_hash": "pipeline.ingest.reading",
        "detect_format": "pipeline.ingest.reading",
        "read_file": "pipeline.ingest.reading",
        "IngestReport": "pipeline.ingest.report",
        "ingest": "pipeline.ingest.run",
        "REASONS": "pipeline.ingest.status",
        "STATUSES": "pipeline.ingest.status",
    },
)
