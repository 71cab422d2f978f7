"""What the commands share: reading game options, making the game, the common click options."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

import cardtable
from cardtable.core import CardtableError

F = TypeVar("F", bound=Callable[..., Any])


class UserError(click.ClickException):
    """A mistake of the user's: the message, exit status 2, no traceback."""

    exit_code = 2


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value`` with the value read as an int, a bool, ``none`` or a string.

    >>> parse_option("teams=3"), parse_option("aces=off"), parse_option("max-turns=none")
    (('teams', 3), ('aces', False), ('max_turns', None))
    """
    if "=" not in text:
        raise UserError(f"{text!r}: write game options as key=value, e.g. teams=3")
    key, raw = text.split("=", 1)
    value: Any = raw
    low = raw.strip().lower()
    if low in ("true", "yes", "on"):
        value = True
    elif low in ("false", "no", "off"):
        value = False
    elif low in ("none", "null"):
        value = None
    else:
        try:
            value = int(raw)
        except ValueError:
            value = raw.strip()
    return key.strip().replace("-", "_"), value


class GameOption(click.ParamType):
    """A ``-o key=value`` game option, read by :func:`parse_option`."""

    name = "key=value"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[str, Any]:
        if isinstance(value, tuple):
            return value
        try:
            return parse_option(value)
        except UserError as exc:
            self.fail(exc.message, param, ctx)


def make_game(name: str, players: int | None = None,
              options: tuple[tuple[str, Any], ...] = (), **more: Any) -> cardtable.Game:
    """The game ``name`` with the options given (``None`` in ``more`` means not given);
    a refused option is a :class:`UserError` naming it."""
    opts = dict(options)
    if players is not None:
        opts["players"] = players
    opts.update({k: v for k, v in more.items() if v is not None})
    try:
        return cardtable.new_game(name, **opts)
    except CardtableError as exc:
        raise UserError(str(exc)) from None


def describe(game: cardtable.Game, skip: tuple[str, ...] = ()) -> str:
    """``key=value, ...`` of a game's options (but those in ``skip``), for reports."""
    return ", ".join(f"{k}={v}" for k, v in game.options.items() if k not in skip)


# -- the options several commands take -------------------------------------------------

def game_argument(f: F) -> F:
    """GAME, one of the game names."""
    return click.argument("game_name", metavar="GAME",
                          type=click.Choice(cardtable.game_names()))(f)


def players_option(f: F) -> F:
    return click.option("--players", "-p", type=int,
                        help="Number of players (default: the game's).")(f)


def game_options(f: F) -> F:
    """``-o key=value`` (repeatable): the game's options, read by :func:`make_game`."""
    return click.option("--option", "-o", "options", multiple=True, type=GameOption(),
                        metavar="KEY=VALUE",
                        help="A game option (repeatable), e.g. -o teams=3 -o max_turns=500. "
                        "See `cardtable games`.")(f)


def seed_option(help: str, default: int | None = None) -> Callable[[F], F]:
    return click.option("--seed", type=int, default=default, show_default=default is not None,
                        help=help)


def json_option(help: str = "Print the result as JSON.") -> Callable[[F], F]:
    return click.option("--json", "as_json", is_flag=True, help=help)


def need_terminal() -> None:
    """Refuse to start a full-screen command without a terminal."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UserError("this command draws a full-screen table: run it in a terminal")
