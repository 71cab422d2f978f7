"""The (game, options) configurations that every generic suite runs on: one registry.

A new game, or a new option set of a game, joins the conformance playouts, the table
tests, the environment suites and the travel tests by adding one ``Config`` line here.
Each suite takes the configurations it can afford:

- ``CONFIGS``: all of them (the conformance playouts, ``playouts`` seeds each);
- ``SHORT``: those whose random games end within a few thousand moves (environments,
  tables: they play whole games);
- ``FEW``: one or two a game, for suites that check each configuration at length.

The conformance playouts run to the end of the game (at most 5,000 moves). Those past a
configuration's ``quick`` first seeds carry the ``slow`` mark, and ``pytest -m "not slow"``
leaves them out; a configuration with no quick playout gets instead a quick opening, its
first ``OPENING`` moves, so that the fast suite still goes through every configuration.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

import cardtable


@dataclass(frozen=True)
class Config:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    #: seeded random playouts of the conformance suite, to the end of the game
    playouts: int = 1
    #: how many of them the fast suite runs (the rest are marked slow)
    quick: int = 0
    #: random games end soon: suites that play whole games may use it
    short: bool = False
    #: one of the few configurations checked at length
    few: bool = False

    @property
    def id(self) -> str:
        return self.game + "".join(f"-{k}={v}" for k, v in self.options.items())

    def new_game(self) -> cardtable.Game:
        return cardtable.new_game(self.game, **self.options)


CONFIGS: list[Config] = [
    Config("sequence", {}, playouts=50, quick=10, short=True, few=True),
    Config("sequence", {"players": 3}, playouts=15, quick=2, short=True),
    Config("sequence", {"players": 4}, playouts=15, quick=3, short=True, few=True),
    Config("sequence", {"players": 6, "teams": 3}, playouts=10, quick=2),
    Config("sequence", {"players": 6, "teams": 3, "max_turns": 60}, playouts=2, quick=1,
           short=True),
    Config("sequence", {"players": 8}, playouts=10, quick=1),
    Config("sequence", {"players": 9}, playouts=10, quick=1),
    Config("sequence", {"players": 10}, playouts=10, quick=1),
    Config("sequence", {"players": 12, "teams": 3}, playouts=10, quick=1, short=True),
    Config("sequence", {"players": 12, "teams": 2, "max_turns": 120}, playouts=10, quick=1),
    Config("sequence", {"max_turns": 30}, playouts=10, quick=2),
    # Draw Bridge: random matches to 100 run long (random contracts fail), so the default
    # options get one 5000-step playout; undertricks end matches sooner, many deals each;
    # short targets make whole matches for the suites that play them out
    Config("drawbridge", {}, few=True),
    Config("drawbridge", {"target": 20}, short=True),
    Config("drawbridge", {"target": 30, "show_stock_top": True, "follow_suit_in_draw": True},
           short=True),
    Config("drawbridge", {"draw_trick_winner": "suit-led", "undertricks": True}, short=True),
    Config("drawbridge", {"undertricks": True, "target": 5000}, playouts=4),
    Config("drawbridge", {"undertricks": True, "follow_suit_in_draw": True,
                          "show_stock_top": True, "target": 4000}, playouts=4),
    Config("drawbridge", {"undertricks": True, "follow_suit_in_draw": True,
                          "draw_trick_winner": "suit-led", "target": 3000}, playouts=3),
    Config("drawbridge", {"undertricks": True, "show_stock_top": True,
                          "draw_trick_winner": "suit-led", "target": 100}, playouts=6, quick=2),
    # Three Thirteen: a random match of 11 rounds runs 2,000 to 5,000 steps (rounds end on
    # the second empty stock), so a few whole matches per option set
    Config("threethirteen", {}, playouts=3, short=True, few=True),
    Config("threethirteen", {"players": 3, "aces": "both"}),
    Config("threethirteen", {"players": 4}, short=True, few=True),
    Config("threethirteen", {"players": 4, "face_values": "counting",
                             "all_wild_melds": False}),
    Config("threethirteen", {"players": 7, "aces": "both", "all_wild_melds": False}),
    Config("threethirteen", {"players": 7, "aces": "both", "face_values": "counting",
                             "all_wild_melds": False}, short=True),
    # 3.1: 9 to 12 players play with four decks by default; option decks sets the count
    Config("threethirteen", {"players": 9}),
    Config("threethirteen", {"players": 12}, short=True),
    Config("threethirteen", {"players": 8, "decks": 4}),
    Config("threethirteen", {"players": 3, "decks": 1}),
    Config("threethirteen", {"players": 3, "decks": 4}, short=True),
]
SHORT = [c for c in CONFIGS if c.short]
FEW = [c for c in CONFIGS if c.few]
GAMES = cardtable.game_names()


def params(configs: list[Config]) -> list[Any]:
    """``(name, options)`` parameters of ``configs``, with readable ids."""
    return [pytest.param(c.game, c.options, id=c.id) for c in configs]


#: the moves of a quick opening
OPENING = 300
#: the most moves of a playout
PLAYOUT = 5000


def playout_params() -> list[Any]:
    """``(name, options, seed, moves)`` of every conformance playout, the slow ones marked,
    and the quick openings."""
    out = []
    for c in CONFIGS:
        if not c.quick:
            out.append(pytest.param(c.game, c.options, 0, OPENING, id=f"{c.id}-opening"))
        out += [pytest.param(c.game, c.options, seed, PLAYOUT, id=f"{c.id}-{seed}",
                             marks=[pytest.mark.slow] if seed >= c.quick else [])
                for seed in range(c.playouts)]
    return out
