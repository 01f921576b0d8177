"""Keep the memory a batch frees for the next batch instead of handing it back to the kernel (glibc malloc).

numpy asks malloc for every array. glibc serves the big ones (from 128 KiB, adaptively up to 32 MiB) with
their own memory mappings and gives freed memory back to the kernel, so every batch of an ingest or a derive
touches fresh pages again: page faults and zero-filling cost up to a tenth of the CPU time (measured: minor
faults 90k -> 10k and ~10% less CPU per game on a 4,000-game ingest; see benchmarks/README.md). Raising
the two thresholds keeps that memory in the process for reuse; the peak stays what the largest batch needs.
"""

from __future__ import annotations

import ctypes
from functools import cache

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
"""mallopt parameter numbers (glibc's malloc.h)."""
MMAP_THRESHOLD = 256 << 20
"""Allocations below this come from the heap, where freed memory is reused."""
TRIM_THRESHOLD = 1 << 30
"""Free memory at the heap's top is given back to the kernel only beyond this."""


@cache
def keep_freed_memory() -> bool:
    """Set glibc malloc's mmap and trim thresholds, once per process; returns whether they were set (False
    where the C library has no ``mallopt``: macOS, Windows, musl)."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
