"""Shared by the environment tests: which games and option sets they run on."""

from __future__ import annotations

import random
from typing import Any

import cardtable
from tests.configs import GAMES, SHORT

__all__ = ["CONFIGS", "GAMES", "config_id", "random_states"]

# the configurations of tests/configs.py whose random games end soon
CONFIGS = [(c.game, c.options) for c in SHORT]


def config_id(name: str, options: dict[str, Any]) -> str:
    return name + "".join(f"-{k}={v}" for k, v in options.items())


def random_states(game: cardtable.Game, count: int, seed: int,
                  max_steps: int = 3000) -> list[cardtable.State]:
    """``count`` states met along seeded random games (the terminal ones included)."""
    rng = random.Random(seed)
    out: list[cardtable.State] = []
    while len(out) < count:
        state = game.deal(seed=rng.getrandbits(32))
        stop = rng.randrange(max_steps)
        for _ in range(stop):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        out.append(state)
    return out
