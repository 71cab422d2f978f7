"""How often ISMCTS picks the heuristic's move, and how clearly it prefers another.

    python bench/agreement.py sequence --games 6 --iterations 2000 --workers 2
    python bench/agreement.py threethirteen --games 2 --json

Plays ``--games`` games of the game's heuristic against itself (deal seeds
``--seed``, ``--seed`` + 1, ...) and, in every position with more than one
legal move, asks ISMCTS (``--iterations`` a move, seeded) for its move without
playing it. Reports the share of positions where the search picks one of the
heuristic's best-scored moves, and, where it departs, how many more visits its
move had than the heuristic's: a search that departs by a hair cannot beat the
heuristic by much, whatever its departures are worth. Budgets are in
iterations, so a seed gives the same figures on any machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
from concurrent.futures import ProcessPoolExecutor

import cardtable
from _args import positive
from cardtable.bots import make
from cardtable.bots.base import heuristic_for
from cardtable.bots.ismcts import ISMCTSBot


def positions(game: str, seed: int, iterations: int) -> list[float | None]:
    """One game of the heuristic against itself: per position with a choice, None where the
    search picks a heuristic favourite, else its move's visits over the favourite's."""
    heuristic = heuristic_for(game)
    state = cardtable.new_game(game).deal(seed=seed)
    player = make("heuristic", seed=seed)
    search = ISMCTSBot(seed=seed, iterations=iterations)
    out: list[float | None] = []
    while not state.is_terminal:
        if len(state.legal_actions()) > 1:
            result = search.search(state)
            scored = heuristic.scores(state, state.current_player)  # type: ignore[arg-type]
            top = max(score for score, _ in scored)
            favourites = [a for score, a in scored if score == top]
            if result.action in favourites:
                out.append(None)
            else:
                rival = max(result.visits.get(str(a), 0) for a in favourites)
                out.append(result.visits[str(result.action)] / max(rival, 1))
        state.apply(player.choose(state))
    return out


def report(game: str, games: int, iterations: int, seed: int, workers: int) -> dict[str, object]:
    seeds = range(seed, seed + games)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        per_game = list(pool.map(positions, [game] * games, seeds, [iterations] * games))
    found = [x for g in per_game for x in g]
    departures = sorted(x for x in found if x is not None)
    return {
        "game": game, "games": games, "iterations": iterations, "seed": seed,
        "positions": len(found),
        "agree": len(found) - len(departures),
        "agreement": round((len(found) - len(departures)) / max(len(found), 1), 4),
        "departures": len(departures),
        "median_visit_ratio": round(statistics.median(departures), 3) if departures else None,
        "within_10_percent": sum(x < 1.1 for x in departures),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=cardtable.game_names())
    parser.add_argument("--games", type=positive, default=6, help="games to play (default 6)")
    parser.add_argument("--iterations", type=positive, default=2000,
                        help="ISMCTS iterations a move (default 2000)")
    parser.add_argument("--seed", type=int, default=2000, help="first deal seed (default 2000)")
    parser.add_argument("--workers", type=positive, default=1,
                        help="processes (default 1)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args()
    out = report(args.game, args.games, args.iterations, args.seed, args.workers)
    if args.json:
        print(json.dumps(out))
        return
    plural = "s" if out["games"] != 1 else ""
    print(f"{out['game']}: {out['games']} game{plural} of the heuristic against itself, "
          f"ISMCTS at {out['iterations']} iterations a move")
    print(f"  picks a heuristic favourite in {out['agree']} of {out['positions']} positions "
          f"({100 * out['agreement']:.1f}%)")  # type: ignore[operator]
    if out["departures"]:
        print(f"  where it departs ({out['departures']}): median visits of its move over the "
              f"heuristic's {out['median_visit_ratio']}, within 10% in "
              f"{out['within_10_percent']}")


if __name__ == "__main__":
    main()
