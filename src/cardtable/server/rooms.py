"""Rooms: the live tables of this process, their seats and connections, and seating.

A :class:`Room` is a :class:`cardtable.table.Table` (the game, its seats, version and
record) plus what only the server knows: the seats' token hashes, who is connected,
whether the table has started, its takeover time and its rematch. :class:`Rooms` finds
a room (in memory, else loaded from the database), lists the lobby, creates tables and
seats people.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cardtable
from cardtable import bots, records
from cardtable.core import CardtableError
from cardtable.records import Seat
from cardtable.server.clocks import Clock
from cardtable.server.connections import Connection
from cardtable.server.database import Database
from cardtable.server.limits import Bucket
from cardtable.server.messages import (
    ChatLine,
    ClockMessage,
    CreateTable,
    ErrorMessage,
    Out,
    Presence,
    Result,
    SeatRequest,
    SeatSummary,
    Status,
    TableSummary,
    error_message,
)
from cardtable.server.refusals import Refusal
from cardtable.server.settings import Settings
from cardtable.store import CHAT_KEPT, ChatRow, SeatRow, Store, TableRow, hash_token
from cardtable.table import Table

log = logging.getLogger("cardtable.server")

# finished tables kept in memory for their records and late connections
KEEP_FINISHED = 256
#: seconds within which the presences that change only the spectators' count are sent as
#: one (docs/server.md: Limits): a crowd coming or going costs a few broadcasts a second,
#: not one per connection
PRESENCE_DELAY = 0.25
#: the largest value this server takes for a whole-number option whose game declares no
#: maximum (Draw Bridge's target, Sequence's max_turns): a target of 10**100 is refused
MAX_OPTION = 10_000
#: the name the lobby shows for an unfinished table's seat taken with a player key
PLAYER_LABEL = "a player"


def option_maximum(spec: cardtable.OptionSpec) -> int | None:
    """The largest value the server takes for a game's option: the game's own maximum, or
    :data:`MAX_OPTION` for a whole number without one (None: not a number)."""
    if spec.kind != "int":
        return None
    return spec.maximum if spec.maximum is not None else MAX_OPTION


def check_option_limits(declaration: cardtable.Declaration, options: dict[str, Any]) -> None:
    """options/bad for a whole-number option over the server's maximum (the game checks
    the types, its minimum and its own maximum)."""
    for spec in declaration.options:
        value = options.get(spec.name)
        limit = option_maximum(spec)
        if (limit is not None and isinstance(value, int) and not isinstance(value, bool)
                and value > limit):
            raise Refusal("options/bad", f"option {spec.name} is at most {limit}")


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
    #: the table's chat is on
    chat_on: bool = True
    #: the last chat lines of each channel, oldest first
    chat: dict[str, deque[ChatLine]] = field(default_factory=dict)
    #: the number of the table's last chat line
    chat_count: int = 0
    #: per seat, the seats whose lines it does not receive
    mutes: dict[int, set[int]] = field(default_factory=dict)
    #: per seat, its chat rate bucket (kept over reconnects)
    chat_buckets: dict[int, Bucket] = field(default_factory=dict)
    #: per seat, the spectators (their ids) whose lines it does not receive (not stored)
    spectator_mutes: dict[int, set[str]] = field(default_factory=dict)
    #: the spectators' channel's rate bucket (docs/server.md: Chat)
    spectators_bucket: Bucket | None = None
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

    def __post_init__(self) -> None:
        now = time.monotonic()
        self.away_since = [now if s.kind == "person" else None for s in self.table.seats]
        if not self.players:
            self.players = [None] * len(self.table.seats)
        for channel in ("seats", "spectators"):
            self.chat.setdefault(channel, deque(maxlen=CHAT_KEPT))
        self.visited = now

    @property
    def bots_only(self) -> bool:
        """No person plays at this table, and a bot of it thinks (in the bot pool): a
        table of random bots alone plays to its end in moments and costs nothing, so it
        is neither counted per address nor adjourned (docs/server.md: Limits)."""
        return bots_alone_think(self.table.seats)

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

    def may_read(self, conn: Connection, line: ChatLine) -> bool:
        """Who reads what: the seats' lines go to the seats only, the spectators' lines to
        everyone; a seat's or a spectator's lines not to the seats that muted it."""
        if conn.seat is None:
            return line.channel == "spectators"
        if line.seat is not None:
            return line.seat not in self.mutes.get(conn.seat, ())
        return line.spectator is None or line.spectator not in self.spectator_mutes.get(
            conn.seat, ())

    def chat_history(self, conn: Connection, limit: int) -> list[ChatLine]:
        """The last ``limit`` lines ``conn`` may read, oldest first."""
        lines = [line for channel in self.chat.values() for line in channel
                 if self.may_read(conn, line)]
        lines.sort(key=lambda line: line.n)
        return lines[-limit:] if limit > 0 else []

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
        result = records.result_of(self.table.state)
        return None if result is None else Result(**result)

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
        """True when a bot plays ``seat`` for its person, who has been away too long."""
        if self.table.seats[seat].kind != "person":
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

    def presence(self, newcomer: Connection | None = None) -> None:
        """Tell everyone who is here: at once when a seat's presence changed; otherwise
        (a spectator came or went) within ``PRESENCE_DELAY``, once for all such changes.
        A ``newcomer`` is told at once either way."""
        seats = (self.connected(), [self.taken_over(n) for n in range(len(self.table.seats))])
        if seats != self.presence_sent:
            self.send_presence(seats)
            return
        if newcomer is not None:
            newcomer.push(Presence(connected=seats[0], bot_playing=seats[1],
                                   spectators=self.spectators()).text())
        if self.presence_timer is None:
            self.presence_timer = asyncio.get_running_loop().call_later(
                PRESENCE_DELAY, self.send_presence)

    def send_presence(self, seats: tuple[list[bool], list[bool]] | None = None) -> None:
        if self.presence_timer is not None:
            self.presence_timer.cancel()
            self.presence_timer = None
        if seats is None:
            seats = (self.connected(),
                     [self.taken_over(n) for n in range(len(self.table.seats))])
        self.presence_sent = seats
        self.tell(Presence(connected=seats[0], bot_playing=seats[1],
                           spectators=self.spectators()))

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
                             chat=self.chat_on)
        if self.clock is not None:
            summary.clock = self.clock.state()
        if summary.status == "over":
            summary.result = self.result()
            summary.seed = self.seed
            if self.rematch is not None:
                summary.rematch = self.rematch
        return summary


def bots_alone_think(seats: list[Seat]) -> bool:
    """Bots alone play these seats, and one of them thinks in the bot pool: the random bot
    chooses in microseconds in the server process (``Settings.inline_bots``)."""
    return all(s.kind == "bot" for s in seats) and any(s.name != "random" for s in seats)


def table_seats(rows: list[SeatRow]) -> list[Seat]:
    return [Seat("bot", s.bot or "random", dict(s.settings)) if s.kind == "bot"
            else Seat("person", s.name, {}) for s in rows]


def chat_line(row: ChatRow) -> ChatLine:
    return ChatLine(n=row.n, channel="seats" if row.channel == "seats" else "spectators",
                    seat=row.seat, name=row.name, text=row.text, preset=row.preset,
                    at=row.at)


def room_from_row(row: TableRow, alive: float | None = None) -> Room:
    """The room of a stored table: its log replayed, its last chat lines and mutes, its
    clock given back the time since ``alive`` (when its server process was last alive)."""
    table = Table.from_log(row.log, table_seats(row.seats), created=row.created)
    clock = None if row.clock is None else Clock.from_json(row.clock, alive)
    room = Room(id=row.id, table=table, tokens=[s.token_hash for s in row.seats],
                started=row.status != "waiting", over=row.status == "over",
                takeover_after=row.takeover_after,
                rematch=row.rematch, players=[s.player for s in row.seats],
                chat_on=row.chat, chat_count=row.chat_count, clock=clock,
                adjourned=row.status == "adjourned")
    for line in row.chat_lines:
        room.chat[line.channel].append(chat_line(line))
    for seat, muted in row.mutes:
        room.mutes.setdefault(seat, set()).add(muted)
    return room


def check_bot(kind: str, settings: dict[str, Any] | None,
              limits: Settings) -> tuple[str, dict[str, Any]]:
    """A table's bot and its settings as kept (ISMCTS without a budget: 1 second, or
    ``--max-bot-seconds`` if less); options/bad for an unknown bot or setting, or a budget
    over the server's caps."""
    if kind not in bots.KINDS:
        raise Refusal("options/bad", f"unknown bot {kind!r}; the bots are "
                                     f"{', '.join(bots.KINDS)}")
    settings = settings or {}
    try:
        bots.make(kind, **settings)
    except (CardtableError, TypeError) as exc:
        raise Refusal("options/bad", f"bot {kind}: {exc}") from None
    seconds = settings.get("seconds")
    if isinstance(seconds, int | float) and seconds > limits.max_bot_seconds:
        raise Refusal("options/bad", f"a bot may think at most {limits.max_bot_seconds:g} "
                                     "seconds a move on this server (--max-bot-seconds)")
    iterations = settings.get("iterations")
    if isinstance(iterations, int) and iterations > limits.max_bot_iterations:
        raise Refusal("options/bad", f"a bot may search at most {limits.max_bot_iterations} "
                                     "iterations a move on this server "
                                     "(--max-bot-iterations)")
    if (bots.bot_kind(kind).takes_budget and "seconds" not in settings
            and "iterations" not in settings):
        settings = {**settings, "seconds": min(1.0, limits.max_bot_seconds)}
    return kind, dict(settings)


def capped_budget(kind: str, settings: dict[str, Any], limits: Settings) -> dict[str, Any]:
    """A searching bot's settings as its job runs them: whatever a table asked (a table
    stored before the caps were lowered included), the search stops after
    ``--max-bot-seconds`` and ``--max-bot-iterations``."""
    if not bots.bot_kind(kind).takes_budget:
        return settings
    seconds = settings.get("seconds")
    iterations = settings.get("iterations")
    capped = {**settings, "seconds": limits.max_bot_seconds if seconds is None
              else min(seconds, limits.max_bot_seconds)}
    if iterations is not None:
        capped["iterations"] = min(iterations, limits.max_bot_iterations)
    return capped


class Rooms:
    """Every room of this process: the unfinished ones, and the last finished ones."""

    def __init__(self, settings: Settings, store: Store, db: Database) -> None:
        self.settings = settings
        self.store = store
        self.db = db
        self.live: dict[str, Room] = {}
        self.finished: OrderedDict[str, Room] = OrderedDict()
        #: the ratings shown next to names (set by the service: cardtable.server.players)
        self.rate: Callable[[str, str], int | None] | None = None
        #: per client address, its WebSocket connections open (docs/server.md: Limits)
        self.sockets: Counter[str] = Counter()

    def admit(self, room: Room, conn: Connection) -> None:
        """Count a new connection in, or limit/connections: a spectator past
        ``spectators_per_table`` at the room, any connection past ``sockets_per_address``
        for its address (checked and counted with nothing awaited in between)."""
        per_address = self.settings.sockets_per_address
        if self.sockets[conn.address] >= per_address:
            raise Refusal("limit/connections", f"{per_address} connections are open from "
                                               "your address already; close one first")
        per_table = self.settings.spectators_per_table
        if conn.seat is None and room.spectators() >= per_table:
            raise Refusal("limit/connections", f"{per_table} spectators watch this table "
                                               "already; try again later")
        self.sockets[conn.address] += 1
        conn.counted = True

    def let_go(self, conn: Connection) -> None:
        """A connection counted by :meth:`admit` closed."""
        if conn.counted:
            conn.counted = False
            self.sockets[conn.address] -= 1
            if self.sockets[conn.address] <= 0:
                del self.sockets[conn.address]

    async def load(self) -> None:
        """Replay every unfinished table this process owns."""
        rows: list[TableRow] = await self.db.run(
            lambda conn: self.store.load_unfinished(conn, self.settings.owner))
        alive = await self.last_alive()
        for row in rows:
            try:
                self.live[row.id] = room_from_row(row, alive)
                self.live[row.id].rate = self.rate
            except Exception as exc:
                log.error("table %s does not replay (%s); it stays stored but is not served",
                          row.id, type(exc).__name__)
        log.info("%d unfinished tables reloaded", len(self.live))

    async def last_alive(self) -> float | None:
        owner = self.settings.owner
        alive: float | None = await self.db.run(
            lambda conn: self.store.last_alive(conn, owner))
        return alive

    async def find(self, table_id: str) -> Room:
        room = self.live.get(table_id) or self.finished.get(table_id)
        if room is not None:
            return room
        if len(table_id) > 32:
            raise Refusal("table/not-found", "there is no such table")
        row: TableRow | None = await self.db.run(
            lambda conn: self.store.load(conn, table_id))
        if row is None:
            raise Refusal("table/not-found", f"there is no table {table_id!r}")
        if row.status == "closed":
            raise Refusal("table/closed", f"table {table_id} closed: nobody came to it "
                                          "for a long time; create a new one")
        room = self.live.get(table_id) or self.finished.get(table_id)
        if room is not None:
            return room
        if row.status != "over" and row.owner != self.settings.owner:
            raise Refusal("table/elsewhere", f"table {table_id} is played by the server "
                                             f"process {row.owner or 'default'!r}")
        room = room_from_row(row, await self.last_alive() if row.clock else None)
        room.rate = self.rate
        if room.status == "over":
            self.keep_finished(room)
            return room
        return self.live.setdefault(table_id, room)

    def keep_finished(self, room: Room) -> None:
        self.live.pop(room.id, None)
        self.finished[room.id] = room
        self.finished.move_to_end(room.id)
        while len(self.finished) > KEEP_FINISHED:
            self.finished.popitem(last=False)

    def lobby(self, status: str | None = None) -> list[TableSummary]:
        rooms = [r for r in self.live.values() if r.status in ("waiting", "playing")
                 and (status is None or r.status == status)]
        rooms.sort(key=lambda r: r.table.created, reverse=True)
        return [r.summary(lobby=True) for r in rooms[:200]]

    # -- creating and seating

    def bot_tables_of(self, address: str) -> int:
        """The tables of bots alone playing for ``address`` (docs/server.md: Limits)."""
        return sum(1 for r in self.live.values()
                   if r.address == address and r.bots_only and r.status == "playing")

    def tables_of(self, address: str) -> int:
        """The tables waiting or playing for ``address`` (docs/server.md: Limits)."""
        return sum(1 for r in self.live.values()
                   if r.address == address and r.status in ("waiting", "playing"))

    async def create(self, request: CreateTable, address: str | None = None) -> Room:
        """A new table, its bots' searches counted for ``address`` (the client's)."""
        name = request.game
        if name not in cardtable.game_names():
            raise Refusal("options/bad", f"unknown game {name[:40]!r}; the games are "
                                         f"{', '.join(cardtable.game_names())}")
        options = request.options or {}
        if "players" in options:
            raise Refusal("options/bad", "the number of players is the number of seats: "
                                         "leave 'players' out of the options")
        declaration = cardtable.declaration(name)
        check_option_limits(declaration, options)
        specs = request.seats or [SeatRequest(kind="person")] * declaration.default_players
        if len(specs) not in declaration.players:
            raise Refusal("options/bad", f"{declaration.title} is played by "
                                         f"{', '.join(map(str, declaration.players))} "
                                         f"players, not {len(specs)}")
        rows: list[SeatRow] = []
        for spec in specs:
            if spec.kind == "person":
                rows.append(SeatRow("person", ""))
            else:
                bot, settings = check_bot(spec.bot, spec.settings, self.settings)
                rows.append(SeatRow("bot", bot, bot, settings))
        try:
            game = cardtable.new_game(name, players=len(rows), **options)
        except (CardtableError, TypeError) as exc:
            raise Refusal("options/bad", str(exc)) from None
        if len(self.live) >= self.settings.max_tables:
            raise Refusal("limit/tables", "this server holds as many tables as it can; "
                                          "try again later")
        if address is not None and self.tables_of(address) >= self.settings.tables_per_address:
            raise Refusal("limit/tables-per-address",
                          f"{self.settings.tables_per_address} tables are waiting or playing "
                          "for your address already; try again once one is over (or "
                          "closed for want of players)")
        limit = self.settings.bot_tables_per_address
        if (bots_alone_think(table_seats(rows)) and address is not None
                and self.bot_tables_of(address) >= limit):
            raise Refusal("limit/bot-tables", f"{limit} tables of bots alone are playing "
                                              "for your address already; watch one to its "
                                              "end, or try again once one is over")
        seed = secrets.randbits(62)
        takeover = request.takeover_after
        table_id = secrets.token_urlsafe(9)
        started = all(s.kind == "bot" for s in rows)
        clock = None
        if request.clock is not None:
            clock = Clock.new(request.clock, [s.kind == "person" for s in rows],
                              self.settings.clock_timeouts)
        row = TableRow(id=table_id, game=name, options=dict(game.options), seed=seed,
                       takeover_after=takeover, status="playing" if started else "waiting",
                       version=0, seats=rows, owner=self.settings.owner, chat=request.chat,
                       clock=None if clock is None else clock.to_json())
        table = Table.new(game, table_seats(rows), seed=seed, created=row.created)
        await self.db.run(lambda conn: self.store.create_table(conn, row))
        room = Room(id=table_id, table=table, tokens=[None] * len(rows), started=started,
                    over=False, takeover_after=takeover, rate=self.rate,
                    chat_on=request.chat, clock=clock, address=address)
        self.live[table_id] = room
        log.info("table %s created: %s, %d seats", table_id, name, len(rows))
        return room

    async def take_seat(self, room: Room, seat: int, name: str,
                        player: str | None = None, holder: bool = False) -> str:
        """Seat a person (the player whose key took it, if any); the seat's token.
        seat/held for a rematch's seat held for another (``holder``: the person it is
        held for, asking from the finished table)."""
        async with room.lock:
            self.check_current(room)
            seats = room.table.seats
            if not 0 <= seat < len(seats) or seats[seat].kind != "person":
                raise Refusal("seat/not-found", f"table {room.id} has no person seat {seat}")
            if room.tokens[seat] is not None:
                raise Refusal("seat/taken", f"seat {seat} is taken; pick a free one")
            if room.status == "over":
                raise Refusal("move/game-over", "this game is over")
            held_for, until = room.held.get(seat, (None, 0.0))
            left = until - time.monotonic()
            if left > 0 and not holder and (held_for is None or held_for != player):
                raise Refusal("seat/held", f"seat {seat} is held for its player of the last "
                                           f"game for {left:.0f} more seconds; pick a "
                                           "free one")
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            free = [n for n, s in enumerate(seats)
                    if s.kind == "person" and room.tokens[n] is None and n != seat]
            starts = not room.started and not free
            done = await asyncio.shield(self.db.run(lambda conn: self.store.take_seat(
                conn, room.id, seat, name, digest, "playing" if starts else None, player)))
            if not done:
                raise Refusal("seat/taken", f"seat {seat} is taken; pick a free one")
            room.tokens[seat] = digest
            room.players[seat] = player
            room.held.pop(seat, None)
            room.visited = time.monotonic()
            room.table.set_seat(seat, Seat("person", name))
            if starts:
                room.started = True
                log.info("table %s starts", room.id)
                if room.clock is not None:
                    room.run_clock()
                    await self.save_clock(room)
                    room.tell_clock()
            room.presence()
        return token

    async def save_clock(self, room: Room) -> None:
        if room.clock is not None:
            text = room.clock.to_json()
            await asyncio.shield(self.db.run(
                lambda conn: self.store.save_clock(conn, room.id, text)))

    async def leave_seat(self, room: Room, seat: int, token: str) -> None:
        """Free a person's seat; its connections are told and closed."""
        async with room.lock:
            if not 0 <= seat < len(room.tokens):
                raise Refusal("seat/not-found", f"table {room.id} has no seat {seat}")
            if room.seat_of(token) != seat:
                raise Refusal("auth/bad-token", f"that token does not hold seat {seat}")
            digest = hash_token(token)
            keep = room.over
            done = await asyncio.shield(self.db.run(
                lambda conn: self.store.leave_seat(conn, room.id, seat, digest, keep)))
            if not done:
                raise Refusal("auth/bad-token", f"that token does not hold seat {seat}")
            room.tokens[seat] = None
            if not keep:
                room.players[seat] = None
            if room.mutes.pop(seat, None) is not None or any(
                    seat in muted for muted in room.mutes.values()):
                for muted in room.mutes.values():
                    muted.discard(seat)
                await asyncio.shield(self.db.run(
                    lambda conn: self.store.forget_mutes(conn, room.id, seat)))
            room.chat_buckets.pop(seat, None)
            room.spectator_mutes.pop(seat, None)
            gone = ErrorMessage(code="auth/bad-token", message="you left this seat")
            for conn in [c for c in room.conns if c.seat == seat]:
                conn.push(gone)
                conn.end()
                room.conns.remove(conn)
            room.away_since[seat] = time.monotonic()
            room.presence()

    def void_player(self, player: str, void_hash: str) -> None:
        """The player's keys were revoked (``Players.revoke``): the tokens of its seats in
        memory become ``void_hash`` as in the database, and those seats' connections get
        player/bad-key and are closed (4401)."""
        refusal = Refusal("player/bad-key", "this player's keys were revoked; connect "
                                            "again with the new key")
        gone = error_message(refusal).text()
        for room in [*self.live.values(), *self.finished.values()]:
            for seat, held in enumerate(room.players):
                if held != player or room.tokens[seat] is None:
                    continue
                room.tokens[seat] = void_hash
                for conn in [c for c in room.conns if c.seat == seat]:
                    conn.push(gone)
                    conn.end(4000 + refusal.status)
                    room.conns.remove(conn)
                    room.away_since[seat] = time.monotonic()
                room.presence()

    # -- the tidy lobby (docs/server.md)

    def check_current(self, room: Room) -> None:
        """Under ``room.lock``, for a room found a moment ago: table/closed if it closed
        meanwhile; an adjourned room that left memory meanwhile is put back (or, when
        another copy of it was loaded in between, server/error: try again)."""
        if room.closed:
            raise Refusal("table/closed", f"table {room.id} closed: nobody came to it for "
                                          "a long time; create a new one")
        if room.adjourned and self.live.setdefault(room.id, room) is not room:
            raise Refusal("server/error", "the table was reloaded meanwhile; try again")

    async def tidy(self) -> None:
        """Close the waiting tables nobody visited for ``close_waiting_after`` seconds;
        adjourn the playing ones nobody was at for ``adjourn_after`` (and let adjourned
        ones that were only looked at go from memory again)."""
        now = time.monotonic()
        close, adjourn = self.settings.close_waiting_after, self.settings.adjourn_after
        for room in list(self.live.values()):
            idle = room.idle_for(now)
            if close and room.status == "waiting" and idle >= close:
                await self._close(room)
            elif (adjourn and idle >= adjourn and room.status in ("playing", "adjourned")
                  and (room.bots_only or not all(s.kind == "bot" for s in room.table.seats))):
                await self._adjourn(room)

    async def _close(self, room: Room) -> None:
        async with room.lock:
            if room.status != "waiting" or room.conns:
                return
            done = await asyncio.shield(self.db.run(lambda conn: self.store.set_status(
                conn, room.id, "closed", "waiting")))
            if done:
                room.closed = True
                self.live.pop(room.id, None)
                log.info("table %s closed: nobody came", room.id)

    async def _adjourn(self, room: Room) -> None:
        async with room.lock:
            if room.conns or room.status not in ("playing", "adjourned"):
                return
            if not room.adjourned:
                done = await asyncio.shield(self.db.run(lambda conn: self.store.set_status(
                    conn, room.id, "adjourned", "playing")))
                if not done:
                    return
                room.adjourned = True
                log.info("table %s adjourned: everyone is away", room.id)
            if room.bot_task is not None:
                room.bot_task.cancel()
                room.bot_task = None
            self.live.pop(room.id, None)

    async def resume(self, room: Room) -> None:
        """A player came back to an adjourned table (under ``room.lock``): it plays on."""
        if not room.adjourned:
            return
        await asyncio.shield(self.db.run(lambda conn: self.store.set_status(
            conn, room.id, "playing", "adjourned")))
        room.adjourned = False
        self.live.setdefault(room.id, room)
        log.info("table %s resumes", room.id)
