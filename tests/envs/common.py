"""Shared by the environment tests: which games and option sets they run on."""

from __future__ import annotations

import random
from typing import Any

import cardtable

# (game, options) the conformance checks run on; games not registered yet are left out
_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("sequence", {}),
    ("sequence", {"players": 3}),
    ("sequence", {"players": 4}),
    ("sequence", {"players": 6, "teams": 3, "max_turns": 60}),
    ("sequence", {"players": 12, "teams": 3}),
    ("drawbridge", {"target": 20}),
    ("drawbridge", {"target": 30, "show_stock_top": True, "follow_suit_in_draw": True}),
    ("drawbridge", {"draw_trick_winner": "suit-led", "undertricks": True}),
    ("threethirteen", {}),
    ("threethirteen", {"players": 4}),
    ("threethirteen", {"players": 7, "aces": "both", "face_values": "counting",
                       "all_wild_melds": False}),
    ("threethirteen", {"players": 12}),
    ("threethirteen", {"players": 3, "decks": 4}),
]
CONFIGS = [(name, options) for name, options in _CONFIGS if name in cardtable.game_names()]
GAMES = sorted({name for name, _ in CONFIGS})


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
