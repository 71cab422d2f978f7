"""The ``cardtable`` command line."""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from typing import Any

import click

import cardtable
from cardtable.core import CardtableError


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value`` with the value read as an int, a bool, ``none`` or a string."""
    if "=" not in text:
        raise click.BadParameter(f"{text!r}: write game options as key=value, e.g. teams=3")
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


def make_game(name: str, players: int | None, options: tuple[str, ...]) -> cardtable.Game:
    opts = dict(parse_option(o) for o in options)
    if players is not None:
        opts["players"] = players
    try:
        return cardtable.new_game(name, **opts)
    except CardtableError as exc:
        raise click.UsageError(str(exc)) from None


GAME = click.Choice(cardtable.game_names())


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(cardtable.__version__, prog_name="cardtable")
def main() -> None:
    """cardtable: Draw Bridge, Sequence and Three Thirteen with exact rules.

    \b
    Try:
      cardtable games                      the games and their options
      cardtable simulate sequence --players 4 --games 2000 --seed 1
    """


@main.command()
def games() -> None:
    """List the games with their options and defaults."""
    for name in cardtable.game_names():
        game = cardtable.new_game(name)
        opts = ", ".join(f"{k}={v}" for k, v in game.options.items())
        click.echo(f"{name:14} {opts}")
    click.echo("\nSet options with -o key=value, e.g. cardtable simulate sequence -o teams=3 "
               "--players 6")


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


@main.command()
@click.argument("game_name", metavar="GAME", type=GAME)
@click.option("--players", "-p", type=int, help="Number of players (default: the game's).")
@click.option("--games", "-n", "count", type=click.IntRange(min=1), default=100, show_default=True,
              help="How many games to play.")
@click.option("--seed", type=int, default=None, help="Seed for the deals and the random moves; "
              "the same seed gives the same games.")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="A game option (repeatable), e.g. -o teams=3 -o max_turns=500. "
              "See `cardtable games`.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def simulate(game_name: str, players: int | None, count: int, seed: int | None,
             options: tuple[str, ...], as_json: bool) -> None:
    """Play GAME many times with uniformly random legal moves and report the results.

    Prints wins per seat (and per team), draws, the average game length and the
    speed. A progress bar shows on the terminal; --json prints machine-readable
    output only.
    """
    game = make_game(game_name, players, options)
    rng = random.Random(seed)
    tally = Tally(game)
    start = time.perf_counter()
    with click.progressbar(length=count, label=f"{game_name}", file=sys.stderr,
                           show_pos=True) as bar:
        for _ in range(count):
            state = game.deal(seed=rng.getrandbits(63))
            while not state.is_terminal:
                state.apply(rng.choice(state.legal_actions()))
            tally.add(state)
            bar.update(1)
    report = tally.report(max(time.perf_counter() - start, 1e-9))
    if as_json:
        click.echo(json.dumps(report))
        return
    click.echo(f"{report['games']} games of {game_name} "
               f"({', '.join(f'{k}={v}' for k, v in game.options.items())})")
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


if __name__ == "__main__":
    main()
