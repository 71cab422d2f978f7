"""The ``cardtable`` command line: one module per command, each named in :data:`COMMANDS`.

A command ``X`` lives in ``cardtable/cli/X.py`` as a click command (or group) named ``X``;
adding one is that module plus its line in :data:`COMMANDS`. What several commands share
(reading ``-o key=value``, making the game, the common options) is in
:mod:`cardtable.cli.options`.
"""

from __future__ import annotations

import importlib

import click

import cardtable

# one line per command, in alphabetical order
COMMANDS = (
    "arena",
    "db",
    "games",
    "play",
    "replay",
    "review",
    "rules",
    "serve",
    "simulate",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(cardtable.__version__, prog_name="cardtable")
def main() -> None:
    """cardtable: Draw Bridge, Sequence and Three Thirteen with exact rules.

    \b
    Try:
      cardtable games                      the games and their options
      cardtable simulate sequence --players 4 --games 2000 --seed 1
      cardtable play sequence              a game in the terminal
    """


for _name in COMMANDS:
    main.add_command(getattr(importlib.import_module(f"{__name__}.{_name}"), _name))
