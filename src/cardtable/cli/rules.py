"""``cardtable rules``: the rules of a game, on the terminal or as Markdown."""

from __future__ import annotations

import sys

import click

from cardtable.cli.options import game_argument


@click.command()
@game_argument
@click.option("--plain", is_flag=True, help="Print the Markdown text as it is (no colours, no "
              "pager); this is also what a pipe or a file receives.")
@click.option("--lang", type=click.Choice(["en", "km"]), default="en", show_default=True,
              help="The rule book's language: English, or km for Khmer (ខ្មែរ).")
def rules(game_name: str, plain: bool, lang: str) -> None:
    """Print the rules of GAME: the rule book's common terms and the game's section.

    On a terminal the text is formatted and shown in a pager (q leaves it).
    """
    from cardtable.rulebook import rules_of

    text = rules_of(game_name, lang=lang)
    if plain or not sys.stdout.isatty():
        click.echo(text)
        return
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console(force_terminal=True)
    with console.capture() as page:
        console.print(Markdown(text))
    click.echo_via_pager(page.get())  # the rules are longer than a screen; less -R keeps colours
