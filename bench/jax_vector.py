"""Steps per second of the JAX ports of batched Sequence, Draw Bridge and Three Thirteen
(issue 36) beside
the numba engine on one core, and pgx's Connect Four and Go 9x9 when pgx is installed, in
one command.

    python bench/jax_vector.py                              # CPU: batches 256 4096
    python bench/jax_vector.py --sizes 4096 65536 1048576   # a GPU's batches (its default)
    python bench/jax_vector.py --players 4 --json
    python bench/jax_vector.py --game drawbridge --no-pgx   # Draw Bridge (target 100)
    python bench/jax_vector.py --game threethirteen --players 3 --no-pgx

Each figure is steps (moves played, one per row per step) per second of random legal play
with autoreset, the policy included, the median of ``--runs``:

- ``jax``: ``make(game, backend="jax", autoreset=True)``; ``--scan`` steps run
  inside one compiled ``lax.fori_loop`` (random actions by ``jax.random.categorical``
  over the legal mask, as pgx's own benchmark draws them), timed after a first
  (compiling) call, with ``block_until_ready``;
- ``numba``: the numba engine on one core (``random_actions`` + ``step``, finished games
  reset on their own) at the same batch sizes, up to ``--numba-max`` rows;
- ``pgx_connect_four``, ``pgx_go_9x9``: pgx's envs the same way (``jax.vmap`` of
  ``init`` and ``step``, ``pgx.experimental.auto_reset``), if ``import pgx`` works
  (pgx is pure Python: ``pip install pgx svgwrite``).

The report names JAX's device (``jax.devices()[0]``): compare figures of one device only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from _args import positive

#: the games timed, by ``--game``
TITLES = {"sequence": "Sequence", "drawbridge": "Draw Bridge", "threethirteen": "Three Thirteen"}
#: batch sizes by default: a GPU's (issue 36's figures) and a CPU's
GPU_SIZES = [4096, 65536, 1048576]
CPU_SIZES = [256, 4096]


def timed(run: Callable[[], Any], steps_per_call: int, seconds: float) -> float:
    """Steps per second of ``run`` (one call compiles it and is not timed)."""
    run()
    calls = 0
    start = time.perf_counter()
    while True:
        run()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls * steps_per_call / elapsed


def options_of(game: str, players: int) -> dict[str, Any]:
    """The game's options here: Sequence's and Three Thirteen's players (Three Thirteen's
    other options at their defaults: decks by players); Draw Bridge's defaults."""
    return {} if game == "drawbridge" else {"players": players}


def jax_env(game: str, players: int, n: int, scan: int, seconds: float) -> float:
    import jax

    import cardtable.vector

    env = cardtable.vector.make(game, backend="jax", autoreset=True, **options_of(game, players))
    holder = {"state": env.init(np.arange(n)), "key": jax.random.key(0)}

    @jax.jit
    def play(state: Any, key: jax.Array) -> tuple[Any, jax.Array]:
        def body(_: int, carry: tuple[Any, jax.Array]) -> tuple[Any, jax.Array]:
            s, k = carry
            k, sub = jax.random.split(k)
            return env.step(s, env.random_actions(sub, s)), k
        return jax.lax.fori_loop(0, scan, body, (state, key))

    def run() -> None:
        state, key = play(holder["state"], holder["key"])
        jax.block_until_ready(state.legal_action_mask)
        holder["state"], holder["key"] = state, key

    return timed(run, n * scan, seconds)


def numba_engine(game: str, players: int, n: int, seconds: float) -> float:
    from cardtable.vector import make_engine

    engine = make_engine(game, **options_of(game, players))
    batch = engine.init(np.arange(n))
    actions = np.empty(n, np.int64)

    def run() -> None:
        engine.random_actions(batch, out=actions)
        engine.step(batch, actions)

    for _ in range(20):  # compiled, and into the middle of games
        run()
    return timed(run, n, seconds)


def pgx_env(env_id: str, n: int, scan: int, seconds: float) -> float:
    import jax
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make(env_id)
    init, step = jax.vmap(env.init), jax.vmap(auto_reset(env.step, env.init))
    holder = {"state": init(jax.random.split(jax.random.key(1), n)),
              "key": jax.random.key(2)}

    @jax.jit
    def play(state: Any, key: jax.Array) -> tuple[Any, jax.Array]:
        def body(_: int, carry: tuple[Any, jax.Array]) -> tuple[Any, jax.Array]:
            s, k = carry
            k, sub, reset = jax.random.split(k, 3)
            logits = jax.numpy.where(s.legal_action_mask, 0.0, -jax.numpy.inf)
            action = jax.random.categorical(sub, logits, axis=-1)
            return step(s, action, jax.random.split(reset, n)), k
        return jax.lax.fori_loop(0, scan, body, (state, key))

    def run() -> None:
        state, key = play(holder["state"], holder["key"])
        jax.block_until_ready(state.legal_action_mask)
        holder["state"], holder["key"] = state, key

    return timed(run, n * scan, seconds)


def have_pgx() -> bool:
    try:
        import pgx  # noqa: F401
    except ImportError:
        return False
    return True


def run(game: str, players: int, sizes: list[int], seconds: float, runs: int, scan: int,
        numba_max: int, with_pgx: bool) -> dict[str, Any]:
    import jax

    device = jax.devices()[0]
    rows = []
    for n in sizes:
        row: dict[str, Any] = {"batch": n}
        row["jax_steps_per_s"] = round(statistics.median(
            jax_env(game, players, n, scan, seconds) for _ in range(runs)))
        if n <= numba_max:
            row["numba_one_core_steps_per_s"] = round(statistics.median(
                numba_engine(game, players, n, seconds) for _ in range(runs)))
        if with_pgx:
            for env_id in ("connect_four", "go_9x9"):
                row[f"pgx_{env_id}_steps_per_s"] = round(statistics.median(
                    pgx_env(env_id, n, scan, seconds) for _ in range(runs)))
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)  # progress
    return {"game": game, "players": 2 if game == "drawbridge" else players,
            "device": str(device),
            "platform": device.platform, "jax": jax.__version__, "scan": scan,
            "batches": rows}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--sizes", type=positive, nargs="+", default=None,
                        help="batch sizes (default 4096 65536 1048576 on a GPU, 256 4096 "
                             "on a CPU)")
    parser.add_argument("--game", choices=tuple(TITLES), default="sequence",
                        help="the port timed (default sequence; drawbridge: its default "
                             "options, target 100; threethirteen: --players, the default "
                             "decks)")
    parser.add_argument("--players", type=int, default=2,
                        help="Sequence's or Three Thirteen's players")
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--runs", type=positive, default=3, help="median of this many")
    parser.add_argument("--scan", type=positive, default=16,
                        help="steps per compiled call (default 16)")
    parser.add_argument("--numba-max", type=positive, default=1048576,
                        help="the largest batch the numba engine is timed at")
    parser.add_argument("--no-pgx", action="store_true", help="leave pgx's envs out")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    import jax

    sizes = args.sizes or (GPU_SIZES if jax.devices()[0].platform == "gpu" else CPU_SIZES)
    with_pgx = not args.no_pgx and have_pgx()
    report = run(args.game, args.players, sizes, args.seconds, args.runs, args.scan, args.numba_max,
                 with_pgx)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{TITLES[args.game]}, {report['players']} players; JAX {report['jax']} on "
          f"{report['device']}; numba on one core; random legal moves with autoreset, steps/s")
    head = f"{'batch':>9} {'jax':>14} {'numba 1 core':>14}"
    if with_pgx:
        head += f" {'pgx connect4':>14} {'pgx go 9x9':>14}"
    print(head)
    for r in report["batches"]:
        line = (f"{r['batch']:>9} {r['jax_steps_per_s']:>14,} "
                f"{r.get('numba_one_core_steps_per_s', 0):>14,}")
        if with_pgx:
            line += (f" {r['pgx_connect_four_steps_per_s']:>14,} "
                     f"{r['pgx_go_9x9_steps_per_s']:>14,}")
        print(line)


if __name__ == "__main__":
    main()
