"""Speed of the Draw Bridge solver (cardtable.drawbridge.solver) on deals from real draw phases.

    python bench/solver.py                       # 200 deals, the fastest engine installed
    python bench/solver.py --deals 1000 --engine python --json

The deals: matches between heuristic bots, each played through its draw phase; the
hands at the auction are what the solver gets. For each deal, each timed with a fresh
transposition table:

- ``full``: a 13-trick solve from the first lead (a strain and declarer drawn per deal);
- ``par``: the trick table of every strain and declarer, and the par auction over it;
- ``trick3``: a solve from the start of trick 3, the first two tricks played perfectly.

Baselines timed in the same run, as ratios: a brute-force minimax (no pruning, no
merging, no table) against the solver on the last 4 tricks of each deal, and an ISMCTS
move (today's strongest bot, ``--iterations`` per move) at the first lead.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import cardtable
from _args import positive
from cardtable.bots import make
from cardtable.cards import cards_of
from cardtable.drawbridge import DrawBridgeState
from cardtable.drawbridge.solver import (
    Auction,
    PlayPosition,
    card_values,
    default_engine,
    solve,
    trick_table,
)

#: 1.5: the trump suit of each strain (card suits 0..3), None in no trump
TRUMPS = (3, 2, 1, 0, None)


def auction_hands(seed: int) -> tuple[int, int]:
    """The hands at the auction of a deal whose draw phase heuristic bots played."""
    state = cardtable.new_game("drawbridge").deal(seed=seed)
    assert isinstance(state, DrawBridgeState)
    bots = [make("heuristic", seed=seed), make("heuristic", seed=seed + 1)]
    while state.phase == "draw":
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].choose(state))
    return state.hand_masks


def brute(hands: list[list[int]], to_move: int, lead: int | None, trump: int | None) -> int:
    """Seat 0's tricks by plain minimax over every legal card."""
    hand = hands[to_move]
    if lead is None and not hand:
        return 0
    suited = [c for c in hand if lead is not None and c // 13 == lead // 13]
    values = []
    for card in suited or hand:
        rest = [list(h) for h in hands]
        rest[to_move].remove(card)
        if lead is None:
            values.append(brute(rest, 1 - to_move, card, trump))
            continue
        same = card // 13 == lead // 13
        wins = (card % 13 - 1) % 13 > (lead % 13 - 1) % 13 if same else card // 13 == trump
        winner = to_move if wins else 1 - to_move
        values.append((winner == 0) + brute(rest, winner, None, trump))
    return max(values) if to_move == 0 else min(values)


def perfect_play(position: PlayPosition, cards: int, engine: str) -> PlayPosition:
    """``position`` after ``cards`` cards played perfectly (the best card, lowest first)."""
    hands = list(position.hands)
    to_move, lead = position.to_move, position.lead
    for _ in range(cards):
        p = PlayPosition((hands[0], hands[1]), position.strain, to_move, lead)
        values = card_values(p, engine)
        card = max(sorted(values), key=values.__getitem__)
        hands[to_move] ^= 1 << card
        if lead is None:
            lead, to_move = card, 1 - to_move
            continue
        same = card // 13 == lead // 13
        trump = TRUMPS[position.strain]
        wins = (card % 13 - 1) % 13 > (lead % 13 - 1) % 13 if same else card // 13 == trump
        to_move = to_move if wins else 1 - to_move
        lead = None
    return PlayPosition((hands[0], hands[1]), position.strain, to_move, lead)


def timed(fn: Any, *args: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - start, out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(values: list[float]) -> dict[str, float]:
    return {"median_ms": round(1000 * statistics.median(values), 3),
            "p99_ms": round(1000 * percentile(values, 0.99), 3),
            "max_ms": round(1000 * max(values), 3)}


def ismcts_move(seed: int, iterations: int) -> float:
    """Seconds of one ISMCTS move at the first lead of a deal (its draw phase played by
    heuristic bots, the auction by the heuristic)."""
    state = cardtable.new_game("drawbridge").deal(seed=seed)
    assert isinstance(state, DrawBridgeState)
    bots = [make("heuristic", seed=seed), make("heuristic", seed=seed + 1)]
    while state.phase != "play":  # a passed-out deal: the next one
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].choose(state))
    bot = make("ismcts", seed=seed, iterations=iterations)
    start = time.perf_counter()
    bot.choose(state)
    return time.perf_counter() - start


def run(deals: int, engine: str, seed: int, iterations: int, ismcts_moves: int) -> dict[str, Any]:
    rng = random.Random(seed)
    # warm up (the numba engine compiles on first use)
    solve(PlayPosition((1, 2), 0, 0), engine)
    full: list[float] = []
    par: list[float] = []
    trick3: list[float] = []
    brute_s: list[float] = []
    small_s: list[float] = []
    for i in range(deals):
        hands = auction_hands(seed + i)
        strain, declarer = rng.randrange(5), rng.randrange(2)
        start = PlayPosition(hands, strain, 1 - declarer)
        full.append(timed(solve, start, engine)[0])
        t, table = timed(trick_table, hands, engine)
        t2, _ = timed(Auction(table, (0, 0), 100, True, i % 2).par)
        par.append(t + t2)
        at3 = perfect_play(start, 4, engine)
        trick3.append(timed(solve, at3, engine)[0])
        if i < max(1, deals // 10):
            # the last 4 tricks: the brute force against the solver
            late = perfect_play(start, 18, engine)
            small_s.append(timed(solve, late, engine)[0])
            cards = [cards_of(late.hands[0]), cards_of(late.hands[1])]
            t, value = timed(brute, cards, late.to_move, late.lead, TRUMPS[strain])
            assert value == solve(late, engine)[0]
            brute_s.append(t)
    ismcts = [ismcts_move(seed + i, iterations) for i in range(ismcts_moves)]
    return {
        "engine": engine, "deals": deals,
        "full": ms(full), "par": ms(par), "trick3": ms(trick3),
        "last4_solver": ms(small_s), "last4_brute_force": ms(brute_s),
        "brute_force_over_solver": round(statistics.median(brute_s)
                                         / statistics.median(small_s), 1),
        "ismcts_iterations": iterations, "ismcts_move": ms(ismcts),
        "ismcts_move_over_full_solve": round(statistics.median(ismcts)
                                             / statistics.median(full), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=positive, default=200)
    parser.add_argument("--engine", choices=("numba", "python"), default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=positive, default=1000,
                        help="ISMCTS iterations per move (the bot's default)")
    parser.add_argument("--ismcts-moves", type=positive, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = run(args.deals, args.engine or default_engine(), args.seed, args.iterations,
                 args.ismcts_moves)
    if args.json:
        print(json.dumps(report))
        return
    for key, value in report.items():
        print(f"{key:28} {value}")


if __name__ == "__main__":
    main()
