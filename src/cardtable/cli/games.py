"""``cardtable games``: the games and their options."""

from __future__ import annotations

import click

import cardtable
from cardtable.cli.options import describe


@click.command()
def games() -> None:
    """List the games with their options and defaults."""
    for name in cardtable.game_names():
        click.echo(f"{name:14} {describe(cardtable.new_game(name))}")
    click.echo("\nSet options with -o key=value, e.g. cardtable simulate sequence -o teams=3 "
               "--players 6")
