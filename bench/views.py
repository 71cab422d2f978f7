"""View time along one long Draw Bridge match: flat, however long the match has run.

    python bench/views.py                       # moves 10, 1,000 and 10,000
    python bench/views.py --moves 10 100 --window 20 --repeats 3 --json

One seeded random match is played with a target no deal can reach (so it never
ends); at each mark N the view of both seats and of a spectator is timed at every
move from N to N + window - 1 (the mean over a window of a few deals evens out where
in a deal the mark falls), in CPU time, the best of ``--repeats`` rounds that take the
marks in turn after a few untimed calls (so that neither the first calls of the process
nor a burst of load on a busy machine falls on one mark only). Reported per mark:
microseconds per ``view(seat, history=False)``, per ``view(seat)`` (with the history,
which grows; timed once) and per ``observation(seat)``, then the ratios of each mark's
time to the first mark's: ``history=False`` and ``observation`` stay within 2x
(tests/test_bench.py checks it from move 10 to 10,000).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import cardtable
from _args import positive

SEATS = (None, 0, 1)


def time_per_call(states: list[cardtable.State], call: str) -> float:
    """Mean seconds of one call of ``call`` (a name below) over every state and seat, in
    this thread's CPU time (other processes on a busy machine do not count)."""
    start = time.thread_time()
    for state in states:
        for seat in SEATS:
            if call == "view":
                state.view(seat, history=False)
            elif call == "view_with_history":
                state.view(seat)
            else:
                state.observation(seat)
    return (time.thread_time() - start) / (len(states) * len(SEATS))


def best_times(windows: list[list[cardtable.State]], call: str, repeats: int) -> list[float]:
    """The best of ``repeats`` rounds for each window, after a few calls untimed (the
    first calls of a process fill caches); each round times every window in turn, so
    that a burst of load on a busy machine falls on all of them alike."""
    for states in windows:
        time_per_call(states[:10], call)
    best = [float("inf")] * len(windows)
    for _ in range(repeats):
        for k, states in enumerate(windows):
            best[k] = min(best[k], time_per_call(states, call))
    return best


def measure(marks: list[int], window: int, repeats: int, seed: int) -> dict[str, Any]:
    game = cardtable.new_game("drawbridge", target=10**9)
    state = game.deal(seed=seed)
    rng = random.Random(seed)
    marks = sorted(marks)
    windows: dict[int, list[cardtable.State]] = {mark: [] for mark in marks}
    moves = 0
    while moves < marks[-1] + window:
        for mark in marks:
            if mark <= moves < mark + window:
                windows[mark].append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
        moves += 1
    states = [windows[mark] for mark in marks]
    views = best_times(states, "view", repeats)
    # once is enough: it is slow, and shows the growth plainly
    with_history = best_times(states, "view_with_history", 1)
    observations = best_times(states, "observation", repeats)
    rows = [{"move": mark, "view_us": round(1e6 * views[k], 2),
             "view_with_history_us": round(1e6 * with_history[k], 2),
             "observation_us": round(1e6 * observations[k], 2)}
            for k, mark in enumerate(marks)]
    first = rows[0]
    for row in rows:
        for key in ("view", "view_with_history", "observation"):
            row[f"{key}_ratio"] = round(row[f"{key}_us"] / first[f"{key}_us"], 2)
    return {"game": "drawbridge", "window": window, "repeats": repeats, "seed": seed,
            "marks": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=positive, nargs="+", default=[10, 1_000, 10_000],
                        help="the marks: moves played before the views are timed")
    parser.add_argument("--window", type=positive, default=300,
                        help="moves timed from each mark on (default 300, a few deals: "
                             "a view costs more in some phases of a deal than in others)")
    parser.add_argument("--repeats", type=positive, default=20,
                        help="rounds of timing; the best is kept (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    report = measure(args.moves, args.window, args.repeats, args.seed)
    if args.json:
        print(json.dumps(report))
        return
    print(f"Draw Bridge, one match (seed {args.seed}); mean over {args.window} moves from each "
          "mark, seats 0, 1 and a spectator")
    print(f"{'move':>8} {'view(history=False)':>22} {'view()':>18} {'observation':>18}")
    for row in report["marks"]:
        print(f"{row['move']:>8,} {row['view_us']:>10.1f} us {row['view_ratio']:>5.2f}x "
              f"{row['view_with_history_us']:>8.1f} us {row['view_with_history_ratio']:>5.2f}x "
              f"{row['observation_us']:>8.1f} us {row['observation_ratio']:>5.2f}x")


if __name__ == "__main__":
    main()
