"""Timing a piece of work for the benchmarks: each run's wall time, the least disturbed or the
typical one as a figure."""

from __future__ import annotations

import time
from collections.abc import Callable


def timings(work: Callable[[], object], runs: int) -> list[float]:
    """The wall time of each of `runs` calls of `work()`, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times


def best_of(runs: int, work: Callable[[], object]) -> float:
    """The fastest of `runs` timings of `work()`, in seconds: the least disturbed one."""
    return min(timings(work, runs))
