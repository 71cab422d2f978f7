"""``cardtable arena``: bots matched against each other, ranked."""

from __future__ import annotations

import json
import sys
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import click

from cardtable.bots import KINDS, YARDSTICKS
from cardtable.cli.options import (
    UserError,
    describe,
    game_argument,
    game_options,
    make_game,
    players_option,
)
from cardtable.core import CardtableError

FILE = click.Path(dir_okay=False, path_type=Path)


@click.command()
@game_argument
@click.option("--bots", "-b", default="heuristic,random", show_default=True,
              help="Comma-separated bots to match up, each pair in turn: "
              + ", ".join((*KINDS, *(f"{y} (a frozen yardstick)" for y in YARDSTICKS)))
              + "; with settings and an optional label (ismcts:iterations=5000, "
              "deep=ismcts:iterations=5000:rollout=random); or an outside bot by import "
              "path (mypkg.bots:make, called with seed= and the settings).")
@players_option
@click.option("--games", "-n", "count", type=click.IntRange(min=1), default=100,
              show_default=True, help="Games per pair of bots (rounded up to an even number: "
              "every deal is played twice with the seats swapped).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the deals and the bots; same seed, same results.")
@click.option("--workers", "-w", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to play in parallel on this machine (local, dask, ray).")
@click.option("--executor", "-e", default="local", show_default=True, metavar="WHERE",
              help="Where the games run: local (this machine's processes), dask (a Dask "
              "cluster on this machine), dask://HOST:PORT (a Dask scheduler), ray "
              "(RAY_ADDRESS's cluster, else a Ray on this machine), ray://HOST:PORT (Ray "
              "Client). The same seed gives the same results on every one.")
@click.option("--engine", "engine", type=click.Choice(["scalar", "batched"]), default="scalar",
              show_default=True,
              help="scalar: every game through the rules engine, any bot. batched: the games "
              "as rows of the game's batched engine in this process (the vector extra), "
              "thousands a second; only random, heuristic, heuristic-v1 and trained, "
              "without settings; not the scalar engine's deals.")
@click.option("--batch", type=click.IntRange(min=1),
              help="Games per task sent to a worker (default: one when a bot searches, else "
              "enough to keep scheduling cheap, at most 50); with --engine batched, games "
              "per batch (default 4096).")
@click.option("--iterations", type=click.IntRange(min=1),
              help="ISMCTS iterations per move (default 1000 when --seconds is not given).")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True),
              help="ISMCTS thinking time per move (results then depend on machine load).")
@click.option("--rollout", type=click.Choice(["game", "random", "heuristic"]), default="game",
              show_default=True,
              help="ISMCTS playout policy: the game's own fast playout where it has one "
                   "(Three Thirteen) else random moves; random; or the full heuristic bot.")
@click.option("--root", type=click.Choice(["game", "ucb", "paired", "flat"]), default="game",
              show_default=True,
              help="ISMCTS root: UCB1, or every determinization after each of the heuristic's "
                   "best moves (paired), or every root move played out on every "
                   "determinization with no tree below it (flat); game: the game's choice "
                   "(paired in Three Thirteen, flat in the Draw Bridge auction).")
@click.option("--tree-size", type=click.IntRange(min=1),
              help="ISMCTS (UCB root): grow a fresh tree every N iterations and add up the "
                   "trees' root visits (default: the game's choice, 1000 in Sequence, else "
                   "one tree).")
@click.option("--max-actions", type=click.IntRange(min=1),
              help="Stop a game after this many actions and count it as a draw.")
@game_options
@click.option("--out", type=FILE,
              help="Write every game's result to FILE (JSON lines) as it finishes.")
@click.option("--resume", type=FILE,
              help="Continue the arena of FILE (written by --out with this same command): "
              "play only the games still missing and add them to FILE.")
@click.option("--plot", "plot_path", type=FILE,
              help="Draw the ratings and the pairwise win rates to FILE (.png or .svg; needs "
              "matplotlib: pip install 'cardtable[plot]').")
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the standings as CSV.")
def arena(game_name: str, bots: str, players: int | None, count: int, seed: int, workers: int,
          executor: str, engine: str, batch: int | None, iterations: int | None,
          seconds: float | None,
          rollout: str, root: str, tree_size: int | None, max_actions: int | None,
          options: tuple[tuple[str, Any], ...], out: Path | None, resume: Path | None,
          plot_path: Path | None, as_json: bool, as_csv: bool) -> None:
    """Match bots against each other on GAME and rank them.

    Every pair of bots plays --games games, each deal twice with the seats swapped.
    Prints each bot's wins, draws and losses, its win rate (draws and shared wins count
    half) with a 95% confidence interval, its average score and a Bradley-Terry rating
    on the Elo scale with a 95% bootstrap interval; then each pair's win rate with its
    interval per game (Wilson) and per deal (paired: a deal's two games are one unit).
    Ctrl-C stops at once and keeps every finished game (in --out FILE).

    \b
    Examples:
      cardtable arena sequence --bots ismcts,heuristic,random --games 40 --workers 2
      cardtable arena sequence --bots ismcts:iterations=1000,heuristic-v1 --games 2000 \\
          --executor dask://10.0.0.5:8786 --out long.jsonl
      (the same command with --resume long.jsonl after Ctrl-C)
      cardtable arena threethirteen --bots trained,heuristic --games 20000 --engine batched
    """
    from cardtable import arena as arena_mod
    from cardtable.arena import batched as batched_mod
    from cardtable.arena.executors import open_executor
    from cardtable.arena.plots import check_path, plot

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
    if out is not None and resume is not None and out != resume:
        raise UserError("--resume FILE adds to FILE: give --out or --resume, not both")
    path = resume or out
    if engine == "batched" and (workers != 1 or executor != "local"):
        raise UserError("--engine batched plays in this process: leave out --workers and "
                        "--executor")
    try:
        specs = arena_mod.parse_list(bots)
        if engine == "batched":
            batched_mod.check(game_name, specs)
        tasks = arena_mod.plan(game_name, dict(game.options), specs, count, seed, budget,
                               max_actions)
        if plot_path is not None:
            check_path(plot_path)
        results_file = None
        if path is not None:
            head = arena_mod.header(game_name, dict(game.options), specs, count, seed, budget,
                                    max_actions, len(tasks))
            if engine == "batched":  # another arena than the scalar one: resumed only so
                head["engine"] = engine
            results_file = arena_mod.ResultsFile(path, head, resume=resume is not None)
    except CardtableError as exc:
        raise UserError(str(exc)) from None
    labels = [s.label for s in specs]
    results = list(results_file.done) if results_file else []
    played = {r.index for r in results}
    missing = [t for t in tasks if t.index not in played]
    start = time.perf_counter()
    interrupted = False
    with click.progressbar(length=len(tasks), label=f"{game_name} arena", file=sys.stderr,
                           show_pos=True, show_eta=True,
                           hidden=not sys.stderr.isatty()) as bar:
        bar.update(len(results))
        try:
            with open_executor(executor, workers) as running, \
                    closing(arena_mod.stream(missing, running, batch) if engine == "scalar"
                            else batched_mod.stream(missing, batch or batched_mod.ROWS)
                            ) as games:
                for result in games:
                    results.append(result)
                    if results_file:
                        results_file.add(result)
                    bar.update(1)
        except CardtableError as exc:
            raise UserError(str(exc)) from None
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if results_file:
                results_file.close()
    elapsed = time.perf_counter() - start
    results.sort(key=lambda r: r.index)
    rows = arena_mod.standings(results, labels)
    pair_rows = arena_mod.pairs(results, labels)
    if plot_path is not None and results:
        try:
            plot(rows, pair_rows, plot_path,
                 f"{game_name} ({describe(game)}): {len(results)} games, seed {seed}")
        except CardtableError as exc:
            raise UserError(str(exc)) from None
    if as_json:
        click.echo(json.dumps({"game": game_name, "options": game.options, "bots": labels,
                               "budget": budget, "engine": engine, "seed": seed,
                               "games": len(results),
                               "standings": arena_mod.as_json(rows),
                               "pairs": arena_mod.as_json(pair_rows)}))
    elif as_csv:
        import csv
        import io

        text = io.StringIO()
        fields = list(arena_mod.as_json(rows)[0])
        writer = csv.DictWriter(text, fieldnames=fields)
        writer.writeheader()
        writer.writerows(arena_mod.as_json(rows))
        click.echo(text.getvalue().rstrip("\n"))
    else:
        click.echo(f"{len(results)} games of {game_name} ({describe(game)}) "
                   f"in {elapsed:.1f} s")
        click.echo(arena_mod.table(rows, pair_rows))
    if interrupted:
        kept = (f"kept in {path}: play the rest with the same command and --resume {path}"
                if path else "not kept (--out FILE keeps them)")
        click.echo(f"Interrupted: {len(results)} of {len(tasks)} games played, {kept}.",
                   err=True)
        sys.exit(130)
