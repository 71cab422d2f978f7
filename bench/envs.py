"""Environment speed: PettingZoo AEC steps/s for every game, against the raw engine.

    python bench/envs.py                        # every game, default options (about 25 s)
    python bench/envs.py sequence --players 4 --seconds 3 --runs 5
    python bench/envs.py --json

Each run plays whole seeded games through the AEC API, the loop every PettingZoo
user writes::

    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]))
        env.step(action)

so each step builds the acting seat's observation tensor and action mask. The
baseline is the raw engine's random-playout loop for the same game in the same
process (``s.apply(rng.choice(s.legal_actions()))``, as bench/playouts.py),
which gives the environment's cost as a machine-independent ratio. When RLCard is
installed (``pip install rlcard``), its gin rummy (``rlcard.make("gin-rummy")``, random
legal actions through ``env.step``) is timed in the same process too, and each game's
speed is also given as a multiple of it.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import time
from typing import Any

import numpy as np

import cardtable
from _args import positive


def env_run(name: str, options: dict[str, Any], seconds: float, seed: int,
            space_sample: bool) -> tuple[int, float]:
    """Steps through the AEC API in about ``seconds``: (steps, elapsed)."""
    env = importlib.import_module(f"cardtable.envs.{name}_v0").env(**options)
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset()
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            elif space_sample:
                action = env.action_space(agent).sample(obs["action_mask"])
            else:
                action = rng.choice(np.flatnonzero(obs["action_mask"]))
            env.step(action)
            steps += 1
            if time.perf_counter() - start >= seconds:
                break
    return steps, time.perf_counter() - start


def engine_run(name: str, options: dict[str, Any], seconds: float, seed: int) -> tuple[int, float]:
    """The same games through the bare engine loop: (steps, elapsed)."""
    game = cardtable.new_game(name, **options)
    rng = random.Random(seed)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.deal(seed=seed + games)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
        games += 1
    return steps, time.perf_counter() - start


def rlcard_rate(seconds: float, seed: int) -> float | None:
    """RLCard's gin rummy, random legal actions: steps/s; None without RLCard."""
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": seed})
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
    return steps / (time.perf_counter() - start)


def measure(name: str, options: dict[str, Any], seconds: float, runs: int,
            space_sample: bool, rlcard: float | None) -> dict[str, Any]:
    env_rates = [s / t for s, t in (env_run(name, options, seconds, 1000 * k, space_sample)
                                    for k in range(runs))]
    steps, elapsed = engine_run(name, options, seconds, 7)
    env_rate = statistics.median(env_rates)
    engine_rate = steps / elapsed
    return {
        "game": name,
        "options": options,
        "env_steps_per_s": round(env_rate),
        "engine_steps_per_s": round(engine_rate),
        # the environment's share of the engine's speed, comparable across machines
        "env_over_engine": round(env_rate / engine_rate, 3),
        # RLCard's gin rummy timed in this run (None: RLCard is not installed)
        "rlcard_gin_rummy_steps_per_s": None if rlcard is None else round(rlcard),
        "x_rlcard_gin_rummy": None if rlcard is None else round(env_rate / rlcard, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=cardtable.game_names(),
                        help="games to measure (default: all)")
    parser.add_argument("--players", type=int, help="player count (default: the game's)")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--runs", type=positive, default=3,
                        help="environment runs (median taken)")
    parser.add_argument("--space-sample", action="store_true",
                        help="pick actions with env.action_space(agent).sample(mask) instead")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args()
    options = {} if args.players is None else {"players": args.players}
    rlcard = rlcard_rate(args.seconds, 7)
    for name in args.games:
        row = measure(name, options, args.seconds, args.runs, args.space_sample, rlcard)
        if args.json:
            print(json.dumps(row))
        else:
            print(f"{name:14} env {row['env_steps_per_s']:>8,} steps/s  "
                  f"engine {row['engine_steps_per_s']:>8,} steps/s  "
                  f"env/engine {row['env_over_engine']:.2f}"
                  + ("" if rlcard is None else
                     f"  {row['x_rlcard_gin_rummy']:>5}x RLCard gin rummy"))
    if not args.json:
        print("RLCard is not installed: no comparison with its gin rummy" if rlcard is None
              else f"RLCard gin rummy, same process: {rlcard:,.0f} steps/s")


if __name__ == "__main__":
    main()
