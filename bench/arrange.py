"""Speed of ``cardtable.threethirteen.arrange``: microseconds per hand, per family of hands.

    python bench/arrange.py                 # every family, default sizes (about 10 s)
    python bench/arrange.py --hands 500 --json

Each family is a stream of random hands (a fixed seed); a hand is timed once. The solver
memoizes per-suit results by rank pattern and shares them across hands, so the first
hands of a process are slower: "cold" is the first ``--hands`` hands of each family in a
fresh process, "warm" is another ``--hands`` after ``--warmup`` random hands of every
family. Round 11 is kings wild; a two-deck 14-card hand is a round-11 hand after a draw.

The baseline, timed in the same process: one bare ``rng.choice`` call (bench/_baseline.py);
each warm median is also given in those calls, a figure that compares across machines.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from _args import positive
from _baseline import choice_call_seconds
from cardtable.cards import CARD_NAMES
from cardtable.threethirteen import arrange

CLOCK = [time.thread_time_ns]

# (name, decks, cards, round, at least this many wild cards)
FAMILIES = [
    ("round 11, two decks, 14 cards", 2, 14, 11, 0),
    ("round 11, two decks, 14 cards, 4+ wild", 2, 14, 11, 4),
    ("round 11, one deck, 14 cards", 1, 14, 11, 0),
    ("round 11, three decks, 14 cards, 4+ wild", 3, 14, 11, 4),
    ("round 6, two decks, 9 cards, 4+ wild", 2, 9, 6, 4),
]


def hands(rng: random.Random, decks: int, size: int, round_: int, wild: int,
          count: int) -> list[list[str]]:
    deck = [name for name in CARD_NAMES for _ in range(decks)]
    rank = "A23456789TJQK"[round_ + 1]
    out: list[list[str]] = []
    while len(out) < count:
        hand = rng.sample(deck, size)
        if sum(card[0] == rank for card in hand) >= wild:
            out.append(hand)
    return out


def timed(stream: list[list[str]], round_: int) -> list[float]:
    """Microseconds per call, one call per hand (the thread's CPU time: other processes
    sharing the machine do not count; use ``--wall`` for elapsed time)."""
    out = []
    clock = CLOCK[0]
    for hand in stream:
        start = clock()
        arrange(hand, round_)
        out.append((clock() - start) / 1000)
    return out


def summary(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    return {"median_us": round(statistics.median(times), 1),
            "p90_us": round(times[int(0.9 * (len(times) - 1))], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=positive, default=800,
                        help="hands timed per family and pass")
    parser.add_argument("--warmup", type=positive, default=3000,
                        help="hands of each family seen before the warm pass")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wall", action="store_true", help="time elapsed, not CPU, time")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.wall:
        CLOCK[0] = time.perf_counter_ns
    rng = random.Random(args.seed)
    results: list[dict[str, Any]] = []
    for name, decks, size, round_, wild in FAMILIES:
        stream = hands(rng, decks, size, round_, wild, args.hands)
        results.append({"family": name, "cold": summary(timed(stream, round_))})
    for _, decks, size, round_, wild in FAMILIES:
        timed(hands(rng, decks, size, round_, wild, args.warmup), round_)
    base_us = 1e6 * choice_call_seconds(clock=lambda: CLOCK[0]() / 1e9)
    for row, (_, decks, size, round_, wild) in zip(results, FAMILIES, strict=True):
        row["warm"] = summary(timed(hands(rng, decks, size, round_, wild, args.hands), round_))
        row["warm_median_in_choice_calls"] = round(row["warm"]["median_us"] / base_us)
    if args.json:
        print(json.dumps({"choice_call_us": round(base_us, 4), "families": results}, indent=2))
        return
    print(f"{'family':44} {'cold median':>11} {'p90':>8} {'warm median':>12} {'p90':>8}  (us)"
          "  warm median in rng.choice calls")
    for row in results:
        cold, warm = row["cold"], row["warm"]
        print(f"{row['family']:44} {cold['median_us']:11.1f} {cold['p90_us']:8.1f} "
              f"{warm['median_us']:12.1f} {warm['p90_us']:8.1f}  "
              f"{row['warm_median_in_choice_calls']:>8,}")
    print(f"baseline: one rng.choice call {base_us:.3f} us, in this process, on the same clock")


if __name__ == "__main__":
    main()
