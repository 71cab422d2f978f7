"""Resign, abort, a draw offer and takebacks (docs/server.md: Resign, abort and takebacks).

Each is a row of the table's stored log, appended like a move (``Store.append_move``, the
version bumped in the same transaction), so that a server killed at any moment reloads
the table as its players last saw it: ``!resign`` and ``!abort`` end the game (with the
result, the table ``over``), ``!undo K`` takes back the last K moves
(``store.table_log`` reads them back). Nothing is ever deleted from the log.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from cardtable.server.database import Database
from cardtable.server.jobs import Jobs
from cardtable.server.messages import UndoMessage
from cardtable.server.pipeline import Pipeline
from cardtable.server.refusals import Refusal
from cardtable.server.room import Room
from cardtable.store import Store

log = logging.getLogger("cardtable.server")


def abortable(room: Room, seat: int) -> bool:
    """An abort is allowed: this seat's person plays bots alone, or a person of the table
    has not made a move yet (the moves taken back do not count)."""
    persons = room.table.persons
    if persons == [seat]:
        return True
    moved = {s for s, _ in room.table.moves}
    return any(p not in moved for p in persons)


class Endings:
    """Ends games early and takes moves back, at the rooms of this process."""

    def __init__(self, store: Store, db: Database, pipeline: Pipeline, jobs: Jobs) -> None:
        self.store = store
        self.db = db
        self.pipeline = pipeline
        self.jobs = jobs

    @staticmethod
    def check_playing(room: Room, seat: int | None, what: str) -> int:
        if seat is None:
            raise Refusal("auth/bad-token", f"spectators cannot {what}; take a seat")
        if room.status == "over" or room.broken:
            raise Refusal("move/game-over", "the game is over")
        if room.status == "waiting":
            raise Refusal("table/waiting", "the game starts when every seat is taken")
        if room.adjourned:
            raise Refusal("move/stale", "the table is adjourned; reconnect to play on")
        return seat

    @staticmethod
    def stop_bot(room: Room) -> None:
        """The bot's move on its way is dropped (the table changes under it)."""
        if room.bot_task is not None:
            room.bot_task.cancel()
            room.bot_task = None

    async def end(self, room: Room, seat: int | None, kind: str) -> None:
        """``seat`` resigns (``kind`` "resign") or aborts the game ("abort")."""
        async with room.lock:
            seat = self.check_playing(room, seat, kind)
            if kind == "abort" and not abortable(room, seat):
                raise Refusal("end/too-late", "every player has moved: the game can no "
                                              "longer be aborted (resign instead)")
            self.stop_bot(room)
            table = room.table
            stored = room.stored_version + 1
            table.end(kind, seat)
            result = table.result()
            room.over = True
            room.undo_asked = None
            clock = room.clock
            clock_text = None
            if clock is not None:
                clock.ended()
                clock.stop()
                clock_text = clock.to_json()

            await self._write(room, table.version, stored, seat, f"!{kind}", result,
                              clock_text)
            room.shift += 1
            log.info("table %s: seat %d %s", room.id, seat,
                     "resigned" if kind == "resign" else "aborted the game")
            self.pipeline._stored(room, table.version, result)

    @staticmethod
    def draw(room: Room, seat: int | None) -> None:
        """No game here has a draw by agreement (docs/server.md)."""
        raise Refusal("draw/none", f"{room.game.declaration.title} has no draw by "
                                   "agreement: a game ends by its rules, a resignation or "
                                   "an abort")

    async def undo(self, room: Room, seat: int | None) -> None:
        """Take back ``seat``'s last move: at once where every other seat is a bot's,
        else ask the other people."""
        async with room.lock:
            seat = self.check_playing(room, seat, "take moves back")
            if room.rated():
                raise Refusal("undo/rated", "moves cannot be taken back in a rated game")
            if not room.table.undoable(seat):
                raise Refusal("undo/nothing", "you have no move to take back")
            others = [p for p in room.table.persons if p != seat]
            if not others:
                await self._undo(room, seat)
            elif room.undo_asked is not None:
                raise Refusal("undo/pending", "a takeback is asked already; wait for the "
                                              "answer")
            else:
                room.undo_asked = (seat, room.table.version, set())
                room.tell(UndoMessage(status="asked", seat=seat,
                                      version=room.table.version))
        self.jobs.kick(room)

    async def answer(self, room: Room, seat: int | None, accept: bool) -> None:
        """Another person's answer to the takeback asked."""
        async with room.lock:
            seat = self.check_playing(room, seat, "answer a takeback")
            asked = room.undo_asked
            if asked is None or asked[0] == seat or asked[1] != room.table.version:
                raise Refusal("undo/not-asked", "no takeback is asked of you")
            asker, version, accepted = asked
            if not accept:
                room.undo_asked = None
                room.tell(UndoMessage(status="declined", seat=asker, version=version,
                                      by=seat))
                return
            accepted.add(seat)
            if accepted >= {p for p in room.table.persons if p != asker}:
                room.undo_asked = None
                await self._undo(room, asker)
        self.jobs.kick(room)

    async def _write(self, room: Room, version: int, stored: int, seat: int, notation: str,
                     result: dict[str, Any] | None, clock_text: str | None) -> None:
        """A table-level row (``!resign``, ``!abort``, ``!undo K``) appended to the log with
        the clock, as a move is; a failed commit reloads the table and refuses."""

        def write(conn: Any) -> None:
            self.store.append_move(conn, room.id, stored, seat, notation, result)
            if clock_text is not None:
                self.store.save_clock(conn, room.id, clock_text)

        try:
            await asyncio.shield(self.db.run(write))
        except Exception as exc:
            await self.pipeline._failed(room, version, exc)

    async def _undo(self, room: Room, seat: int) -> None:
        """Under the room's lock: the takeback made, stored, and told."""
        self.stop_bot(room)
        table = room.table
        stored = room.stored_version + 1
        count = table.undo(seat)
        room.hints.clear()      # a hint on its way was for a position taken back
        room.timed_out = None
        clock_text = None
        if room.clock is not None:
            room.run_clock()
            clock_text = room.clock.to_json()

        await self._write(room, table.version, stored, seat, f"!undo {count}", None,
                          clock_text)
        room.shift += count + 1
        room.moved_at = time.monotonic()
        log.info("table %s: seat %d took back %d moves", room.id, seat, count)
        for conn in room.conns:
            conn.push(UndoMessage(status="done", seat=seat, version=table.version,
                                  undone=count, view=table.view(conn.seat)))
            conn.version = table.version
        room.tell_clock()
