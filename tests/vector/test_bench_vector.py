"""bench/vector.py runs end to end on a tiny budget."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")

BENCH = Path(__file__).resolve().parents[2] / "bench" / "vector.py"


def test_the_vector_bench_reports_every_batch_size_beside_the_scalar_engine() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH), "--sizes", "1", "16", "--seconds", "0.05", "--runs", "1",
         "--gym-envs", "8", "--json"],
        capture_output=True, text=True, check=True, timeout=600)
    report = json.loads(out.stdout)
    assert [r["batch"] for r in report["batches"]] == [1, 16]
    assert report["scalar_steps_per_s"] > 0 and report["gym_env_steps_per_s"] > 0
    for row in report["batches"]:
        assert row["engine_steps_per_s"] > 0 and row["learner_steps_per_s"] > 0
        assert row["engine_x_scalar"] > 0
    assert report["memory_per_game"]["state_bytes"] > 0
