"""paipu's pipeline: parsers, the Parquet warehouse, DuckDB SQL and the CLI (everything with I/O).

A process imports what it uses: a package's ``__init__`` names what it exports and the module each comes from
(``lazy_exports``), and that module is imported when the name is first read, so ``paipu schema`` does not load
the parsers and an ingest of Tenhou XML does not load the other formats' readers.
"""

from __future__ import annotations

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
