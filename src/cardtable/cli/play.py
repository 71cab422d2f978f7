"""``cardtable play``: a game in the terminal against bots, or with friends at one keyboard."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

import cardtable
from cardtable import records
from cardtable.bots import KINDS
from cardtable.bots.levels import LEVEL_NAMES, LEVELS, levels
from cardtable.cli.options import (
    UserError,
    game_options,
    make_game,
    need_terminal,
    players_option,
)
from cardtable.core import CardtableError
from cardtable.table import Table
from cardtable.tui.table import default_record_dir, new_table, record_file, resumed_table


def _seats(given: tuple[str, ...], num_players: int) -> list[int]:
    seats: list[int] = []
    for text in given:
        for part in text.split(","):
            part = part.strip().lower()
            if part == "all":
                seats += range(num_players)
                continue
            try:
                seat = int(part)
            except ValueError:
                raise UserError(f"--seat {text!r}: give a seat number (0 to {num_players - 1}) "
                                "or 'all'") from None
            if not 0 <= seat < num_players:
                raise UserError(f"--seat {seat}: with {num_players} players the seats are 0 "
                                f"to {num_players - 1}")
            seats.append(seat)
    return sorted(set(seats)) or [0]


def _new_record_path(directory: Path, game: str) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    path = directory / f"{game}-{stamp}.json"
    number = 2
    while path.exists():
        path = directory / f"{game}-{stamp}-{number}.json"
        number += 1
    return path


def _levels_help() -> str:
    """Each game's levels and the bots that play them, for --level's help."""
    return "; ".join(f"{game}: " + ", ".join(f"{lv.name} ({lv.bot})" for lv in levels(game))
                     for game in LEVELS)


def _bot_of(game: str, bot_kind: str | None, level: str | None) -> str:
    """The bot that plays the other seats: --bots's, --level's, or the heuristic."""
    if level is None:
        return bot_kind or "heuristic"
    if bot_kind is not None:
        raise UserError("give --bots (a bot by name) or --level (a bot by strength), not both")
    found = {lv.name: lv.bot for lv in levels(game)}
    if level not in found:
        raise UserError(f"{game} has no {level} level; its levels are {', '.join(found)}")
    return found[level]


@click.command()
@click.argument("game_name", metavar="[GAME]", required=False)
@players_option
@click.option("--teams", "-t", type=int, help="Sequence: number of teams (2 or 3 where allowed).")
@click.option("--seat", "-s", "seat_args", multiple=True, metavar="S",
              help="Your seat, 0 first (default 0). Give several (--seat 0 --seat 2, or "
              "--seat 0,2, or --seat all) for people sharing the keyboard: hands are hidden "
              "between their turns.")
@click.option("--bots", "bot_kind", type=click.Choice(sorted(KINDS)), default=None,
              help="Who plays the other seats, by the bot's name [default: heuristic]; "
              "--level picks by strength instead.")
@click.option("--level", type=click.Choice(LEVEL_NAMES), default=None,
              help="Who plays the other seats, by strength, as the web page's levels "
              "(weakest first; docs/bots.md has the measurements): " + _levels_help() + ".")
@click.option("--think", type=click.FloatRange(min=0.05), default=1.0, show_default=True,
              help="Seconds the ismcts bot, and a hint, may think about one move.")
@click.option("--seed", type=int, help="Seed of the deal (and the bots): the same seed gives "
              "the same cards.")
@game_options
@click.option("--save", "save_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the game record to this file (after every move); an existing file "
              "is kept unless --overwrite is given.")
@click.option("--overwrite", is_flag=True, help="Let --save replace an existing file.")
@click.option("--record-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Folder for the game records when --save is not given "
              "[default: $XDG_DATA_HOME/cardtable/games, else ~/.local/share/cardtable/games].")
@click.option("--no-save", is_flag=True, help="Do not save a record of the game.")
@click.option("--resume", type=click.Path(dir_okay=False, path_type=Path),
              help="Play on an unfinished game from its record (GAME and the table options "
              "come from the record; it is saved back to the same file).")
@click.option("--pace", type=click.FloatRange(min=0), default=0.8, show_default=True,
              help="Seconds between bots' moves, so that you can follow them.")
@click.option("--connect", "link", metavar="LINK",
              help="Play a table of a cardtable server: its invite link "
              "(http://HOST:8000/t/ID?seat=N; without ?seat= you watch).")
@click.option("--name", default=None, help="Your display name at a server's table (--connect).")
def play(game_name: str | None, players: int | None, teams: int | None,
         seat_args: tuple[str, ...], bot_kind: str | None, level: str | None, think: float,
         seed: int | None,
         options: tuple[tuple[str, Any], ...], save_path: Path | None, overwrite: bool,
         record_dir: Path | None, no_save: bool, resume: Path | None, pace: float,
         link: str | None, name: str | None) -> None:
    """Play GAME in the terminal against bots, or with friends at one keyboard.

    \b
    Keys: arrows and number keys choose, Enter plays, h asks a bot for a hint,
    r shows the rules, : (or /) lets you type a move in notation (Tab completes),
    q saves and quits. The mouse works too.
    \b
    Examples:
      cardtable play sequence
      cardtable play sequence --players 4 --seat 0,2     two people vs two bots
      cardtable play sequence --level expert
      cardtable play threethirteen -p 3 --bots ismcts --think 2
      cardtable play --resume ~/.local/share/cardtable/games/sequence-....json
      cardtable play --connect http://192.168.1.20:8000/t/Xq3...?seat=1
    """
    if link is not None:
        _connect(link, name)
        return
    if resume is not None:
        if (game_name or players or teams or options or seed is not None or seat_args
                or bot_kind or level):
            raise UserError("--resume takes the game, options, seed, seats and bots from the "
                            "record; leave GAME, --players, --teams, -o, --seed, --seat, "
                            "--bots and --level out")
        app_table = _resumed(resume, think)
    else:
        if game_name is None:
            raise UserError(f"which game? cardtable play GAME, GAME one of "
                            f"{', '.join(cardtable.game_names())} (or --resume FILE)")
        if game_name not in cardtable.game_names():
            raise UserError(f"unknown game {game_name!r}; the games are "
                            f"{', '.join(cardtable.game_names())}")
        game = make_game(game_name, players, options, teams=teams)
        bot_kind = _bot_of(game_name, bot_kind, level)
        humans = _seats(seat_args, game.num_players)
        if save_path is not None and save_path.exists() and not overwrite and not no_save:
            raise UserError(f"{save_path} already exists: play on with `cardtable play "
                            f"--resume {save_path}`, or give --overwrite to replace it")
        directory = record_dir or default_record_dir()
        paths = iter([save_path] if save_path else [])

        def another_table() -> Table:
            path = None if no_save else next(paths, None) or _new_record_path(directory,
                                                                                 game.name)
            return new_table(game, humans, bot_kind, seed=seed, save_path=path, think=think)

        try:
            app_table = another_table()
        except CardtableError as exc:
            raise UserError(str(exc)) from None
    need_terminal()
    from cardtable.tui.app import PlayApp

    saver = record_file(app_table)
    if saver is not None:
        saver.save(app_table)
    message = PlayApp(app_table, pace=pace, new_table=None if resume else another_table).run()
    if message:
        click.echo(message)


def _connect(link: str, name: str | None) -> None:
    from cardtable.tui.remote import ConnectError, RemoteApp, join

    who = name or os.environ.get("USER") or "terminal"
    try:
        base, table_id, seat, token, summary = join(link, who[:32])
    except ConnectError as exc:
        raise UserError(str(exc)) from None
    need_terminal()
    message = RemoteApp(base, table_id, seat, token, summary).run()
    if message:
        click.echo(message)


def _resumed(path: Path, think: float) -> Table:
    try:
        record = records.load(path)
        if record.finished:
            raise UserError(f"{path}: that game is over; watch it with: cardtable replay {path}")
        return resumed_table(record, path, think=think)
    except CardtableError as exc:
        raise UserError(str(exc)) from None


