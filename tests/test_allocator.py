"""The allocator setting every batch runs under (pipeline.allocator)."""

from __future__ import annotations

import platform
import sys

import numpy as np
import pytest

from pipeline.allocator import keep_freed_memory


@pytest.mark.skipif(
    sys.platform != "linux" or platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's (Linux) alone"
)
def test_glibc_takes_the_thresholds_and_memory_still_works() -> None:
    assert keep_freed_memory() is True
    assert keep_freed_memory() is True  # once per process, then cached
    big = np.ones(64 << 20, dtype=np.uint8)  # 64 MiB: below the new threshold, from the heap
    assert int(big.sum()) == 64 << 20
