"""Random-playout speed of a batched engine (Sequence, Draw Bridge, Three Thirteen) beside
the scalar one, in one run.

    python bench/vector.py                                  # 2-player Sequence, batches 1..16,384
    python bench/vector.py --sizes 1 64 4096 --seconds 1 --json
    python bench/vector.py --players 4
    python bench/vector.py --game drawbridge                # Draw Bridge, target 100
    python bench/vector.py --game threethirteen             # Three Thirteen, 2 players

One core (numba's kernels are single-threaded). Figures, each the median of ``--runs``:

- ``scalar``: the scalar engine's loop ``s.apply(rng.choice(s.legal_actions()))`` over
  whole seeded games (bench/playouts.py's loop), timed before and after the batched runs;
- for each batch size N: ``engine``: ``random_actions`` + ``step`` (steps = moves played,
  N per call, finished games reset on their own); ``learner``: the same plus the legal
  masks and the observation tensors a learner reads every step;
- ``gym``: ``gymnasium.make_vec("cardtable/Sequence-v0" (or the game's id), vectorization_mode=
  "vector_entry_point")`` at ``--gym-envs`` games against the random opponent: environment
  steps per second (one learner move and the opponent's replies each), observations and
  masks included;
- memory per game: the engine's arrays, and with the observation and mask of one step.

Before any timing, ``warm_up`` calls everything measured once, untimed: numba compiles each
kernel at its first call (seconds), and the scalar engine's first game builds its tables;
the report says how long that took (``warm_up_seconds``).

Ratios against the scalar engine in the same run are what to compare across machines.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import cardtable
from _args import positive
from cardtable.vector import game_names
from cardtable.vector import make_engine as engine_of
from playouts import run_once

SIZES = [1, 16, 256, 1024, 4096, 16384]
GAMES = tuple(game_names())
TITLES = {"sequence": "Sequence", "drawbridge": "Draw Bridge", "threethirteen": "Three Thirteen"}
#: a batched engine (a cardtable.vector.VectorEngine: the same methods, their own batch)
Engine = Any


def game_options(game: str, players: int) -> dict[str, Any]:
    """The options of the game measured: Sequence's and Three Thirteen's player count; Draw
    Bridge's defaults."""
    return {} if game == "drawbridge" else {"players": players}


def make_engine(game: str, players: int) -> Engine:
    return engine_of(game, **game_options(game, players))


def scalar_steps_per_s(players: int, seconds: float, seed: int,
                       game: str = "sequence") -> float:
    """The scalar engine's random playouts, timed as bench/playouts.py times them."""
    steps, _, elapsed = run_once(game, players, seconds, seed)
    return steps / elapsed


def timed(step: Callable[[], None], moves_per_call: int, seconds: float) -> float:
    """Moves per second of ``step`` called for about ``seconds`` (after one warm-up call)."""
    step()
    calls = 0
    start = time.perf_counter()
    while True:
        step()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls * moves_per_call / elapsed


def batched(engine: Engine, n: int, seconds: float, learner: bool) -> float:
    batch = engine.init(np.arange(n))
    actions = np.empty(n, np.int64)
    obs = np.empty((n, engine.obs_size), np.float32)
    mask = np.empty((n, engine.num_actions), np.bool_)

    def step() -> None:
        engine.random_actions(batch, out=actions)
        engine.step(batch, actions)
        if learner:
            engine.legal_mask(batch, out=mask)
            engine.observe(batch, out=obs)

    for _ in range(50):  # into the middle of games
        step()
    return timed(step, n, seconds)


def gym_steps_per_s(players: int, n: int, seconds: float, game: str = "sequence") -> float:
    """Environment steps per second (each one learner move and the opponents' replies)."""
    import gymnasium

    import cardtable.envs  # (registers the ids)
    from cardtable.vector.gym import GameVectorEnv

    envs = gymnasium.make_vec(cardtable.envs.GYM_IDS[game], num_envs=n,
                              vectorization_mode="vector_entry_point",
                              **game_options(game, players))
    env = envs.unwrapped
    assert isinstance(env, GameVectorEnv)
    envs.reset(seed=1)

    def step() -> None:
        envs.step(env.engine.random_actions(env.batch))

    for _ in range(20):
        step()
    return timed(step, n, seconds)


def warm_up(engine: Engine, game: str, players: int) -> float:
    """One call of each thing measured, untimed (numba compiles a kernel at its first call;
    the scalar engine builds its tables in its first game); the seconds it took."""
    start = time.perf_counter()
    run_once(game, players, 0.01, 0)                     # at least one whole scalar game
    for learner in (False, True):
        batched(engine, 2, 0.0, learner)
    gym_steps_per_s(players, 2, 0.0, game)
    return time.perf_counter() - start


def memory_per_game(engine: Engine) -> dict[str, int]:
    batch = engine.init(np.arange(1024))
    state = sum(a.nbytes for a in batch) // 1024
    per_step = engine.obs_size * 4 + engine.num_actions
    return {"state_bytes": state, "with_observation_and_mask_bytes": state + per_step}


def run(players: int, sizes: list[int], seconds: float, runs: int,
        gym_envs: int, game: str = "sequence") -> dict[str, Any]:
    engine = make_engine(game, players)
    players = engine.num_players
    warm = warm_up(engine, game, players)
    scalar = [scalar_steps_per_s(players, seconds, 1000 * k, game) for k in range(runs)]
    rows = []
    for n in sizes:
        eng = statistics.median(batched(engine, n, seconds, False) for _ in range(runs))
        learn = statistics.median(batched(engine, n, seconds, True) for _ in range(runs))
        rows.append({"batch": n, "engine_steps_per_s": round(eng),
                     "engine_ns_per_step": round(1e9 / eng, 1),
                     "learner_steps_per_s": round(learn),
                     "learner_ns_per_step": round(1e9 / learn, 1)})
    gym = statistics.median(gym_steps_per_s(players, gym_envs, seconds, game)
                            for _ in range(runs))
    scalar += [scalar_steps_per_s(players, seconds, 1000 * k + 1, game) for k in range(runs)]
    base = statistics.median(scalar)
    for row in rows:
        # a ratio under 1 (a batch of one, jit warm-up on a loaded machine) keeps three
        # decimals, so that it never reads 0
        for kind in ("engine", "learner"):
            ratio = row[f"{kind}_steps_per_s"] / base
            row[f"{kind}_x_scalar"] = round(ratio, 1 if ratio >= 1 else 3)
    return {"game": game, "players": players, "scalar_steps_per_s": round(base),
            "batches": rows, "gym_envs": gym_envs, "gym_env_steps_per_s": round(gym),
            "gym_x_scalar": round(gym / base, 1), "memory_per_game": memory_per_game(engine),
            "warm_up_seconds": round(warm, 2)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--game", choices=GAMES, default="sequence",
                        help="the game (default sequence)")
    parser.add_argument("--players", type=int, default=2, help="Sequence's players")
    parser.add_argument("--sizes", type=positive, nargs="+", default=SIZES,
                        help="batch sizes, games stepped per call (default 1 to 16,384)")
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--runs", type=positive, default=3, help="median of this many")
    parser.add_argument("--gym-envs", type=positive, default=4096,
                        help="games in the Gymnasium vector env's run (default 4096)")
    parser.add_argument("--json", action="store_true", help="also print the report as JSON")
    args = parser.parse_args(argv)
    try:
        report = run(args.players, args.sizes, args.seconds, args.runs, args.gym_envs,
                     args.game)
    except cardtable.OptionsError as exc:
        parser.error(str(exc))
    if args.json:
        print(json.dumps(report, indent=2))
        return
    title = TITLES[args.game]
    print(f"{title}, {report['players']} players, one core; scalar engine: "
          f"{report['scalar_steps_per_s']:,} steps/s")
    print(f"{'batch':>7} {'engine steps/s':>15} {'ns/step':>8} {'x scalar':>9} "
          f"{'+mask+obs steps/s':>18} {'ns/step':>8} {'x scalar':>9}")
    for r in report["batches"]:
        print(f"{r['batch']:>7} {r['engine_steps_per_s']:>15,} {r['engine_ns_per_step']:>8} "
              f"{r['engine_x_scalar']:>9} {r['learner_steps_per_s']:>18,} "
              f"{r['learner_ns_per_step']:>8} {r['learner_x_scalar']:>9}")
    print(f"Gymnasium vector env, {report['gym_envs']} games vs random, observations and "
          f"masks: {report['gym_env_steps_per_s']:,} env steps/s "
          f"({report['gym_x_scalar']} x scalar)")
    mem = report["memory_per_game"]
    print(f"memory per game: {mem['state_bytes']} bytes of state, "
          f"{mem['with_observation_and_mask_bytes']} with one step's observation and mask")


if __name__ == "__main__":
    main()
