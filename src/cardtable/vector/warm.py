"""Compile every numba kernel ahead of use: ``python -m cardtable.vector.warm [GAME ...]``.

numba compiles a kernel the first time it runs and keeps the machine code in its cache
(``__pycache__`` beside the sources, or ``NUMBA_CACHE_DIR``); every later process loads it
in a moment. A fresh install pays the compilation once, some tens of seconds a game, at
the first call of each kernel: in the middle of a training run's first step, or of a
benchmark's first timing. This module pays it up front, for the batched engine of each
game (dealing, masks, observations, random moves, steps), its batched heuristics and Draw
Bridge's solver. The test suite runs it once before its workers start, one process a
game, so that no two workers compile the same kernel side by side.

Examples:
    >>> from cardtable.vector.warm import warm
    >>> warm(["sequence"])  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Sequence

import numpy as np

import cardtable
from cardtable.vector.base import game_names, make_engine
from cardtable.vector.heuristics import batched_kinds, heuristic_actions, heuristic_scores
from cardtable.vector.threethirteen_melds import penalties

__all__ = ["warm", "warm_in_parallel"]


def warm(games: Sequence[str] | None = None) -> None:
    """Run each kernel of ``games`` (default: every game with a batched engine) once."""
    for game in games or game_names():
        engine = make_engine(game)
        batch = engine.init(np.arange(4))
        engine.legal_mask(batch)
        engine.observe(batch)
        engine.observe(batch, seats=0)
        engine.observe(batch, seats=np.zeros(2, np.int64), rows=np.array([True, False] * 2))
        if game == "threethirteen":
            engine.penalties_after(batch)  # type: ignore[attr-defined]
        for kind in batched_kinds(game):
            heuristic_scores(engine, batch, kind)
            heuristic_actions(engine, batch, kind)
        for _ in range(300):  # past the first deal of a match, and the first end
            engine.step(batch, engine.random_actions(batch))
        engine.play_random(batch, until_seat=0)
        engine.load(batch, 0, cardtable.new_game(game).deal(seed=1))
        if game == "threethirteen":
            penalties(np.zeros((1, 52), np.int64), 1)
        if game == "drawbridge":
            _warm_solver()


def _warm_solver() -> None:
    from cardtable.drawbridge import solver

    state = cardtable.new_game("drawbridge").deal(seed=1)
    while state.phase == "draw":  # type: ignore[attr-defined]
        state.apply(state.legal_actions()[0])
    solver.auction_of(state)  # type: ignore[arg-type]


def warm_in_parallel(games: Sequence[str] | None = None) -> float:
    """``warm`` in one process a game, side by side; returns the seconds it took."""
    start = time.monotonic()
    procs = [subprocess.Popen([sys.executable, "-m", "cardtable.vector.warm", game],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for game in games or game_names()]
    outputs = [p.communicate()[0] for p in procs]
    failed = [out for p, out in zip(procs, outputs, strict=True) if p.returncode != 0]
    if failed:
        raise RuntimeError("warming the kernels failed:\n" + "\n".join(failed))
    return time.monotonic() - start


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m cardtable.vector.warm",
        description="Compile the batched engines' numba kernels once, so that their first "
                    "use in a training run, a benchmark or a test does not pay for it.")
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help=f"the games to warm (default: all of {', '.join(game_names())})")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in game_names()]
    if unknown:
        parser.error(f"no batched engine for {', '.join(unknown)}; "
                     f"the games are {', '.join(game_names())}")
    start = time.monotonic()
    warm(args.games)
    print(f"warm: {', '.join(args.games or game_names())} in {time.monotonic() - start:.1f} s")


if __name__ == "__main__":
    main()
