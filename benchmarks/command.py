"""Run one `paipu` command measured as scale.py measures its end-to-end ingest: wall seconds, CPU seconds of the
whole process tree, the peak of the tree's summed RSS and the largest single process's peak.

Run by hand from the repository root (never a test), e.g. re-deriving or compacting a large warehouse::

    python benchmarks/command.py derive --warehouse /tmp/paipu-scale/warehouse-1000000 --workers 2
    python benchmarks/command.py compact --warehouse /tmp/paipu-scale/warehouse-1000000

Prints one JSON object (the command's output goes to --log, default /tmp/paipu-command.log).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load_scale():  # noqa: ANN201 - benchmarks/scale.py as a module
    """Import benchmarks/scale.py (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location("bench_scale", HERE / "scale.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments, run the command measured, print the measurements as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--log", type=Path, default=Path("/tmp/paipu-command.log"), help="the command's output")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments of `paipu`")
    options = parser.parse_args(argv)
    scale = load_scale()
    result = scale.run_measured([scale.paipu_executable(), *options.args], options.log)
    kept = ("command", "returncode", "wall_s", "cpu_s", "peak_tree_rss_mb", "largest_process_mb", "peak_processes")
    print(json.dumps({key: result[key] for key in kept}, indent=1))
    print(result["output"][-1500:], file=sys.stderr)
    sys.exit(result["returncode"])


if __name__ == "__main__":
    main()
