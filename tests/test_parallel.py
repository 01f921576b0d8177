"""The same warehouse from one process, a local process pool and a Dask LocalCluster, table by table."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from warehouse_contents import contents, differences

from pipeline.ingest import IngestReport, ingest
from pipeline.store.warehouse import Warehouse

pytestmark = pytest.mark.e2e  # worker processes and a Dask cluster

BATCH = 12
"""Files per batch: small, so that copies of one game fall into different batches and workers."""


@pytest.fixture(scope="module")
def inputs(shared_logs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A mixed folder: the mjx Tenhou logs (many copies of the same games, partial ones among them),
    tenhou.net/6 JSON and mjai logs."""
    folder = tmp_path_factory.mktemp("inputs")
    shutil.copytree(shared_logs / "tenhou-xml" / "mjx", folder / "mjx")
    for name in ("tenhou-json", "mjai"):
        if (shared_logs / name).is_dir():
            shutil.copytree(shared_logs / name, folder / name)
    return folder


def run(inputs: Path, root: Path, **options: object) -> tuple[Warehouse, IngestReport]:
    """Ingest and derive ``inputs`` into a new warehouse at ``root``."""
    warehouse = Warehouse(root)
    report = ingest([inputs], warehouse, batch_size=BATCH, derive=True, **options)
    return warehouse, report


@pytest.fixture(scope="module")
def single(inputs: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, IngestReport]:
    """The warehouse of one inline worker."""
    warehouse, report = run(inputs, tmp_path_factory.mktemp("single") / "w", workers=1)
    return contents(warehouse), report


def test_the_inputs_hold_duplicates_across_batches(single: tuple[dict, IngestReport]) -> None:
    _, report = single
    assert report.games > 50 and report.files["duplicate"] > 10 and report.files["ok"] == report.games


def test_a_process_pool_writes_the_same_warehouse(
    inputs: Path, tmp_path: Path, single: tuple[dict, IngestReport]
) -> None:
    warehouse, report = run(inputs, tmp_path / "w", workers=2)
    assert differences(single[0], contents(warehouse)) == []
    assert (report.files, report.games, report.rounds) == (single[1].files, single[1].games, single[1].rounds)
    assert not (warehouse.root / "_staging").exists()


def test_a_dask_cluster_writes_the_same_warehouse(
    inputs: Path, tmp_path: Path, single: tuple[dict, IngestReport]
) -> None:
    pytest.importorskip("distributed", reason="Dask is an optional dependency (pip install 'paipu[dask]')")
    warehouse, report = run(inputs, tmp_path / "w", workers=2, scheduler="local")
    assert differences(single[0], contents(warehouse)) == []
    assert report.files == single[1].files


def test_derive_on_workers_rewrites_the_same_tables(
    inputs: Path, tmp_path: Path, single: tuple[dict, IngestReport]
) -> None:
    from pipeline.derive.run import derive  # noqa: PLC0415

    warehouse = Warehouse(tmp_path / "w")
    ingest([inputs], warehouse, batch_size=BATCH, derive=False)
    report = derive(warehouse, workers=2)
    assert report.parts == len(warehouse.table_files("games"))
    assert differences(single[0], contents(warehouse)) == []


def test_one_big_batch_writes_the_same_warehouse(
    inputs: Path, tmp_path: Path, single: tuple[dict, IngestReport]
) -> None:
    """Copies of a game split over batches end as they would in one batch, manifest messages included."""
    warehouse = Warehouse(tmp_path / "w")
    report = ingest([inputs], warehouse, batch_size=100_000, derive=True)
    assert differences(single[0], contents(warehouse)) == []
    assert (report.files, report.games, report.rounds) == (single[1].files, single[1].games, single[1].rounds)
