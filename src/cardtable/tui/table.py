"""A game at the terminal, without the screen: the state, who sits where, the bots, the record.

The UI asks a :class:`Table` whose turn it is, lets bots choose through it and
hands it the moves people make; the table keeps the game's record up to date.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cardtable
from cardtable import records
from cardtable.core import Action, CardtableError, OptionsError, State
from cardtable.records import Record, RecordError, Seat

BOT_KINDS = ("heuristic", "ismcts", "random")


class Bot(Protocol):
    def choose(self, state: State) -> Action: ...

    def reset(self) -> None: ...


@dataclass(frozen=True)
class Hint:
    """A bot's advice for a seat's move."""

    notation: str
    win_probability: float | None


def make_bot(kind: str, seed: int | None, think: float | None) -> Bot:
    """A bot from ``cardtable.bots``; ``think`` seconds per move for the searching kind."""
    from cardtable import bots  # the bots load only when a game has one

    budget: dict[str, Any] = {"seconds": think} if kind == "ismcts" and think else {}
    bot: Bot = bots.make(kind, seed=seed, **budget)
    return bot


def ask_hint(state: State, seat: int, think: float | None) -> Hint:
    from cardtable import bots

    budget = {"seconds": think} if think else None
    hint = bots.hint(state, seat, budget=budget)
    return Hint(str(hint.action), hint.win_probability)


def seat_label(seats: list[Seat], seat: int) -> str:
    """How the UI names a seat's player: a person's name, or ``Bot 1`` (seat 1)."""
    who = seats[seat]
    return f"Bot {seat}" if who.kind == "bot" else who.name


def default_record_dir() -> Path:
    """Where games are saved unless told otherwise: ``$XDG_DATA_HOME/cardtable/games``."""
    import os

    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cardtable" / "games"


class Table:
    """One game being played: ``state`` moves on as people and bots play."""

    def __init__(self, state: State, seats: list[Seat], *, start: State | None = None,
                 save_path: Path | None = None, think: float | None = None,
                 bot_seed: int | None = None, created: str | None = None) -> None:
        if len(seats) != state.game.num_players:
            raise OptionsError(f"{len(seats)} seats for {state.game.num_players} players")
        self.state = state
        self.seats = list(seats)
        # a game that did not come from a seed is recorded from a copy of its first position
        self.start = start.clone() if start is not None else (
            None if state.seed is not None else state.clone())
        self.save_path = save_path
        self.think = think
        self.created = created or records.now()
        self.save_problem = ""
        rng = random.Random(bot_seed)
        self.bots: dict[int, Bot] = {
            s: make_bot(who.name, rng.getrandbits(32), think)
            for s, who in enumerate(seats) if who.kind == "bot"
        }

    @classmethod
    def new(cls, game: cardtable.Game, humans: list[int], bot_kind: str, *,
            seed: int | None = None, save_path: Path | None = None,
            think: float | None = None, names: list[str] | None = None) -> Table:
        """A fresh deal with people in ``humans`` and ``bot_kind`` bots elsewhere."""
        n = game.num_players
        bad = [s for s in humans if not 0 <= s < n]
        if bad:
            raise OptionsError(f"seat {bad[0]} does not exist: {game.name} with {n} players "
                               f"has seats 0 to {n - 1}")
        if bot_kind not in BOT_KINDS:
            raise OptionsError(f"no bot {bot_kind!r}; the bots are {', '.join(BOT_KINDS)}")
        if names is None:
            names = ["You"] if len(humans) == 1 else [f"Player {s}" for s in sorted(humans)]
        seats = [Seat("bot", bot_kind) for _ in range(n)]
        for human, name in zip(sorted(humans), names, strict=True):
            seats[human] = Seat("human", name)
        state = game.deal(seed=seed)
        return cls(state, seats, save_path=save_path, think=think, bot_seed=state.seed)

    @classmethod
    def resume(cls, record: Record, save_path: Path | None,
               think: float | None = None) -> Table:
        """The game of ``record`` at its last position, to play on."""
        state = records.replay(record)
        start = record.start_state() if record.start is not None else None
        for who in record.seats:
            if who.kind == "bot" and who.name not in BOT_KINDS:
                raise RecordError(f"seat played by an unknown bot {who.name!r}; the bots are "
                                  f"{', '.join(BOT_KINDS)}")
        return cls(state, record.seats, start=start, save_path=save_path, think=think,
                   bot_seed=random.SystemRandom().getrandbits(32), created=record.created)

    # -- whose turn ------------------------------------------------------

    @property
    def humans(self) -> list[int]:
        return [s for s, who in enumerate(self.seats) if who.kind == "human"]

    def is_human(self, seat: int | None) -> bool:
        return seat is not None and self.seats[seat].kind == "human"

    def label(self, seat: int) -> str:
        return seat_label(self.seats, seat)

    # -- moves -------------------------------------------------------------

    def play(self, move: Action | str) -> Action:
        """Apply a move of the seat to act; IllegalActionError (state unchanged) if refused."""
        self.state.apply(move)
        action = self.state.history[-1][1]
        self.save()
        return action

    def bot_choice(self) -> Action:
        """The move the bot of the seat to act chooses (it sees a copy of the state)."""
        seat = self.state.current_player
        if seat is None or seat not in self.bots:
            raise CardtableError("no bot is to move")
        return self.bots[seat].choose(self.state.clone())

    def hint(self, seat: int) -> Hint:
        return ask_hint(self.state.clone(), seat, self.think)

    # -- the record ------------------------------------------------------

    def record(self) -> Record:
        return records.record_of(self.state, self.seats, start=self.start, created=self.created)

    def save(self) -> Path | None:
        """Write the record; a file that cannot be written stops the saving, not the game."""
        if self.save_path is None:
            return None
        try:
            return records.save(self.record(), self.save_path)
        except OSError as exc:
            self.save_problem = f"the game is not saved: {exc}"
            self.save_path = None
            return None

    def replace_bot(self, seat: int, kind: str) -> None:
        """Seat a ``kind`` bot instead (when the game has no bot of the chosen kind)."""
        self.seats[seat] = Seat("bot", kind)
        self.bots[seat] = make_bot(kind, None, self.think)
