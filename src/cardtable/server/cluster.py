"""This process's place in a cluster (``cardtable serve --cluster``; docs/server.md,
"Scaling past one machine").

The process holds a lease on its name in the database (``cardtable.store.leases``),
renewed every third of ``--lease`` seconds on a thread and connection of its own. Each
renewal, it looks for processes whose lease lapsed and takes their unfinished tables
(reloaded from their logs, the same replay as a restart). While its own lease is not
known to be current (the last renewal sent more than ``SHARE`` of the lease time ago:
the process was paused, or the database is away), it writes nothing; when a renewal finds
the lease taken, it stands down: every table it held leaves its memory and their
connections are closed (1012), so that their clients reconnect to the new owner; then it
takes a fresh lease and goes on as a new member.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import sqlalchemy.exc

from cardtable.server.room import Room, room_from_row
from cardtable.store import TableRow, leases

if TYPE_CHECKING:
    from cardtable.server.service import TableService

log = logging.getLogger("cardtable.server")

#: the share of the lease time for which this process trusts its last renewal: a pause
#: past it stops its writes before any other process may take its tables
SHARE = 0.8


class Cluster:
    """The lease of this process and the take-overs of lapsed ones."""

    def __init__(self, service: TableService) -> None:
        settings = service.settings
        assert settings.owner is not None, "a process of a cluster has a name"
        self.service = service
        self.store = service.rooms.store
        self.name: str = settings.owner
        self.lease = settings.lease
        self.address = settings.advertise
        #: this run's id in the lease (a new one after standing down)
        self.holder = secrets.token_hex(8)
        #: the monotonic time until which the lease is known to be current
        self.valid_until = 0.0
        self.executor = concurrent.futures.ThreadPoolExecutor(1, "cardtable-lease")
        self.task: asyncio.Task[None] | None = None
        self.wake = asyncio.Event()
        #: lease changes seen by this process: claimed, took (another's tables), lost
        self.changes: Counter[str] = Counter()
        #: unfinished tables taken over from lapsed processes (some may have been loaded
        #: already, by a client's reconnect, before ``adopt`` got to them)
        self.tables_taken = 0

    def held(self) -> bool:
        """This process's lease is known to be current: it may write."""
        return time.monotonic() < self.valid_until

    def nudge(self) -> None:
        """A write found the lease not known to be current: renew it now."""
        self.wake.set()

    async def _call(self, work: Callable[[Any], Any]) -> Any:
        """``work(connection)`` in a transaction of its own, on the lease thread."""
        def run() -> Any:
            with self.store.engine.begin() as conn:
                return work(conn)

        return await asyncio.get_running_loop().run_in_executor(self.executor, run)

    async def claim(self, patience: float | None = None) -> None:
        """Take the lease on this process's name, waiting while another run holds it (a
        process killed a moment ago); RuntimeError after ``patience`` seconds."""
        name, holder, lease, address = self.name, self.holder, self.lease, self.address
        deadline = None if patience is None else time.monotonic() + patience
        told = False
        while True:
            sent = time.monotonic()
            try:
                done = await self._call(lambda c: leases.claim(c, name, holder, lease,
                                                                address))
            except sqlalchemy.exc.SQLAlchemyError as exc:   # a race, the database away
                log.warning("claiming the lease of %s failed (%s)", name, type(exc).__name__)
                done = False
            if done:
                self.valid_until = sent + lease * SHARE
                self.changes["claimed"] += 1
                log.info("process %s holds its lease (%g s)", name, lease)
                return
            if deadline is not None and time.monotonic() > deadline:
                raise RuntimeError(f"another running process holds the name {name!r}: "
                                   "give this one another --owner")
            if not told:
                log.warning("the lease of %s is held by another run; waiting for it to "
                            "lapse", name)
                told = True
            await asyncio.sleep(0.25)

    def start(self) -> None:
        self.service.db.guard = self.held
        self.service.db.on_stale = self.nudge
        self.task = asyncio.get_running_loop().create_task(self._run())
        self.wake.set()     # the first renewal at once

    async def halt(self) -> None:
        """No more renewals or take-overs (the process is stopping)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def release(self) -> None:
        """Let the lease go (after the last write): the others take the tables at once."""
        await self.halt()
        name, holder = self.name, self.holder
        try:
            await self._call(lambda c: leases.release(c, name, holder))
            log.info("process %s let its lease go", name)
        except Exception as exc:
            log.error("the lease was not let go (%s); it lapses by itself",
                      type(exc).__name__)
        self.executor.shutdown(wait=True)

    async def _run(self) -> None:
        every = self.lease / 3
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), every)
            self.wake.clear()
            try:
                await self.beat()
            except Exception as exc:    # the database away: writes wait for the next one
                log.error("renewing the lease failed (%s)", type(exc).__name__)
            try:                        # the ratings of games other processes finished
                await self.service.players.refresh()
            except Exception as exc:
                log.error("reading the ratings again failed (%s)", type(exc).__name__)

    async def beat(self) -> None:
        """Renew the lease (or stand down if it was taken); take lapsed processes'
        tables."""
        name, holder, lease = self.name, self.holder, self.lease
        sent = time.monotonic()
        if not await self._call(lambda c: leases.renew(c, name, holder, lease)):
            await self.stand_down()
            return
        self.valid_until = sent + lease * SHARE
        for dead in await self._call(lambda c: leases.lapsed(c, name)):
            await self.take(dead)

    async def take(self, dead: str) -> None:
        name = self.name
        try:
            ids = await self._call(lambda c: leases.take_over(c, dead, name))
        except sqlalchemy.exc.OperationalError as exc:   # a row locked: next time
            log.warning("taking the tables of %s failed (%s); trying again",
                        dead, type(exc).__name__)
            return
        if ids is None:
            return
        self.changes["took"] += 1
        self.tables_taken += len(ids)
        rooms = await self.adopt(ids, dead)
        for room in rooms:
            self.service.jobs.kick(room)
        log.warning("process %s took over %d tables of %s (its lease lapsed)", name,
                    len(ids), dead)

    async def adopt(self, ids: list[str], dead: str) -> list[Room]:
        """Load the tables just taken from process ``dead``: the same replay as a
        restart, their clocks given back the time since ``dead`` was last alive, their
        chat kept; adjourned ones wait to be visited, as after a restart."""
        rooms, store = self.service.rooms, self.store
        rows: list[TableRow | None] = await self.service.db.run(
            lambda conn: [store.load(conn, table_id) for table_id in ids])
        alive = await self.service.db.run(lambda conn: store.last_alive(conn, dead))
        found = []
        for row in rows:
            if row is None or row.status not in ("waiting", "playing") or row.id in rooms.live:
                continue
            try:
                room = room_from_row(row, alive)
            except Exception as exc:
                log.error("table %s does not replay (%s); it stays stored but is not served",
                          row.id, type(exc).__name__, extra={"table": row.id})
                continue
            room.rate = rooms.rate
            rooms.live[row.id] = room
            found.append(room)
            log.info("table %s taken over from %s at version %d", row.id, dead,
                     row.version, extra={"table": row.id})
        return found

    async def stand_down(self) -> None:
        """The lease was taken over: every table leaves memory and its connections are
        closed, so that they reconnect to the new owner; then a fresh lease, and the
        tables still stored with this name (created since) are loaded again."""
        self.valid_until = 0.0
        self.changes["lost"] += 1
        rooms = self.service.rooms
        gone = list(rooms.live.values())
        log.warning("process %s lost its lease: standing down from %d tables", self.name,
                    len(gone))
        for room in gone:
            rooms.let_room_go(room)
        self.holder = secrets.token_hex(8)
        await self.claim()
        await rooms.load()
        for room in list(rooms.live.values()):
            self.service.jobs.kick(room)
