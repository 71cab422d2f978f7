"""Speed of every game's batched heuristic (``cardtable.vector.heuristics``) beside the
scalar bot, in one run: moves per second of heuristic self-play, one JSON line a game.

    python bench/heuristics.py                        # every game, 4,096 rows, 3 s each
    python bench/heuristics.py --games threethirteen --rows 1024 --seconds 5 --players 4
    python bench/heuristics.py --games drawbridge --bots heuristic heuristic-v1

One core. ``batched``: ``heuristic_actions`` + ``step`` on ``--rows`` rows (finished games
reset on their own), after one untimed step (numba compiles, or loads from its cache, its
kernels at their first call); ``scalar``: ``cardtable.bots.make(kind).choose`` +
``apply`` over seeded games (Draw Bridge and Three Thirteen: matches), after one untimed
move. The bot is each game's yardstick, ``heuristic-v1``, unless ``--bots`` names others
(``heuristic``: Draw Bridge's has moved on from its yardstick and has a kernel of its own;
elsewhere it is the same bot). The ratio is what to compare across machines.
``--players`` applies to the games that take it (Sequence, Three Thirteen); Draw Bridge
has two.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

import cardtable
from cardtable.bots import make as make_bot
from cardtable.vector import make_engine
from cardtable.vector.heuristics import KERNELS, heuristic_actions


def options(game: str, players: int) -> dict[str, Any]:
    return {} if game == "drawbridge" else {"players": players}


def batched(game: str, rows: int, players: int, seconds: float, kind: str) -> float:
    engine = make_engine(game, **options(game, players))
    batch = engine.init(np.arange(rows))
    engine.step(batch, heuristic_actions(engine, batch, kind))  # compiles, untimed
    moves, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        engine.step(batch, heuristic_actions(engine, batch, kind))
        moves += rows
    return moves / (time.perf_counter() - start)


def scalar(game_name: str, players: int, seconds: float, kind: str) -> float:
    game = cardtable.new_game(game_name, **options(game_name, players))
    bot = make_bot(kind, seed=1)
    state, deal, moves = game.deal(seed=0), 0, 0
    state.apply(bot.choose(state))  # imports and caches, untimed
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if state.is_terminal:
            deal += 1
            state = game.deal(seed=deal)
        state.apply(bot.choose(state))
        moves += 1
    return moves / (time.perf_counter() - start)


def measure(game: str, rows: int, players: int, seconds: float,
            kind: str = "heuristic-v1") -> dict[str, Any]:
    fast = batched(game, rows, players, seconds, kind)
    slow = scalar(game, players, seconds, kind)
    return {"game": game, "bot": kind, "rows": rows,
            "players": 2 if game == "drawbridge" else players,
            "batched_moves_per_second": round(fast), "scalar_moves_per_second": round(slow),
            "ratio": round(fast / slow, 1)}


def main(argv: list[str] | None = None, games: tuple[str, ...] = tuple(KERNELS),
         kind: str = "heuristic-v1") -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=sorted(KERNELS), default=list(games))
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--bots", nargs="+", choices=["heuristic", "heuristic-v1"],
                        default=[kind], help="the bot kinds to time, each in turn")
    parser.add_argument("--json", action="store_true", help="the report as JSON (always)")
    args = parser.parse_args(argv)
    for game in args.games:
        for bot in args.bots:
            print(json.dumps(measure(game, args.rows, args.players, args.seconds, bot)),
                  flush=True)


if __name__ == "__main__":
    main()
