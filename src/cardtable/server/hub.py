"""The live tables of one server process: seats, connections, moves, bots.

Every table in play is held in memory as a :class:`cardtable.table.Table` (a
:class:`Room` adds its seats' tokens and its connections). A move goes: checks
(turn, version) -> ``Table.play`` -> the database appends the move and bumps the
version in one transaction -> only then each connection hears of it, through
``Table.events_since`` and ``Table.view`` for its own seat. Bot moves and hints are
computed in a process pool and come back through the same path.

All database work runs on one thread, which commits whatever has queued up in one
transaction (group commit): many tables' moves cost one disk flush.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import multiprocessing
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cardtable
from cardtable import bots, records
from cardtable.core import CardtableError, IllegalActionError
from cardtable.server.protocol import Bucket, Refusal
from cardtable.store import SeatRow, Store, TableRow, hash_token
from cardtable.table import (
    BotJob,
    HintJob,
    NotYourTurnError,
    Seat,
    Table,
    run_bot_job,
    run_hint_job,
)

log = logging.getLogger("cardtable.server")

# the bot that plays for a person who has been away longer than the table allows
TAKEOVER_BOT = "heuristic"
# caps on what a table may ask of the server's bots
MAX_BOT_SECONDS = 10.0
MAX_BOT_ITERATIONS = 20_000


@dataclass
class Settings:
    db_url: str
    bot_workers: int = 2
    max_message: int = 4096          # bytes of one WebSocket message
    max_body: int = 16_384           # bytes of one HTTP request body
    ws_rate: float = 20.0            # messages a second per connection...
    ws_burst: float = 40.0           # ...with bursts of this many
    http_rate: float = 20.0          # requests a second per client address (writes)
    http_burst: float = 60.0
    max_tables: int = 5_000          # unfinished tables held at once
    max_queue: int = 2_000           # unsent messages before a connection is dropped
    hint_budget: dict[str, Any] = field(default_factory=lambda: {"iterations": 300})
    takeover_tick: float = 0.25      # seconds between checks for away players
    # bots that choose in microseconds play in the server process; the others (and
    # every hint) go to the process pool
    inline_bots: tuple[str, ...] = ("random",)
    # this process's name when several share one database: it creates, reloads and plays
    # only its own tables (None: the one default process)
    owner: str | None = None


# ---------------------------------------------------------------- database thread


class Database:
    """Runs storage calls on one thread, grouping whatever is queued into one commit."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.queue: asyncio.Queue[tuple[Callable[[Any], Any], asyncio.Future[Any]]] = (
            asyncio.Queue())
        self.executor = concurrent.futures.ThreadPoolExecutor(1, "cardtable-db")
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        self.executor.shutdown(wait=True)

    async def run(self, work: Callable[[Any], Any]) -> Any:
        """``work(connection)`` inside a committed transaction; its result."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self.queue.put((work, future))
        return await future

    async def read(self, work: Callable[[Any], Any]) -> Any:
        return await self.run(work)

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty() and len(batch) < 512:
                batch.append(self.queue.get_nowait())
            results = await loop.run_in_executor(self.executor, self._commit, batch)
            for (_, future), (ok, value) in zip(batch, results, strict=True):
                if future.done():
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)

    def _commit(self, batch: list[tuple[Callable[[Any], Any], Any]]
                ) -> list[tuple[bool, Any]]:
        # Each call checks before it writes, so one that raises has changed nothing and
        # the others still commit; a failing commit fails them all.
        out: list[tuple[bool, Any]] = []
        try:
            with self.store.engine.begin() as conn:
                for work, _ in batch:
                    try:
                        out.append((True, work(conn)))
                    except Exception as exc:  # handed to the caller
                        out.append((False, exc))
        except Exception as exc:
            return [(False, exc)] * len(batch)
        return out


# ---------------------------------------------------------------- pool jobs


def hint_in_worker(job: HintJob) -> tuple[str, float, str]:
    """In a worker process: the job's hint as plain data: the move, the chance of winning
    and what that chance is of ("game", or "match" in Draw Bridge)."""
    found = run_hint_job(job)
    return found.action.notation, found.win_probability, found.estimate_of


def _warm() -> int:
    return 0


# ---------------------------------------------------------------- connections


class Conn:
    """One WebSocket: its seat (None for a spectator) and the last version it was sent."""

    def __init__(self, send: Callable[[str], Any], close: Callable[[int], Any],
                 seat: int | None, settings: Settings) -> None:
        self._send = send
        self._close = close
        self.seat = seat
        self.version = 0
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.bucket = Bucket(settings.ws_rate, settings.ws_burst)
        self.max_queue = settings.max_queue
        self.hint_busy = False
        self.closed = False
        self.task = asyncio.get_running_loop().create_task(self._sender())

    def push(self, message: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.max_queue:
            # a client that does not read must not hold the others up: it reconnects
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(message if isinstance(message, str) else json.dumps(message))

    def end(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    async def _sender(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self._send(text)
        except Exception:  # the socket went away; the receiver notices too
            self.closed = True
        self.closed = True
        with contextlib.suppress(Exception):
            await self._close(1000)


# ---------------------------------------------------------------- rooms


@dataclass
class Room:
    id: str
    table: Table
    seats: list[SeatRow]
    status: str
    takeover_after: float | None
    created: str
    seed: int
    result: dict[str, Any] | None = None
    conns: list[Conn] = field(default_factory=list)
    away_since: list[float | None] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    bot_failures: int = 0
    broken: bool = False
    #: the id of the rematch table once a seat asked for one
    rematch: str | None = None

    def __post_init__(self) -> None:
        now = time.monotonic()
        self.away_since = [now if s.kind == "person" else None for s in self.seats]

    @property
    def game(self) -> cardtable.Game:
        return self.table.state.game

    def seat_of(self, token: str) -> int | None:
        digest = hash_token(token)
        for n, seat in enumerate(self.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return n
        return None

    def connected(self) -> list[bool]:
        present = {c.seat for c in self.conns if not c.closed}
        return [s.kind == "bot" or n in present for n, s in enumerate(self.seats)]

    def taken_over(self, seat: int) -> bool:
        """True when a bot plays ``seat`` for its person, who has been away too long."""
        if self.takeover_after is None or self.seats[seat].kind != "person":
            return False
        since = self.away_since[seat]
        return since is not None and time.monotonic() - since >= self.takeover_after

    def summary(self) -> dict[str, Any]:
        game = self.game
        connected = self.connected()
        out: dict[str, Any] = {
            "id": self.id,
            "game": game.name,
            "title": game.declaration.title,
            "options": dict(game.options),
            # the board, each seat's team, the phases...: what the page draws from
            "game_info": game.describe(),
            "seats": [{"seat": n, "kind": s.kind, "name": s.name, "bot": s.bot,
                       "settings": dict(s.settings) if s.kind == "bot" else {},
                       "taken": s.kind == "bot" or s.token_hash is not None,
                       "connected": connected[n],
                       "bot_playing": s.kind == "person" and self.taken_over(n)}
                      for n, s in enumerate(self.seats)],
            "status": self.status,
            "version": self.table.version,
            "to_act": self.table.to_act,
            "takeover_after": self.takeover_after,
            "created": self.created,
        }
        if self.status == "over":
            out["result"] = self.result
            out["seed"] = self.seed
            if self.rematch is not None:
                out["rematch"] = self.rematch
        return out


def table_seats(rows: list[SeatRow]) -> list[Seat]:
    return [Seat("bot", s.bot or "random", dict(s.settings)) if s.kind == "bot"
            else Seat("person", s.name, {}) for s in rows]


def room_from_row(row: TableRow) -> Room:
    game = cardtable.new_game(row.game, **row.options)
    table = Table.from_moves(game, table_seats(row.seats), seed=row.seed,
                             moves=[notation for _, notation in row.moves])
    return Room(id=row.id, table=table, seats=row.seats, status=row.status,
                takeover_after=row.takeover_after, created=row.created, seed=row.seed,
                result=row.result, rematch=row.rematch)


def check_bot(kind: Any, settings: Any) -> tuple[str, dict[str, Any]]:
    if kind not in bots.KINDS:
        raise Refusal("options/bad", f"unknown bot {kind!r}; the bots are "
                                     f"{', '.join(bots.KINDS)}")
    if settings is None:
        settings = {}
    if not isinstance(settings, dict):
        raise Refusal("options/bad", "a bot's 'settings' must be an object, e.g. "
                                     "{\"seconds\": 1.0}")
    try:
        bots.make(kind, **settings)
    except (CardtableError, TypeError) as exc:
        raise Refusal("options/bad", f"bot {kind}: {exc}") from None
    seconds = settings.get("seconds")
    if isinstance(seconds, int | float) and seconds > MAX_BOT_SECONDS:
        raise Refusal("options/bad", f"a bot may think at most {MAX_BOT_SECONDS:g} seconds")
    iterations = settings.get("iterations")
    if isinstance(iterations, int) and iterations > MAX_BOT_ITERATIONS:
        raise Refusal("options/bad", f"a bot may search at most {MAX_BOT_ITERATIONS} "
                                     "iterations")
    if kind == "ismcts" and "seconds" not in settings and "iterations" not in settings:
        settings = {**settings, "seconds": 1.0}
    return kind, dict(settings)


# ---------------------------------------------------------------- the hub


class Hub:
    """Every room of this process, the database thread and the bot pool."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.db = Database(store)
        self.rooms: dict[str, Room] = {}
        self.finished: OrderedDict[str, Room] = OrderedDict()
        self.pool: concurrent.futures.Executor | None = None
        self.ticker: asyncio.Task[None] | None = None
        self.moves_accepted = 0

    # -- life cycle

    async def start(self) -> None:
        self.db.start()
        context = multiprocessing.get_context("forkserver")
        self.pool = concurrent.futures.ProcessPoolExecutor(self.settings.bot_workers,
                                                           mp_context=context)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self.pool, _warm)
        rows: list[TableRow] = await self.db.run(
            lambda conn: self.store.load_unfinished(conn, self.settings.owner))
        for row in rows:
            try:
                self.rooms[row.id] = room_from_row(row)
            except Exception as exc:
                log.error("table %s does not replay (%s); it stays stored but is not served",
                          row.id, type(exc).__name__)
        log.info("%d unfinished tables reloaded", len(self.rooms))
        for room in self.rooms.values():
            self.kick(room)
        self.ticker = loop.create_task(self._tick())

    async def stop(self) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
        for room in list(self.rooms.values()):
            for conn in room.conns:
                conn.end()
            if room.bot_task is not None:
                room.bot_task.cancel()
        await self.db.stop()
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self.settings.takeover_tick)
            for room in list(self.rooms.values()):
                if room.takeover_after is not None and room.status == "playing":
                    self.kick(room)

    # -- finding tables

    async def room(self, table_id: str) -> Room:
        room = self.rooms.get(table_id) or self.finished.get(table_id)
        if room is not None:
            return room
        if not isinstance(table_id, str) or len(table_id) > 32:
            raise Refusal("table/not-found", "there is no such table")
        row: TableRow | None = await self.db.read(
            lambda conn: self.store.load(conn, table_id))
        if row is None:
            raise Refusal("table/not-found", f"there is no table {table_id!r}")
        room = self.rooms.get(table_id) or self.finished.get(table_id)
        if room is not None:
            return room
        if row.status != "over" and row.owner != self.settings.owner:
            raise Refusal("table/elsewhere", f"table {table_id} is played by the server "
                                             f"process {row.owner or 'default'!r}")
        room = room_from_row(row)
        self._keep_finished(room) if room.status == "over" else self.rooms.setdefault(
            table_id, room)
        return room

    def _keep_finished(self, room: Room) -> None:
        self.finished[room.id] = room
        self.finished.move_to_end(room.id)
        while len(self.finished) > 256:
            self.finished.popitem(last=False)

    def lobby(self, status: str | None = None) -> list[dict[str, Any]]:
        rooms = [r for r in self.rooms.values() if status is None or r.status == status]
        rooms.sort(key=lambda r: r.created, reverse=True)
        return [r.summary() for r in rooms[:200]]

    # -- creating and seating

    async def create(self, body: dict[str, Any]) -> Room:
        name = body.get("game")
        if not isinstance(name, str) or name not in cardtable.game_names():
            raise Refusal("options/bad", f"unknown game {str(name)[:40]!r}; the games are "
                                         f"{', '.join(cardtable.game_names())}")
        options = body.get("options", {})
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise Refusal("options/bad", "'options' must be an object, e.g. {\"target\": 100}")
        if "players" in options:
            raise Refusal("options/bad", "the number of players is the number of seats: "
                                         "leave 'players' out of the options")
        seat_specs = body.get("seats")
        declaration = cardtable.declaration(name)
        if seat_specs is None:
            seat_specs = [{"kind": "person"}] * declaration.default_players
        if not isinstance(seat_specs, list) or not seat_specs:
            raise Refusal("options/bad", "'seats' must be a list with one entry per player")
        if len(seat_specs) not in declaration.players:
            raise Refusal("options/bad", f"{declaration.title} is played by "
                                         f"{', '.join(map(str, declaration.players))} "
                                         f"players, not {len(seat_specs)}")
        rows: list[SeatRow] = []
        for n, spec in enumerate(seat_specs):
            if not isinstance(spec, dict):
                raise Refusal("options/bad", f"seat {n} must be an object like "
                                             "{\"kind\": \"person\"}")
            kind = spec.get("kind")
            if kind == "person":
                rows.append(SeatRow("person", ""))
            elif kind == "bot":
                bot, settings = check_bot(spec.get("bot", "heuristic"), spec.get("settings"))
                rows.append(SeatRow("bot", bot, bot, settings))
            else:
                raise Refusal("options/bad", f"seat {n}: 'kind' is \"person\" or \"bot\"")
        takeover = body.get("takeover_after")
        if takeover is not None and (isinstance(takeover, bool)
                                     or not isinstance(takeover, int | float)
                                     or not 1 <= takeover <= 86_400):
            raise Refusal("options/bad", "'takeover_after' is null or a number of seconds "
                                         "from 1 to 86400")
        try:
            game = cardtable.new_game(name, players=len(rows), **options)
        except (CardtableError, TypeError) as exc:
            raise Refusal("options/bad", str(exc)) from None
        if len(self.rooms) >= self.settings.max_tables:
            raise Refusal("limit/tables", "this server holds as many tables as it can; "
                                          "try again later")
        seed = secrets.randbits(62)
        table = Table.new(game, table_seats(rows), seed=seed)
        table_id = secrets.token_urlsafe(9)
        status = "playing" if all(s.kind == "bot" for s in rows) else "waiting"
        row = TableRow(id=table_id, game=name, options=dict(game.options), seed=seed,
                       takeover_after=None if takeover is None else float(takeover),
                       status=status, version=0, seats=rows, owner=self.settings.owner)
        await self.db.run(lambda conn: self.store.create_table(conn, row))
        room = Room(id=table_id, table=table, seats=rows, status=status,
                    takeover_after=row.takeover_after, created=row.created, seed=seed)
        self.rooms[table_id] = room
        log.info("table %s created: %s, %d seats", table_id, name, len(rows))
        self.kick(room)
        return room

    async def take_seat(self, room: Room, seat: int, name: str) -> str:
        async with room.lock:
            if not 0 <= seat < len(room.seats) or room.seats[seat].kind != "person":
                raise Refusal("seat/not-found", f"table {room.id} has no person seat {seat}")
            if room.seats[seat].token_hash is not None:
                raise Refusal("seat/taken", f"seat {seat} is taken; pick a free one")
            if room.status == "over":
                raise Refusal("move/game-over", "this game is over")
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            free = [n for n, s in enumerate(room.seats)
                    if s.kind == "person" and s.token_hash is None and n != seat]
            status = "playing" if room.status == "waiting" and not free else None
            done = await asyncio.shield(self.db.run(lambda conn: self.store.take_seat(
                conn, room.id, seat, name, digest, status)))
            if not done:
                raise Refusal("seat/taken", f"seat {seat} is taken; pick a free one")
            room.seats[seat].name = name
            room.seats[seat].token_hash = digest
            room.table.set_seat(seat, Seat("person", name))
            if status is not None:
                room.status = status
                log.info("table %s starts", room.id)
            self._presence(room)
        self.kick(room)
        return token

    async def leave_seat(self, room: Room, seat: int, token: str) -> None:
        async with room.lock:
            if not 0 <= seat < len(room.seats):
                raise Refusal("seat/not-found", f"table {room.id} has no seat {seat}")
            if room.seat_of(token) != seat:
                raise Refusal("auth/bad-token", f"that token does not hold seat {seat}")
            digest = hash_token(token)
            done = await asyncio.shield(self.db.run(
                lambda conn: self.store.leave_seat(conn, room.id, seat, digest)))
            if not done:
                raise Refusal("auth/bad-token", f"that token does not hold seat {seat}")
            room.seats[seat].token_hash = None
            for conn in [c for c in room.conns if c.seat == seat]:
                conn.push({"type": "error", "code": "auth/bad-token",
                           "message": "you left this seat"})
                conn.end()
                room.conns.remove(conn)
            room.away_since[seat] = time.monotonic()
            self._presence(room)
        self.kick(room)

    async def rematch(self, room: Room, conn: Conn) -> None:
        """A seat of a finished table asks for a rematch: the first ask creates a table
        with the same game, options, seat kinds (bots kept) and takeover; every ask seats
        the asker at its own seat there when free. The asker gets ``{"type": "rematch",
        "table": id, "seat": n, "token": t}`` (no seat nor token when its seat is not
        free); every other connection of the old table ``{"type": "rematch", "table":
        id}`` when the table is created."""
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
                seats: list[dict[str, Any]] = [
                    {"kind": "bot", "bot": s.bot, "settings": dict(s.settings)}
                    if s.kind == "bot" else {"kind": "person"} for s in room.seats]
                new = await self.create({"game": game.name, "options": options,
                                         "seats": seats,
                                         "takeover_after": room.takeover_after})
                await asyncio.shield(self.db.run(
                    lambda conn: self.store.set_rematch(conn, room.id, new.id)))
                room.rematch = new_id = new.id
                log.info("table %s: rematch at table %s", room.id, new_id)
                announce = json.dumps({"type": "rematch", "table": new_id})
                for other in room.conns:
                    if other is not conn:
                        other.push(announce)
        new_room = await self.room(new_id)
        try:
            token = await self.take_seat(new_room, seat, room.seats[seat].name)
        except Refusal as refusal:
            if refusal.code not in ("seat/taken", "move/game-over"):
                raise
            conn.push({"type": "rematch", "table": new_id})
            return
        conn.push({"type": "rematch", "table": new_id, "seat": seat, "token": token})

    # -- connections

    async def join(self, room: Room, conn: Conn, since: int | None) -> None:
        async with room.lock:
            table = room.table
            conn.version = table.version
            conn.push({"type": "welcome", "seat": conn.seat, "version": table.version,
                       "view": table.view(conn.seat), "table": room.summary()})
            if since is not None and since < table.version:
                events = table.events_since(since, conn.seat)
                for n, event in enumerate(events):
                    message = {"type": "event", **event}
                    if n == len(events) - 1:
                        message["view"] = table.view(conn.seat)
                    conn.push(message)
            if room.status == "over":
                conn.push(self._over(room))
            room.conns.append(conn)
            if conn.seat is not None:
                room.away_since[conn.seat] = None
            self._presence(room)
        self.kick(room)

    def leave(self, room: Room, conn: Conn) -> None:
        conn.end()
        if conn in room.conns:
            room.conns.remove(conn)
            if conn.seat is not None and not any(c.seat == conn.seat for c in room.conns):
                room.away_since[conn.seat] = time.monotonic()
            self._presence(room)
        if room.status == "over" and not room.conns and room.id in self.rooms:
            del self.rooms[room.id]
            self._keep_finished(room)

    def _presence(self, room: Room) -> None:
        message = json.dumps({"type": "presence", "connected": room.connected(),
                              "bot_playing": [room.taken_over(n)
                                              for n in range(len(room.seats))]})
        for conn in room.conns:
            conn.push(message)

    # -- moves

    async def play(self, room: Room, seat: int, move: str, version: int) -> None:
        """Check, apply, store, then tell everyone; a Refusal says why not."""
        # shielded: a client that goes away mid-move cannot leave it half done
        await asyncio.shield(self._play(room, seat, move, version))
        self.kick(room)

    async def _play(self, room: Room, seat: int, move: str, version: int) -> None:
        async with room.lock:
            table = room.table
            if room.status == "over" or room.broken:
                raise Refusal("move/game-over", "the game is over")
            if room.status == "waiting":
                raise Refusal("table/waiting", "the game starts when every seat is taken")
            if version != table.version:
                raise Refusal("move/stale", f"the table is at version {table.version}, not "
                                            f"{version}: wait for the events you missed")
            if table.to_act != seat:
                raise Refusal("move/not-your-turn", "it is not your turn"
                              if table.to_act is not None else "the game is over")
            try:
                action = table.play(seat, move)
            except NotYourTurnError as exc:
                raise Refusal("move/not-your-turn", str(exc)) from None
            except IllegalActionError as exc:
                raise Refusal("move/illegal", str(exc)) from None
            new = table.version
            result = records.result_of(table.state)
            try:
                await self.db.run(lambda conn: self.store.append_move(
                    conn, room.id, new, seat, action.notation, result))
            except Exception as exc:
                log.error("table %s: move %d could not be stored (%s); reloading the table",
                          room.id, new, type(exc).__name__)
                await self._reload(room)
                raise Refusal("server/error", "the move could not be saved; "
                                              "reconnect and try again") from None
            self.moves_accepted += 1
            if result is not None:
                room.status = "over"
                room.result = result
                log.info("table %s is over after %d moves", room.id, new)
            self._broadcast(room)

    async def _reload(self, room: Room) -> None:
        room.broken = True
        for conn in room.conns:
            conn.end()
        room.conns.clear()
        try:
            row = await self.db.read(lambda conn: self.store.load(conn, room.id))
            fresh = room_from_row(row)
        except Exception:
            self.rooms.pop(room.id, None)
            return
        room.table = fresh.table
        room.status = fresh.status
        room.result = fresh.result
        room.broken = False

    def _broadcast(self, room: Room) -> None:
        table = room.table
        cache: dict[tuple[int | None, int], list[str]] = {}
        views: dict[int | None, dict[str, Any]] = {}
        for conn in room.conns:
            if conn.version >= table.version:
                continue
            key = (conn.seat, conn.version)
            texts = cache.get(key)
            if texts is None:
                if conn.seat not in views:
                    views[conn.seat] = table.view(conn.seat)
                events = table.events_since(conn.version, conn.seat)
                texts = []
                for n, event in enumerate(events):
                    message = {"type": "event", **event}
                    if n == len(events) - 1:
                        message["view"] = views[conn.seat]
                    texts.append(json.dumps(message))
                cache[key] = texts
            for text in texts:
                conn.push(text)
            conn.version = table.version
        if room.status == "over":
            over = json.dumps(self._over(room))
            for conn in room.conns:
                conn.push(over)

    def _over(self, room: Room) -> dict[str, Any]:
        result = room.result or {}
        return {"type": "over", "winners": result.get("winners", []),
                "scores": result.get("scores", []), "seed": room.seed,
                "version": room.table.version}

    # -- bots

    def kick(self, room: Room) -> None:
        """Start the bot for the seat to act when a bot (or a takeover) plays it."""
        if room.bot_task is not None or room.status != "playing" or room.broken:
            return
        seat = room.table.to_act
        if seat is None:
            return
        spec = room.seats[seat]
        job: BotJob | None
        if spec.kind == "bot" and spec.bot in self.settings.inline_bots:
            job = None
        elif spec.kind == "bot":
            job = room.table.bot_job()
        elif room.taken_over(seat):
            job = self._takeover_job(room)
            self._presence(room)
        else:
            return
        room.bot_task = asyncio.get_running_loop().create_task(
            self._bot(room, job, seat, room.table.version))

    def _takeover_job(self, room: Room) -> BotJob:
        """The job of the bot that plays the seat to act for its away person."""
        table = room.table
        seat = table.to_act
        assert seat is not None
        return BotJob(table.log(), seat, TAKEOVER_BOT, {}, secrets.randbits(63))

    async def _bot(self, room: Room, job: BotJob | None, seat: int, version: int) -> None:
        delay = 0.0
        try:
            if job is None:
                move = str(room.table.bot_move())
            else:
                assert self.pool is not None
                move = await asyncio.get_running_loop().run_in_executor(
                    self.pool, run_bot_job, job)
            await asyncio.shield(self._play(room, seat, move, version))
            room.bot_failures = 0
        except Refusal as refusal:
            if refusal.code not in ("move/stale", "move/not-your-turn", "move/game-over"):
                room.bot_failures += 1
                delay = min(30.0, 0.5 * 2 ** room.bot_failures)
                log.error("table %s: the bot's move was refused (%s)", room.id, refusal.code)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            room.bot_failures += 1
            delay = min(30.0, 0.5 * 2 ** room.bot_failures)
            log.error("table %s: the bot failed (%s)", room.id, type(exc).__name__)
        room.bot_task = None
        if delay:
            asyncio.get_running_loop().call_later(delay, self.kick, room)
        else:
            self.kick(room)

    async def hint(self, room: Room, conn: Conn) -> None:
        seat = conn.seat
        if seat is None:
            raise Refusal("auth/bad-token", "spectators get no hints; take a seat")
        if room.status != "playing" or room.table.to_act != seat:
            raise Refusal("move/not-your-turn", "hints are for the seat to act")
        if conn.hint_busy:
            raise Refusal("limit/rate", "a hint is on its way already")
        conn.hint_busy = True
        try:
            job = room.table.hint_job(seat, dict(self.settings.hint_budget))
            job = HintJob(job.log, seat, job.budget, secrets.randbits(32))
            assert self.pool is not None
            move, chance, of = await asyncio.get_running_loop().run_in_executor(
                self.pool, hint_in_worker, job)
        finally:
            conn.hint_busy = False
        conn.push({"type": "hint", "move": move, "win_probability": round(chance, 3),
                   "estimate_of": of, "version": len(job.log.moves)})
