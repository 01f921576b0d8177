"""paipu's pipeline: parsers, the Parquet warehouse, DuckDB SQL and the CLI (everything with I/O).

A process imports what it uses: a package's ``__init__`` names what it exports and the module each comes from
(``lazy_exports``), and that module is imported when the name is first read, so ``paipu schema`` does not load
the parsers and an ingest of Tenhou XML does not load the other formats' readers.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import sys
from collections.abc import Callable
from typing import Any

__version__ = "0.1.0"


def lazy_exports(package: str, exports: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` (PEP 562) for ``exports`` (name -> the module defining it):
    a name read from the package imports its module then, and is kept in the package (read once)."""

    def __getattr__(name: str) -> Any:
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(exports[name]), name)
        setattr(sys.modules[package], name, value)  # later reads find it without coming here
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *exports})

    return __getattr__, __dir__


class _NoPandas:
    """A meta path finder that answers ``import pandas`` (and its submodules) as when pandas is not installed."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        """Raise ModuleNotFoundError for pandas and its submodules; None (ask the next finder) for any other."""
        if name.partition(".")[0] == "pandas":
            raise ModuleNotFoundError(f"No module named {name!r} (the paipu command line does not load it)")


def without_pandas() -> None:
    """Make pandas unimportable in this process, unless it is already imported: pyarrow imports it (~0.4 CPU s)
    at its first conversion of any values, only to ask whether they are pandas objects, and no command uses pandas
    (pipeline.api does, in a notebook's process)."""
    if "pandas" not in sys.modules and not any(isinstance(f, _NoPandas) for f in sys.meta_path):
        sys.meta_path.insert(0, _NoPandas())


def exit_without_collecting() -> None:
    """Let this process exit without the cyclic collector's last pass over every object it holds: at exit,
    everything alive is frozen (gc.freeze), so the interpreter's final collections skip it. A command's process
    holds numba's and pyarrow's many objects; that pass cost ~0.1-0.2 s of every ``paipu`` command and of every
    worker's exit. Nothing is lost: the commands close their files and connections themselves, and objects are
    still released as the modules are torn down. For the ``paipu`` process and its workers (not a notebook's or
    a test's process, whose collector must keep working)."""
    atexit.register(gc.freeze)
