"""Arena throughput: heuristic-vs-heuristic Sequence games per second on each executor.

    python bench/arena.py             # 400 games; local, dask and ray; 1 and 2 workers
    python bench/arena.py --games 2000 --executors local dask --workers 1 2 4
    python bench/arena.py --executors dask://10.0.0.5:8786 --workers 1   # a real cluster

A plain loop in this process plays the same games first (the baseline). For each
executor and worker count the clock runs from the first task submitted to the last
result back (starting the cluster is reported apart, as ``startup_s``), after a
warm-up batch that imports cardtable on the workers. ``overhead_ms`` is the time per
game above the plain loop's, over the workers' total time (workers x wall time / games
minus the plain loop's time per game): what batching, pickling and scheduling cost.
``speedup`` is games/s with this many workers over games/s with the first count. Every
run's results must equal the plain loop's (``same_results``). The machine's load
average is printed beside the figures: on a shared machine they are only as good as
the cores that were free.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

from cardtable import arena
from cardtable.arena import runner
from cardtable.arena.executors import Running, open_executor


@contextmanager
def pool(executor: str, workers: int) -> Iterator[Running]:
    """The executor; ``local`` is a process pool even for one worker (open_executor would
    play one worker's games in this process, which is the plain loop)."""
    if executor != "local":
        with open_executor(executor, workers) as running:
            yield running
        return
    with ProcessPoolExecutor(max_workers=workers) as processes:
        yield Running("local", processes, workers, lambda: None)


def measure(executor: str, workers: int, tasks: list[arena.Task], batch: int | None,
            baseline: list[arena.GameResult], plain_per_game: float) -> dict[str, Any]:
    start = time.perf_counter()
    with pool(executor, workers) as running:
        startup = time.perf_counter() - start
        # warm-up: every worker imports cardtable (one-game tasks, enough for each)
        list(arena.stream(tasks[:4 * workers], running, 1))
        size = batch or runner.batch_size(tasks, running.parallelism)
        clock = time.perf_counter()
        results = sorted(arena.stream(tasks, running, size), key=lambda r: r.index)
        wall = time.perf_counter() - clock
    return {
        "executor": executor, "workers": workers, "batch": size, "games": len(tasks),
        "startup_s": round(startup, 2), "seconds": round(wall, 3),
        "games_per_s": round(len(tasks) / wall, 1),
        "overhead_ms": round(1000 * (wall * workers / len(tasks) - plain_per_game), 2),
        "same_results": results == baseline,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games per run (even)")
    parser.add_argument("--executors", nargs="+", default=["local", "dask", "ray"])
    parser.add_argument("--workers", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--batch", type=int, help="games per task (default: the arena's)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON report")
    args = parser.parse_args()
    tasks = arena.plan("sequence", {}, "heuristic,other=heuristic", args.games, args.seed)
    load_before = os.getloadavg()
    clock = time.perf_counter()
    baseline = [arena.play(task) for task in tasks]
    plain = time.perf_counter() - clock
    plain_per_game = plain / len(tasks)
    runs = []
    for executor in args.executors:
        first = None
        for workers in args.workers:
            run = measure(executor, workers, tasks, args.batch, baseline, plain_per_game)
            first = first or run["games_per_s"]
            run["speedup"] = round(run["games_per_s"] / first, 2)
            runs.append(run)
            if not args.json:
                print(f"{executor:>22} x{workers}: {run['games_per_s']:>7} games/s  "
                      f"speedup {run['speedup']:>4}  overhead {run['overhead_ms']:>6} ms/game  "
                      f"batch {run['batch']:>3}  startup {run['startup_s']:>5} s  "
                      f"same results: {run['same_results']}", flush=True)
    report = {
        "games": len(tasks), "cpus": os.cpu_count(),
        "plain_games_per_s": round(len(tasks) / plain, 1),
        "plain_ms_per_game": round(1000 * plain_per_game, 2),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "runs": runs,
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{'plain loop':>22}   : {report['plain_games_per_s']:>7} games/s "
              f"({report['plain_ms_per_game']} ms a game); {report['cpus']} CPUs; load "
              f"average {report['load_before']} before, {report['load_after']} after")


if __name__ == "__main__":
    main()
