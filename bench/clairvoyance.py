"""What hidden information costs ISMCTS: the same match-up played honestly and clairvoyantly.

    python bench/clairvoyance.py sequence --deals 40 --iterations 1000 --workers 2
    python bench/clairvoyance.py threethirteen --deals 10 --json

Plays ISMCTS against the game's heuristic on ``--deals`` deals, each with both
seatings (``cardtable.arena``'s plan), twice over the very same tasks:
once as the arena plays it, once with a *clairvoyant* ISMCTS whose every
determinization is the true state (``resample`` replaced by ``clone``: it sees
the other hands and the order of the cards still to come). The gap between the
two win rates bounds what better inference of hidden cards could ever add at
that budget; a clairvoyant rate near the honest one says the search, not the
hidden information, is what holds the bot back. Budgets are in iterations, so a
seed gives the same figures on any machine.
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import cardtable
from _args import positive
from cardtable import arena
from cardtable.arena.ratings import wilson_interval
from cardtable.core import State


def _setup(game: str, clairvoyant: bool) -> None:
    """Worker initializer: when ``clairvoyant``, ``resample`` of ``game`` gives the true state."""
    if not clairvoyant:
        return
    state_class = type(cardtable.new_game(game).deal(seed=0))

    def resample(self: State, seat: int, rng: Any) -> State:
        return self.clone()

    state_class.resample = resample  # type: ignore[method-assign]


def match(game: str, deals: int, iterations: int, seed: int, workers: int,
          clairvoyant: bool) -> list[arena.GameResult]:
    """The games of ISMCTS against the heuristic, in task order."""
    tasks = arena.plan(game, {}, ["ismcts", "heuristic"], 2 * deals, seed,
                       {"iterations": iterations})
    with ProcessPoolExecutor(max_workers=workers, initializer=_setup,
                             initargs=(game, clairvoyant)) as pool:
        return arena.run(tasks, executor=pool)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=cardtable.game_names())
    parser.add_argument("--deals", type=positive, default=40, help="deals, each played twice")
    parser.add_argument("--iterations", type=positive, default=1000,
                        help="ISMCTS iterations a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=positive, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    games = [match(args.game, args.deals, args.iterations, args.seed, args.workers, c)
             for c in (False, True)]
    honest, seer = ([arena.outcome(r, "ismcts") for r in results] for results in games)
    n = len(honest)
    report = {
        "game": args.game, "games": n, "iterations": args.iterations, "seed": args.seed,
        "honest": sum(honest) / n, "clairvoyant": sum(seer) / n,
        "clairvoyant_better": sum(s > h for h, s in zip(honest, seer, strict=True)),
        "clairvoyant_worse": sum(s < h for h, s in zip(honest, seer, strict=True)),
        # the same tasks and seeds: a game that went otherwise saw something else
        "games_played_otherwise": sum((a.scores, a.actions) != (b.scores, b.actions)
                                      for a, b in zip(*games, strict=True)),
    }
    if args.json:
        print(json.dumps(report))
        return
    for name in ("honest", "clairvoyant"):
        low, high = wilson_interval(report[name], n)
        print(f"{name:12} ISMCTS vs heuristic: {report[name]:.1%} of {n} games "
              f"(95% interval {low:.1%}-{high:.1%})")
    print(f"same games: clairvoyant did better in {report['clairvoyant_better']}, "
          f"worse in {report['clairvoyant_worse']}; "
          f"{report['games_played_otherwise']} of {n} went otherwise")


if __name__ == "__main__":
    main()
