"""Rooms: the live tables of this process, their seats and connections, and seating.

:class:`Rooms` finds a room (``room.Room``: in memory, else loaded from the database),
lists the lobby, creates tables (checking their options and bots) and seats people.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from typing import Any

import cardtable
from cardtable import bots
from cardtable.core import CardtableError
from cardtable.records import GameLog, Seat
from cardtable.server.bodies import CreateTable, SeatRequest
from cardtable.server.chat import TableChat
from cardtable.server.clocks import Clock
from cardtable.server.connections import Connection
from cardtable.server.database import Database
from cardtable.server.messages import (
    ErrorMessage,
    TableSummary,
    error_message,
)
from cardtable.server.pace import table_pace
from cardtable.server.refusals import Refusal
from cardtable.server.room import Room, bots_alone_think, room_from_row, table_seats
from cardtable.server.settings import Settings
from cardtable.store import SeatRow, Store, TableRow, hash_token
from cardtable.table import Table

log = logging.getLogger("cardtable.server")

# finished tables kept in memory for their records and late connections
KEEP_FINISHED = 256
#: the lobby's tables at most, newest first (a cluster's too: relay.Router.lobby)
LOBBY_SIZE = 200
#: the largest value this server takes for a whole-number option whose game declares no
#: maximum (Draw Bridge's target, Sequence's max_turns): a target of 10**100 is refused
MAX_OPTION = 10_000


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

    def let_room_go(self, room: Room, code: int = 1012) -> None:
        """The room leaves this process's memory (``Room.let_go``)."""
        room.let_go(code)
        if self.live.get(room.id) is room:
            del self.live[room.id]

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
        return [r.summary(lobby=True) for r in rooms[:LOBBY_SIZE]]

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
        pace = table_pace(request.bot_pace, any(s.kind == "person" for s in rows),
                          self.settings.bot_pace)
        limit = self.settings.bot_tables_per_address
        if (bots_alone_think(table_seats(rows), pace) and address is not None
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
        row = TableRow(id=table_id, log=GameLog(name, dict(game.options), seed),
                       takeover_after=takeover, status="playing" if started else "waiting",
                       version=0, seats=rows, owner=self.settings.owner, chat=request.chat,
                       clock=None if clock is None else clock.to_json(), bot_pace=pace)
        table = Table.new(game, table_seats(rows), seed=seed, created=row.created)
        await self.db.run(lambda conn: self.store.create_table(conn, row))
        room = Room(id=table_id, table=table, tokens=[None] * len(rows), started=started,
                    over=False, takeover_after=takeover, rate=self.rate,
                    chat=TableChat(on=request.chat), clock=clock, address=address,
                    bot_pace=pace)
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
                room.moved_at = time.monotonic()    # a bot's first move waits its pace
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
            if room.chat.seat_left(seat):
                await asyncio.shield(self.db.run(
                    lambda conn: self.store.forget_mutes(conn, room.id, seat)))
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
