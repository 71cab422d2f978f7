"""cardtable: exact, fast engines for Draw Bridge, Sequence and Three Thirteen.

Examples:
    >>> import cardtable
    >>> game = cardtable.new_game("sequence", players=2)
    >>> state = game.deal(seed=7)
    >>> state.apply(state.legal_actions()[0])
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from cardtable.core import (
    Action,
    CardtableError,
    Declaration,
    Game,
    IllegalActionError,
    IllegalMoveError,
    InvalidActionError,
    NotYourTurnError,
    OptionsError,
    OptionSpec,
    PositionError,
    State,
)

__all__ = [
    "Action",
    "CardtableError",
    "Declaration",
    "Game",
    "IllegalActionError",
    "IllegalMoveError",
    "InvalidActionError",
    "NotYourTurnError",
    "OptionSpec",
    "OptionsError",
    "PositionError",
    "State",
    "declaration",
    "declarations",
    "game_names",
    "new_game",
    "state_from_dict",
]

__version__ = "0.1.0"

# The modules of the games: each declares itself (DECLARATION) and its Game class
# (GAME_CLASS); a game plugs in by adding its module here. Everything keyed by game
# name (bots, encoders, panes, titles...) reads the declarations.
_GAME_MODULES = ("cardtable.drawbridge", "cardtable.sequence", "cardtable.threethirteen")
_CLASSES: dict[str, type[Game]] = {}


def _classes() -> dict[str, type[Game]]:
    if not _CLASSES:
        for path in _GAME_MODULES:
            cls: type[Game] = importlib.import_module(path).GAME_CLASS
            _CLASSES[cls.declaration.name] = cls
    return _CLASSES


def game_names() -> list[str]:
    """The names of every game, sorted."""
    return sorted(_classes())


def declarations() -> list[Declaration]:
    """Every game's declaration, sorted by name."""
    return [cls.declaration for _, cls in sorted(_classes().items())]


def declaration(name: str) -> Declaration:
    """The declaration of game ``name``: title, player counts, options with defaults."""
    return _game_class(name).declaration


def game_adapter(name: str, package: str) -> ModuleType | None:
    """The module ``package.<name>`` adapting game ``name`` to a higher layer, if it has one.

    One convention instead of one registry per layer: the heuristic of a game lives in
    ``cardtable.bots.<name>``, its encoder in ``cardtable.encoders.<name>``, its
    terminal pane in ``cardtable.tui.<name>``. None when the game has no such module;
    OptionsError for an unknown game.
    """
    _game_class(name)
    path = f"{package}.{name}"
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError as exc:
        if exc.name != path:
            raise
        return None


def _game_class(name: Any) -> type[Game]:
    classes = _classes()
    if not isinstance(name, str) or name not in classes:
        raise OptionsError(f"unknown game {name!r}; the games are {', '.join(game_names())}")
    return classes[name]


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
