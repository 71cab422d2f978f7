"""Does a rollout search make Sequence's value network stronger? Policy improvement by
Monte Carlo rollouts (Tesauro and Galperin's, for TD-Gammon), beside the network played
greedily (``trained``), each against ``heuristic-v1``.

    python bench/rollouts.py --deals 100 --candidates 6 --samples 32 --workers 2 --seed 501
    python bench/rollouts.py --deals 1 --candidates 2 --samples 2 --json

At each move the network names its ``--candidates`` best moves (a dead-card exchange, which
it always takes, and a lone legal move are played at once). Each candidate is played on the
same ``--samples`` determinizations of the cards the seat cannot see
(``state.resample``), and from there the batched ``heuristic-v1``
(``cardtable.vector.sequence_heuristic``, every seat) plays each game out to its end in one
batch of the batched engine; the candidate that won most is played. The candidates share
their determinizations and each determinization's tie-breaking generator (common random
numbers), so they differ by the move, not by the cards. Both bots play the same deals, each
twice with the seats swapped (``cardtable.arena``'s plan for ``--seed``); the figures are
the two win rates and the games one bot won where the other lost. Needs the package's
shipped network and the batched engines (the ``vector`` extra: NumPy and numba).
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

import numpy as np

from _args import positive
from cardtable.bots import sequence_value
from cardtable.core import Action, State
from cardtable.encoders import encoder_for
from cardtable.vector import VectorSequence
from cardtable.vector._kernel import seed_rows
from cardtable.vector.sequence_heuristic import heuristic_actions
from value_search import scored


class Rollouts:
    """The network's best moves, each played out by the batched heuristic (module
    docstring)."""

    def __init__(self, seed: int | None = None, candidates: int = 6, samples: int = 32
                 ) -> None:
        net = sequence_value.shipped()
        if net is None:
            raise SystemExit("rollouts: the package has no Sequence value network")
        self.net = net
        self.candidates, self.samples = int(candidates), int(samples)
        self.rng = random.Random(seed)
        self._engines: dict[Any, Any] = {}

    def reset(self) -> None:
        pass

    def choose(self, state: State) -> Action:
        game = state.game
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if game not in self._engines:
            self._engines[game] = (VectorSequence(**game.options), encoder_for(game))
        engine, encoder = self._engines[game]
        best, values = sequence_value.best_action(self.net, encoder.encode(state, seat),
                                                  [a.id for a in legal])
        if sequence_value.ACT_KIND[best] == sequence_value.K_DEAD:
            return game.actions[best]
        moves = [legal[i] for i in np.argsort(-values, kind="stable")[:self.candidates]]
        k, d = len(moves), self.samples
        dealt = engine.from_states([state.resample(seat, self.rng) for _ in range(d)])
        # every determinization k times, once per candidate, with one generator each
        batch = type(dealt)(*(np.repeat(field, k, axis=0) for field in dealt))
        seed_rows(batch.rngs, (self.rng.getrandbits(40) + np.repeat(np.arange(d), k))
                  .astype(np.uint64))
        won = np.zeros(k * d)
        results = engine.step(batch, np.tile([m.id for m in moves], d), autoreset=False)
        playing = np.ones(k * d, bool)
        while True:
            ended = playing & (results.terminated | results.truncated)
            won[ended] = (results.rewards[ended, seat] + 1) / 2
            playing &= ~ended
            if not playing.any():
                break
            actions = np.where(playing, heuristic_actions(engine, batch), 0)
            results = engine.step(batch, actions, active=playing, autoreset=False)
        return moves[int(np.argmax(won.reshape(d, k).mean(axis=0)))]


def make(seed: int | None = None, candidates: int = 6, samples: int = 32) -> Rollouts:
    """The arena's outside bot ``rollouts:make`` (bench/ on the path)."""
    return Rollouts(seed, candidates, samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=positive, default=100, help="deals, each played twice")
    parser.add_argument("--candidates", type=positive, default=6,
                        help="the network's best moves played out at each move")
    parser.add_argument("--samples", type=positive, default=32,
                        help="determinizations each candidate is played out on")
    parser.add_argument("--seed", type=int, default=501, help="the arena's deal seed")
    parser.add_argument("--workers", type=positive, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bot = f"rollouts:make:candidates={args.candidates}:samples={args.samples}"
    report: dict[str, Any] = {"games": 2 * args.deals, "candidates": args.candidates,
                              "samples": args.samples, "seed": args.seed}
    outcomes = {}
    for name, spec in (("rollouts", bot), ("trained", "trained")):
        outcomes[name], report[name] = scored(name, spec, args.deals, args.seed, args.workers,
                                              args.json)
    pairs = list(zip(outcomes["rollouts"], outcomes["trained"], strict=True))
    report["better"] = sum(a > b for a, b in pairs)
    report["worse"] = sum(a < b for a, b in pairs)
    if args.json:
        print(json.dumps(report))
    else:
        print(f"game by game: rollouts won {report['better']} that trained lost, and lost "
              f"{report['worse']} that it won")


if __name__ == "__main__":
    main()
