"""The in-process baseline the speed benchmarks share: a bare Python loop's floor.

Figures measured on a busy or unknown machine compare across machines as a ratio to it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable


def choice_call_seconds(calls: int = 100_000,
                        clock: Callable[[], float] = time.perf_counter) -> float:
    """Seconds per ``rng.choice`` call on a 20-item list, timed now, in this process, on
    ``clock`` (the benchmark's own: elapsed time, or the thread's CPU time)."""
    rng, items = random.Random(0), list(range(20))
    start = clock()
    for _ in range(calls):
        rng.choice(items)
    return (clock() - start) / calls
