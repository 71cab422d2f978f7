"""The ``cardtable`` command line."""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import click

import cardtable
from cardtable import records
from cardtable.core import CardtableError
from cardtable.tui import commands as tui_commands


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
    """List the games with their player counts, options and defaults."""
    for name in cardtable.game_names():
        game = cardtable.new_game(name)
        opts = ", ".join(f"{k}={v}" for k, v in game.options.items() if k != "players")
        click.echo(f"{name:14} players {_counts(player_counts(name))} "
                   f"(default {game.num_players}); {opts}")
    click.echo("\nSet options with -o key=value, e.g. cardtable simulate sequence -o teams=3 "
               "--players 6")


def player_counts(name: str) -> list[int]:
    """The player counts game ``name`` accepts (each tried with the other options' defaults)."""
    counts = []
    for players in range(1, 17):
        try:
            cardtable.new_game(name, players=players)
        except cardtable.OptionsError:
            continue
        counts.append(players)
    return counts


def _counts(counts: list[int]) -> str:
    """``[2, 3, 4, 6, 8, 9]`` -> ``"2-4, 6, 8-9"``."""
    runs: list[list[int]] = []
    for n in counts:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


# Playing in the terminal, replaying game records, the rules (cardtable.tui)
main.add_command(tui_commands.play)
main.add_command(tui_commands.replay)
main.add_command(tui_commands.rules)


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
@click.option("--save-records", "record_dir", metavar="DIR",
              type=click.Path(file_okay=False, path_type=Path),
              help="Save every game as a record in DIR (GAME-00001.json ...), to watch with "
              "`cardtable replay`.")
def simulate(game_name: str, players: int | None, count: int, seed: int | None,
             options: tuple[str, ...], as_json: bool, record_dir: Path | None) -> None:
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
        for number in range(1, count + 1):
            state = game.deal(seed=rng.getrandbits(63))
            while not state.is_terminal:
                state.apply(rng.choice(state.legal_actions()))
            tally.add(state)
            if record_dir is not None:
                seats = [records.Seat("bot", "random")] * game.num_players
                records.save(records.record_of(state, seats),
                             record_dir / f"{game_name}-{number:05d}.json")
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


@main.command()
@click.argument("game_name", metavar="GAME", type=GAME)
@click.option("--bots", "-b", default="heuristic,random", show_default=True,
              help="Comma-separated bots to match up, each pair in turn: random, heuristic, "
              "ismcts.")
@click.option("--players", "-p", type=int, help="Number of players (default: the game's).")
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
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="A game option (repeatable); see `cardtable games`.")
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the standings as CSV.")
def arena(game_name: str, bots: str, players: int | None, count: int, seed: int, workers: int,
          iterations: int | None, seconds: float | None, rollout: str, root: str,
          tree_size: int | None, max_actions: int | None, options: tuple[str, ...], as_json: bool,
          as_csv: bool) -> None:
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
        raise click.UsageError(str(exc)) from None
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
        click.echo(f"{len(results)} games of {game_name} "
                   f"({', '.join(f'{k}={v}' for k, v in game.options.items())}) "
                   f"in {time.perf_counter() - start:.1f} s")
        click.echo(arena_mod.table(rows))
