"""The move pipeline: check, play, commit, broadcast (docs/server.md).

A move, a person's or a bot's, goes: the table is playing, the version is the table's,
the seat is to act -> ``Table.play`` (the game refuses a move in its own words: one that
names no move is ``move/bad``, one not legal now ``move/illegal``) -> the database
appends the move and bumps the version in one transaction -> only then is each
connection sent the events it has not seen, cut for its own seat
(``Table.events_since``), the last with its seat's view. A connection's token, message
size and rate are checked before (the WebSocket router).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from cardtable.core import IllegalActionError, InvalidActionError, NotYourTurnError
from cardtable.server.connections import Connection
from cardtable.server.database import Database
from cardtable.server.messages import Over, Welcome, event_text
from cardtable.server.refusals import Refusal
from cardtable.server.room import Room, room_from_row
from cardtable.server.rooms import Rooms
from cardtable.store import Store
from cardtable.table import Table

log = logging.getLogger("cardtable.server")


def events(table: Table, since: int, seat: int | None) -> list[str]:
    """The event messages of every move after ``since`` for ``seat``, the last with the
    seat's view, as text."""
    found = table.events_since(since, seat)
    out = [event_text(event) for event in found[:-1]]
    if found:
        out.append(event_text(found[-1], table.view(seat)))
    return out


def over_message(room: Room) -> Over:
    result = room.result()
    assert result is not None
    over = Over(winners=result.winners, scores=result.scores, seed=room.seed,
                version=room.table.version)
    if result.ended is not None:
        over.ended, over.by = result.ended, result.by
    return over


class Pipeline:
    """Plays moves at the rooms of this process and tells every connection."""

    def __init__(self, store: Store, db: Database, rooms: Rooms) -> None:
        self.store = store
        self.db = db
        self.rooms = rooms
        self.moves_accepted = 0
        #: called with a room once its game's end is stored (the players' ratings)
        self.on_over: list[Callable[[Room], None]] = []
        #: reloads after a failed commit whose player went away (kept: the loop holds
        #: tasks weakly)
        self.later: set[asyncio.Task[None]] = set()
        #: told the seconds from a move's arrival to its broadcast (``metrics``)
        self.observe_move: Callable[[float], None] | None = None

    async def play(self, room: Room, seat: int, move: str, version: int,
                   by_bot: bool = False) -> None:
        """Check, apply, store, then tell everyone; a Refusal says why not. ``by_bot``:
        the move is a bot's (a bot seat's, or a takeover's, or a timeout's).

        A client that goes away mid-move cannot leave it half done: once the move is
        played, a cancellation while its commit is on its way lets the commit land and
        the rest (telling everyone, or reloading the table) follow it, the table's lock
        held until then (tests/server/test_pipeline.py)."""
        started = time.perf_counter()
        await room.lock.acquire()
        held = True
        try:
            new, result, stored = self._apply(room, seat, move, version, by_bot)
            try:
                await asyncio.shield(stored)
            except asyncio.CancelledError:
                held = False    # released once the commit has landed
                stored.add_done_callback(lambda _: self._landed_later(room, new, result,
                                                                      stored))
                raise
            except Exception as exc:
                await self._failed(room, new, exc)
            self._stored(room, new, result)
            if self.observe_move is not None:
                self.observe_move(time.perf_counter() - started)
        finally:
            if held:
                room.lock.release()

    def _apply(self, room: Room, seat: int, move: str, version: int, by_bot: bool,
               ) -> tuple[int, dict[str, Any] | None, asyncio.Future[Any]]:
        """The checks, the move played at the table and its commit queued: the new
        version, the result if the game is over, and the commit's future."""
        table = room.table
        if room.status == "over" or room.broken:
            raise Refusal("move/game-over", "the game is over")
        if room.adjourned:   # a bot's move that was on its way when it was adjourned
            raise Refusal("move/stale", "the table is adjourned; reconnect to play on")
        if room.status == "waiting":
            raise Refusal("table/waiting", "the game starts when every seat is taken")
        if version != table.version:
            raise Refusal("move/stale", f"the table is at version {table.version}, not "
                                        f"{version}: wait for the events you missed")
        for_person = by_bot and table.seats[seat].kind == "person"
        if for_person and room.timed_out != seat and not room.taken_over(seat):
            # a takeover's move on its way when the person came back
            raise Refusal("move/stale", "the seat's person is back")
        clock = room.clock
        if clock is not None and not by_bot and (
                room.timed_out == seat or clock.expired() == seat):
            raise Refusal("move/timed-out", "your time ran out: the bot plays this "
                                            "move for you")
        try:
            action = table.play(seat, move)
        except NotYourTurnError:
            raise Refusal("move/not-your-turn", "it is not your turn") from None
        except InvalidActionError as exc:
            raise Refusal("move/bad", str(exc)) from None
        except IllegalActionError as exc:
            raise Refusal("move/illegal", str(exc)) from None
        new = table.version
        result = table.result()
        stored = room.stored_version
        if for_person:
            room.bot_moves[seat] += 1
        clock_text = None
        if clock is not None:
            clock.moved(seat, timed_out=by_bot and room.timed_out == seat,
                        person=not by_bot)
            room.timed_out = None
            if result is not None:
                room.over = True       # for run_clock; set again once stored
                clock.ended()          # no "timed out" mark, no takeover, once over
            room.run_clock()
            clock_text = clock.to_json()

        def store(conn: Any) -> None:
            self.store.append_move(conn, room.id, stored, seat, action.notation, result)
            if for_person:
                self.store.count_bot_move(conn, room.id, seat)
            if clock_text is not None:
                self.store.save_clock(conn, room.id, clock_text)

        return new, result, self.db.submit(store)

    async def _failed(self, room: Room, new: int, error: BaseException) -> None:
        """The move's commit failed: the table as stored again, and a refusal
        (server/unavailable when the database cannot store anything just now)."""
        log.error("table %s: move %d could not be stored (%s); reloading the table",
                  room.id, new, type(error).__name__)
        # shielded (a task, on this rare path): a cancellation cannot leave the room broken
        await asyncio.shield(self._reload(room))
        if isinstance(error, Refusal) and error.code == "server/unavailable":
            raise Refusal("server/unavailable", "the move could not be saved just now; "
                                                "try it again in a moment") from None
        raise Refusal("server/error", "the move could not be saved; "
                                      "reconnect and try again") from None

    def _stored(self, room: Room, new: int, result: dict[str, Any] | None) -> None:
        """The move is stored: the end of the game noted, everyone told."""
        self.moves_accepted += 1
        room.moved_at = time.monotonic()
        room.drop_undo()
        if result is not None:
            room.over = True
            log.info("table %s is over after %d moves", room.id, new)
            for hook in self.on_over:
                try:
                    hook(room)
                except Exception as exc:
                    log.error("table %s: an end-of-game hook failed (%s)", room.id,
                              type(exc).__name__)
        self.broadcast(room)
        if result is not None:
            room.presence_if_changed()     # the takeovers end with the game

    def _landed_later(self, room: Room, new: int, result: dict[str, Any] | None,
                      stored: asyncio.Future[Any]) -> None:
        """The commit of a move whose player went away meanwhile has landed: what
        ``play`` would have done next, then the table's lock released."""
        error = (asyncio.CancelledError() if stored.cancelled()
                 else stored.exception())
        if error is None:
            try:
                self._stored(room, new, result)
            finally:
                room.lock.release()
            return

        async def reload(error: BaseException) -> None:
            try:
                with contextlib.suppress(Refusal):   # nobody is there to be told
                    await self._failed(room, new, error)
            finally:
                room.lock.release()

        self.later.add(task := asyncio.get_running_loop().create_task(reload(error)))
        task.add_done_callback(self.later.discard)

    async def _reload(self, room: Room) -> None:
        """After a failed commit: the table as stored. Its connections stay: none was
        told of the move, and they are sent whatever the stored table has that they
        have not seen. A table that cannot be read either leaves memory, and its
        connections are dropped (they reconnect and catch up)."""
        room.broken = True
        try:
            row = await self.db.run(lambda conn: self.store.load(conn, room.id))
            if row.status != "over" and row.owner != self.rooms.settings.owner:
                # taken over by another process of the cluster: its clients reconnect
                log.warning("table %s: played by %s now; letting it go", room.id,
                            row.owner, extra={"table": room.id})
                self.rooms.let_room_go(room)
                return
            fresh = room_from_row(row)
        except Exception:
            for conn in room.conns:
                conn.end()
            room.conns.clear()
            self.rooms.live.pop(room.id, None)
            return
        room.table = fresh.table
        room.shift = fresh.shift
        room.undo_asked = None
        room.over = fresh.over
        room.clock = fresh.clock
        room.bot_moves = fresh.bot_moves
        room.timed_out = None
        room.broken = False
        self.broadcast(room)

    def broadcast(self, room: Room) -> None:
        """Every connection the events it has not seen (connections of one seat at one
        version share the texts)."""
        table = room.table
        cache: dict[tuple[int | None, int], list[str]] = {}
        for conn in room.conns:
            if conn.version >= table.version:
                continue
            key = (conn.seat, conn.version)
            texts = cache.get(key)
            if texts is None:
                texts = cache[key] = events(table, conn.version, conn.seat)
            for text in texts:
                conn.push(text)
            conn.version = table.version
        room.tell_clock()
        if room.status == "over":
            room.tell(over_message(room).text())

    def catch_up(self, room: Room, conn: Connection, welcome: Welcome,
                 since: int | None) -> None:
        """A new connection's welcome, then the events after ``since`` (the last version
        it saw), and the result of a finished game. More than ``catch_up_limit`` missed
        moves are not sent: the welcome's view is the seat's view now, and its
        ``skipped`` says how many moves it stands for (a long table's log would fill the
        connection's queue before its welcome was read)."""
        table = room.table
        conn.version = table.version
        if since is not None and table.version - since > self.rooms.settings.catch_up_limit:
            welcome.skipped = table.version - since
            since = None
        conn.push(welcome)
        if since is not None and since < table.version:
            for text in events(table, since, conn.seat):
                conn.push(text)
        if room.status == "over":
            conn.push(over_message(room))
