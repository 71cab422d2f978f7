"""A room: one live table of this process.

A :class:`Room` is a :class:`cardtable.table.Table` (the game, its seats, version and
record) plus what only the server knows: the seats' token hashes, who is connected,
whether the table has started, its takeover time, its chat, clock and rematch; it tells
its connections what happens (presence, clock, summaries).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cardtable
from cardtable.records import Seat
from cardtable.server.chat import TableChat
from cardtable.server.clocks import Clock
from cardtable.server.connections import Connection
from cardtable.server.messages import (
    ClockMessage,
    Out,
    Presence,
    Result,
    SeatSummary,
    Status,
    TableSummary,
    UndoMessage,
)
from cardtable.store import SeatRow, TableRow, hash_token
from cardtable.table import Table

log = logging.getLogger("cardtable.server")

#: seconds within which the presences that change only the spectators' count are sent as
#: one (docs/server.md: Limits): a crowd coming or going costs a few broadcasts a second,
#: not one per connection
PRESENCE_DELAY = 0.25
#: the name the lobby shows for an unfinished table's seat taken with a player key
PLAYER_LABEL = "a player"
#: the spectators' names a presence carries at most (docs/server.md: Who is watching)
WATCHER_NAMES = 20


@dataclass
class Room:
    id: str
    table: Table
    #: per seat, the SHA-256 of its token while a person holds it
    tokens: list[str | None]
    #: every person seat has been taken (then the game plays)
    started: bool
    #: the game's end is stored (only then are its result and seed published)
    over: bool
    takeover_after: float | None
    conns: list[Connection] = field(default_factory=list)
    away_since: list[float | None] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    bot_failures: int = 0
    broken: bool = False
    #: the id of the rematch table once a seat asked for one
    rematch: str | None = None
    #: per seat, the public id of the player whose key took it (None: no player key)
    players: list[str | None] = field(default_factory=list)
    #: (player id, game) -> the player's rating shown next to its name, or None
    rate: Callable[[str, str], int | None] | None = None
    #: the table's chat: its lines, mutes and rates
    chat: TableChat = field(default_factory=TableChat)
    #: the table's clock (None: no clock)
    clock: Clock | None = None
    #: the seat whose time ran out at this version: the bot plays its move
    timed_out: int | None = None
    #: everyone went away; it plays on when a player comes back (docs/server.md)
    adjourned: bool = False
    #: when someone last came or went (a connection opened or closed, a seat taken)
    visited: float = 0.0
    #: closed for want of visitors (then no longer in ``Rooms.live``)
    closed: bool = False
    #: the client address the table counts for, and its bot searches (docs/server.md:
    #: Limits): its creator's, or the spectator's who resumed a table of bots; None after
    #: a restart
    address: str | None = None
    #: a rematch table's seats held for the finished table's players (docs/server.md:
    #: Limits): seat -> (the player id whose key took it there, or None; until when)
    held: dict[int, tuple[str | None, float]] = field(default_factory=dict)
    #: per seat, the hint on its way: the version it is for, and its answer to come
    hints: dict[int, tuple[int, asyncio.Future[Any]]] = field(default_factory=dict)
    #: the seats' part of the last presence sent (connected, bot_playing)
    presence_sent: tuple[list[bool], list[bool]] | None = None
    #: the coalesced presence to come (``PRESENCE_DELAY``)
    presence_timer: asyncio.TimerHandle | None = None
    #: seconds a bot waits after the move before its own (docs/server.md: Bot pace)
    bot_pace: float = 0.0
    #: when the last move was made, or the table started (monotonic)
    moved_at: float = 0.0
    #: per seat, the moves a bot played for its person (timeouts', takeovers')
    bot_moves: list[int] = field(default_factory=list)
    #: the stored version less the table's: the table's own rows of the log (a
    #: resignation, an abort, a takeback) and the moves taken back (docs/server.md)
    shift: int = 0
    #: the takeback asked of the other people: the asking seat, the version it is for,
    #: and the seats that accepted
    undo_asked: tuple[int, int, set[int]] | None = None

    def __post_init__(self) -> None:
        now = time.monotonic()
        self.away_since = [now if s.kind == "person" else None for s in self.table.seats]
        if not self.players:
            self.players = [None] * len(self.table.seats)
        if not self.bot_moves:
            self.bot_moves = [0] * len(self.table.seats)
        self.visited = self.moved_at = now

    @property
    def bots_only(self) -> bool:
        """No person plays at this table, and a bot of it thinks (in the bot pool): a
        table of random bots alone plays to its end in moments and costs nothing, so it
        is neither counted per address nor adjourned (docs/server.md: Limits)."""
        return bots_alone_think(self.table.seats, self.bot_pace)

    def forget_hint(self, seat: int, done: asyncio.Future[Any]) -> None:
        """The seat's hint ``done`` came: the next ask computes a new one."""
        if not done.cancelled():
            done.exception()        # seen, though every asker may have gone meanwhile
        if self.hints.get(seat, (None, None))[1] is done:
            del self.hints[seat]

    def seat_of_player(self, player: str) -> int | None:
        """The seat the player holds at this table (its first, if several)."""
        for n, held in enumerate(self.players):
            if held == player and self.tokens[n] is not None:
                return n
        return None

    def idle_for(self, now: float) -> float:
        """Seconds since anyone was at the table (0 while a connection is open)."""
        if any(not c.closed for c in self.conns):
            return 0.0
        return now - self.visited

    @property
    def game(self) -> cardtable.Game:
        return self.table.state.game

    @property
    def status(self) -> Status:
        if self.over:
            return "over"
        if self.adjourned:
            return "adjourned"
        return "playing" if self.started else "waiting"

    @property
    def seed(self) -> int:
        seed = self.table.seed
        assert seed is not None     # a server table is always dealt from a seed
        return seed

    def result(self) -> Result | None:
        result = self.table.result()
        return None if result is None else Result(**result)

    @property
    def stored_version(self) -> int:
        """The version of the table in the database (its rows of the log)."""
        return self.table.version + self.shift

    def rated(self) -> bool:
        """The game would count for the ratings (as ``players.unrated`` reads it): people
        alone, each seat a different player's."""
        ids = self.players
        return (all(s.kind == "person" for s in self.table.seats) and len(ids) >= 2
                and None not in ids and len(set(ids)) == len(ids))

    def drop_undo(self) -> None:
        """A move was made: the takeback asked lapses (everyone is told)."""
        if self.undo_asked is not None:
            seat, _, _ = self.undo_asked
            self.undo_asked = None
            self.tell(UndoMessage(status="lapsed", seat=seat, version=self.table.version))

    def seat_of(self, token: str) -> int | None:
        digest = hash_token(token)
        for n, held in enumerate(self.tokens):
            if held is not None and secrets.compare_digest(held, digest):
                return n
        return None

    def connected(self) -> list[bool]:
        present = {c.seat for c in self.conns if not c.closed}
        return [s.kind == "bot" or n in present for n, s in enumerate(self.table.seats)]

    def taken_over(self, seat: int) -> bool:
        """True when a bot plays ``seat`` for its person, who has been away too long (or
        ran out of time too often); never once the game is over."""
        if self.table.seats[seat].kind != "person" or self.over:
            return False
        if self.clock is not None and self.clock.taken_over(seat):
            return True
        if self.takeover_after is None:
            return False
        since = self.away_since[seat]
        return since is not None and time.monotonic() - since >= self.takeover_after

    def tell(self, message: Out | str) -> None:
        """Send ``message`` to every connection of the room."""
        text = message if isinstance(message, str) else message.text()
        for conn in self.conns:
            conn.push(text)

    def tell_clock(self, timed_out: int | None = None) -> None:
        """Send the clock to every connection (at a table with one)."""
        if self.clock is None:
            return
        message = ClockMessage(clock=self.clock.state())
        if timed_out is not None:
            message.timed_out = timed_out
        self.tell(message)

    def run_clock(self) -> None:
        """The clock of the seat to act runs, unless nobody's should (a bot's seat, a
        taken-over one, a table not playing)."""
        if self.clock is None:
            return
        seat = self.table.to_act
        if self.status != "playing" or seat is None or self.taken_over(seat):
            self.clock.stop()
        else:
            self.clock.run(seat)

    def spectators(self) -> int:
        return sum(1 for c in self.conns if c.seat is None and not c.closed)

    def watching(self) -> Presence:
        """The presence's spectators' part: their count, the names of those watching
        under a player's name (one a player, the first ``WATCHER_NAMES``) and the
        guests (docs/server.md: Who is watching)."""
        names: dict[str, str] = {}
        count = guests = 0
        for c in self.conns:
            if c.seat is not None or c.closed:
                continue
            count += 1
            if c.watcher is None:
                guests += 1
            elif len(names) < WATCHER_NAMES:
                names.setdefault(c.watcher[0], c.watcher[1])
        return Presence(connected=[], bot_playing=[], spectators=count,
                        watchers=list(names.values()), guests=guests)

    def presence(self, newcomer: Connection | None = None) -> None:
        """Tell everyone who is here: at once when a seat's presence changed; otherwise
        (a spectator came or went) within ``PRESENCE_DELAY``, once for all such changes.
        A ``newcomer`` is told at once either way."""
        seats = (self.connected(), [self.taken_over(n) for n in range(len(self.table.seats))])
        if seats != self.presence_sent:
            self.send_presence(seats)
            return
        if newcomer is not None:
            newcomer.push(self.presence_of(seats).text())
        if self.presence_timer is None:
            self.presence_timer = asyncio.get_running_loop().call_later(
                PRESENCE_DELAY, self.send_presence)

    def presence_if_changed(self) -> None:
        """Tell everyone who is here if a seat's part changed (a takeover ended)."""
        seats = (self.connected(), [self.taken_over(n) for n in range(len(self.table.seats))])
        if seats != self.presence_sent:
            self.send_presence(seats)

    def send_presence(self, seats: tuple[list[bool], list[bool]] | None = None) -> None:
        if self.presence_timer is not None:
            self.presence_timer.cancel()
            self.presence_timer = None
        if seats is None:
            seats = (self.connected(),
                     [self.taken_over(n) for n in range(len(self.table.seats))])
        self.presence_sent = seats
        self.tell(self.presence_of(seats))

    def presence_of(self, seats: tuple[list[bool], list[bool]]) -> Presence:
        presence = self.watching()
        presence.connected, presence.bot_playing = seats
        return presence

    def summary(self, lobby: bool = False) -> TableSummary:
        """The table's summary; in the ``lobby``, an unfinished table's seat taken with a
        player key shows :data:`PLAYER_LABEL` and no rating (docs/server.md: Privacy)."""
        table = self.table
        connected = self.connected()
        seats = [SeatSummary(seat=n, kind=s.kind, name=s.name,
                             bot=s.name if s.kind == "bot" else None,
                             settings=dict(s.settings),
                             taken=s.kind == "bot" or held is not None,
                             connected=connected[n],
                             bot_playing=s.kind == "person" and self.taken_over(n))
                 for n, (s, held) in enumerate(zip(table.seats, self.tokens, strict=True))]
        for n, player in enumerate(self.players):
            if player is None:
                continue
            if lobby and not self.over:
                seats[n].name = PLAYER_LABEL
                continue
            rating = self.rate(player, self.game.name) if self.rate is not None else None
            if rating is not None:
                seats[n].rating = rating
            if self.over:               # a finished game is public, with its players
                seats[n].player = player
        summary = TableSummary(id=self.id, game=self.game.name,
                               title=self.game.declaration.title,
                               options=dict(self.game.options),
                               game_info=self.game.describe(), seats=seats,
                               status=self.status,
                               version=table.version, to_act=table.to_act,
                               takeover_after=self.takeover_after, created=table.created,
                               chat=self.chat.on, bot_pace=self.bot_pace,
                               rated=self.rated())
        if self.clock is not None:
            summary.clock = self.clock.state()
        if summary.status == "over":
            summary.result = self.result()
            summary.seed = self.seed
            if self.rematch is not None:
                summary.rematch = self.rematch
        return summary

    def let_go(self, code: int = 1012) -> None:
        """This process lets the room go (it cannot be read back, or another process of
        the cluster plays it now): its bot stops, its connections are closed with
        ``code`` (1012, service restart: a client reconnects, and the front address
        takes it to the table's process)."""
        if self.bot_task is not None:
            self.bot_task.cancel()
            self.bot_task = None
        for conn in self.conns:
            conn.end(code)
        self.conns.clear()
        self.broken = True


def bots_alone_think(seats: list[Seat], pace: float = 0.0) -> bool:
    """Bots alone play these seats, and one of them thinks in the bot pool (the random bot
    chooses in microseconds in the server process, ``Settings.inline_bots``) or they wait
    between their moves (a ``pace``): the table lasts."""
    return all(s.kind == "bot" for s in seats) and (
        pace > 0 or any(s.name != "random" for s in seats))


def table_seats(rows: list[SeatRow]) -> list[Seat]:
    return [Seat("bot", s.bot or "random", dict(s.settings)) if s.kind == "bot"
            else Seat("person", s.name, {}) for s in rows]


def room_from_row(row: TableRow, alive: float | None = None) -> Room:
    """The room of a stored table: its log replayed, its last chat lines and mutes, its
    clock given back the time since ``alive`` (when its server process was last alive)."""
    table = Table.from_log(row.log, table_seats(row.seats), created=row.created)
    clock = None if row.clock is None else Clock.from_json(row.clock, alive)
    room = Room(id=row.id, table=table, tokens=[s.token_hash for s in row.seats],
                started=row.status != "waiting", over=row.status == "over",
                takeover_after=row.takeover_after,
                rematch=row.rematch, players=[s.player for s in row.seats],
                chat=TableChat.from_row(row), clock=clock,
                adjourned=row.status == "adjourned", bot_pace=row.bot_pace or 0.0,
                bot_moves=[s.bot_moves for s in row.seats],
                shift=row.version - len(row.log.moves))
    return room
