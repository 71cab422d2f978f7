"""The batched training example (cardtable.train.actor_critic) runs end to end on a tiny budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the vector extra is not installed: pip install "
                    "'cardtable[vector]'")

from cardtable.train import actor_critic as train  # noqa: E402


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


def test_the_curve_s_intervals_stay_inside_0_and_1() -> None:
    """#36: a normal interval ran past 1 (and was zero-wide) when nearly every deal was
    won; the arena's paired interval (Wilson's over deals) stays inside [0, 1]."""
    np = pytest.importorskip("numpy")
    from cardtable.arena.ratings import paired_interval

    for scores in (np.ones((50, 2)), np.zeros((50, 2)),
                   np.array([[1.0, 1.0]] * 48 + [[0.5, 0.0], [1.0, 0.5]])):
        point = train.paired(scores)
        assert 0.0 <= point["low"] <= point["score"] <= point["high"] <= 1.0
        assert point["low"] < point["high"]  # honest: not zero-wide when all deals agree
        mean, low, high = paired_interval(scores.mean(axis=1).tolist())
        assert point == {"score": round(mean, 4), "low": round(low, 4),
                         "high": round(high, 4)}


def test_a_learned_policy_moves_only_legally() -> None:
    np = pytest.importorskip("numpy")
    policy = train.Policy(3, 4, np.ones(3))
    policy.w[:] = np.arange(12, dtype=np.float32).reshape(3, 4)
    mask = np.array([[1, 1, 0, 0], [0, 0, 0, 1]], np.int8)
    assert policy.greedy(np.ones((2, 3), np.float32), mask).tolist() == [1, 3]
    logits, _ = policy.forward(np.ones((2, 3), np.float32))
    p = policy.probabilities(logits, mask.astype(bool))
    assert np.allclose(p.sum(axis=1), 1) and (p[mask == 0] == 0).all()


def test_the_hidden_layer_gradient_is_the_derivative_of_the_logits() -> None:
    np = pytest.importorskip("numpy")
    policy = train.Policy(5, 3, np.ones(5), hidden=4, seed=2)
    policy.w[:] = np.random.default_rng(0).standard_normal((4, 3))
    x = np.random.default_rng(1).random((2, 5)).astype(np.float32)
    grad = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]], np.float32)

    def objective() -> float:
        logits, _ = policy.forward(x)
        return float((logits * grad).sum())

    before = objective()
    _, h = policy.forward(x)
    policy.update(x, h, grad, 1e-3)
    assert objective() > before, "a small step along the gradient raises the objective"
