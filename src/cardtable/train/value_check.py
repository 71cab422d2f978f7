"""The Sequence review's losses against play (``python -m cardtable.train.value_check``):
is a move the review calls costly really costly?

A move's result alone says little (Sequence's luck drowns one move, and a player who can
let a win go is already winning), so each move the review judges is replayed: from the
position before it, the hidden cards dealt afresh from the mover's view ``repeats`` times
(``State.resample``), the move played and the review's best move each continued to the
end by ``heuristic-v1`` on both sides (the batched engine and its batched heuristic). The
difference of the mover's win rates between the two is the move's *measured* loss, to be
set beside the review's (docs/training.md, "Reviews").
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

import numpy as np

import cardtable
from cardtable import records
from cardtable.bots import make


class Careless:
    """Sequence's heuristic, but a random legal move ``share`` of the time."""

    def __init__(self, seed: int, share: float = 0.15) -> None:
        self.bot = make("heuristic", seed=seed)
        self.rng = random.Random(seed)
        self.share = share

    def choose(self, state: Any) -> Any:
        if self.rng.random() < self.share:
            return self.rng.choice(state.legal_actions())
        return self.bot.choose(state)


def careless_game(seed: int, share: float = 0.15) -> records.Record:
    state = cardtable.new_game("sequence").deal(seed=seed)
    pair = [Careless(seed, share), Careless(seed + 7, share)]
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        state.apply(pair[seat].choose(state))
    return records.record_of(state)


def playouts(pairs: list[tuple[Any, Any, int]]) -> np.ndarray:
    """For (state a, state b, seat) triples, 1 where ``seat`` won, 1/2 a draw, 0 a loss,
    each state played to its end by heuristic-v1: (len(pairs), 2)."""
    from cardtable.vector.sequence import VectorSequence
    from cardtable.vector.sequence_heuristic import heuristic_actions

    engine = VectorSequence(players=2)
    states = [s for a, b, _ in pairs for s in (a, b)]
    batch = engine.from_states(states)
    score = np.full(len(states), 0.5)
    over = batch.over.astype(bool).copy()
    for i, s in enumerate(states):   # a move that ended the game
        if s.is_terminal:
            score[i] = (s.returns()[pairs[i // 2][2]] + 1) / 2
    while not over.all():
        actions = heuristic_actions(engine, batch)
        res = engine.step(batch, np.where(over, 0, actions), active=~over, autoreset=False)
        ended = ~over & (np.asarray(res.terminated) | np.asarray(res.truncated))
        for i in np.flatnonzero(ended).tolist():
            score[i] = (res.rewards[i, pairs[i // 2][2]] + 1) / 2
        over |= ended
    return score.reshape(-1, 2)


def measured_losses(record: records.Record, review: dict[str, Any], repeats: int,
                    rng: random.Random, verdicts: tuple[str | None, ...]) -> list[dict[str, Any]]:
    """Each judged move (its verdict in ``verdicts``) with its review loss and its
    measured loss (100 x the best move's win rate less the played move's, over
    ``repeats`` resamplings)."""
    out = []
    for state, move in zip(records.positions(record), review["moves"], strict=False):
        if move["verdict"] not in verdicts or move["played"] == move["best"]:
            continue
        seat = move["seat"]
        pairs = []
        for _ in range(repeats):
            world = state.resample(seat, rng)
            pairs.append((world.after(move["played"]), world.after(move["best"]), seat))
        score = playouts(pairs)
        out.append({"verdict": move["verdict"], "loss": move["loss"],
                    "measured": round(100 * float(score[:, 1].mean() - score[:, 0].mean()), 2)})
    return out


def main(argv: list[str] | None = None) -> None:
    from cardtable.review import review

    parser = argparse.ArgumentParser(prog="python -m cardtable.train.value_check")
    parser.add_argument("--seeds", default="300-340", help="deal seeds, FIRST-LAST")
    parser.add_argument("--repeats", type=int, default=64)
    parser.add_argument("--share", type=float, default=0.15)
    args = parser.parse_args(argv)
    first, last = (int(x) for x in args.seeds.split("-"))
    rng = random.Random(first)
    rows = []
    for seed in range(first, last):
        record = careless_game(seed, args.share)
        rows += measured_losses(record, review(record), args.repeats, rng,
                                ("blunder", "mistake", "inaccuracy", None))
    for word in ("blunder", "mistake", "inaccuracy", None):
        mine = [r for r in rows if r["verdict"] == word]
        if mine:
            print(json.dumps({"verdict": word, "moves": len(mine),
                              "review_loss": round(float(np.mean([r["loss"] for r in mine])), 2),
                              "measured_loss": round(float(np.mean([r["measured"]
                                                                    for r in mine])), 2)}))


if __name__ == "__main__":
    main()
