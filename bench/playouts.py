"""Random-playout speed of every game: steps/s and games/s, median of several runs.

    python bench/playouts.py                    # every game, default player counts
    python bench/playouts.py sequence --players 2 4 --seconds 3 --runs 5
    python bench/playouts.py --json
    python bench/playouts.py --against /work/main/src   # this tree against another, in turns

Each run plays whole seeded games with the loop
``while not s.is_terminal: s.apply(rng.choice(s.legal_actions()))`` for about
``--seconds``; a baseline (a bare Python loop of the same number of
``rng.choice`` calls on a list) is timed in the same process, so the figures can
be compared across machines as a ratio.

``--against SRC`` times another copy of the package (the ``src`` folder of another
checkout, e.g. the main branch) in the same process, taking turns with this one run
by run, and reports this tree's speed as a ratio of that one's: the fair before/after
comparison on a busy machine.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import cardtable
from _baseline import choice_call_seconds

#: the src folder this script's cardtable comes from (this checkout's, or PYTHONPATH's)
THIS_SRC = Path(cardtable.__file__).resolve().parents[1]
DEFAULT_PLAYERS = {"drawbridge": [2], "sequence": [2, 4], "threethirteen": [2, 4]}


def run_once(name: str, players: int, seconds: float, seed: int,
             package: ModuleType = cardtable) -> tuple[int, int, float]:
    game = package.new_game(name, players=players)
    rng = random.Random(seed)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = game.deal(seed=seed + games)
        while not s.is_terminal:
            s.apply(rng.choice(s.legal_actions()))
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def measure(name: str, players: int, seconds: float, runs: int) -> dict[str, Any]:
    results = [run_once(name, players, seconds, seed=1000 * k) for k in range(runs)]
    steps_per_s = statistics.median(st / t for st, _, t in results)
    games_per_s = statistics.median(g / t for _, g, t in results)
    base = choice_call_seconds()
    return {
        "game": name,
        "players": players,
        "steps_per_s": round(steps_per_s),
        "games_per_s": round(games_per_s, 2),
        "steps_per_game": round(sum(st for st, _, _ in results) / sum(g for _, g, _ in results), 1),
        # how many bare rng.choice calls fit in the time of one engine step
        "step_cost_in_choice_calls": round(1 / steps_per_s / base, 1),
    }


def load_package(src: str | None) -> ModuleType:
    """``cardtable`` imported afresh from the folder ``src`` (None: this tree's)."""
    for name in [m for m in sys.modules if m == "cardtable" or m.startswith("cardtable.")]:
        del sys.modules[name]
    here = str(THIS_SRC)
    sys.path[:] = [p for p in sys.path if p not in (here, src)]
    sys.path.insert(0, src or here)
    package = importlib.import_module("cardtable")
    where = Path(package.__file__ or "").resolve().parents[1]
    if where != Path(src or here).resolve():
        raise SystemExit(f"--against: {src} holds no cardtable package (found {where})")
    return package


def compare(name: str, players: int, seconds: float, runs: int, src: str) -> dict[str, Any]:
    """Steps/s of this tree and of the package in ``src``, run by run in turns."""
    speeds: dict[str, list[float]] = {"this": [], "other": []}
    for k in range(runs):
        order = ("this", "other") if k % 2 == 0 else ("other", "this")
        for which in order:
            package = load_package(None if which == "this" else src)
            steps, _, t = run_once(name, players, seconds, 1000 * k, package)
            speeds[which].append(steps / t)
    load_package(None)
    this, other = statistics.median(speeds["this"]), statistics.median(speeds["other"])
    return {"game": name, "players": players, "steps_per_s": round(this),
            "against_steps_per_s": round(other), "ratio": round(this / other, 3),
            "against": src}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=cardtable.game_names(),
                        help="games to measure (default: all)")
    parser.add_argument("--players", type=int, nargs="*", help="player counts (default per game)")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median taken)")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    parser.add_argument("--against", metavar="SRC",
                        help="another checkout's src folder to compare with, in turns")
    args = parser.parse_args()
    for name in args.games:
        for players in args.players or DEFAULT_PLAYERS.get(name, [2]):
            if args.against:
                row = compare(name, players, args.seconds, args.runs, args.against)
                if args.json:
                    print(json.dumps(row))
                else:
                    print(f"{name:14} {players:2}p  {row['steps_per_s']:>9,} steps/s  "
                          f"against {row['against_steps_per_s']:>9,}: "
                          f"{row['ratio']:.3f}x")
                continue
            row = measure(name, players, args.seconds, args.runs)
            if args.json:
                print(json.dumps(row))
            else:
                print(f"{name:14} {players:2}p  {row['steps_per_s']:>9,} steps/s  "
                      f"{row['games_per_s']:>9,.1f} games/s  "
                      f"{row['steps_per_game']:>7} steps/game  "
                      f"(1 step = {row['step_cost_in_choice_calls']} rng.choice calls)")


if __name__ == "__main__":
    main()
