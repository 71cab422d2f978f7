"""Draw Bridge: how far each bot kind plays from perfect, as the review measures it.

    python bench/par_loss.py                               # every kind, 40 deals each
    python bench/par_loss.py --kinds heuristic perfect --deals 200 --json

Each kind plays itself (both seats) for ``--deals`` deals that reach the play; every
deal is reviewed (``cardtable.drawbridge.review``) and the report gives, per player and
deal, the mean tricks lost in the play against double dummy and the mean match chance
lost in the auction against par, each with its standard error.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from typing import Any

import cardtable
from _args import positive
from cardtable.bots import KINDS, make
from cardtable.drawbridge.review import review


def errors(values: list[float]) -> dict[str, float]:
    mean = statistics.fmean(values)
    spread = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return {"mean": round(mean, 3), "stderr": round(spread, 3)}


def measure(kind: str, deals: int, seed: int, iterations: int,
            options: dict[str, Any]) -> dict[str, Any]:
    tricks: list[float] = []
    chance: list[float] = []
    match = 0
    while len(tricks) < 2 * deals:
        state = cardtable.new_game("drawbridge", **options).deal(seed=seed + match)
        budget = {"iterations": iterations} if kind == "ismcts" else {}
        bots = [make(kind, seed=seed + match, **budget),
                make(kind, seed=seed + match + 1, **budget)]
        positions = [state.clone()]
        need = deals - len(tricks) // 2
        while not state.is_terminal and len(state.records) < need:  # type: ignore[attr-defined]
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].choose(state))
            positions.append(state.clone())
        for deal in review(positions):
            if deal.contract is None or len(tricks) >= 2 * deals:
                continue
            tricks += deal.tricks_lost
            chance += deal.chance_lost
        match += 1
    return {"kind": kind, "deals": deals, "tricks_lost": errors(tricks),
            "chance_lost": errors(chance)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--deals", type=positive, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=positive, default=200,
                        help="ISMCTS iterations per move")
    parser.add_argument("--undertricks", action="store_true",
                        help="play with the undertricks option")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    options = {"undertricks": args.undertricks}
    rows = [measure(kind, args.deals, args.seed, args.iterations, options)
            for kind in args.kinds]
    if args.json:
        print(json.dumps({"options": options, "rows": rows}))
        return
    print(f"{'kind':10} {'deals':>6} {'tricks lost / player / deal':>28} "
          f"{'match chance lost in the auction':>34}")
    for row in rows:
        t, c = row["tricks_lost"], row["chance_lost"]
        print(f"{row['kind']:10} {row['deals']:>6} {t['mean']:>20.3f} ± {t['stderr']:.3f}"
              f" {c['mean']:>26.3f} ± {c['stderr']:.3f}")


if __name__ == "__main__":
    main()
