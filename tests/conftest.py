"""What a plain ``python -m pytest`` left out: at the end of the run, the skipped tests
grouped by folder and reason (tests/needs.py says when a missing program skips)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest


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
