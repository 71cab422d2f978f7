"""Random-playout speed of every game: steps/s and games/s, median of several runs.

    python bench/playouts.py                    # every game, default player counts
    python bench/playouts.py sequence --players 2 4 --seconds 3 --runs 5
    python bench/playouts.py --json

Each run plays whole seeded games with the loop
``while not s.is_terminal: s.apply(rng.choice(s.legal_actions()))`` for about
``--seconds``; a baseline (a bare Python loop of the same number of
``rng.choice`` calls on a list) is timed in the same process, so the figures can
be compared across machines as a ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import cardtable

DEFAULT_PLAYERS = {"drawbridge": [2], "sequence": [2, 4], "threethirteen": [2, 4]}


def run_once(name: str, players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    game = cardtable.new_game(name, players=players)
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


def baseline(steps: int) -> float:
    """Seconds for ``steps`` rng.choice calls on a 20-item list: the loop's floor."""
    rng, items = random.Random(0), list(range(20))
    start = time.perf_counter()
    for _ in range(steps):
        rng.choice(items)
    return time.perf_counter() - start


def measure(name: str, players: int, seconds: float, runs: int) -> dict[str, Any]:
    results = [run_once(name, players, seconds, seed=1000 * k) for k in range(runs)]
    steps_per_s = statistics.median(st / t for st, _, t in results)
    games_per_s = statistics.median(g / t for _, g, t in results)
    base = baseline(100_000) / 100_000
    return {
        "game": name,
        "players": players,
        "steps_per_s": round(steps_per_s),
        "games_per_s": round(games_per_s, 2),
        "steps_per_game": round(sum(st for st, _, _ in results) / sum(g for _, g, _ in results), 1),
        # how many bare rng.choice calls fit in the time of one engine step
        "step_cost_in_choice_calls": round(1 / steps_per_s / base, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=cardtable.game_names(),
                        help="games to measure (default: all)")
    parser.add_argument("--players", type=int, nargs="*", help="player counts (default per game)")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median taken)")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args()
    for name in args.games:
        for players in args.players or DEFAULT_PLAYERS.get(name, [2]):
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
