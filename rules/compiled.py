"""The compiled core's decorator: numba kernels, compiled once per user and kept in an on-disk cache.

Kernels are plain Python source decorated with ``@njit``: numba compiles each the first time a process calls it
with new argument types and keeps the machine code in its cache (``cache=True``), so later processes load it
instead. The cache lives where a read-only or site-packages install can write: ``NUMBA_CACHE_DIR`` when the user
set it, else ``$XDG_CACHE_HOME/paipu/numba`` (``~/.cache/paipu/numba`` without XDG_CACHE_HOME). numba caches
per source file and checks the file's time stamp: an edited kernel is compiled again.

numba itself (about 0.3 s to import) is imported only when a kernel is first called, not when ``rules`` is
imported: processes that never run a kernel (``paipu sql``, ``paipu schema``...) do not pay for it. Kernels may
call each other: at the first call every kernel declared so far gets its numba dispatcher, which also replaces
the kernel wherever a kernel's module names it (the numba compiler looks callees up there). Only what a process
calls is compiled (or loaded): a dispatcher costs nothing until its first call.

What the first run costs (benchmarks/compile_time.py measures it, kernel by kernel) is kept down by compiling each
kernel once per argument types: a callee's constant arguments are not compiled as literals (see _dispatcher_class),
and the callers pass one dtype and layout per argument (int64 indexes and classes, writable contiguous arrays: a
read-only or non-contiguous array is another signature, compiled again). A first run also compiles the kernels a
command will call before it starts, on every idle core at once (pipeline.precompile, with kernel_named,
argument_types, is_cached and compile_for here; recorded_calls lists what a run calls from Python).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

CACHE_ENV = "NUMBA_CACHE_DIR"
"""numba's own setting for where its cache lives."""


SOURCE_ROOT = Path(__file__).resolve().parent.parent
"""The folder holding the packages whose source the kernels are compiled from (rules/ and pipeline/)."""

KERNEL_PACKAGES = ("rules", "pipeline")
"""The packages whose Python files stamp the cache folder (kernels are declared in both)."""


def default_cache_dir() -> Path:
    """The per-user cache folder of paipu's kernels: $XDG_CACHE_HOME/paipu/numba/<stamp> (~/.cache without
    XDG_CACHE_HOME), the stamp a digest of source_stamps(): numba checks only the time stamp of a kernel's own
    file, so machine code with a callee from another file inlined would outlive an edit (or an upgrade) of that
    callee; a new folder for every change of the source keeps it from being loaded."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "paipu" / "numba" / source_stamp()


@functools.cache
def source_stamp() -> str:
    """A short digest of the path, size and modification time of every Python file of KERNEL_PACKAGES (~1 ms:
    file stats, nothing read)."""
    digest = hashlib.blake2b(digest_size=8)
    for package in KERNEL_PACKAGES:
        for path in sorted((SOURCE_ROOT / package).rglob("*.py")):
            stat = path.stat()
            digest.update(f"{path.relative_to(SOURCE_ROOT)}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def configure_cache() -> str:
    """Point numba's cache at default_cache_dir() unless the user chose one (NUMBA_CACHE_DIR); return the folder."""
    os.environ.setdefault(CACHE_ENV, str(default_cache_dir()))
    if "numba" in sys.modules:  # imported before us: make it read the variable again
        from numba.core import config

        config.reload_config()
    return os.environ[CACHE_ENV]


class Kernel:
    """A function to be compiled by numba at its first call (see the module docstring)."""

    def __init__(self, function: Callable[..., Any], options: dict[str, Any] | None = None) -> None:
        self.function = function
        self.options = options or {}
        self.dispatcher: Callable[..., Any] | None = None
        functools.update_wrapper(self, function)

    def __call__(self, *args: Any) -> Any:
        """Run the compiled kernel (compiling or loading every declared kernel first, once per process)."""
        if self.dispatcher is None:
            compile_all()
        return self.dispatcher(*args)  # type: ignore[misc]


KERNEL_OPTIONS: dict[str, Any] = {"nopython": True, "nogil": True, "no_cfunc_wrapper": True}
"""numba's options for every kernel (a kernel's own njit options override them). No cfunc wrapper: a kernel is never
passed as a first-class function, and the wrapper is compiled (and kept in memory) for every signature otherwise."""

_KERNELS: list[Kernel] = []
"""Every kernel declared, in declaration order."""

_RECORDED: set[tuple[str, str]] | None = None
"""While recorded_calls runs: every kernel called from Python for types not seen yet in this process."""

_LOCK = threading.Lock()
"""Held while dispatchers are created (kernels release the GIL: threads may call their first ones at once)."""


def njit(function: Callable[..., Any] | None = None, **options: Any) -> Any:
    """Declare a numba kernel: ``numba.njit(cache=True, **KERNEL_OPTIONS, **options)``, its dispatcher created at the
    first call of any kernel. ``@njit`` or ``@njit(option=value...)`` (numba's jit options, e.g. ``error_model``)."""

    def declare(function: Callable[..., Any]) -> Kernel:
        kernel = Kernel(function, options)
        _KERNELS.append(kernel)
        return kernel

    return declare if function is None else declare(function)


@functools.cache
def _dispatcher_class() -> type:
    """numba's CPU dispatcher, except that a kernel called from a kernel is compiled for the arguments' plain types.

    numba types a constant argument of a call inside compiled code as a literal (``Literal[int](0)``) and compiles
    the callee once per distinct literal combination (the same kernel up to eight times, and every caller links and
    optimises each copy again); here such a call is resolved with the literals made plain (int64, bool...), so each
    kernel compiles once per argument types, the version a call from Python uses too. The values computed are the
    same: a literal only lets LLVM fold the constant in.

    Its cache loads a kernel's machine code without loading numba's compiler first (see _loading_cache_class).
    """
    from numba.core import registry, types

    cache_class = _loading_cache_class()

    class Dispatcher(registry.CPUDispatcher):
        def _compile_for_args(self, *args: Any, **kws: Any) -> Any:  # a call from Python, types not seen yet
            if _RECORDED is not None:
                _record_call(self, args)
            return super()._compile_for_args(*args, **kws)

        def get_call_template(self, args: tuple, kws: dict) -> tuple:
            plain = tuple(types.unliteral(a) for a in args)
            return super().get_call_template(plain, {k: types.unliteral(v) for k, v in kws.items()})

        def enable_caching(self) -> None:
            self._cache = cache_class(self.py_func)

    return Dispatcher


def _loading_cache_class() -> type:
    """numba's on-disk cache of a kernel, except that loading a kernel from it does not refresh numba's target
    context first.

    numba refreshes the context before every load: the first refresh of a process installs every implementation
    numba's compiler has (its numpy, math and random functions, importing their modules: ~0.2 CPU s of a warm
    ingest's ~0.3 s of kernel loading). Machine code loaded from the cache needs none of them, only the symbols it
    links to: numba's runtime (initialised here), the C helpers and math functions (put in LLVM's table when the
    context is created) and the hash secret (when numba.cpython.hashing is imported: here). A compile (a signature
    not in the cache, a kernel edited) refreshes the context itself before it starts.
    """
    from numba.core import caching
    from numba.core.runtime import rtsys
    from numba.cpython import hashing  # noqa: F401 - puts the hash secret's symbols in LLVM's table

    class LoadingCache(caching.FunctionCache):
        def load_overload(self, sig: Any, target_context: Any) -> Any:
            rtsys.initialize(target_context)  # numba's runtime (memory management), which loaded code calls
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)

    return LoadingCache


def compile_all() -> None:
    """Give every declared kernel its numba dispatcher (compiled lazily per argument types, from the cache)."""
    configure_cache()
    dispatcher_class = _dispatcher_class()  # imports numba
    with _LOCK:
        for kernel in _KERNELS:
            if kernel.dispatcher is None:
                kernel.dispatcher = dispatcher_class(
                    py_func=kernel.function,
                    locals={},
                    targetoptions={**KERNEL_OPTIONS, **kernel.options},
                )
                kernel.dispatcher.enable_caching()
        # the numba compiler looks a kernel's callees up in its module: there it must find dispatchers, not Kernels
        for kernel in _KERNELS:
            names = kernel.function.__globals__
            for name, value in list(names.items()):
                if isinstance(value, Kernel) and value.dispatcher is not None:
                    names[name] = value.dispatcher


def kernel_named(name: str) -> Kernel:
    """The kernel ``module:qualname`` (its module imported); KeyError when that module declares no such kernel."""
    module, _, qualname = name.partition(":")
    importlib.import_module(module)
    for kernel in _KERNELS:
        if (kernel.function.__module__, kernel.function.__qualname__) == (module, qualname):
            return kernel
    raise KeyError(f"no kernel {name}")


def kernel_name(kernel: Kernel) -> str:
    """A kernel's ``module:qualname`` (what kernel_named finds it by)."""
    return f"{kernel.function.__module__}:{kernel.function.__qualname__}"


def argument_types(text: str) -> tuple:
    """numba's argument types written as their ``repr`` (what types_text gives): ``(Array(int64, 1, 'C', False,
    aligned=True), int64)``. Imports numba."""
    from numba.core import types

    names = {name: getattr(types, name) for name in dir(types) if not name.startswith("_")}
    parsed = eval(text, {"__builtins__": {}}, names)  # noqa: S307 - paipu's own signature list, numba's names only
    return tuple(parsed)


def types_text(argument_types: tuple) -> str:
    """The text of a kernel's argument types that argument_types reads back."""
    return repr(tuple(argument_types))


def _record_call(dispatcher: Any, args: tuple) -> None:
    """Note a call from Python (module:qualname, its argument types' text) while recorded_calls runs."""
    try:
        types = types_text(tuple(dispatcher.typeof_pyval(arg) for arg in args))
    except Exception:  # noqa: BLE001 - numba then raises its own error for the call
        return
    if _RECORDED is not None:
        _RECORDED.add((f"{dispatcher.py_func.__module__}:{dispatcher.py_func.__qualname__}", types))


@contextlib.contextmanager
def recorded_calls() -> Iterator[set[tuple[str, str]]]:
    """Record, while in the block, every kernel called from Python (not from another kernel) with its argument
    types' text, ``(module:qualname, types)``, for types this process had not called it with before (run it in a
    fresh process to see every call)."""
    global _RECORDED
    calls: set[tuple[str, str]] = set()
    _RECORDED = calls
    try:
        yield calls
    finally:
        _RECORDED = None


def is_cached(kernel: Kernel, argument_types: tuple) -> bool:
    """Whether numba's cache holds ``kernel`` compiled for ``argument_types`` from its current source (a cheap look
    at the cache's index; the machine code is not loaded)."""
    if kernel.dispatcher is None:
        compile_all()
    dispatcher: Any = kernel.dispatcher
    cache = dispatcher._cache
    key = cache._index_key(tuple(argument_types), dispatcher.targetctx.codegen())
    return key in cache._cache_file._load_index()


def compile_for(kernel: Kernel, argument_types: tuple) -> None:
    """Compile ``kernel`` for ``argument_types`` now, or load it from the cache when it is there (it is saved there
    when compiled: other processes then load it)."""
    if kernel.dispatcher is None:
        compile_all()
    kernel.dispatcher.compile(tuple(argument_types))  # type: ignore[union-attr]
