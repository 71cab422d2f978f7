"""The tables of one server process, as the HTTP and WebSocket routers use them: the
database thread, the rooms, the move pipeline and the jobs wired together, started and
stopped with the app. After anything that may put a bot to act (a table created, a seat
taken or left, a connection, a move) the bot of the seat to act is started."""

from __future__ import annotations

import asyncio
import logging
import time

from cardtable.server.bodies import CreateTable, SeatRequest
from cardtable.server.chat import Chat
from cardtable.server.cluster import Cluster
from cardtable.server.connections import Connection
from cardtable.server.database import Database
from cardtable.server.endings import Endings
from cardtable.server.jobs import Jobs
from cardtable.server.messages import RematchTable, Welcome, error_message
from cardtable.server.pairing import Pairing
from cardtable.server.pipeline import Pipeline
from cardtable.server.players import Players
from cardtable.server.refusals import Refusal
from cardtable.server.relay import Router
from cardtable.server.room import Room
from cardtable.server.rooms import Rooms
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
        self.players = Players(store, self.db)
        self.rooms.rate = self.players.ratings.shown
        self.pipeline.on_over.append(self.players.finished)
        self.chat = Chat(settings, store, self.db)
        self.endings = Endings(store, self.db, self.pipeline, self.jobs)
        self.ticker: asyncio.Task[None] | None = None
        self.pairing = Pairing(self)
        #: this process's lease and take-overs, in a cluster (``--cluster``)
        self.cluster = Cluster(self) if settings.cluster else None
        #: a table's requests relayed to its process, in a cluster (docs/server.md: Routing)
        self.relay = Router(self) if settings.cluster else None
        #: started, and not stopping (``/readyz``)
        self.running = False

    # -- life cycle

    async def start(self) -> None:
        self.db.start()
        await self.jobs.start()
        await self.players.load()
        if self.cluster is not None:
            # a process killed a moment ago held it: wait for its lease to lapse
            await self.cluster.claim(patience=self.settings.lease + 2)
        await self.rooms.load()
        for room in self.rooms.live.values():
            self.jobs.kick(room)
        self.ticker = asyncio.get_running_loop().create_task(self._tick())
        self.pairing.start()
        if self.cluster is not None:
            self.cluster.start()
        self.running = True

    def ready(self) -> bool:
        """Started, not stopping, and in a cluster holding a current lease."""
        return self.running and (self.cluster is None or self.cluster.held())

    async def stop(self) -> None:
        self.running = False
        if self.cluster is not None:
            await self.cluster.halt()
        if self.ticker is not None:
            self.ticker.cancel()
        self.pairing.stop()
        if any(room.clock is not None for room in self.rooms.live.values()):
            try:
                await self._heartbeat()
            except Exception as exc:
                log.error("the last heartbeat was not stored (%s)", type(exc).__name__)
        for room in list(self.rooms.live.values()):
            for conn in room.conns:
                conn.end()
            if room.bot_task is not None:
                room.bot_task.cancel()
        await self.db.stop()
        if self.cluster is not None:
            await self.cluster.release()
        if self.relay is not None:
            await self.relay.close()
        self.jobs.stop()

    async def _tick(self) -> None:
        """Away players' seats are taken over once their time is up; a seat whose clock
        ran out has its move played by the bot; the heartbeat is stored; the lobby is
        tidied (``Rooms.tidy``)."""
        beat = 0.0
        while True:
            await asyncio.sleep(self.settings.takeover_tick)
            clocks = False
            for room in list(self.rooms.live.values()):
                if room.status != "playing":
                    continue
                if room.clock is not None:
                    clocks = True
                    self._check_clock(room)
                if room.takeover_after is not None:
                    self.jobs.kick(room)
            try:
                await self.rooms.tidy()
            except Exception as exc:    # the database away a moment: the next tick tries
                log.error("tidying the lobby failed (%s)", type(exc).__name__)
            if clocks and time.monotonic() - beat >= self.settings.clock_heartbeat:
                beat = time.monotonic()
                try:
                    await self._heartbeat()
                except Exception as exc:
                    log.error("a heartbeat was not stored (%s)", type(exc).__name__)

    async def _heartbeat(self) -> None:
        owner, alive = self.settings.owner, time.time()
        await self.db.run(lambda conn: self.rooms.store.heartbeat(conn, owner, alive))

    def _check_clock(self, room: Room) -> None:
        """The seat whose time is up: its clock stops, everyone is told, the bot plays."""
        assert room.clock is not None
        seat = room.clock.expired()
        if seat is None or room.timed_out is not None or room.broken:
            return
        room.timed_out = seat
        room.clock.stop()
        log.info("table %s: seat %d ran out of time", room.id, seat)
        room.tell_clock(timed_out=seat)
        self.jobs.kick(room)

    async def back(self, room: Room, seat: int) -> None:
        """The person of ``seat`` acted: a seat taken over after its timeouts is its own
        again (and its clock runs if it is to act)."""
        clock = room.clock
        if clock is None or not clock.taken_over(seat):
            if clock is not None:
                clock.back(seat)
            return
        async with room.lock:
            clock.back(seat)
            if (room.table.to_act == seat and room.bot_task is not None
                    and room.timed_out != seat):
                room.bot_task.cancel()      # the takeover's move waiting its pace
                room.bot_task = None
            if room.table.to_act == seat and room.bot_task is None:
                room.run_clock()
            await self.rooms.save_clock(room)
            room.tell_clock()
            room.presence()
        log.info("table %s: seat %d plays again after its timeouts", room.id, seat)

    # -- tables and seats

    async def create(self, request: CreateTable, address: str | None = None) -> Room:
        room = await self.rooms.create(request, address)
        self.jobs.kick(room)
        return room

    async def take_seat(self, room: Room, seat: int, name: str,
                        player: str | None = None, holder: bool = False) -> str:
        token = await self.rooms.take_seat(room, seat, name, player, holder)
        self.jobs.kick(room)
        return token

    async def leave_seat(self, room: Room, seat: int, token: str) -> None:
        await self.rooms.leave_seat(room, seat, token)
        self.jobs.kick(room)

    async def rematch(self, room: Room, conn: Connection) -> None:
        """A seat of a finished table asks for a rematch: the first ask creates a table
        with the same game, options, seat kinds (bots kept) and takeover, and tells the
        table's other connections, its person seats held for this table's players for
        ``rematch_hold`` seconds; every ask seats the asker at its own seat there when
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
                clock = None if room.clock is None else room.clock.request()
                new = await self.create(CreateTable(game=game.name, options=options,
                                                    seats=seats,
                                                    takeover_after=room.takeover_after,
                                                    chat=room.chat.on, clock=clock,
                                                    bot_pace=room.bot_pace),
                                        conn.address)
                until = time.monotonic() + self.settings.rematch_hold
                new.held = {n: (room.players[n], until)
                            for n, s in enumerate(room.table.seats) if s.kind == "person"}
                await asyncio.shield(self.db.run(
                    lambda c: self.rooms.store.set_rematch(c, room.id, new.id)))
                room.rematch = new_id = new.id
                log.info("table %s: rematch at table %s", room.id, new_id)
                announce = RematchTable(table=new_id).text()
                for other in room.conns:
                    if other is not conn:
                        other.push(announce)
        try:
            new_room = await self.rooms.find(new_id)
            token = await self.take_seat(new_room, seat, room.table.seats[seat].name,
                                         room.players[seat], holder=True)
        except Refusal as refusal:
            # in a cluster, the rematch may be another process's table by now (a failover,
            # a restart): the player takes the seat there, as a seat taken meanwhile
            if refusal.code not in ("seat/taken", "move/game-over", "table/elsewhere"):
                raise
            conn.push(RematchTable(table=new_id))
            return
        conn.push(RematchTable(table=new_id, seat=seat, token=token))

    # -- connections and moves

    async def join(self, room: Room, conn: Connection, since: int | None) -> None:
        """A new connection: its welcome, what it missed, and everyone's presence."""
        async with room.lock:
            if room.broken:
                # the room left memory while this connection waited (its commit failed,
                # or another process of the cluster took it): its table may be ahead of
                # the stored one; the client reconnects and finds the table afresh
                conn.push(error_message(Refusal("server/unavailable", "the table is being "
                                                "reloaded; connect again")))
                conn.end(1012)
                return
            try:
                self.rooms.check_current(room)
                self.rooms.admit(room, conn)
            except Refusal as refusal:
                conn.push(error_message(refusal))
                conn.end(4000 + refusal.status)
                return
            if conn.seat is not None:
                await self.rooms.resume(room)    # an adjourned table plays on
            elif room.adjourned and room.bots_only and self.rooms.bot_tables_of(
                    conn.address) < self.settings.bot_tables_per_address:
                room.address = conn.address      # a table of bots: watching resumes it
                await self.rooms.resume(room)
            table = room.table
            # present before the welcome, so that its summary shows this seat connected
            # (nothing is awaited from here on: no other message can come first)
            room.conns.append(conn)
            room.visited = time.monotonic()
            if conn.seat is not None:
                room.away_since[conn.seat] = None
            welcome = Welcome(seat=conn.seat, version=table.version,
                              view=table.view(conn.seat), table=room.summary(),
                              chat=room.chat.history(conn, self.settings.chat_history))
            if conn.seat is not None:
                welcome.muted = sorted(room.chat.mutes.get(conn.seat, ()))
                if room.chat.spectator_mutes.get(conn.seat):
                    welcome.muted_spectators = sorted(room.chat.spectator_mutes[conn.seat])
            self.pipeline.catch_up(room, conn, welcome, since)
            room.presence(newcomer=conn)
        if conn.seat is not None:
            await self.back(room, conn.seat)
        self.jobs.kick(room)

    def leave(self, room: Room, conn: Connection) -> None:
        conn.end()
        self.rooms.let_go(conn)
        if conn in room.conns:
            room.conns.remove(conn)
            room.visited = time.monotonic()
            if conn.seat is not None and not any(c.seat == conn.seat for c in room.conns):
                room.away_since[conn.seat] = time.monotonic()
            room.presence()
        if room.status == "over" and not room.conns and room.id in self.rooms.live:
            self.rooms.keep_finished(room)

    async def play(self, room: Room, seat: int, move: str, version: int) -> None:
        await self.back(room, seat)
        await self.pipeline.play(room, seat, move, version)
        self.jobs.kick(room)
