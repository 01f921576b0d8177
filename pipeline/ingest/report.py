"""What one ingest run did: counts by status and the files not stored as ok."""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.ingest.dedup import Resolution
from pipeline.ingest.reading import FileResult
from pipeline.ingest.status import STATUSES


@dataclass
class IngestReport:
    """Counts of one ingest run and the files that were not stored as ok."""

    files: dict[str, int] = field(default_factory=lambda: dict.fromkeys((*STATUSES, "unchanged"), 0))
    games: int = 0
    rounds: int = 0
    problems: list[tuple[str, str, str]] = field(default_factory=list)
    derived: bool = False
    """Whether the parts written were derived in the same transactions."""
    status_by_file: dict[str, str] = field(default_factory=dict, repr=False)
    """Status of every file read in this run (to move a file to duplicate when its copy is superseded)."""

    @property
    def all_read(self) -> bool:
        """True when no file was quarantined."""
        return self.files["quarantined"] == 0

    def count_batch(
        self, results: list[FileResult], resolution: Resolution, restated: list[tuple[str, str, str]]
    ) -> None:
        """Add a committed batch (its files' results, what deduplication chose, and the (path, status, message)
        of the earlier rows it restated): files of this run restated are moved to their new status (and a
        superseded copy stored earlier in this run taken back out), so the report describes the warehouse as
        it now is."""
        for r in results:
            self.files[r.status] += 1
            self.status_by_file[r.path] = r.status
            if r.status != "ok":
                self.problems.append((r.path, r.status, r.error or ""))
        for path, status, error in restated:
            self._move(path, status, error)
        read = {r.path for r in results}
        for old, _ in resolution.superseded:
            if old.source_file in self.status_by_file and old.source_file not in read:  # stored earlier this run
                self.games -= 1
                self.rounds -= old.completeness[1]  # completeness_key: (complete, rounds, ...)
        self.games += len(resolution.chosen)
        self.rounds += sum(g.n_rounds for g in resolution.chosen)

    def _move(self, path: str, status: str, error: str) -> None:
        """Move a file of this run to a new status (a file read by an earlier run is not counted here)."""
        old = self.status_by_file.get(path)
        if old is None:
            return
        self.files[old] -= 1
        self.files[status] += 1
        self.status_by_file[path] = status
        self.problems = [p for p in self.problems if p[0] != path]
        self.problems.append((path, status, error))
