"""``cardtable arena``: bots matched against each other, ranked."""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import click

from cardtable.cli.options import (
    UserError,
    describe,
    game_argument,
    game_options,
    make_game,
    players_option,
)
from cardtable.core import CardtableError


@click.command()
@game_argument
@click.option("--bots", "-b", default="heuristic,random", show_default=True,
              help="Comma-separated bots to match up, each pair in turn: random, heuristic, "
              "ismcts.")
@players_option
@click.option("--games", "-n", "count", type=click.IntRange(min=1), default=100,
              show_default=True, help="Games per pair of bots (rounded up to an even number: "
              "every deal is played twice with the seats swapped).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the deals and the bots; same seed, same results.")
@click.option("--workers", "-w", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to play in parallel.")
@click.option("--iterations", type=click.IntRange(min=1),
              help="ISMCTS iterations per move (default 1000 when --seconds is not given).")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True),
              help="ISMCTS thinking time per move (results then depend on machine load).")
@click.option("--rollout", type=click.Choice(["game", "random", "heuristic"]), default="game",
              show_default=True,
              help="ISMCTS playout policy: the game's own fast playout where it has one "
                   "(Three Thirteen) else random moves; random; or the full heuristic bot.")
@click.option("--root", type=click.Choice(["game", "ucb", "paired"]), default="game",
              show_default=True,
              help="ISMCTS root: UCB1, or every determinization after each of the heuristic's "
                   "best moves (paired); game: the game's choice (paired in Three Thirteen).")
@click.option("--tree-size", type=click.IntRange(min=1),
              help="ISMCTS (UCB root): grow a fresh tree every N iterations and add up the "
                   "trees' root visits (default: the game's choice, 1000 in Sequence, else "
                   "one tree).")
@click.option("--max-actions", type=click.IntRange(min=1),
              help="Stop a game after this many actions and count it as a draw.")
@game_options
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the standings as CSV.")
def arena(game_name: str, bots: str, players: int | None, count: int, seed: int, workers: int,
          iterations: int | None, seconds: float | None, rollout: str, root: str,
          tree_size: int | None, max_actions: int | None,
          options: tuple[tuple[str, Any], ...], as_json: bool, as_csv: bool) -> None:
    """Match bots against each other on GAME and rank them.

    Every pair of bots plays --games games, each deal twice with the seats swapped.
    Prints each bot's wins, draws and losses, its win rate (draws and shared wins count
    half) with a 95% confidence interval, its average score and an Elo rating.

    \b
    Example:
      cardtable arena sequence --bots ismcts,heuristic,random --games 40 --workers 2
    """
    from cardtable.bots import arena as arena_mod

    game = make_game(game_name, players, options)
    budget: dict[str, Any] = {"rollout": rollout}
    if root != "game":
        budget["root"] = root
    if tree_size is not None:
        budget["tree_size"] = tree_size
    if iterations is not None:
        budget["iterations"] = iterations
    if seconds is not None:
        budget["seconds"] = seconds
    names = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        tasks = arena_mod.plan(game_name, dict(game.options), names, count, seed, budget,
                               max_actions)
    except CardtableError as exc:
        raise UserError(str(exc)) from None
    start = time.perf_counter()
    with click.progressbar(length=len(tasks), label=f"{game_name} arena", file=sys.stderr,
                           show_pos=True, show_eta=True) as bar:
        results = arena_mod.run(tasks, workers=workers, progress=lambda _: bar.update(1))
    rows = arena_mod.standings(results, names)
    if as_json:
        click.echo(json.dumps({"game": game_name, "options": game.options, "bots": names,
                               "budget": budget, "seed": seed, "games": len(results),
                               "standings": arena_mod.as_json(rows)}))
    elif as_csv:
        import csv
        import io

        out = io.StringIO()
        fields = list(arena_mod.as_json(rows)[0])
        writer = csv.DictWriter(out, fieldnames=fields)
        writer.writeheader()
        writer.writerows(arena_mod.as_json(rows))
        click.echo(out.getvalue().rstrip("\n"))
    else:
        click.echo(f"{len(results)} games of {game_name} ({describe(game)}) "
                   f"in {time.perf_counter() - start:.1f} s")
        click.echo(arena_mod.table(rows))
