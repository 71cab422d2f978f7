"""ISMCTS search speed: iterations per second over positions of whole games.

    python bench/bots.py                     # every game, 2 players
    python bench/bots.py sequence --iterations 2000 --games 3

Positions come from games between two heuristic bots (fixed seeds); at each of
the first seat's turns ISMCTS searches with a fixed iteration budget. The figure
is total iterations over total search time. A baseline in the same process (the
random-playout rate of the same game, in steps/s) puts it in proportion.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import cardtable
from cardtable.bots import ISMCTSBot, make


def search_rate(name: str, iterations: int, games: int, max_moves: int) -> float:
    game = cardtable.new_game(name)
    searched = 0
    seconds = 0.0
    for g in range(games):
        state = game.deal(seed=g)
        bot = ISMCTSBot(seed=g, iterations=iterations)
        guide = make("heuristic", seed=g)
        moves = 0
        while not state.is_terminal and moves < max_moves:
            if state.current_player == 0 and len(state.legal_actions()) > 1:
                start = time.perf_counter()
                result = bot.search(state)
                seconds += time.perf_counter() - start
                searched += result.iterations
                state.apply(result.action)
            else:
                state.apply(guide.choose(state))
            moves += 1
    return searched / seconds


def playout_rate(name: str, seconds: float = 2.0) -> float:
    game = cardtable.new_game(name)
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.deal(seed=steps)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games_", nargs="*", metavar="GAME", default=cardtable.game_names())
    parser.add_argument("--iterations", type=int, default=1000, help="ISMCTS iterations a move")
    parser.add_argument("--games", type=int, default=2, help="games per figure")
    parser.add_argument("--max-moves", type=int, default=120, help="moves per game at most")
    parser.add_argument("--baseline-seconds", type=float, default=2.0,
                        help="how long the baseline's random playouts run (default 2)")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args()
    for name in args.games_:
        rate = search_rate(name, args.iterations, args.games, args.max_moves)
        base = playout_rate(name, args.baseline_seconds)
        row = {"game": name, "ismcts_iterations_per_s": round(rate),
               "random_playout_steps_per_s": round(base),
               # random-playout steps in the time of one iteration: across machines
               "iteration_in_playout_steps": round(base / rate, 1)}
        if args.json:
            print(json.dumps(row))
        else:
            print(f"{name:14} ISMCTS {rate:>8,.0f} iterations/s   "
                  f"(random playouts: {base:>9,.0f} steps/s; an iteration costs "
                  f"{base / rate:,.1f} steps)")


if __name__ == "__main__":
    main()
