"""Shared fixtures: where the real logs are, and a warehouse ingested from them once per session.

The real logs live in ../shared/logs (never in this repository). Without them the tests that need
them skip with the reason, except under CI=true, where their absence is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from pipeline.db import connect
from pipeline.derive.run import derive
from pipeline.ingest import IngestReport, ingest
from pipeline.store.warehouse import Warehouse

REPO = Path(__file__).resolve().parents[1]
SHARED_LOGS = REPO.parent / "shared" / "logs"
TENHOU_XML = SHARED_LOGS / "tenhou-xml"


def require_folder(folder: Path, what: str) -> Path:
    """Return ``folder``, skipping the test when it is missing (failing under CI=true); ``what`` names it."""
    if folder.is_dir():
        return folder
    reason = f"{what} not found at {folder} (they are not part of the repository)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason}; CI must provide them")
    pytest.skip(reason)


def require_shared_logs() -> Path:
    """Return ../shared/logs, skipping the test when it is missing (failing under CI=true)."""
    require_folder(TENHOU_XML, "real logs")
    return SHARED_LOGS


@pytest.fixture(scope="session")
def shared_logs() -> Path:
    """Path of ../shared/logs."""
    return require_shared_logs()


@pytest.fixture(scope="session")
def shared_folder() -> Callable[[str, str], Path]:
    """A function (folder below ../shared/logs, what it holds) -> its path, skipping or failing like shared_logs."""
    return lambda relative, what: require_folder(SHARED_LOGS / relative, what)


@pytest.fixture(scope="session")
def tenhou_warehouse(shared_logs: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Warehouse, IngestReport]:
    """A warehouse holding every file of ../shared/logs/tenhou-xml, ingested and derived once."""
    warehouse = Warehouse(tmp_path_factory.mktemp("tenhou") / "warehouse")
    report = ingest([shared_logs / "tenhou-xml"], warehouse)
    derive(warehouse)
    return warehouse, report


@pytest.fixture(scope="session")
def tenhou_db(tenhou_warehouse: tuple[Warehouse, IngestReport]):
    """A DuckDB connection over the real-log warehouse."""
    return connect(tenhou_warehouse[0])
