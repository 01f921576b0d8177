"""What a ``paipu`` process imports: each command only what it uses (pipeline.cli: start-up).

Every check runs a fresh interpreter and reads its ``sys.modules`` at exit: no timing, only which modules were
loaded (benchmarks/compile_time.py measures what they cost).
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import pipeline.compact
import pipeline.statistics
import pipeline.store.warehouse
from pipeline.cli import stats, writers
from pipeline.ingest.reading import PARSERS
from pipeline.sources import FORMATS
from pipeline.store import DEFAULT_WAREHOUSE

REPO = Path(__file__).resolve().parents[1]
XML_FILE = "tenhou-xml/mjlog2json/data/2019103023gm-00a9-0000-f90e0fe9.xml"

PARSER_MODULES = {f"pipeline.sources.{name}.parser" for name in FORMATS}
"""The formats' parsers (their compiled cores with them)."""
HEAVY = {"pandas", "matplotlib", "numba", "duckdb", "pyarrow", "numpy", *PARSER_MODULES}
"""What a command that reads no warehouse and no log never needs."""

RUN_PAIPU = """
import atexit, json, sys
out, sys.argv = sys.argv[1], ["paipu", *sys.argv[2:]]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
from pipeline.cli import app
app()
"""
"""Run the command line as the ``paipu`` script does (app() in a fresh process), writing the modules loaded."""


def paipu_modules(tmp_path: Path, *args: str | Path) -> set[str]:
    """The modules a fresh ``paipu ARGS`` process has loaded when it exits (asserting exit 0)."""
    out = tmp_path / "modules.json"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-c", RUN_PAIPU, str(out), *map(str, args)]
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return set(json.loads(out.read_text()))


def test_importing_the_command_line_loads_no_library_a_command_may_not_need() -> None:
    code = "import json, sys, pipeline.cli; print(json.dumps(sorted(sys.modules)))"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert not HEAVY & set(json.loads(done.stdout))


@pytest.mark.parametrize(
    ("args", "absent"),
    [
        (("--help",), HEAVY),
        (("version",), HEAVY),
        (("schema", "wins"), HEAVY - {"pyarrow", "numpy"}),  # the schema's types are Arrow's
    ],
)
def test_commands_that_read_no_warehouse_load_no_heavy_library(
    tmp_path: Path, args: tuple[str, ...], absent: set[str]
) -> None:
    assert not absent & paipu_modules(tmp_path, *args)


def test_an_ingest_loads_only_its_formats_parser_and_a_query_no_parser(shared_logs: Path, tmp_path: Path) -> None:
    warehouse = tmp_path / "w"
    ingest = paipu_modules(tmp_path, "ingest", shared_logs / XML_FILE, "-w", warehouse, "-j", "1")
    assert "pipeline.sources.tenhou_xml.parser" in ingest and "numba" in ingest  # it parsed and derived
    assert not (PARSER_MODULES - {"pipeline.sources.tenhou_xml.parser"}) & ingest
    assert not {"pandas", "matplotlib"} & ingest  # pyarrow would load pandas: the paipu process declines it
    assert "duckdb" not in ingest  # no stored rollups to refresh in a new warehouse: no DuckDB
    query = paipu_modules(tmp_path, "sql", "select count(*) from games", "-w", warehouse)
    assert "duckdb" in query
    assert not {"pandas", "matplotlib", "numba", *PARSER_MODULES} & query


def test_a_pool_worker_starts_without_duckdb() -> None:
    # a worker imports the jobs' modules: the invariant checks' SQL (and DuckDB) only when the sieve finds a suspect
    code = "import sys, pipeline.executors, pipeline.ingest.run, pipeline.derive.run; print('duckdb' in sys.modules)"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "False\n", done.stderr


PANDAS_DECLINED = "try:\n    import pandas\nexcept ModuleNotFoundError:\n    print('no pandas')\n"
"""Code printing 'no pandas' when pandas cannot be imported (pipeline.without_pandas)."""


def output_of(code: str) -> str:
    """What a fresh interpreter running ``code`` prints (asserting exit 0)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_pool_worker_runs_without_pandas() -> None:
    set_up = "import os\nfrom pipeline.executors import worker_init\nworker_init(os.getppid())\n"
    assert output_of(set_up + PANDAS_DECLINED) == "no pandas\n"


def test_the_paipu_process_runs_without_pandas_and_pyarrow_still_converts() -> None:
    converts = "import pyarrow as pa\nassert pa.array([1, None]).null_count == 1 and pa.table({'a': [1]}).num_rows\n"
    code = "from pipeline import without_pandas\nwithout_pandas()\n" + converts + PANDAS_DECLINED
    assert output_of(code) == "no pandas\n"


FROZEN_AT_EXIT = "import atexit, gc\natexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
"""Code printing, as the process exits (after every exit hook registered later), whether its objects were frozen
(pipeline.exit_without_collecting: the collector's last passes skip them)."""


def test_the_paipu_process_exits_without_the_collectors_last_pass() -> None:
    code = FROZEN_AT_EXIT + "import sys\nfrom pipeline.cli import app\nsys.argv = ['paipu', 'version']\napp()\n"
    assert output_of(code).endswith("frozen True\n")  # `version` exits 0 through SystemExit


def test_a_pool_worker_exits_without_the_collectors_last_pass() -> None:
    code = FROZEN_AT_EXIT + "import os\nfrom pipeline.executors import worker_init\nworker_init(os.getppid())\n"
    assert output_of(code) == "frozen True\n"


def test_a_process_that_is_not_paipus_keeps_its_collector_at_exit() -> None:
    assert output_of(FROZEN_AT_EXIT + "import pipeline.cli, pipeline.executors\n") == "frozen False\n"


@pytest.mark.slow
def test_a_later_process_loads_cached_kernels_without_loading_numbas_compiler(tmp_path: Path) -> None:
    # numba.np.linalg is imported only when numba's target context is refreshed (all its implementations installed)
    code = (
        "import sys, numpy as np; from rules.shanten import shanten; from rules.waits import waits_mask; "
        "c = np.zeros((1, 34), np.int8); c[0, :13] = 1; "
        "print(int(shanten(c)[0]), int(waits_mask(c)[0]), 'numba.np.linalg' in sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "NUMBA_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], [r.stderr for r in runs]
    assert [r.stdout for r in runs] == ["0 4608 True\n", "0 4608 False\n"]  # compiled, then loaded: same values


def test_the_parser_registry_names_every_format_package() -> None:
    assert tuple(PARSERS) == FORMATS
    sources = [importlib.import_module(f"pipeline.sources.{name}").SOURCE for name in FORMATS]
    assert sources == list(FORMATS)


@pytest.mark.parametrize(
    "package",
    ["pipeline.ingest", "pipeline.db", *(f"pipeline.sources.{name}" for name in FORMATS)],
)
def test_every_name_a_package_exports_lazily_is_found(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        assert getattr(module, name) is not None, (package, name)
    assert set(module.__all__) <= set(dir(module))
    with pytest.raises(AttributeError):
        module.no_such_name  # noqa: B018 - the attribute access is the test


def test_the_command_lines_copies_of_defaults_are_the_libraries() -> None:
    assert stats.GROUPINGS == pipeline.statistics.GROUPINGS
    assert writers.DEFAULT_MAX_GAMES == pipeline.compact.DEFAULT_MAX_GAMES
    assert pipeline.store.warehouse.DEFAULT_WAREHOUSE is DEFAULT_WAREHOUSE
