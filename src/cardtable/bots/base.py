"""The Bot protocol, the random bot, and the per-game heuristic registry."""

from __future__ import annotations

import importlib
import random
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

import cardtable
from cardtable.core import Action, IllegalActionError, OptionsError, State


@runtime_checkable
class Bot(Protocol):
    """A player: ``choose`` a legal action for ``state.current_player``.

    A bot reads only what that seat may know: ``state.view(seat)``,
    ``state.legal_actions()`` and ``state.resample(seat, rng)``.
    """

    def choose(self, state: State) -> Action:
        """A legal action for the seat to move in ``state`` (which it does not change)."""
        ...

    def reset(self) -> None:
        """Forget what was learnt and restart the bot's random numbers from its seed."""
        ...


class RandomBot:
    """A uniformly random legal move."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Action:
        """Any legal action, each as likely."""
        legal = state.legal_actions()
        if not legal:
            raise IllegalActionError("the game is over: there is no move to choose")
        return self.rng.choice(legal)

    def reset(self) -> None:
        """Restart the random numbers from the seed."""
        self.rng = random.Random(self.seed)


class Heuristic:
    """A game's hand-written strategy: a score for each legal action, from the seat's view.

    Each game's heuristic (``HEURISTIC`` in ``cardtable.bots.<game>``) subclasses this and
    writes ``scores`` and ``evaluate``; the other members tune ISMCTS
    (``cardtable.bots.ismcts``) and hints, and a game overrides only those it needs.
    """

    #: random playout steps before ``evaluate`` (``rollout="random"``, or a game with no
    #: ``playout`` of its own); the default is in effect no limit
    rollout_horizon: int = 10_000
    #: ISMCTS's root: "ucb", "paired" or "flat" (``root_for`` may choose per position)
    root: str = "ucb"
    #: UCB root: a fresh tree every so many iterations (None: one tree)
    tree_size: int | None = None
    #: what a hint's win chance is of: "game" or "match" (``cardtable.bots.Hint``)
    estimate_of: str = "game"
    #: a bot kind measured stronger than a hint's search and as quick: a hint gives its
    #: move, with the search's estimate of that move (None: the search's own move)
    hint_bot: str | None = None

    def scores(self, state: State, seat: int) -> list[tuple[float, Action]]:
        """Each legal action of ``seat`` (the seat to move) with its score, higher better."""
        raise NotImplementedError

    def evaluate(self, state: State) -> list[float]:
        """Each seat's prospects in [-1, 1] at a position that is not the end (rollout cut-off)."""
        raise NotImplementedError

    def root_for(self, state: State) -> str:
        """ISMCTS's root at ``state``: by default ``root`` everywhere."""
        return self.root

    def playout(self, state: State, rng: random.Random) -> list[float] | None:
        """The game's own playout of a determinization (which it may change): each seat's
        reward in [-1, 1]; None (the default) when the game has none, and ISMCTS plays
        random moves for ``rollout_horizon`` steps, then ``evaluate``."""
        return None


# The yardstick "heuristic-v1": the heuristics of 1 December 2026, under a name that keeps
# meaning them. Before changing a game's heuristic, copy today's module (e.g.
# bots/sequence.py to bots/sequence_v1.py) and name the copy here, e.g.
# {"sequence": "cardtable.bots.sequence_v1"}; tests/bots/test_arena.py pins the yardstick.
_FROZEN_V1: dict[str, str] = {"drawbridge": "cardtable.bots.drawbridge_v1"}


def heuristic_for(game_name: str, version: str = "heuristic") -> Heuristic:
    """The HEURISTIC of ``cardtable.bots.<game_name>`` (the game's module of bots), or with
    ``version="heuristic-v1"`` the frozen yardstick's."""
    module: ModuleType | None
    if version == "heuristic-v1" and game_name in _FROZEN_V1:
        module = importlib.import_module(_FROZEN_V1[game_name])
    else:
        module = cardtable.game_adapter(game_name, "cardtable.bots")
    if module is None or not hasattr(module, "HEURISTIC"):
        raise OptionsError(f"no heuristic bot for {game_name} yet")
    heuristic: Heuristic = module.HEURISTIC
    return heuristic


class ScoringBot:
    """A bot that plays the legal move it scores best, ties broken at random (seeded)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def scores(self, state: State, seat: int) -> list[tuple[float, Action]]:
        """Each legal action of ``seat`` (the seat to move) with its score, higher better."""
        raise NotImplementedError

    def choose(self, state: State) -> Action:
        """The best-scored legal action for the seat to move."""
        seat = state.current_player
        if seat is None:
            raise IllegalActionError("the game is over: there is no move to choose")
        scored = self.scores(state, seat)
        best = max(score for score, _ in scored)
        return self.rng.choice([a for score, a in scored if score >= best - 1e-9])

    def reset(self) -> None:
        """Restart the tie-breaking random numbers from the seed."""
        self.rng = random.Random(self.seed)


class HeuristicBot(ScoringBot):
    """The game's heuristic: the best-scored legal action, ties broken at random."""

    def __init__(self, seed: int | None = None, version: str = "heuristic") -> None:
        super().__init__(seed)
        self.version = version

    def scores(self, state: State, seat: int) -> list[tuple[float, Action]]:
        """The game's heuristic's scores (``heuristic_for``)."""
        return heuristic_for(state.game.name, self.version).scores(state, seat)


def check_budget(budget: dict[str, Any]) -> dict[str, Any]:
    allowed = {"iterations", "seconds", "rollout", "exploration", "max_rollout_steps", "prior",
               "root", "tree_size"}
    unknown = sorted(set(budget) - allowed)
    if unknown:
        raise OptionsError(
            f"unknown bot setting {', '.join(unknown)}; the settings are "
            f"{', '.join(sorted(allowed))}")
    return budget
