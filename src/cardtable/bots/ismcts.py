"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

One tree over the acting seat's information sets: each iteration deals a
determinization with ``state.resample(seat, rng)``, walks the tree choosing among
the actions legal in that determinization (UCB1 with availability counts),
expands one node, plays the rest out, and backs the result up to every node from
the view of the seat that moved into it.
Game-agnostic: it needs only the API of API.md, and never reads a hidden card.

Two things a game's heuristic (``cardtable.bots.base.Heuristic``) may tune:

- the playout: by default the game's own ``playout`` when it has one (a fast policy
  for a few turns or to a natural end, scored there: Three Thirteen plays two turns a
  seat and scores the hands as they stand), else random
  moves for at most its ``rollout_horizon`` steps, then its ``evaluate``;
- the root: UCB1 chooses which root action each iteration explores, or, with the
  game's ``root = "paired"``, every determinization is played after *every* root
  action with the same playout randomness (common random numbers), and the search
  departs from the heuristic's own move only for a move whose paired advantage is
  significant (``SIGNIFICANCE`` standard errors). Games whose outcome hangs on long
  chains of chance (the stock in rummy) need the pairing: unpaired, the noise of one
  playout dwarfs the difference between two discards. With ``root = "flat"`` every
  root action is played out on every determinization the same way, with no tree below
  the root, and the best mean wins: the game's playout is then the model of what
  follows (Draw Bridge's auction, where a tree would answer each call with the
  opponent's untried calls at random). A game may choose its root per position with
  ``root_for(state)``.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from cardtable.bots.base import Heuristic, HeuristicBot, heuristic_for
from cardtable.core import Action, IllegalActionError, OptionsError, State

ROLLOUTS = ("game", "random", "heuristic")
ROOTS = ("ucb", "paired", "flat")
#: how many standard errors a paired advantage needs before the search leaves the
#: heuristic's move ("paired" root)
SIGNIFICANCE = 2.0
#: the "paired" root weighs the heuristic's best few moves only
PAIRED_WIDTH = 5


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
    #: the estimated chance of winning after each root action, by notation
    values: dict[str, float] = field(default_factory=dict)


class ISMCTSBot:
    """ISMCTS with a budget in ``iterations`` or ``seconds`` per move."""

    def __init__(self, seed: int | None = None, iterations: int | None = None,
                 seconds: float | None = None, rollout: str = "game",
                 exploration: float = 0.7, max_rollout_steps: int | None = None,
                 prior: float = 1.0, root: str | None = None,
                 tree_size: int | None = None) -> None:
        if iterations is None and seconds is None:
            iterations = 1000
        _check_count("iterations", iterations)
        _check_count("tree_size", tree_size)
        if seconds is not None and (isinstance(seconds, bool)
                                    or not isinstance(seconds, int | float) or seconds <= 0):
            raise OptionsError(f"seconds must be a positive number, not {seconds!r}")
        if rollout not in ROLLOUTS:
            raise OptionsError(f"rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        if root is not None and root not in ROOTS:
            raise OptionsError(f"root must be one of {', '.join(ROOTS)}, not {root!r}")
        self.seed = seed
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout
        self.exploration = exploration
        self.max_rollout_steps = max_rollout_steps
        self.prior = prior
        self.root = root
        self.tree_size = tree_size
        self.reset()

    def reset(self) -> None:
        self.rng = random.Random(self.seed)
        self._guide = HeuristicBot(seed=None if self.seed is None else self.seed + 1)

    def choose(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:  # a forced move: nothing to think about
            return legal[0]
        return self.search(state).action

    def search(self, state: State) -> SearchResult:
        seat = state.current_player
        if seat is None:
            raise IllegalActionError("the game is over: there is no move to choose")
        heuristic = _heuristic_or_none(state.game.name)
        root_mode = self.root or _game_root(heuristic, state)
        if root_mode == "paired":
            return self._search_paired(state, seat, heuristic)
        if root_mode == "flat":
            return self._search_flat(state, seat, heuristic)
        legal = state.legal_actions()
        tree_size = self.tree_size or (heuristic.tree_size if heuristic is not None else None)
        rng = self.rng
        bias = self._root_bias(state, seat, heuristic)
        deadline = self._deadline()
        done = 0
        trees = []
        while not self._spent(done, deadline):
            root = Node(seat)
            trees.append(root)
            grown = 0
            while not self._spent(done, deadline) and (tree_size is None or grown < tree_size):
                det = state.resample(seat, rng)
                path = self._select(det, root, bias)
                self._backup(path, self._playout(det, heuristic, rng))
                done += 1
                grown += 1
        root = _merged(trees, seat)
        by_id = {a.id: a for a in legal}
        visited = [(child.visits, aid) for aid, child in root.children.items() if aid in by_id]
        if not visited:
            return SearchResult(rng.choice(legal), 0.5, done, {})
        _, best = max(visited)
        return self._result(root, by_id, best, done)

    def _search_paired(self, state: State, seat: int, heuristic: Heuristic | None
                       ) -> SearchResult:
        """The "paired" root (module docstring): every root action on every determinization."""
        candidates = state.legal_actions()
        by_id = {a.id: a for a in candidates}
        favourite = None
        if heuristic is not None:
            ranked = sorted(heuristic.scores(state, seat), key=_score, reverse=True)
            favourite = ranked[0][1].id
            candidates = [a for _, a in ranked[:PAIRED_WIDTH]]
        wanted = {a.id for a in candidates}
        root = Node(seat)
        rng = self.rng
        # per root action: determinizations seen with the favourite, sum and sum of squares
        # of its advantage over the favourite
        paired: dict[int, list[float]] = {a.id: [0, 0.0, 0.0] for a in candidates}
        deadline = self._deadline()
        done = 0
        while not self._spent(done, deadline):
            det = state.resample(seat, rng)
            seed = rng.getrandbits(64)
            values = {}
            for action in det.legal_actions():
                if action.id not in wanted:
                    continue
                branch = det.clone()
                branch.apply(action)
                child = root.children.get(action.id)
                if child is None:
                    child = root.children[action.id] = Node(seat)
                path = [child, *self._select(branch, child, {})]
                rewards = self._playout(branch, heuristic, random.Random(seed))
                self._backup(path, rewards)
                values[action.id] = rewards[seat]
                done += 1
            base = values.get(favourite)  # type: ignore[arg-type]
            if base is not None:
                for aid, value in values.items():
                    stats = paired[aid]
                    stats[0] += 1
                    stats[1] += value - base
                    stats[2] += (value - base) ** 2
        best, best_gain = favourite, 0.0
        for aid, (n, total, squares) in paired.items():
            if n < 2:
                continue
            gain = total / n
            spread = math.sqrt(max(squares / n - gain * gain, 0.0) / (n - 1))
            if gain > best_gain and gain > SIGNIFICANCE * spread:
                best, best_gain = aid, gain
        if best is None:  # no heuristic: the best mean
            visited = [(ch.total / ch.visits, aid) for aid, ch in root.children.items()
                       if aid in by_id]
            if not visited:
                return SearchResult(rng.choice(candidates), 0.5, done, {})
            best = max(visited)[1]
        if best not in root.children:  # the budget ran out before one determinization
            return SearchResult(by_id[best], 0.5, done, {})
        return self._result(root, by_id, best, done)

    def _search_flat(self, state: State, seat: int, heuristic: Heuristic | None
                     ) -> SearchResult:
        """The "flat" root (module docstring): every root action on every determinization,
        valued by the playout alone; each playout counts as one iteration, and the first
        determinization is always played after every action."""
        legal = state.legal_actions()
        by_id = {a.id: a for a in legal}
        # per root action: playouts and the sum of the seat's rewards in [0, 1]
        stats: dict[int, list[float]] = {}
        rng = self.rng
        deadline = self._deadline()
        done = 0
        while not done or not self._spent(done, deadline):
            det = state.resample(seat, rng)
            seed = rng.getrandbits(64)
            for action in det.legal_actions():
                if action.id not in by_id:
                    continue
                branch = det.clone()
                branch.apply(action)
                reward = self._playout(branch, heuristic, random.Random(seed))[seat]
                entry = stats.setdefault(action.id, [0, 0.0])
                entry[0] += 1
                entry[1] += (reward + 1.0) / 2.0
                done += 1
        means = {aid: total / n for aid, (n, total) in stats.items()}
        order = {a.id: k for k, a in enumerate(legal)}
        if heuristic is not None:  # equal means: the heuristic's favourite first
            ranked = sorted(heuristic.scores(state, seat), key=_score, reverse=True)
            order = {a.id: k for k, (_, a) in enumerate(ranked)}
        best = max(means, key=lambda aid: (means[aid], -order.get(aid, len(order))))
        return SearchResult(by_id[best], means[best], done,
                            {str(by_id[aid]): int(n) for aid, (n, _) in stats.items()},
                            {str(by_id[aid]): means[aid] for aid in means})

    def _deadline(self) -> float | None:
        return None if self.seconds is None else time.perf_counter() + self.seconds

    def _spent(self, done: int, deadline: float | None) -> bool:
        if self.iterations is not None and done >= self.iterations:
            return True
        return deadline is not None and time.perf_counter() >= deadline

    @staticmethod
    def _result(root: Node, by_id: dict[int, Action], best: int, done: int) -> SearchResult:
        child = root.children[best]
        return SearchResult(
            by_id[best], child.total / child.visits, done,
            {str(by_id[aid]): ch.visits for aid, ch in root.children.items() if aid in by_id},
            {str(by_id[aid]): ch.total / ch.visits for aid, ch in root.children.items()
             if aid in by_id and ch.visits},
        )

    def _root_bias(self, state: State, seat: int, heuristic: Heuristic | None) -> dict[int, float]:
        """Progressive bias at the root from the game's heuristic (read from the seat's view):
        its favourite move gets ``prior``, the others less, fading as visits come in."""
        if heuristic is None or not self.prior:
            return {}
        scored = heuristic.scores(state, seat)
        ranked = sorted({score for score, _ in scored}, reverse=True)
        return {a.id: self.prior / (1 + ranked.index(score)) for score, a in scored}

    def _select(self, det: State, node: Node, bias: dict[int, float]) -> list[Node]:
        """Walk down from ``node`` by UCB1 over the actions legal in ``det`` (playing them on
        it), expand one node; the nodes entered, in order."""
        c = self.exploration
        root = node
        path = []
        while not det.is_terminal:
            legal = det.legal_actions()
            children = node.children
            untried = [a for a in legal if a.id not in children]
            if untried:
                for a in legal:
                    if a.id in children:
                        children[a.id].avail += 1
                action = self._expansion(det, node, node is root, untried, bias)
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
        return path

    def _expansion(self, det: State, node: Node, at_root: bool, untried: list[Action],
                   bias: dict[int, float]) -> Action:
        """Which of ``node``'s untried actions (legal in ``det``) to expand: at the root the
        bias's favourite, elsewhere one at random. A subclass may order them otherwise
        (bench/value_search.py)."""
        if at_root and bias:
            return max(untried, key=lambda a: bias.get(a.id, 0.0))
        return untried[self.rng.randrange(len(untried))]

    def _playout(self, det: State, heuristic: Heuristic | None,
                 rng: random.Random) -> list[float]:
        """Play ``det`` on (module docstring); each seat's reward in [-1, 1]."""
        if det.is_terminal:
            return det.returns()
        if heuristic is not None and self.rollout == "game":
            rewards = heuristic.playout(det, rng)
            if rewards is not None:
                return rewards
        horizon = (self.max_rollout_steps if self.max_rollout_steps is not None
                   else Heuristic.rollout_horizon if heuristic is None
                   else heuristic.rollout_horizon)
        guide = self._guide if self.rollout == "heuristic" and heuristic is not None else None
        steps = 0
        while not det.is_terminal and steps < horizon:
            if guide is not None:
                det.apply(guide.choose(det))
            else:
                det.apply(rng.choice(det.legal_actions()))
            steps += 1
        if det.is_terminal:
            return det.returns()
        if heuristic is not None:
            return heuristic.evaluate(det)
        return [0.0] * det.game.num_players

    @staticmethod
    def _backup(path: list[Node], rewards: list[float]) -> None:
        for n in path:
            n.visits += 1
            n.total += (rewards[n.player] + 1.0) / 2.0


def _check_count(name: str, value: object) -> None:
    """Refuse a setting that should be None or a positive integer (bools are not counts)."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                              or value < 1):
        raise OptionsError(f"{name} must be a positive integer, not {value!r}")


def _merged(trees: list[Node], seat: int) -> Node:
    """One root whose children add up the visits and rewards of the trees' root children."""
    if len(trees) == 1:
        return trees[0]
    merged = Node(seat)
    for tree in trees:
        for aid, child in tree.children.items():
            into = merged.children.get(aid)
            if into is None:
                into = merged.children[aid] = Node(child.player)
            into.visits += child.visits
            into.total += child.total
    return merged


def _score(scored: tuple[float, Action]) -> float:
    return scored[0]


def _game_root(heuristic: Heuristic | None, state: State) -> str:
    """The root the game asks for at ``state`` (``Heuristic.root_for``; UCB1 with none)."""
    return "ucb" if heuristic is None else heuristic.root_for(state)


def _heuristic_or_none(game_name: str) -> Heuristic | None:
    try:
        return heuristic_for(game_name)
    except OptionsError:
        return None
