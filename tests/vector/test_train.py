"""The batched training example (cardtable.vector.train) runs end to end on a tiny budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")

from cardtable.vector import train  # noqa: E402


def test_training_writes_a_curve_with_paired_intervals(tmp_path: Path) -> None:
    out = tmp_path / "curve.json"
    train.main(["--steps", "256", "--envs", "64", "--eval-every", "128", "--eval-deals", "6",
                "--bot-deals", "2", "--out", str(out)])
    curve = json.loads(out.read_text(encoding="utf-8"))
    assert [p["steps"] for p in curve] == [0, 128, 256]
    for point in curve:
        for name in ("random", "heuristic-v1"):
            r = point[name]
            assert 0.0 <= r["score"] <= 1.0 and r["low"] <= r["score"] <= r["high"]


def test_a_learned_policy_moves_only_legally() -> None:
    np = pytest.importorskip("numpy")
    policy = train.LinearPolicy(3, 4, np.ones(3))
    policy.w[:] = np.arange(12, dtype=np.float32).reshape(3, 4)
    mask = np.array([[1, 1, 0, 0], [0, 0, 0, 1]], np.int8)
    assert policy.greedy(np.ones((2, 3), np.float32), mask).tolist() == [1, 3]
    p = policy.probabilities(np.ones((2, 3), np.float32), mask.astype(bool))
    assert np.allclose(p.sum(axis=1), 1) and (p[mask == 0] == 0).all()
