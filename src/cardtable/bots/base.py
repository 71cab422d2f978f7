"""The Bot protocol, the random bot, and the per-game heuristic registry."""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

import cardtable
from cardtable.core import Action, IllegalActionError, OptionsError, State


@runtime_checkable
class Bot(Protocol):
    """A player: ``choose`` a legal action for ``state.current_player``.

    A bot reads only what that seat may know: ``state.view(seat)``,
    ``state.legal_actions()`` and ``state.resample(seat, rng)``.
    """

    def choose(self, state: State) -> Action: ...

    def reset(self) -> None: ...


class RandomBot:
    """A uniformly random legal move."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Action:
        legal = state.legal_actions()
        if not legal:
            raise IllegalActionError("the game is over: there is no move to choose")
        return self.rng.choice(legal)

    def reset(self) -> None:
        self.rng = random.Random(self.seed)


class Heuristic(Protocol):
    """A game's hand-written strategy: a score for each legal action, from the seat's view."""

    def scores(self, state: State, seat: int) -> list[tuple[float, Action]]: ...

    def evaluate(self, state: State) -> list[float]:
        """Each seat's prospects in [-1, 1] at a position that is not the end (rollout cut-off)."""
        ...

    # Optional, read with getattr by ISMCTS (cardtable.bots.ismcts):
    #   rollout_horizon: int -- random playout steps before ``evaluate`` (default: no limit)
    #   root: str -- "ucb" (default), "paired" or "flat"
    #   root_for(state) -> str -- the root for this position (overrides ``root``)
    #   estimate_of: str -- what a hint's win chance is of: "game" (default) or "match"
    #   tree_size: int -- UCB root: a fresh tree every so many iterations (default: one tree)
    #   playout(state, rng) -> list[float] -- the game's own playout of a determinization,
    #     each seat's reward in [-1, 1]


def heuristic_for(game_name: str) -> Heuristic:
    """The HEURISTIC of ``cardtable.bots.<game_name>`` (the game's module of bots)."""
    module = cardtable.game_adapter(game_name, "cardtable.bots")
    if module is None or not hasattr(module, "HEURISTIC"):
        raise OptionsError(f"no heuristic bot for {game_name} yet")
    heuristic: Heuristic = module.HEURISTIC
    return heuristic


class HeuristicBot:
    """The game's heuristic: the best-scored legal action, ties broken at random."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Action:
        seat = state.current_player
        if seat is None:
            raise IllegalActionError("the game is over: there is no move to choose")
        scored = heuristic_for(state.game.name).scores(state, seat)
        best = max(score for score, _ in scored)
        return self.rng.choice([a for score, a in scored if score >= best - 1e-9])

    def reset(self) -> None:
        self.rng = random.Random(self.seed)


def check_budget(budget: dict[str, Any]) -> dict[str, Any]:
    allowed = {"iterations", "seconds", "rollout", "exploration", "max_rollout_steps", "prior",
               "root", "tree_size"}
    unknown = sorted(set(budget) - allowed)
    if unknown:
        raise OptionsError(
            f"unknown bot setting {', '.join(unknown)}; the settings are "
            f"{', '.join(sorted(allowed))}")
    return budget
