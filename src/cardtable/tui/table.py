"""The terminal's side of a table: who sits where in ``cardtable play``, and the record
file saved after every move. The game itself is a :class:`cardtable.table.Table`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cardtable
from cardtable import records
from cardtable.bots import bot_kind
from cardtable.core import OptionsError
from cardtable.local import data_folder
from cardtable.records import Record
from cardtable.table import Seat, Table


def seat_label(seats: Sequence[Seat], seat: int) -> str:
    """How the UI names a seat's player: a person's name, or ``Bot 1`` (seat 1)."""
    who = seats[seat]
    return f"Bot {seat}" if who.kind == "bot" else who.name


def default_record_dir() -> Path:
    """Where games are saved unless told otherwise: ``$XDG_DATA_HOME/cardtable/games``."""
    return data_folder() / "games"


class RecordFile:
    """A table's ``on_move``: writes the record to ``path`` after every move. A file that
    cannot be written stops the saving (``problem`` says why), not the game."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.problem = ""

    def __call__(self, table: Table) -> None:
        self.save(table)

    def save(self, table: Table) -> Path | None:
        if self.path is None:
            return None
        try:
            return records.save(table.record(), self.path)
        except OSError as exc:
            self.problem = f"the game is not saved: {exc}"
            self.path = None
            return None


def record_file(table: Table) -> RecordFile | None:
    """The file a table saves itself to, if it does."""
    return table.on_move if isinstance(table.on_move, RecordFile) else None


def bot_seat(kind: str, think: float | None) -> Seat:
    """A ``kind`` bot; the searching kind thinks ``think`` seconds a move."""
    return Seat("bot", kind, {"seconds": think} if think and bot_kind(kind).takes_budget else {})


def _table_options(save_path: Path | None, think: float | None) -> dict[str, Any]:
    return {"on_move": RecordFile(save_path) if save_path is not None else None,
            "hint_budget": {"seconds": think} if think else None}


def new_table(game: cardtable.Game, humans: list[int], bot_kind: str, *,
              seed: int | None = None, save_path: Path | None = None,
              think: float | None = None, names: list[str] | None = None) -> Table:
    """A fresh deal with people in ``humans`` and ``bot_kind`` bots elsewhere."""
    n = game.num_players
    bad = [s for s in humans if not 0 <= s < n]
    if bad:
        raise OptionsError(f"seat {bad[0]} does not exist: {game.name} with {n} players "
                           f"has seats 0 to {n - 1}")
    if names is None:
        names = ["You"] if len(humans) == 1 else [f"Player {s}" for s in sorted(humans)]
    seats = [bot_seat(bot_kind, think) for _ in range(n)]
    for human, name in zip(sorted(humans), names, strict=True):
        seats[human] = Seat("person", name)
    state = game.deal(seed=seed)
    return Table(state, seats, bot_seed=state.seed, **_table_options(save_path, think))


def resumed_table(record: Record, save_path: Path | None,
                  think: float | None = None) -> Table:
    """The game of ``record`` at its last position, to play on."""
    seats = [bot_seat(who.name, think) if who.kind == "bot" else who for who in record.seats]
    return Table.from_moves(
        cardtable.new_game(record.game, **record.options), seats, seed=record.seed,
        start=record.start, moves=[move for _, move in record.actions],
        bot_seed=random.SystemRandom().getrandbits(32), created=record.created,
        **_table_options(save_path, think))
