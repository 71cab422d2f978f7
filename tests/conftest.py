"""What a plain ``python -m pytest`` left out: at the end of the run, the skipped tests
grouped by folder and reason (tests/needs.py says when a missing program skips). And
every test's own event loop: Playwright's sync API (tests/web's session browser) leaves
its loop marked running in the worker's main thread, where ``asyncio.run`` in any later
test of that worker would refuse to start. And, before the workers of a parallel run
start, the numba kernels compiled once (``cardtable.vector.warm``), one process a game,
rather than by every worker that meets them side by side on a fresh clone. And one thread
a worker for XLA and BLAS."""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

# one thread a worker for XLA (the JAX ports' tests) and BLAS: the workers are the
# parallelism, and each library's own pool on top of them oversubscribes the cores
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false "
                                   "intra_op_parallelism_threads=1")
for _variable in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")


@pytest.fixture(autouse=True)
def no_running_loop_left_by_playwright(request: pytest.FixtureRequest) -> Iterator[None]:
    """Outside tests/web, a test runs with no event loop marked running (the browser's is
    put back after it): under xdist any test may follow a browser test in its worker."""
    left = asyncio._get_running_loop()
    if left is None or "browser" in request.fixturenames:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(left)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    workers = getattr(config.option, "numprocesses", None) or 0
    if hasattr(config, "workerinput") or not isinstance(workers, int) or workers < 2:
        return
    try:
        from cardtable.vector.warm import warm_in_parallel
    except ImportError:  # the vector extra is not installed
        return
    seconds = warm_in_parallel()
    config.get_terminal_writer().line(f"numba kernels compiled or loaded in {seconds:.0f} s")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    groups: Counter[tuple[str, str]] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        where, reason = Path(report.nodeid.split("::")[0]).parent.as_posix(), "skipped"
        if isinstance(report.longrepr, tuple):
            reason = str(report.longrepr[2]).removeprefix("Skipped: ")
        groups[(where, reason)] += 1
    if not groups:
        return
    terminalreporter.section("skipped groups")
    for (where, reason), count in sorted(groups.items()):
        terminalreporter.write_line(f"{count:5} in {where}/: {reason}")
