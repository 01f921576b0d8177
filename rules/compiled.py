"""The compiled core's decorator: numba kernels, compiled once per user and kept in an on-disk cache.

Kernels are plain Python source decorated with ``@njit``: numba compiles each the first time a process calls it
with new argument types and keeps the machine code in its cache (``cache=True``), so later processes load it
instead. The cache lives where a read-only or site-packages install can write: ``NUMBA_CACHE_DIR`` when the user
set it, else ``$XDG_CACHE_HOME/paipu/numba`` (``~/.cache/paipu/numba`` without XDG_CACHE_HOME). numba caches
per source file and checks the file's time stamp: an edited kernel is compiled again.

numba itself (about 0.3 s to import) is imported only when a kernel is first called, not when ``rules`` is
imported: processes that never run a kernel (``paipu sql``, ``paipu schema``...) do not pay for it. Kernels may
call each other: at the first call every kernel declared so far gets its numba dispatcher, which also replaces
the kernel wherever a kernel's module names it (the numba compiler looks callees up there).
"""

from __future__ import annotations

import functools
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

CACHE_ENV = "NUMBA_CACHE_DIR"
"""numba's own setting for where its cache lives."""


def default_cache_dir() -> Path:
    """The per-user cache folder of paipu's kernels: $XDG_CACHE_HOME/paipu/numba or ~/.cache/paipu/numba."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "paipu" / "numba"


def configure_cache() -> str:
    """Point numba's cache at default_cache_dir() unless the user chose one (NUMBA_CACHE_DIR); return the folder."""
    os.environ.setdefault(CACHE_ENV, str(default_cache_dir()))
    if "numba" in sys.modules:  # imported before us: make it read the variable again
        from numba.core import config

        config.reload_config()
    return os.environ[CACHE_ENV]


class Kernel:
    """A function to be compiled by numba at its first call (see the module docstring)."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.dispatcher: Callable[..., Any] | None = None
        functools.update_wrapper(self, function)

    def __call__(self, *args: Any) -> Any:
        """Run the compiled kernel (compiling or loading every declared kernel first, once per process)."""
        if self.dispatcher is None:
            compile_all()
        return self.dispatcher(*args)  # type: ignore[misc]


_KERNELS: list[Kernel] = []
"""Every kernel declared, in declaration order."""

_LOCK = threading.Lock()
"""Held while dispatchers are created (kernels release the GIL: threads may call their first ones at once)."""


def njit(function: Callable[..., Any]) -> Kernel:
    """Declare a numba kernel: ``numba.njit(cache=True, nogil=True)``, created at the first call of any kernel."""
    kernel = Kernel(function)
    _KERNELS.append(kernel)
    return kernel


def compile_all() -> None:
    """Give every declared kernel its numba dispatcher (compiled lazily per argument types, from the cache)."""
    configure_cache()
    import numba

    with _LOCK:
        for kernel in _KERNELS:
            if kernel.dispatcher is None:
                kernel.dispatcher = numba.njit(cache=True, nogil=True)(kernel.function)
        # the numba compiler looks a kernel's callees up in its module: there it must find dispatchers, not Kernels
        for kernel in _KERNELS:
            names = kernel.function.__globals__
            for name, value in list(names.items()):
                if isinstance(value, Kernel) and value.dispatcher is not None:
                    names[name] = value.dispatcher
