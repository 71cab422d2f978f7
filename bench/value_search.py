"""Does search make Sequence's value network stronger? ISMCTS whose leaves it scores,
beside the network played greedily (``trained``), each against ``heuristic-v1``.

    python bench/value_search.py --deals 100 --iterations 300 --workers 2 --seed 501
    python bench/value_search.py --deals 2 --iterations 10 --json

The search is the package's ISMCTS (``cardtable.bots.ismcts``: one tree a move, the
heuristic's progressive bias at the root) with two changes. A node's untried moves are
expanded best first by the network's afterstate value for the seat to move there
(computed once per node, on the determinization that first reaches it; ``--order
random`` expands them as plain ISMCTS does: the root's in the heuristic's order, the
others at random). And a new leaf is scored by that value, the mover's chance to win
just after its move, with no playout: the mover's side gets 2v - 1, the other side
1 - 2v. Both bots play the same
deals, each twice with the seats swapped (``cardtable.arena``'s plan for ``--seed``), so
the two win rates differ by what the bots do, not by the cards. Budgets are in
iterations: a seed gives the same figures on any machine. Needs the package's shipped
network (NumPy only).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

import numpy as np

from _args import positive
from cardtable import arena
from cardtable.arena.ratings import paired_interval
from cardtable.bots import sequence_value
from cardtable.bots.ismcts import ISMCTSBot, Node
from cardtable.core import Action, State
from cardtable.encoders import encoder_for

ORDERS = ("value", "random")


class ValueSearch(ISMCTSBot):
    """ISMCTS with the value network at its leaves (module docstring)."""

    def __init__(self, seed: int | None = None, iterations: int = 300,
                 order: str = "value") -> None:
        super().__init__(seed=seed, iterations=iterations, tree_size=iterations)
        net = sequence_value.shipped()
        if net is None:
            raise SystemExit("value_search: the package has no Sequence value network")
        self.net = net
        self.order = order
        self._encoders: dict[Any, Any] = {}
        #: each expanded node's afterstate values, by action id (nodes hash by identity)
        self._values: dict[Node, dict[int, float]] = {}
        self._leaf: tuple[int, float] | None = None

    def search(self, state: State) -> Any:
        self._values = {}
        try:
            return super().search(state)
        finally:
            self._values = {}

    def _afterstate_values(self, det: State, seat: int, ids: list[int]) -> np.ndarray:
        encoder = self._encoders.get(det.game)
        if encoder is None:
            encoder = self._encoders[det.game] = encoder_for(det.game)
        return self.net.afterstate_values(encoder.encode(det, seat), np.asarray(ids, np.int64))

    def _select(self, det: State, node: Node, bias: dict[int, float]) -> list[Node]:
        self._leaf = None
        return super()._select(det, node, bias)

    def _expansion(self, det: State, node: Node, at_root: bool, untried: list[Action],
                   bias: dict[int, float]) -> Action:
        """Best first by value (or as ISMCTS does); the expanded move's value is kept as the
        new leaf's."""
        mover = det.current_player
        assert mover is not None
        value = None
        if self.order == "value":
            known = self._values.get(node)
            if known is None:
                ids = [a.id for a in det.legal_actions()]
                values = self._afterstate_values(det, mover, ids)
                known = self._values[node] = dict(zip(ids, values.tolist(), strict=True))
            action = max(untried, key=lambda a: known.get(a.id, -1.0))
            value = known.get(action.id)
        else:
            action = super()._expansion(det, node, at_root, untried, bias)
        if value is None:
            value = float(self._afterstate_values(det, mover, [action.id])[0])
        self._leaf = (mover, value)
        return action

    def _playout(self, det: State, heuristic: Any, rng: Any) -> list[float]:
        if det.is_terminal or self._leaf is None:
            return det.returns()
        mover, value = self._leaf
        team_of: Callable[[int], int] = det.game.team_of
        lead = 2.0 * value - 1.0
        return [lead if team_of(s) == team_of(mover) else -lead
                for s in range(det.game.num_players)]


def make(seed: int | None = None, iterations: int = 300, order: str = "value") -> ValueSearch:
    """The arena's outside bot ``value_search:make`` (bench/ on the path)."""
    return ValueSearch(seed, iterations, order)


def match(bot: str, deals: int, seed: int, workers: int) -> list[float]:
    """``bot``'s result in each game against heuristic-v1, in task order (deal by deal)."""
    tasks = arena.plan("sequence", {}, [bot, "heuristic-v1"], 2 * deals, seed)
    results = arena.run(tasks, workers=workers)
    return [arena.outcome(r, bot) for r in results]


def scored(name: str, bot: str, deals: int, seed: int, workers: int, quiet: bool
           ) -> tuple[list[float], dict[str, float]]:
    """``bot``'s games against heuristic-v1 (``match``) and its win rate with the paired
    interval over deals, printed as a line unless ``quiet``."""
    games = match(bot, deals, seed, workers)
    rate, low, high = paired_interval([(a + b) / 2 for a, b in
                                       zip(games[::2], games[1::2], strict=True)])
    if not quiet:
        print(f"{name:8} vs heuristic-v1: {rate:.1%} of {len(games)} games "
              f"(paired over deals {low:.1%}-{high:.1%})", flush=True)
    return games, {"win_rate": rate, "paired_low": low, "paired_high": high}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=positive, default=100, help="deals, each played twice")
    parser.add_argument("--iterations", type=positive, default=300,
                        help="search iterations a move")
    parser.add_argument("--order", choices=ORDERS, default="value",
                        help="expand a node's moves best first by value, or at random")
    parser.add_argument("--seed", type=int, default=501, help="the arena's deal seed")
    parser.add_argument("--workers", type=positive, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    search = f"value_search:make:iterations={args.iterations}:order={args.order}"
    report: dict[str, Any] = {"games": 2 * args.deals, "iterations": args.iterations,
                              "order": args.order, "seed": args.seed}
    for name, bot in (("search", search), ("trained", "trained")):
        _, report[name] = scored(name, bot, args.deals, args.seed, args.workers, args.json)
    if args.json:
        print(json.dumps(report))


if __name__ == "__main__":
    main()
