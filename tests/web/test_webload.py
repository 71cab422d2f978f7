"""bench/webload.py on a tiny budget: the page's weight and its time to an interactive
table, beside the run's baseline, against the tests' running server."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_page_weight_bench_runs(server: str, browser: object) -> None:
    # (``browser``: the fixture that skips, or fails under .ci/run, without chromium)
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "webload.py"), server,
                          "--loads", "1"], capture_output=True, text=True, timeout=300,
                         check=True).stdout
    assert re.search(r"^baseline .*: \d+ ms median$", out, re.M), out
    for what in ("lobby", "lobby-km", "table"):
        line = re.search(rf"^{what}: (\d+) bytes; to interactive (\d+) ms .* ([\d.]+)x the "
                         "baseline$", out, re.M)
        assert line and int(line[1]) > 10_000, out
