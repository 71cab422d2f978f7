"""``cardtable simulate``: many games of random moves, counted."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import click

import cardtable
from cardtable import records
from cardtable.bots import RandomBot
from cardtable.cli.options import (
    describe,
    game_argument,
    game_options,
    json_option,
    make_game,
    players_option,
    seed_option,
)
from cardtable.table import Seat, Table


class Tally:
    """Results of many finished games, kept as counts (nothing per game is stored)."""

    def __init__(self, game: cardtable.Game) -> None:
        self.game = game
        self.games = self.draws = self.actions = self.turns = 0
        self.wins: Counter[int] = Counter()

    def add(self, state: cardtable.State) -> None:
        self.games += 1
        self.actions += len(state.history)
        self.turns += getattr(state, "turns", 0)
        if state.winners:
            self.wins.update(state.winners)
        else:
            self.draws += 1

    def report(self, seconds: float) -> dict[str, Any]:
        game, count = self.game, max(self.games, 1)
        report: dict[str, Any] = {
            "game": game.name,
            "options": game.options,
            "games": self.games,
            "wins_by_seat": [self.wins[s] for s in range(game.num_players)],
            "draws": self.draws,
            "average_actions": round(self.actions / count, 2),
            "games_per_second": round(self.games / seconds, 2),
            "actions_per_second": round(self.actions / seconds),
        }
        teams = game.options.get("teams")
        if teams:
            # seat t < teams is on team t, and teammates win together
            report["wins_by_team"] = [self.wins[t] for t in range(teams)]
        if self.turns:
            report["average_turns"] = round(self.turns / count, 2)
        return report


@click.command()
@game_argument
@players_option
@click.option("--games", "-n", "count", type=click.IntRange(min=1), default=100, show_default=True,
              help="How many games to play.")
@seed_option("Seed for the deals and the random moves; the same seed gives the same games.")
@game_options
@json_option()
@click.option("--save-records", "record_dir", metavar="DIR",
              type=click.Path(file_okay=False, path_type=Path),
              help="Save every game as a record in DIR (GAME-00001.json ...), to watch with "
              "`cardtable replay`.")
def simulate(game_name: str, players: int | None, count: int, seed: int | None,
             options: tuple[tuple[str, Any], ...], as_json: bool,
             record_dir: Path | None) -> None:
    """Play GAME many times with uniformly random legal moves and report the results.

    Prints wins per seat (and per team), draws, the average game length and the
    speed. A progress bar shows on the terminal; --json prints machine-readable
    output only.
    """
    game = make_game(game_name, players, options)
    mover = RandomBot(seed)  # one generator draws every deal's seed and every move
    seats = [Seat("bot", "random")] * game.num_players
    bots = dict.fromkeys(range(game.num_players), mover)
    tally = Tally(game)
    start = time.perf_counter()
    # the bar only on a terminal: a pipe or a file gets no stray label on stderr
    with click.progressbar(length=count, label=f"{game_name}", file=sys.stderr,
                           hidden=not sys.stderr.isatty(),
                           show_pos=True) as bar:
        for number in range(1, count + 1):
            table = Table.new(game, seats, seed=mover.rng.getrandbits(63), bots=bots)
            table.advance_bots()
            tally.add(table.state)
            if record_dir is not None:
                records.save(table.record(), record_dir / f"{game_name}-{number:05d}.json")
            bar.update(1)
    report = tally.report(max(time.perf_counter() - start, 1e-9))
    if as_json:
        click.echo(json.dumps(report))
        return
    click.echo(f"{report['games']} games of {game_name} ({describe(game)})")
    if "wins_by_team" in report:
        for t, w in enumerate(report["wins_by_team"]):
            click.echo(f"  team {t} wins: {w:>7}  ({100 * w / count:.1f}%)")
    else:
        for s, w in enumerate(report["wins_by_seat"]):
            click.echo(f"  seat {s} wins: {w:>7}  ({100 * w / count:.1f}%)")
    click.echo(f"  draws:       {report['draws']:>7}  ({100 * report['draws'] / count:.1f}%)")
    if "average_turns" in report:
        click.echo(f"  average turns per game:   {report['average_turns']}")
    click.echo(f"  average actions per game: {report['average_actions']}")
    click.echo(f"  speed: {report['games_per_second']} games/s, "
               f"{report['actions_per_second']} actions/s")
