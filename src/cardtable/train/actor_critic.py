"""Train a small Sequence policy with the batched engine, and measure it (docs/training.md).

A linear softmax policy over the observation tensor (523 inputs, 529 action logits, the
illegal ones masked) and a linear value, trained by one-step actor-critic in
``GameVectorEnv`` (Sequence) against the random opponent or (``--opponent self``) against itself,
the opponent's moves sampled from the same policy. Every ``--eval-every`` steps the greedy policy
plays ``--eval-deals`` deals against ``random`` (the batched engine) and ``heuristic-v1``
(the scalar engine and bot), each deal twice with the seats swapped; the score is the mean
over deals (a win 1, a draw 1/2) with its 95% interval paired over deals::

    python -m cardtable.train.actor_critic --steps 20000000 --out curve.json --plot curve.png

NumPy only (``--plot`` needs matplotlib). The curve depends on ``--seed`` alone.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np

import cardtable
from cardtable.arena.ratings import paired_interval
from cardtable.bots import make
from cardtable.encoders import encoder_for
from cardtable.vector.gym import GameVectorEnv
from cardtable.vector.sequence import VectorSequence


class Policy:
    """Masked softmax logits over the 529 actions: ``x @ w`` (``hidden=0``), or through one
    hidden layer of ``hidden`` rectified units; a linear value ``x @ v``."""

    def __init__(self, inputs: int, actions: int, scale: np.ndarray, hidden: int = 0,
                 seed: int = 0) -> None:
        #: each input divided by its maximum, so that every entry is in 0..1
        self.scale = scale.astype(np.float32)
        self.hidden = hidden
        rng = np.random.default_rng(seed)
        self.w1 = (rng.standard_normal((inputs, hidden)) * math.sqrt(2 / inputs)).astype(
            np.float32)
        self.b1 = np.zeros(hidden, np.float32)
        self.w = np.zeros((hidden or inputs, actions), np.float32)
        self.v = np.zeros(inputs, np.float32)

    def features(self, obs: np.ndarray) -> np.ndarray:
        return obs * self.scale

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The logits, and what the last layer reads (the hidden units, or x)."""
        h = np.maximum(x @ self.w1 + self.b1, 0.0) if self.hidden else x
        return h @ self.w, h

    def probabilities(self, logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)

    def sample(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator
               ) -> np.ndarray:
        logits, _ = self.forward(self.features(obs))
        return _sample(self.probabilities(logits, mask.astype(bool)), rng)

    def greedy(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits, _ = self.forward(self.features(obs))
        return np.where(mask.astype(bool), logits, -np.inf).argmax(axis=1)

    def update(self, x: np.ndarray, h: np.ndarray, grad: np.ndarray, lr: float) -> None:
        """Ascend ``grad`` (of the objective by the logits, summed over the rows)."""
        if self.hidden:
            back = (grad @ self.w.T) * (h > 0)
            self.w1 += lr * (x.T @ back)
            self.b1 += lr * back.sum(axis=0)
        self.w += lr * (h.T @ grad)


def train_step(policy: Policy, env: GameVectorEnv, obs: np.ndarray,
               mask: np.ndarray, rng: np.random.Generator, lr: float,
               value_lr: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One move in every game, sampled from the policy, and one actor-critic update."""
    x = policy.features(obs)
    logits, h = policy.forward(x)
    p = policy.probabilities(logits, mask.astype(bool))
    actions = _sample(p, rng)
    obs2, rewards, terminated, truncated, info = env.step(actions)
    ended = terminated | truncated
    value = x @ policy.v
    target = np.where(ended, rewards, policy.features(obs2) @ policy.v).astype(np.float32)
    delta = target - value
    grad = -p
    grad[np.arange(len(p)), actions] += 1.0
    grad *= delta[:, None]
    n = len(p)
    policy.update(x, h, grad, lr / n)
    policy.v += (value_lr / n) * (x.T @ delta)
    return obs2.copy(), info["action_mask"].copy(), rewards * ended


def _sample(p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row drawn from the row's probabilities."""
    draw = rng.random((len(p), 1), dtype=np.float32) * p.sum(axis=1, keepdims=True)
    return (p.cumsum(axis=1) > draw).argmax(axis=1)


def paired(scores: np.ndarray) -> dict[str, float]:
    """Mean score over deals (each the mean of its two seatings) and its 95% interval, the
    arena's paired one (Wilson's over deals: it stays inside [0, 1])."""
    mean, low, high = paired_interval(scores.mean(axis=1).tolist())
    return {"score": round(mean, 4), "low": round(low, 4), "high": round(high, 4)}


def against_random(policy: Policy, deals: int, seed: int) -> dict[str, float]:
    """Each deal twice, the policy in seat 0 then seat 1, against the random opponent."""
    scores = np.zeros((deals, 2))
    for seat in (0, 1):
        env = GameVectorEnv(num_envs=deals, game="sequence", seat=seat, copy=False)
        obs, info = env.reset(seed=seed)
        done = np.zeros(deals, bool)
        while not done.all():
            obs, rewards, terminated, truncated, info = env.step(
                policy.greedy(obs, info["action_mask"]))
            ended = (terminated | truncated) & ~done
            scores[ended, seat] = (rewards[ended] + 1) / 2
            done |= ended
    return paired(scores)


def against_bot(policy: Policy, kind: str, deals: int, seed: int) -> dict[str, float]:
    """Each deal twice with the seats swapped against a scalar bot (``heuristic-v1``)."""
    game = cardtable.new_game("sequence")
    enc = encoder_for(game)
    scores = np.zeros((deals, 2))
    for d in range(deals):
        for seat in (0, 1):
            state = game.deal(seed + d)
            bot = make(kind, seed=seed + d)
            while not state.is_terminal:
                if state.current_player == seat:
                    mask = np.zeros((1, game.num_distinct_actions), bool)
                    mask[0, [a.id for a in state.legal_actions()]] = True
                    state.apply(int(policy.greedy(enc.encode(state, seat)[None], mask)[0]))
                else:
                    state.apply(bot.choose(state))
            scores[d, seat] = (state.returns()[seat] + 1) / 2
    return paired(scores)


def train(steps: int, envs: int, eval_every: int, eval_deals: int, bot_deals: int, seed: int,
          lr: float, value_lr: float, opponent: str = "random", hidden: int = 0
          ) -> list[dict[str, Any]]:
    engine = VectorSequence()
    policy = Policy(engine.obs_size, engine.num_actions,
                    1.0 / np.maximum(engine.encoder.high, 1.0), hidden, seed)
    rng = np.random.default_rng(seed)
    env = GameVectorEnv(num_envs=envs, game="sequence", copy=False,
                        opponents="random" if opponent == "random"
                        else lambda obs, mask: policy.sample(obs, mask, rng))
    obs, info = env.reset(seed=seed)
    obs, mask = obs.copy(), info["action_mask"].copy()
    curve: list[dict[str, Any]] = []
    done = 0
    start = time.perf_counter()
    wins = games = 0.0

    def evaluate() -> None:
        point = {"steps": done, "seconds": round(time.perf_counter() - start, 1),
                 "training_score": round(wins / games, 4) if games else None,
                 "random": against_random(policy, eval_deals, seed + 1),
                 "heuristic-v1": against_bot(policy, "heuristic-v1", bot_deals, seed + 2)}
        curve.append(point)
        print(json.dumps(point), flush=True)

    evaluate()
    while done < steps:
        obs, mask, results = train_step(policy, env, obs, mask, rng, lr, value_lr)
        ended = results != 0
        wins += float(((results[ended] + 1) / 2).sum())
        games += float(ended.sum())
        done += envs
        if done // eval_every != (done - envs) // eval_every or done >= steps:
            evaluate()
            wins = games = 0.0
    return curve


def plot(curve: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    x = [p["steps"] / 1e6 for p in curve]
    for name in ("random", "heuristic-v1"):
        ax.errorbar(x, [p[name]["score"] for p in curve],
                    yerr=[[p[name]["score"] - p[name]["low"] for p in curve],
                          [p[name]["high"] - p[name]["score"] for p in curve]],
                    marker="o", capsize=3, label=f"against {name}")
    ax.axhline(0.5, color="grey", linewidth=0.8)
    ax.set_xlabel("training steps (millions, learner moves)")
    ax.set_ylabel("score on paired deals (win 1, draw 1/2)")
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=20_000_000)
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--eval-every", type=int, default=2_000_000)
    parser.add_argument("--eval-deals", type=int, default=1000, help="against random")
    parser.add_argument("--bot-deals", type=int, default=200, help="against heuristic-v1")
    parser.add_argument("--opponent", choices=("random", "self"), default="random",
                        help="whom the policy trains against")
    parser.add_argument("--hidden", type=int, default=0,
                        help="rectified hidden units (0: a linear policy)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lr", type=float, default=0.5)
    parser.add_argument("--value-lr", type=float, default=0.05)
    parser.add_argument("--out", type=Path, help="the curve as JSON")
    parser.add_argument("--plot", type=Path, help="the curve as a PNG (matplotlib)")
    args = parser.parse_args(argv)
    if args.hidden < 0:
        parser.error("--hidden must be 0 or more")
    for name in ("steps", "envs", "eval_every", "eval_deals", "bot_deals"):
        if getattr(args, name) < (2 if name.endswith("deals") else 1):
            parser.error(f"--{name.replace('_', '-')} is too small")
    curve = train(args.steps, args.envs, args.eval_every, args.eval_deals, args.bot_deals,
                  args.seed, args.lr, args.value_lr, args.opponent, args.hidden)
    if args.out:
        args.out.write_text(json.dumps(curve, indent=1) + "\n", encoding="utf-8")
    if args.plot:
        plot(curve, args.plot)


if __name__ == "__main__":
    main()
