"""A game at a table: the state, who sits in each seat, the bots, the log of moves.

Every front end drives its games through a :class:`Table`: the terminal UI, ``cardtable
simulate``, the arena, the Gymnasium environment and the table server. The table refuses
a move from a seat that is not to act, lets its bots play until a person is to act, keeps
the game's record as it goes, gives hints, and tells each seat what happened since a
version it saw, with the cards that seat drew and nothing it may not know.

>>> import cardtable
>>> from cardtable.table import Seat, Table
>>> table = Table.new(cardtable.new_game("sequence"),
...                   [Seat("person", "Ann"), Seat("bot", "random")], seed=7)
>>> table.to_act, table.version
(0, 0)
>>> move = table.play(0, table.view(0)["legal"][0])
>>> len(table.advance_bots()), table.to_act, table.version
(1, 0, 2)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import cardtable
from cardtable import records
from cardtable.core import (
    Action,
    CardtableError,
    IllegalActionError,
    MoveEvent,
    NotYourTurnError,
    OptionsError,
    State,
)
from cardtable.local import now
from cardtable.records import GameLog, Seat

if TYPE_CHECKING:
    from cardtable.bots import Bot, Hint

__all__ = ["BotJob", "GameLog", "HintJob", "NotYourTurnError", "Seat", "Table", "run_bot_job",
           "run_hint_job"]

@dataclass(frozen=True)
class BotJob:
    """The work of a bot choosing one move, as plain data: a game log, the seat to move,
    the bot and its randomness. It pickles, so that a process pool, Dask or Ray can run
    it (:func:`run_bot_job`)."""

    log: GameLog
    seat: int
    #: the bot kind (cardtable.bots.KINDS) and its settings
    kind: str
    settings: dict[str, Any]
    bot_seed: int


def _position(log: GameLog, seat: int) -> State:
    """The log's last position, with ``seat`` to act (NotYourTurnError otherwise)."""
    state = log.replay()
    if state.current_player != seat:
        raise NotYourTurnError(f"seat {seat} is not to act after {len(log.moves)} moves")
    return state


def run_bot_job(job: BotJob) -> str:
    """The notation of the move the job's bot chooses (in whatever process runs it)."""
    from cardtable import bots

    state = _position(job.log, job.seat)
    return str(bots.make(job.kind, seed=job.bot_seed, **job.settings).choose(state))


@dataclass(frozen=True)
class HintJob:
    """A hint for the seat to act, as plain, picklable data (:func:`run_hint_job`)."""

    log: GameLog
    seat: int
    #: the searching bot's budget, as for ``cardtable.bots.make``; None: the default
    budget: dict[str, Any] | None = None
    #: the search's randomness; None: fresh
    seed: int | None = None


def run_hint_job(job: HintJob) -> Hint:
    """The hint the job asks for (in whatever process runs it)."""
    from cardtable import bots

    return bots.hint(_position(job.log, job.seat), job.seat, budget=job.budget, seed=job.seed)


class Table:
    """One game being played: ``state`` moves on as people and bots play.

    ``version`` counts the moves accepted so far (0 at the start). Build a table with
    :meth:`new`, :meth:`from_moves` or :meth:`from_record`. Keywords they pass on:
    ``bot_seed`` (the bots' randomness), ``bots`` (Bot objects to play some seats
    instead of new ones made from the seats' kinds), ``hint_budget`` (the ISMCTS budget
    of a hint), ``on_move`` (called with the table after every accepted move, e.g. to
    save the record) and ``created`` (the record's timestamp).
    """

    def __init__(self, state: State, seats: Sequence[Seat], *, bot_seed: int | None = None,
                 bots: Mapping[int, Bot] | None = None,
                 hint_budget: dict[str, Any] | None = None,
                 on_move: Callable[[Table], None] | None = None,
                 created: str | None = None) -> None:
        game = state.game
        if len(seats) != game.num_players:
            raise OptionsError(f"{len(seats)} seats for the {game.num_players} players of "
                               f"{game.name}")
        for who in seats:
            if not isinstance(who, Seat):
                raise OptionsError(f"a seat is a cardtable.table.Seat, not {who!r}")
        self.state = state
        self.seats = list(seats)
        # where the game began: a seed for Game.deal, or a copy of the first position
        self.seed = state.seed if not state.history else None
        self._start = None if self.seed is not None else state.clone()
        #: (seat, notation) of every move accepted, in order
        self.moves: list[tuple[int, str]] = []
        self.hint_budget = hint_budget
        self.on_move = on_move
        self.created = created or now()
        self._bot_seed = bot_seed if bot_seed is not None else (
            random.SystemRandom().getrandbits(63))
        rng = random.Random(self._bot_seed)
        given = dict(bots or {})
        self._bots: dict[int, Bot] = {}
        for seat, who in enumerate(self.seats):
            if who.kind == "bot":
                seed = rng.getrandbits(32)
                self._bots[seat] = given.pop(seat) if seat in given else _make_bot(who, seed)
        if given:
            raise OptionsError(f"a bot is given for seat {min(given)}, which is not a bot's")
        #: what each accepted move did, as the game told it (``events[v - 1]``: version v)
        self.events: list[MoveEvent] = []
        #: how the table ended the game before its rules did (``records.GameLog.ending``)
        self.ending: dict[str, Any] | None = None
        #: the takebacks so far (``records.GameLog.undos``)
        self.undos: list[dict[str, Any]] = []
        self._views: dict[int | None, dict[str, Any]] = {}
        #: what the views of this version share (State._shared_view)
        self._shared: dict[str, Any] = {}

    # -- making tables ---------------------------------------------------------

    @classmethod
    def new(cls, game: cardtable.Game, seats: Sequence[Seat], *, seed: int | None = None,
            start: State | dict[str, Any] | None = None, **table: Any) -> Table:
        """A fresh deal (from ``seed``), or the game from ``start`` (a State or its
        ``to_dict()``, e.g. a ``setup`` position)."""
        if start is None:
            return cls(game.deal(seed=seed), seats, **table)
        if seed is not None:
            raise OptionsError("give a table a seed or a start position, not both")
        state = start.clone() if isinstance(start, State) else cardtable.state_from_dict(start)
        if state.game != game:
            raise OptionsError(f"the start position is one of {state.game!r}, not {game!r}")
        return cls(state, seats, **table)

    @classmethod
    def from_moves(cls, game: cardtable.Game, seats: Sequence[Seat], *, seed: int | None,
                   moves: Sequence[str], start: State | dict[str, Any] | None = None,
                   **table: Any) -> Table:
        """The table after ``moves`` (notation, in order) from ``seed`` or ``start``: a game
        log replayed. IllegalActionError names the first move that does not replay."""
        new = cls.new(game, seats, seed=seed, start=start, **table)
        on_move, new.on_move = new.on_move, None
        for number, move in enumerate(moves, 1):
            try:
                new._accept(new.state.current_player, move)
            except CardtableError as exc:
                raise IllegalActionError(f"move {number} ({move!r}): {exc}") from None
        new.on_move = on_move
        return new

    @classmethod
    def from_record(cls, record: records.Record, **table: Any) -> Table:
        """The table at the last position of a game record."""
        table.setdefault("created", record.created)
        return cls.from_log(record.log, record.seats, **table)

    @classmethod
    def from_log(cls, log: GameLog, seats: Sequence[Seat], **table: Any) -> Table:
        """The table at the last position of a game log."""
        new = cls.from_moves(log.new_game(), seats, seed=log.seed, start=log.start,
                             moves=[move for _, move in log.moves], **table)
        new.undos = [dict(u) for u in log.undos]
        if log.ending is not None:
            new.end(log.ending["kind"], log.ending["seat"])
        return new

    # -- whose turn ------------------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.moves)

    @property
    def to_act(self) -> int | None:
        """The seat to act; None once the game is over (by its rules or the table's)."""
        return None if self.ending is not None else self.state.current_player

    @property
    def over(self) -> bool:
        """The game is over: by its rules, or a resignation or an abort."""
        return self.ending is not None or self.state.is_terminal

    def result(self) -> dict[str, Any] | None:
        """The record's result (``records.log_result``): None while the game goes on."""
        return records.log_result(self.state, self.ending, len(self.undos))

    def end(self, kind: str, seat: int) -> None:
        """End the game now: ``seat`` resigns (``kind`` "resign": the other teams win) or
        aborts it ("abort": nobody wins). NotYourTurnError once the game is over."""
        self._check_seat(seat)
        if kind not in records.ENDINGS:
            raise OptionsError(f"a table ends a game by {' or '.join(records.ENDINGS)}, "
                               f"not {kind!r}")
        if self.over:
            raise NotYourTurnError("the game is over")
        self.ending = {"kind": kind, "seat": seat}
        self._views.clear()

    def undoable(self, seat: int) -> int:
        """How many moves :meth:`undo` would take back for ``seat``: its last whole turn
        (its last move, and the moves of the same turn before it, ``Game.keeps_turn``:
        Three Thirteen's draw with its discard) and every move after it (0: it has made
        none, or the game is over)."""
        if self.over:
            return 0
        keeps_turn = self.state.game.keeps_turn
        for n in range(len(self.moves) - 1, -1, -1):
            if self.moves[n][0] == seat:
                while n > 0 and self.moves[n - 1][0] == seat and keeps_turn(self.moves[n - 1][1]):
                    n -= 1
                return len(self.moves) - n
        return 0

    def undo(self, seat: int) -> int:
        """Take back ``seat``'s last whole turn and every move after it (the state is
        rebuilt from the start and the moves before it); the number taken back, 0 for
        none."""
        self._check_seat(seat)
        count = self.undoable(seat)
        if not count:
            return 0
        keep = len(self.moves) - count
        state = self.start_state()
        for _, notation in self.moves[:keep]:
            state.apply(notation)
        state.seed = self.state.seed
        self.state = state
        del self.moves[keep:]
        del self.events[keep:]
        self.undos.append({"seat": seat, "at": keep, "undone": count})
        self._views.clear()
        self._shared = {}
        return count

    @property
    def bot_to_act(self) -> bool:
        seat = self.to_act
        return seat is not None and self.seats[seat].kind == "bot"

    @property
    def persons(self) -> list[int]:
        """The seats people play."""
        return [s for s, who in enumerate(self.seats) if who.kind == "person"]

    def is_person(self, seat: int | None) -> bool:
        """Whether a person plays ``seat`` (False for None, nobody's turn)."""
        return seat is not None and self.seats[seat].kind == "person"

    def set_seat(self, seat: int, who: Seat) -> None:
        """Seat someone else: a bot taking over from a person, a person sitting down, or
        another bot."""
        self._check_seat(seat)
        bot = _make_bot(who, random.Random(f"{self._bot_seed}:{seat}:{self.version}")
                        .getrandbits(32)) if who.kind == "bot" else None
        self.seats[seat] = who
        self._bots.pop(seat, None)
        if bot is not None:
            self._bots[seat] = bot

    # -- moves -----------------------------------------------------------------

    def play(self, seat: int, move: Action | str | int) -> Action:
        """Play ``seat``'s move: NotYourTurnError if another seat is to act (or the game is
        over), IllegalActionError if the move is refused; either way nothing changes."""
        self._check_seat(seat)
        to_act = self.to_act
        if to_act is None:
            raise NotYourTurnError(f"seat {seat} cannot move: the game is over")
        if seat != to_act:
            raise NotYourTurnError(f"seat {seat} cannot move: it is seat {to_act}'s turn")
        return self._accept(seat, move)

    def bot_move(self) -> Action:
        """The move the bot to act chooses, thought out on a copy of the state (a UI can
        show the table meanwhile); play it with :meth:`play`."""
        seat = self.to_act
        if seat is None or seat not in self._bots:
            raise NotYourTurnError("no bot is to act")
        return self._bots[seat].choose(self.state.clone())

    def advance_bots(self, max_moves: int | None = None) -> list[Action]:
        """Let the bots play, in this process, until a person is to act, the game is over
        or ``max_moves`` moves are made; the moves made."""
        made: list[Action] = []
        while max_moves is None or len(made) < max_moves:
            seat = self.to_act
            bot = self._bots.get(seat) if seat is not None else None
            if bot is None:
                break
            made.append(self._accept(seat, bot.choose(self.state)))
        return made

    def bot_job(self) -> BotJob:
        """The bot to act's choice as plain, picklable data for :func:`run_bot_job` (its
        randomness is drawn from the table's bot seed and the version)."""
        seat = self.to_act
        if seat is None or self.seats[seat].kind != "bot":
            raise NotYourTurnError("no bot is to act")
        who = self.seats[seat]
        return BotJob(self.log(), seat, who.name, dict(who.settings),
                      random.Random(f"{self._bot_seed}:{self.version}").getrandbits(63))

    def hint_job(self, seat: int, budget: dict[str, Any] | None = None) -> HintJob:
        """:meth:`hint` as plain, picklable data for :func:`run_hint_job`."""
        self._check_seat(seat)
        if seat != self.to_act:
            raise NotYourTurnError(f"a hint is for the seat to act, not seat {seat}")
        return HintJob(self.log(), seat, budget or self.hint_budget)

    def hint(self, seat: int, budget: dict[str, Any] | None = None) -> Hint:
        """A searching bot's advice for ``seat``, the seat to act (``budget`` as for
        ``cardtable.bots.make``; default: the table's ``hint_budget``)."""
        from cardtable import bots

        self._check_seat(seat)
        if seat != self.to_act:
            raise NotYourTurnError(f"a hint is for the seat to act, not seat {seat}")
        return bots.hint(self.state.clone(), seat, budget=budget or self.hint_budget)

    def _accept(self, seat: int | None, move: Action | str | int) -> Action:
        state = self.state
        state.apply(move)
        action = state.history[-1][1]
        assert seat is not None
        self.moves.append((seat, action.notation))
        event = state.last_event
        assert event is not None
        self.events.append(event)
        self._views.clear()
        self._shared = {}
        if self.on_move is not None:
            self.on_move(self)
        return action

    # -- what a seat sees --------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may know now: the game's view without the
        history (its ``"legal"`` moves in notation are the seat to act's, else empty),
        with the table's ``"version"``. Its lists are shared with the table's other views
        of this version: read them, copy before changing them."""
        if seat is not None:
            self._check_seat(seat)
        view = dict(self._seat_view(seat))
        view["version"] = self.version
        if self.ending is not None:     # resigned or aborted: nobody moves any more
            view["legal"] = []
            view["current_player"] = None
        return view

    def events_since(self, version: int, seat: int | None) -> list[dict[str, Any]]:
        """One event per move accepted after ``version``, as ``seat`` may know it: the
        game's :class:`~cardtable.core.MoveEvent` cut for that seat (``MoveEvent.for_seat``:
        ``seat``, ``move``, ``phase``, ``public``, and that seat's own ``drawn`` or
        ``dealt`` cards) with the table's ``version``. A spectator (None) gets no cards."""
        if isinstance(version, bool) or not isinstance(version, int) or not (
                0 <= version <= self.version):
            raise OptionsError(f"version must be 0 to {self.version}, not {version!r}")
        if seat is not None:
            self._check_seat(seat)
        return [{"version": number, **self.events[number - 1].for_seat(seat)}
                for number in range(version + 1, self.version + 1)]

    def _seat_view(self, seat: int | None) -> dict[str, Any]:
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.state._shared_view(seat, self._shared)
        return view

    # -- the record ------------------------------------------------------------

    def start_state(self) -> State:
        """A copy of the position the game started from."""
        if self._start is not None:
            return self._start.clone()
        return self.state.game.deal(seed=self.seed)

    def log(self) -> GameLog:
        """The game so far as a log: where it began and every move accepted."""
        game = self.state.game
        return GameLog(game.name, dict(game.options), self.seed,
                       None if self._start is None else self._start.to_dict(),
                       tuple(self.moves), self.ending, tuple(dict(u) for u in self.undos))

    def record(self) -> records.Record:
        """The game's record so far (finished when the game is over)."""
        return records.Record.of_log(self.log(), self.seats, self.result(), self.created)

    def _check_seat(self, seat: Any) -> None:
        n = len(self.seats)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise OptionsError(f"no seat {seat!r}: the seats are 0 to {n - 1}")

    def __repr__(self) -> str:
        game = self.state.game.name
        turn = "over" if self.to_act is None else f"seat {self.to_act} to act"
        return f"<Table {game}, {turn}, version {self.version}>"


def _make_bot(who: Seat, seed: int) -> Bot:
    from cardtable import bots

    return bots.make(who.name, seed=seed, **who.settings)
