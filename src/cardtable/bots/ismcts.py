"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

One tree over the acting seat's information sets: each iteration deals a
determinization with ``state.resample(seat, rng)``, walks the tree choosing among
the actions legal in that determinization (UCB1 with availability counts),
expands one node, plays the rest out (random, or guided by the game's heuristic),
and backs the result up to every node from the view of the seat that moved into it.
Game-agnostic: it needs only the API of API.md, and never reads a hidden card.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from cardtable.bots.base import Heuristic, HeuristicBot, heuristic_for
from cardtable.core import Action, OptionsError, State


class Node:
    __slots__ = ("player", "visits", "total", "avail", "children")

    def __init__(self, player: int) -> None:
        self.player = player  # the seat whose action led here
        self.visits = 0
        self.total = 0.0  # sum of rewards in [0, 1] for that seat
        self.avail = 1
        self.children: dict[int, Node] = {}


@dataclass(frozen=True)
class SearchResult:
    action: Action
    #: the estimated chance of winning after ``action`` for the seat to act, in [0, 1]
    win_probability: float
    iterations: int
    #: visits of each root action, by notation
    visits: dict[str, int]


class ISMCTSBot:
    """ISMCTS with a budget in ``iterations`` or ``seconds`` per move."""

    def __init__(self, seed: int | None = None, iterations: int | None = None,
                 seconds: float | None = None, rollout: str = "random",
                 exploration: float = 0.7, max_rollout_steps: int | None = None,
                 prior: float = 1.0) -> None:
        if iterations is None and seconds is None:
            iterations = 1000
        if iterations is not None and (isinstance(iterations, bool)
                                       or not isinstance(iterations, int) or iterations < 1):
            raise OptionsError(f"iterations must be a positive integer, not {iterations!r}")
        if seconds is not None and (isinstance(seconds, bool)
                                    or not isinstance(seconds, int | float) or seconds <= 0):
            raise OptionsError(f"seconds must be a positive number, not {seconds!r}")
        if rollout not in ("random", "heuristic"):
            raise OptionsError(f"rollout must be 'random' or 'heuristic', not {rollout!r}")
        self.seed = seed
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout
        self.exploration = exploration
        self.max_rollout_steps = max_rollout_steps
        self.prior = prior
        self.reset()

    def reset(self) -> None:
        self.rng = random.Random(self.seed)
        self._guide = HeuristicBot(seed=None if self.seed is None else self.seed + 1)

    def choose(self, state: State) -> Action:
        return self.search(state).action

    def search(self, state: State) -> SearchResult:
        seat = state.current_player
        if seat is None:
            raise OptionsError("the game is over: there is no move to choose")
        legal = state.legal_actions()
        heuristic = _heuristic_or_none(state.game.name)
        horizon: int = (self.max_rollout_steps if self.max_rollout_steps is not None
                        else getattr(heuristic, "rollout_horizon", 10_000))
        root = Node(seat)
        rng = self.rng
        bias = self._root_bias(state, seat, heuristic)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done % 16 == 0 and time.perf_counter() >= deadline:
                break
            self._iterate(state.resample(seat, rng), root, horizon, heuristic, bias)
            done += 1
        by_id = {a.id: a for a in legal}
        visited = [(child.visits, aid) for aid, child in root.children.items() if aid in by_id]
        if not visited:
            return SearchResult(rng.choice(legal), 0.5, done, {})
        _, best = max(visited)
        child = root.children[best]
        return SearchResult(
            by_id[best], child.total / child.visits, done,
            {str(by_id[aid]): ch.visits for aid, ch in root.children.items() if aid in by_id},
        )

    def _root_bias(self, state: State, seat: int, heuristic: Heuristic | None) -> dict[int, float]:
        """Progressive bias at the root from the game's heuristic (read from the seat's view):
        its favourite move gets ``prior``, the others less, fading as visits come in."""
        if heuristic is None or not self.prior:
            return {}
        scored = heuristic.scores(state, seat)
        ranked = sorted({score for score, _ in scored}, reverse=True)
        return {a.id: self.prior / (1 + ranked.index(score)) for score, a in scored}

    def _iterate(self, det: State, root: Node, horizon: int, heuristic: Heuristic | None,
                 bias: dict[int, float]) -> None:
        rng = self.rng
        c = self.exploration
        node = root
        path = []
        # selection and expansion
        while not det.is_terminal:
            legal = det.legal_actions()
            children = node.children
            untried = [a for a in legal if a.id not in children]
            if untried:
                for a in legal:
                    if a.id in children:
                        children[a.id].avail += 1
                if node is root and bias:
                    action = max(untried, key=lambda a: bias.get(a.id, 0.0))
                else:
                    action = untried[rng.randrange(len(untried))]
                child = children[action.id] = Node(det.current_player)  # type: ignore[arg-type]
                det.apply(action)
                path.append(child)
                break
            best_value = -1.0
            best = legal[0]
            at_root = node is root and bias
            for a in legal:
                ch = children[a.id]
                ch.avail += 1
                value = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if at_root:
                    value += bias.get(a.id, 0.0) / (ch.visits + 1)
                if value > best_value:
                    best_value, best = value, a
            det.apply(best)
            node = children[best.id]
            path.append(node)
        # rollout
        steps = 0
        guide = self._guide if self.rollout == "heuristic" and heuristic is not None else None
        while not det.is_terminal and steps < horizon:
            if guide is not None:
                det.apply(guide.choose(det))
            else:
                det.apply(rng.choice(det.legal_actions()))
            steps += 1
        if det.is_terminal:
            rewards = det.returns()
        elif heuristic is not None:
            rewards = heuristic.evaluate(det)
        else:
            rewards = [0.0] * det.game.num_players
        for n in path:
            n.visits += 1
            n.total += (rewards[n.player] + 1.0) / 2.0


def _heuristic_or_none(game_name: str) -> Heuristic | None:
    try:
        return heuristic_for(game_name)
    except OptionsError:
        return None
