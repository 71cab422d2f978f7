"""cardtable: exact, fast engines for Draw Bridge, Sequence and Three Thirteen.

>>> import cardtable
>>> game = cardtable.new_game("sequence", players=2)
>>> state = game.deal(seed=7)
>>> state.apply(state.legal_actions()[0])
"""

from __future__ import annotations

import importlib
from typing import Any

from cardtable.core import (
    Action,
    CardtableError,
    Game,
    IllegalActionError,
    OptionsError,
    PositionError,
    State,
)

__all__ = [
    "Action",
    "CardtableError",
    "Game",
    "IllegalActionError",
    "OptionsError",
    "PositionError",
    "State",
    "game_names",
    "new_game",
    "state_from_dict",
]

__version__ = "0.1.0"

# game name -> module defining GAME_CLASS; a game plugs in by adding a line here.
_GAMES = {
    "drawbridge": "cardtable.drawbridge",
    "sequence": "cardtable.sequence",
    "threethirteen": "cardtable.threethirteen",
}


def game_names() -> list[str]:
    """The names of every game, sorted."""
    return sorted(_GAMES)


def _game_class(name: Any) -> type[Game]:
    if not isinstance(name, str) or name not in _GAMES:
        raise OptionsError(f"unknown game {name!r}; the games are {', '.join(game_names())}")
    module = importlib.import_module(_GAMES[name])
    cls: type[Game] = module.GAME_CLASS
    return cls


def new_game(name: str, **options: Any) -> Game:
    """A game with its options (RULES.md) validated and defaults filled in."""
    return _game_class(name)(**options)


def state_from_dict(data: dict[str, Any]) -> State:
    """The state that ``State.to_dict`` saved; PositionError if the data is inconsistent."""
    if not isinstance(data, dict):
        raise PositionError(f"a saved state is a dict, not {type(data).__name__}")
    try:
        name = data["game"]
        options = data["options"]
    except KeyError as exc:
        raise PositionError(f"a saved state needs the key {exc.args[0]!r}") from None
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise PositionError("'options' must be a dict of game options by name")
    try:
        game = new_game(name, **options)
    except OptionsError as exc:
        raise PositionError(f"saved state: {exc}") from None
    return game.state_class._from_dict(game, data)
