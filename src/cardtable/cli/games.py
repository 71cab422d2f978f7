"""``cardtable games``: the games and their options."""

from __future__ import annotations

import click

import cardtable
from cardtable.cli.options import describe


@click.command()
def games() -> None:
    """List the games with their player counts, options and defaults."""
    for name in cardtable.game_names():
        game = cardtable.new_game(name)
        declared = cardtable.declaration(name)
        opts = describe(game, skip=("players",))
        click.echo(f"{name:14} players {player_counts(declared.players)} "
                   f"(default {declared.default_players}); {opts}")
    click.echo("\nSet options with -o key=value, e.g. cardtable simulate sequence -o teams=3 "
               "--players 6")


def player_counts(counts: tuple[int, ...]) -> str:
    """``(2, 3, 4, 6, 8, 9)`` -> ``"2-4, 6, 8-9"``."""
    runs: list[list[int]] = []
    for n in sorted(counts):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)
