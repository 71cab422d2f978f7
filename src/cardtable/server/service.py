"""The tables of one server process, as the HTTP and WebSocket routers use them: the
database thread, the rooms, the move pipeline and the jobs wired together, started and
stopped with the app. After anything that may put a bot to act (a table created, a seat
taken or left, a connection, a move) the bot of the seat to act is started."""

from __future__ import annotations

import asyncio
import logging
import time

from cardtable.server.connections import Connection
from cardtable.server.database import Database
from cardtable.server.jobs import Jobs
from cardtable.server.messages import (
    CreateTable,
    RematchTable,
    SeatRequest,
    Welcome,
    error_message,
)
from cardtable.server.pipeline import Pipeline
from cardtable.server.refusals import Refusal
from cardtable.server.rooms import Room, Rooms
from cardtable.server.settings import Settings
from cardtable.store import Store

log = logging.getLogger("cardtable.server")


class TableService:
    """Every table of this process, and what it takes to play them."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.db = Database(store)
        self.rooms = Rooms(settings, store, self.db)
        self.pipeline = Pipeline(store, self.db, self.rooms)
        self.jobs = Jobs(settings, self.pipeline)
        self.ticker: asyncio.Task[None] | None = None

    # -- life cycle

    async def start(self) -> None:
        self.db.start()
        await self.jobs.start()
        await self.rooms.load()
        for room in self.rooms.live.values():
            self.jobs.kick(room)
        self.ticker = asyncio.get_running_loop().create_task(self._tick())

    async def stop(self) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
        for room in list(self.rooms.live.values()):
            for conn in room.conns:
                conn.end()
            if room.bot_task is not None:
                room.bot_task.cancel()
        await self.db.stop()
        self.jobs.stop()

    async def _tick(self) -> None:
        """Away players' seats are taken over once their time is up; the lobby is tidied
        (``Rooms.tidy``)."""
        while True:
            await asyncio.sleep(self.settings.takeover_tick)
            for room in list(self.rooms.live.values()):
                if room.takeover_after is not None and room.status == "playing":
                    self.jobs.kick(room)
            try:
                await self.rooms.tidy()
            except Exception as exc:    # the database away a moment: the next tick tries
                log.error("tidying the lobby failed (%s)", type(exc).__name__)

    # -- tables and seats

    async def create(self, request: CreateTable) -> Room:
        room = await self.rooms.create(request)
        self.jobs.kick(room)
        return room

    async def take_seat(self, room: Room, seat: int, name: str) -> str:
        token = await self.rooms.take_seat(room, seat, name)
        self.jobs.kick(room)
        return token

    async def leave_seat(self, room: Room, seat: int, token: str) -> None:
        await self.rooms.leave_seat(room, seat, token)
        self.jobs.kick(room)

    async def rematch(self, room: Room, conn: Connection) -> None:
        """A seat of a finished table asks for a rematch: the first ask creates a table
        with the same game, options, seat kinds (bots kept) and takeover, and tells the
        table's other connections; every ask seats the asker at its own seat there when
        free, and tells it its seat and token there."""
        seat = conn.seat
        if seat is None:
            raise Refusal("auth/bad-token", "spectators cannot ask for a rematch; the "
                                            "players can")
        if room.status != "over":
            raise Refusal("table/not-over", "a rematch is for a finished game")
        async with room.lock:
            new_id = room.rematch
            if new_id is None:
                game = room.game
                options = {k: v for k, v in game.options.items() if k != "players"}
                seats = [SeatRequest(kind="bot", bot=s.name, settings=dict(s.settings))
                         if s.kind == "bot" else SeatRequest(kind="person")
                         for s in room.table.seats]
                new = await self.create(CreateTable(game=game.name, options=options,
                                                    seats=seats,
                                                    takeover_after=room.takeover_after))
                await asyncio.shield(self.db.run(
                    lambda c: self.rooms.store.set_rematch(c, room.id, new.id)))
                room.rematch = new_id = new.id
                log.info("table %s: rematch at table %s", room.id, new_id)
                announce = RematchTable(table=new_id).text()
                for other in room.conns:
                    if other is not conn:
                        other.push(announce)
        new_room = await self.rooms.find(new_id)
        try:
            token = await self.take_seat(new_room, seat, room.table.seats[seat].name)
        except Refusal as refusal:
            if refusal.code not in ("seat/taken", "move/game-over"):
                raise
            conn.push(RematchTable(table=new_id))
            return
        conn.push(RematchTable(table=new_id, seat=seat, token=token))

    # -- connections and moves

    async def join(self, room: Room, conn: Connection, since: int | None) -> None:
        """A new connection: its welcome, what it missed, and everyone's presence."""
        async with room.lock:
            try:
                self.rooms.check_current(room)
            except Refusal as refusal:
                conn.push(error_message(refusal))
                conn.end(4000 + refusal.status)
                return
            if conn.seat is not None:
                await self.rooms.resume(room)    # an adjourned table plays on
            table = room.table
            # present before the welcome, so that its summary shows this seat connected
            # (nothing is awaited from here on: no other message can come first)
            room.conns.append(conn)
            room.visited = time.monotonic()
            if conn.seat is not None:
                room.away_since[conn.seat] = None
            conn.push(Welcome(seat=conn.seat, version=table.version,
                              view=table.view(conn.seat), table=room.summary()))
            self.pipeline.catch_up(room, conn, since)
            room.presence()
        self.jobs.kick(room)

    def leave(self, room: Room, conn: Connection) -> None:
        conn.end()
        if conn in room.conns:
            room.conns.remove(conn)
            room.visited = time.monotonic()
            if conn.seat is not None and not any(c.seat == conn.seat for c in room.conns):
                room.away_since[conn.seat] = time.monotonic()
            room.presence()
        if room.status == "over" and not room.conns and room.id in self.rooms.live:
            self.rooms.keep_finished(room)

    async def play(self, room: Room, seat: int, move: str, version: int) -> None:
        await self.pipeline.play(room, seat, move, version)
        self.jobs.kick(room)
