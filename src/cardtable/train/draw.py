"""Train Draw Bridge's draw phase: ``python -m cardtable.train drawbridge --out RUN``.

The draw phase decides which cards each player keeps (``cardtable.bots.drawbridge_draw``:
without ``show_stock_top`` the card a seat plays changes only its own hand). A deal's
worth is known the moment the draw ends: both hands are then known to both players
(RULES 1.3), and the solver gives the par of the auction and play
(``cardtable.drawbridge.solver.Auction.par``). So the draw policy is trained straight on
that worth, with no network to fit: an evolution strategy over ``DrawWeights`` whose
fitness is the trained seat's match chance at par after one deal from 0-0, under
``undertricks`` (without them a perfect opponent lets nobody score, and par is flat),
against the heuristic's draw (give up the lowest card), every deal played from both
seats. Each generation draws fresh deals from the run's generator; each pair of
mirrored perturbations (the weights moved by +sigma e and -sigma e) plays the same
deals, and the weights step along each perturbation by how much better its + side did
than its - side, over the generation's spread of those differences.

Every ``--eval-every`` generations the weights meet the heuristic's draw on
``--eval-deals`` deals from seed 10**9 on (never drawn in training): the mean match
chance, its paired 95% interval and the points a deal go to the curve (``curve.json``,
``curve.png``); the run's state (``checkpoint.json``: the weights, the generator, the
curve) and the weights (``weights.json``, the format of the shipped
``cardtable/bots/data/drawbridge_draw.json``) are written there too, and ``--resume``
goes on from the checkpoint with the same result as a run not interrupted. The result
depends only on ``--seed`` and the settings, not on ``--workers``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from cardtable.arena.ratings import paired_interval
from cardtable.bots.drawbridge_draw import DrawWeights
from cardtable.core import Action
from cardtable.drawbridge.game import POWER, DrawBridgeGame, DrawBridgeState
from cardtable.drawbridge.solver import Auction, trick_table

#: the rules the fitness is measured under (module docstring)
OPTIONS = {"undertricks": True}
#: evaluation deals' seeds start here; training draws its seeds from the run's generator
EVAL_SEED = 10**9


def heuristic_shed(hand: int, legal: Sequence[Action]) -> Action:
    """The heuristic's card when no stock card is shown: its lowest."""
    return min(legal, key=lambda a: (POWER[a.id], a.id))


def play_deal(args: tuple[list[float], int]) -> tuple[float, float, float, float]:
    """One deal from both seats: the trained seat's match chance at par and its points
    less the other's, for each seating."""
    vector, seed = args
    weights = DrawWeights.from_vector(vector)
    game = DrawBridgeGame(**OPTIONS)
    out: list[float] = []
    for trained in (0, 1):
        state = game.deal(seed=seed)
        assert isinstance(state, DrawBridgeState)
        while state.phase == "draw":
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            hand = state.hand_masks[seat]
            state.apply(weights.shed(hand, legal) if seat == trained
                        else heuristic_shed(hand, legal))
        dealer = state.view(None, history=False)["dealer"]
        par = Auction(trick_table(state.hand_masks), state.scores, game.target,
                      game.undertricks, dealer).par()
        chance = par.value if trained == 0 else 1.0 - par.value
        out += [chance, par.points[trained] - par.points[1 - trained]]
    return out[0], out[2], out[1], out[3]


def worth(pool: ProcessPoolExecutor | None, vector: Sequence[float],
          seeds: Sequence[int]) -> list[tuple[float, float, float, float]]:
    """``play_deal`` of every seed."""
    jobs = [(list(vector), s) for s in seeds]
    return list(pool.map(play_deal, jobs, chunksize=16) if pool else map(play_deal, jobs))


def evaluate(pool: ProcessPoolExecutor | None, vector: Sequence[float],
             deals: int) -> dict[str, float]:
    """The weights against the heuristic's draw on ``deals`` evaluation deals: the mean
    match chance at par (``score``) with its paired 95% interval, and the points a deal."""
    results = worth(pool, vector, range(EVAL_SEED, EVAL_SEED + deals))
    mean, low, high = paired_interval([(a + b) / 2 for a, b, _, _ in results])
    points = sum(c + d for _, _, c, d in results) / (2 * len(results))
    return {"score": round(mean, 4), "low": round(low, 4), "high": round(high, 4),
            "points": round(points, 1), "deals": deals}


class Run:
    """A training run's state: the weights, the generator, the generation, the curve."""

    def __init__(self, out: Path, seed: int, settings: dict[str, Any]) -> None:
        self.out = out
        self.settings = settings
        self.rng = random.Random(f"train-drawbridge-{seed}")
        self.theta = DrawWeights.start().vector()
        self.generation = 0
        self.curve: list[dict[str, Any]] = []
        self.seconds = 0.0

    def step(self, pool: ProcessPoolExecutor | None, deals: int, pairs: int, sigma: float,
             step: float) -> float:
        """One generation (module docstring); the mean fitness of its perturbations."""
        seeds = [self.rng.getrandbits(62) for _ in range(deals)]
        diffs, noise, total = [], [], 0.0
        for _ in range(pairs):
            eps = [self.rng.gauss(0.0, 1.0) for _ in self.theta]
            up = sum(a + b for a, b, _, _ in worth(
                pool, [t + sigma * e for t, e in zip(self.theta, eps, strict=True)], seeds))
            down = sum(a + b for a, b, _, _ in worth(
                pool, [t - sigma * e for t, e in zip(self.theta, eps, strict=True)], seeds))
            diffs.append((up - down) / (2 * deals))
            noise.append(eps)
            total += (up + down) / (4 * deals)
        spread = math.sqrt(sum(d * d for d in diffs) / len(diffs)) or 1.0
        self.theta = [t + step * sum(d / spread * eps[i] for d, eps in zip(diffs, noise,
                                                                         strict=True)) / pairs
                      for i, t in enumerate(self.theta)]
        self.generation += 1
        return total / pairs

    def weights_json(self) -> dict[str, Any]:
        return {"trained_with": {"command": "python -m cardtable.train drawbridge",
                                 **self.settings},
                "generations": self.generation,
                "weights": DrawWeights.from_vector(self.theta).to_json()}

    def checkpoint(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        state = {"settings": self.settings, "theta": self.theta,
                 "generation": self.generation, "curve": self.curve,
                 "seconds": self.seconds, "rng": _jsonable(self.rng.getstate())}
        _write(self.out / "checkpoint.json", state)
        _write(self.out / "weights.json", self.weights_json())
        _write(self.out / "curve.json", self.curve)

    def resume(self) -> None:
        with open(self.out / "checkpoint.json", encoding="utf-8") as fh:
            state = json.load(fh)
        if state["settings"] != self.settings:
            raise SystemExit(f"--resume: {self.out} was started with other settings: "
                             f"{json.dumps(state['settings'])}")
        self.theta, self.generation = state["theta"], state["generation"]
        self.curve, self.seconds = state["curve"], state["seconds"]
        self.rng.setstate(_tupled(state["rng"]))


def _jsonable(value: Any) -> Any:
    return [_jsonable(v) for v in value] if isinstance(value, tuple) else value


def _tupled(value: Any) -> Any:
    return tuple(_tupled(v) for v in value) if isinstance(value, list) else value


def _write(path: Path, data: Any) -> None:
    """Write JSON through a temporary file, so that an interruption leaves the old one."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)


def train(run: Run, generations: int, eval_every: int, eval_deals: int, workers: int,
          progress: bool = True) -> list[dict[str, Any]]:
    """Run generations up to ``generations``, evaluating and checkpointing every
    ``eval_every`` and at the end."""
    s = run.settings
    started = time.perf_counter() - run.seconds
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        if not run.curve:
            _evaluate(run, pool, eval_deals, started, math.nan)
            run.checkpoint()
        fitness = math.nan
        while run.generation < generations:
            fitness = run.step(pool, s["deals"], s["pairs"], s["sigma"], s["step"])
            if progress:
                _bar(run.generation, generations, time.perf_counter() - started, fitness)
            if run.generation % eval_every == 0 or run.generation == generations:
                if progress:
                    print(file=sys.stderr)
                _evaluate(run, pool, eval_deals, started, fitness)
                run.checkpoint()
    finally:
        if pool is not None:
            pool.shutdown()
    return run.curve


def _evaluate(run: Run, pool: ProcessPoolExecutor | None, deals: int, started: float,
              fitness: float) -> None:
    run.seconds = time.perf_counter() - started
    point: dict[str, Any] = {"generation": run.generation, "seconds": round(run.seconds, 1),
                             "fitness": None if math.isnan(fitness) else round(fitness, 4)}
    if deals:
        point["heuristic"] = evaluate(pool, run.theta, deals)
    run.curve.append(point)
    print(json.dumps(point), flush=True)


def _bar(done: int, total: int, seconds: float, fitness: float) -> None:
    width = 30
    filled = int(width * done / total)
    eta = seconds / done * (total - done) if done else 0.0
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] generation {done}/{total} "
          f"match chance {fitness:.3f} eta {eta / 60:.1f} min", end="", file=sys.stderr,
          flush=True)


def plot(curve: list[dict[str, Any]], path: Path, title: str) -> None:
    """The learning curve: the match chance at par against the heuristic's draw."""
    from cardtable.train import dmc

    dmc.plot(curve, path, title, x_of=lambda p: p["generation"], xlabel="generation",
             ylabel="match chance at par after the deal",
             label="against the heuristic's draw", ylim=(0.3, 0.8))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m cardtable.train drawbridge",
        description="Train Draw Bridge's draw phase (which card to give up) by an "
                    "evolution strategy on the deal's worth at par (docs/training.md).")
    parser.add_argument("game", choices=["drawbridge"], help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, required=True,
                        help="the run's folder: weights.json, checkpoint.json, curve.json, "
                             "curve.png")
    parser.add_argument("--generations", type=int, default=30,
                        help="steps of the evolution strategy (default 30)")
    parser.add_argument("--deals", type=int, default=200,
                        help="deals a generation, each played from both seats (default 200)")
    parser.add_argument("--pairs", type=int, default=6,
                        help="mirrored perturbations a generation (default 6)")
    parser.add_argument("--sigma", type=float, default=0.5,
                        help="the size of a perturbation (default 0.5)")
    parser.add_argument("--step", type=float, default=0.3,
                        help="how far a generation moves the weights (default 0.3)")
    parser.add_argument("--eval-every", type=int, default=5,
                        help="evaluate and checkpoint every so many generations")
    parser.add_argument("--eval-deals", type=int, default=500,
                        help="evaluation deals, each played from both seats; 0: none")
    parser.add_argument("--workers", type=int, default=1, help="processes that play deals")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--resume", action="store_true",
                        help="go on from --out's checkpoint")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    for name in ("generations", "deals", "pairs", "eval_every", "workers"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.eval_deals < 0:
        parser.error("--eval-deals must be 0 or more")
    if not (args.sigma > 0 and args.step > 0):
        parser.error("--sigma and --step must be more than 0")
    settings = {"seed": args.seed, "deals": args.deals, "pairs": args.pairs,
                "sigma": args.sigma, "step": args.step}
    run = Run(args.out, args.seed, settings)
    if args.resume:
        if not (args.out / "checkpoint.json").exists():
            parser.error(f"--resume: there is no checkpoint in {args.out}")
        run.resume()
    elif (args.out / "checkpoint.json").exists():
        parser.error(f"{args.out} holds a run already: --resume to go on, or another --out")
    curve = train(run, args.generations, args.eval_every, args.eval_deals, args.workers,
                  progress=not args.quiet)
    try:
        plot(curve, args.out / "curve.png", f"drawbridge draw phase: seed {args.seed}")
    except ImportError:
        print("matplotlib is not installed: no curve.png (pip install -e '.[plot]')",
              file=sys.stderr)
    print(f"weights: {args.out / 'weights.json'} (cardtable arena drawbridge --bots "
          f"trained,heuristic -o undertricks=true plays the shipped ones)")
