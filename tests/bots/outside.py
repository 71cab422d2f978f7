"""A bot from outside cardtable's bot kinds, named by import path in the arena tests."""

from __future__ import annotations

import random

from cardtable.core import Action, State


class FirstLegal:
    """Plays the first legal action, or a random one with probability ``wander``."""

    def __init__(self, seed: int | None, wander: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.wander = wander

    def choose(self, state: State) -> Action:
        legal = state.legal_actions()
        return self.rng.choice(legal) if self.rng.random() < self.wander else legal[0]

    def reset(self) -> None:
        pass


def make(seed: int | None = None, wander: float = 0.0) -> FirstLegal:
    return FirstLegal(seed, wander)


NOT_A_FACTORY = 3


def not_a_bot(seed: int | None = None) -> str:
    return "a string"
