"""``cardtable replay``: step through a saved game."""

from __future__ import annotations

from pathlib import Path

import click

from cardtable import records
from cardtable.cli.options import UserError, need_terminal


@click.command()
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--seat", "-s", type=int, help="Whose hand to show (default: the first person's "
              "seat; v switches while watching).")
@click.option("--pace", type=click.FloatRange(min=0.05), default=0.8, show_default=True,
              help="Seconds per move when playing the record on (space).")
def replay(path: Path, seat: int | None, pace: float) -> None:
    """Step through a saved game: → and ← move, space plays on, v changes the seat shown.

    FILE is a game record written by `cardtable play` (or `cardtable simulate
    --save-records`); its format is in docs/records.md.
    """
    try:
        record = records.load(path)
    except records.RecordError as exc:
        raise UserError(str(exc)) from None
    players = len(record.seats)
    if seat is not None and not 0 <= seat < players:
        raise UserError(f"--seat {seat}: the game has seats 0 to {players - 1}")
    need_terminal()
    from cardtable.tui.app import ReplayApp

    ReplayApp(record, path, seat=seat, pace=pace).run()
