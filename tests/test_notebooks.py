"""The notebooks run top to bottom on the bundled sample: in a Jupyter kernel (jupytext + nbclient), and as plain
Python scripts. They need no real logs, so these tests never skip."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import jupytext
import pytest
from nbclient import NotebookClient

pytestmark = pytest.mark.e2e  # every notebook executed

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.py"))
SHOWING_CHARTS = {"02_draws.py", "04_fu_and_scoring.py"}
CELL_TIMEOUT = 120
"""Seconds one cell may take (the slowest, an ingest of the sample, takes a few)."""


def test_the_numbered_notebooks_are_there_as_percent_scripts() -> None:
    assert [p.name for p in NOTEBOOKS] == [
        "01_ingest_and_tour.py",
        "02_draws.py",
        "03_furiten_and_karaten.py",
        "04_fu_and_scoring.py",
    ]
    for path in NOTEBOOKS:
        text = path.read_text(encoding="utf-8")
        assert "format_name: percent" in text and text.count("# %%") >= 5, path.name
        assert "from pipeline" in text, f"{path.name} uses the library"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_executes_in_a_kernel(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAIPU_WAREHOUSE", raising=False)  # the kernel inherits the environment: use the sample
    notebook = jupytext.read(path)
    client = NotebookClient(
        notebook, timeout=CELL_TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(REPO)}}
    )
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any(o.get("output_type") == "execute_result" for o in outputs), "cells show their results"
    if path.name in SHOWING_CHARTS:
        assert any("image/png" in o.get("data", {}) for o in outputs), "charts are shown inline"


def test_notebooks_run_as_plain_python_on_a_given_warehouse(sample_warehouse: Path, tmp_path: Path) -> None:
    """As scripts, from another folder, reading PAIPU_WAREHOUSE (one interpreter for all: runpy)."""
    runner = "import runpy, sys\nfor path in sys.argv[1:]:\n    runpy.run_path(path, run_name='__main__')\n"
    env = {**os.environ, "PAIPU_WAREHOUSE": str(sample_warehouse)}
    scripts = [str(p) for p in NOTEBOOKS if not p.name.startswith("01_")]  # 01 always ingests: the kernel test ran it
    result = subprocess.run(
        [sys.executable, "-c", runner, *scripts], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.fixture(scope="module")
def sample_warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """data/sample ingested and derived once."""
    from pipeline.derive.run import derive
    from pipeline.ingest import ingest
    from pipeline.store.warehouse import Warehouse

    root = tmp_path_factory.mktemp("sample") / "warehouse"
    ingest([REPO / "data" / "sample"], Warehouse(root))
    derive(Warehouse(root))
    return root
