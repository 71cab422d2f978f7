"""What a plain ``python -m pytest`` left out: at the end of the run, the skipped tests
grouped by folder and reason (tests/needs.py says when a missing program skips). And
every test's own event loop: Playwright's sync API (tests/web's session browser) leaves
its loop marked running in the worker's main thread, where ``asyncio.run`` in any later
test of that worker would refuse to start."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest


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
