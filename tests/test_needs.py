"""The one skip rule (tests/needs.py): a missing program skips a test on a developer's
machine, listed at the end of the run, and fails it under .ci/run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.needs import CI_VARIABLE

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.parametrize("ci", [False, True], ids=["developer", "ci-run"])
def test_a_missing_program_skips_or_fails_under_ci_run(ci: bool, tmp_path: Path) -> None:
    (tmp_path / "test_needy.py").write_text(
        "from tests.needs import missing\n\n\n"
        "def test_needy() -> None:\n"
        "    missing('chromium', 'the browser tests')\n")
    env = {k: v for k, v in os.environ.items() if k != CI_VARIABLE}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    if ci:
        env[CI_VARIABLE] = "1"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider",
         "-o", "addopts=", "--rootdir", str(tmp_path), "test_needy.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    if ci:
        assert run.returncode == 1, run.stdout
        assert "1 failed" in run.stdout and "missing under .ci/run" in run.stdout
    else:
        assert run.returncode == 0, run.stdout
        summary = run.stdout.split("skipped groups")[1]
        assert "1 in ./: chromium is not installed (the browser tests)" in summary
