"""Learn the weights of the learned Sequence bot (``cardtable.bots.sequence_learned``).

The weights start as the heuristic's scoring and are improved by an evolution strategy
whose fitness is the win rate against the frozen yardstick ``heuristic-v1`` on mirrored
deals: every generation draws fresh deals, plays each pair of mirrored perturbations
(weights moved by +e and -e) on the same deals, and steps along the perturbations in
proportion to how much better the + side scored than the - side. The result depends on
the seed only (not on the number of worker processes)::

    python -m cardtable.train.evolve --seed 1 --out stage1.json
    python -m cardtable.train.evolve --seed 2 --generations 12 --start stage1.json \
        --out src/cardtable/bots/data/sequence_weights.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import cardtable
from cardtable.bots.base import HeuristicBot
from cardtable.bots.sequence_learned import FEATURES, HEURISTIC_WEIGHTS, LearnedSequenceBot

#: how far one unit of a parameter moves each weight: the heuristic's weights
#: multiplicatively (exp of the parameter), the new features additively by their scale
SCALES = {"build_safe": 30.0, "block_safe": 30.0, "support2": 2.0, "support3": 10.0,
          "support4": 50.0, "fork": 100.0}
#: where the search starts: hand-set guesses, each measured alone against heuristic-v1 on
#: the same 500 deals (docs/bots.md): weaker blocks of windows not yet at four, a one-eyed
#: jack kept for a four, cards in hand that fill the windows built, less haste on a cell
#: the opponent cannot reach
START = {"block1": -0.69, "block2": -0.69, "block3": -0.69, "one_eyed_spent": 0.8,
         "support2": 0.5, "support3": 0.5, "support4": 0.8, "build_safe": -1.0,
         "block_safe": -1.0}
#: a game that runs this long is stopped and counted as a draw
MAX_ACTIONS = 1000


def weights_of(theta: Sequence[float]) -> list[float]:
    """The bot's weights for the parameters ``theta`` (all zero: the heuristic)."""
    out = []
    for name, base, t in zip(FEATURES, HEURISTIC_WEIGHTS, theta, strict=True):
        out.append(base + SCALES[name] * t if name in SCALES else base * math.exp(t))
    return out


def theta_of(weights: dict[str, float]) -> list[float]:
    """The parameters of ``weights`` (the inverse of ``weights_of``)."""
    out = []
    for name, base in zip(FEATURES, HEURISTIC_WEIGHTS, strict=True):
        w = weights[name]
        out.append((w - base) / SCALES[name] if name in SCALES else math.log(w / base))
    return out


def play_deal(args: tuple[Sequence[float], int, int]) -> float:
    """The learned bot's score (win 1, draw 0.5) over both seatings of one deal: 0..2."""
    weights, deal_seed, bot_seed = args
    game = cardtable.new_game("sequence")
    total = 0.0
    for learned_seat in (0, 1):
        state = game.deal(seed=deal_seed)
        bots: dict[int, Any] = {
            learned_seat: LearnedSequenceBot(bot_seed, weights),
            1 - learned_seat: HeuristicBot(bot_seed + 1, "heuristic-v1"),
        }
        actions = 0
        while not state.is_terminal and actions < MAX_ACTIONS:
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].choose(state))
            actions += 1
        winners = state.winners
        total += 1.0 if learned_seat in winners else 0.5 if not winners else 0.0
    return total


def win_rate(pool: ProcessPoolExecutor | None, weights: Sequence[float],
             deals: Sequence[tuple[int, int]]) -> float:
    """The learned bot's win rate against heuristic-v1 over ``deals`` (each played twice)."""
    jobs = [(list(weights), d, b) for d, b in deals]
    results = pool.map(play_deal, jobs, chunksize=8) if pool else map(play_deal, jobs)
    return sum(results) / (2 * len(deals))


def train(seed: int, generations: int, deals: int, pairs: int, sigma: float, step: float,
          workers: int, log: Any = None, start: list[float] | None = None) -> list[float]:
    """Parameters after ``generations`` steps of the evolution strategy (see the module),
    from ``start`` (default: START)."""
    rng = random.Random(f"train-sequence-{seed}")
    theta = list(start) if start is not None else [START.get(name, 0.0) for name in FEATURES]
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        for gen in range(generations):
            batch = [(rng.getrandbits(62), rng.getrandbits(62)) for _ in range(deals)]
            gains = []
            noise = []
            for _ in range(pairs):
                eps = [rng.gauss(0.0, 1.0) for _ in theta]
                up = [t + sigma * e for t, e in zip(theta, eps, strict=True)]
                down = [t - sigma * e for t, e in zip(theta, eps, strict=True)]
                gains.append((win_rate(pool, weights_of(up), batch),
                              win_rate(pool, weights_of(down), batch)))
                noise.append(eps)
            # each pair's gain in units of the generation's spread of gains
            diffs = [p - m for p, m in gains]
            spread = math.sqrt(sum(d * d for d in diffs) / len(diffs)) or 1.0
            theta = [t + step * sum(d / spread * eps[i]
                                    for d, eps in zip(diffs, noise, strict=True)) / pairs
                     for i, t in enumerate(theta)]
            if log is not None:
                mean = sum(p + m for p, m in gains) / (2 * pairs)
                print(f"generation {gen + 1}: mean win rate {mean:.3f} "
                      + " ".join(f"{p:.3f}/{m:.3f}" for p, m in gains)
                      + " theta " + json.dumps([round(t, 3) for t in theta]),
                      file=log, flush=True)
    finally:
        if pool is not None:
            pool.shutdown()
    return theta


def evaluate(path: str, seed: int, deals: int, workers: int) -> int:
    """Print the win rate of the weights in ``path`` against heuristic-v1 on ``deals`` deals
    drawn from ``random.Random(seed)`` (the development sets of docs/bots.md)."""
    with open(path) as fh:
        named = json.load(fh)["weights"]
    rng = random.Random(seed)
    batch = [(rng.getrandbits(62), rng.getrandbits(62)) for _ in range(deals)]
    with ProcessPoolExecutor(workers) as pool:
        rate = win_rate(pool, [float(named[name]) for name in FEATURES], batch)
    print(f"{rate:.4f} of {2 * deals} games")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--generations", type=int, default=15)
    parser.add_argument("--deals", type=int, default=150, help="deals per generation")
    parser.add_argument("--pairs", type=int, default=6, help="mirrored perturbations a generation")
    parser.add_argument("--sigma", type=float, default=0.3)
    parser.add_argument("--step", type=float, default=0.1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--start", help="a weights file (JSON) to start from; default: START")
    parser.add_argument("--out", help="write the weights here (JSON); default: print them")
    parser.add_argument("--evaluate", metavar="WEIGHTS",
                        help="train nothing: print the win rate of the weights in this file "
                             "(JSON) against heuristic-v1 on --deals deals of --seed")
    args = parser.parse_args(argv)
    if args.evaluate:
        return evaluate(args.evaluate, args.seed, args.deals, args.workers)
    settings = {k: v for k, v in vars(args).items()
                if k not in ("out", "workers", "start", "evaluate")}
    trained_with = [settings]
    start = None
    if args.start:
        with open(args.start) as fh:
            before = json.load(fh)
        start = theta_of(before["weights"])
        trained_with = before.get("trained_with", []) + trained_with
    theta = train(args.seed, args.generations, args.deals, args.pairs, args.sigma, args.step,
                  args.workers, log=sys.stderr, start=start)
    data = {"trained_with": trained_with,
            "weights": dict(zip(FEATURES, weights_of(theta), strict=True))}
    text = json.dumps(data, indent=1) + "\n"
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
