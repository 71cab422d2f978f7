"""Speed of Sequence's batched heuristic-v1 (``cardtable.vector.sequence_heuristic``) beside
the scalar bot, in one run: moves per second of heuristic self-play.

    python bench/sequence_heuristic.py                      # 2 players, 4,096 rows, 3 s each
    python bench/sequence_heuristic.py --rows 1024 --seconds 5 --players 4

One core. ``batched``: ``heuristic_actions`` + ``step`` on ``--rows`` rows (finished games
reset on their own), after one untimed step (numba compiles its kernels at their first
call); ``scalar``: ``cardtable.bots.make("heuristic-v1").choose`` + ``apply`` over seeded
games. The ratio is what to compare across machines.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import cardtable
from cardtable.bots import make as make_bot
from cardtable.vector import VectorSequence
from cardtable.vector.sequence_heuristic import heuristic_actions


def batched(rows: int, players: int, seconds: float) -> float:
    engine = VectorSequence(players=players)
    batch = engine.init(np.arange(rows))
    engine.step(batch, heuristic_actions(engine, batch))  # compiles, untimed
    moves, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        engine.step(batch, heuristic_actions(engine, batch))
        moves += rows
    return moves / (time.perf_counter() - start)


def scalar(players: int, seconds: float) -> float:
    game = cardtable.new_game("sequence", players=players)
    bot = make_bot("heuristic-v1", seed=1)
    state, deal, moves = game.deal(seed=0), 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if state.is_terminal:
            deal += 1
            state = game.deal(seed=deal)
        state.apply(bot.choose(state))
        moves += 1
    return moves / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true", help="the report as JSON (always)")
    args = parser.parse_args()
    fast = batched(args.rows, args.players, args.seconds)
    slow = scalar(args.players, args.seconds)
    print(json.dumps({"rows": args.rows, "players": args.players,
                      "batched_moves_per_second": round(fast),
                      "scalar_moves_per_second": round(slow), "ratio": round(fast / slow, 1)}))


if __name__ == "__main__":
    main()
