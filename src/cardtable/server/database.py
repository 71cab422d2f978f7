"""The database: whatever storage calls queue up meanwhile commit in one transaction
(group commit): many tables' moves, one flush.

Two ways, by the database (docs/server.md, "Speed"):

- **SQLite** commits on the event loop itself, once per turn of the loop, on one
  connection of its own. A commit in WAL mode with ``synchronous=NORMAL`` writes to the
  log and does not wait for the disk (tens of microseconds), so handing it to a thread
  cost more than it took: the thread needs Python's lock to run, the loop waits for it
  back, and a move waited about a millisecond for its commit. What does wait for the disk,
  the checkpoint that copies the log into the database file, runs on a thread of its own
  (``Checkpoints``), never on the loop.
- **PostgreSQL** (a round trip over the network each commit) commits on one thread, the
  next batch being what queued up while the last one ran.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import sqlalchemy.exc

from cardtable.server.refusals import Refusal
from cardtable.store import Store

log = logging.getLogger("cardtable.server")

#: a batch is at most this many calls
MAX_BATCH = 512


def stale() -> Refusal:
    """What a write is refused with while this process's lease is not current."""
    return Refusal("server/unavailable", "this server process is handing its tables over; "
                                         "try again in a moment")


class Checkpoints:
    """Copies SQLite's write-ahead log into the database file every ``every`` seconds when
    something was committed, on a thread and connection of its own (a passive checkpoint:
    it never blocks a commit)."""

    def __init__(self, store: Store, every: float = 1.0) -> None:
        self.store = store
        self.every = every
        self.dirty = threading.Event()
        self.stopping = threading.Event()
        #: checkpoints done
        self.done = 0
        self.thread = threading.Thread(target=self._run, name="cardtable-checkpoint",
                                       daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.dirty.set()
        self.thread.join(10)

    def _run(self) -> None:
        with self.store.engine.connect() as conn:
            raw = conn.connection.dbapi_connection
            assert raw is not None
            while True:
                self.dirty.wait()
                stopping = self.stopping.wait(self.every)
                self.dirty.clear()
                try:
                    raw.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.done += 1
                except Exception as exc:  # the next one tries again
                    log.warning("a checkpoint of the database failed (%s)", type(exc).__name__)
                if stopping:
                    return


def unavailable(error: BaseException) -> BaseException:
    """A storage failure (a full disk, a read-only or locked database, a database away)
    as the refusal server/unavailable; any other error as it is. Its message names no
    statement or value (they could carry a move of a game in play)."""
    if not isinstance(error, sqlalchemy.exc.OperationalError):
        return error
    log.error("the database cannot store anything just now (%s)",
              type(error.orig).__name__ if error.orig is not None else type(error).__name__)
    return Refusal("server/unavailable", "the server cannot store anything just now; "
                                         "nothing was changed: try again in a moment")


class Database:
    """Runs storage calls in committed transactions, grouping whatever is queued into one
    commit: on the event loop for SQLite, on a thread for other databases."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.inline = store.engine.dialect.name == "sqlite"
        self.queue: asyncio.Queue[tuple[Callable[[Any], Any], asyncio.Future[Any]]] = (
            asyncio.Queue())
        self.executor = concurrent.futures.ThreadPoolExecutor(1, "cardtable-db")
        self.task: asyncio.Task[None] | None = None
        # SQLite: the calls waiting for this turn of the loop's commit, and its connection
        self.pending: list[tuple[Callable[[Any], Any], asyncio.Future[Any]]] = []
        self.conn: Any = None
        self.checkpoints: Checkpoints | None = None
        #: in a cluster, whether this process's lease is current (``cluster.Cluster.held``):
        #: while it is not, nothing is written (server/unavailable), and ``on_stale`` is
        #: called (docs/server.md: Scaling past one machine)
        self.guard: Callable[[], bool] | None = None
        self.on_stale: Callable[[], None] | None = None
        #: told the seconds each commit took (``metrics``)
        self.observe_commit: Callable[[float], None] | None = None

    def start(self) -> None:
        if self.inline:
            self.conn = self.store.engine.connect()
            # the log is copied into the file by Checkpoints, never by a commit on the loop
            self.conn.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
            self.conn.commit()
            self.checkpoints = Checkpoints(self.store)
            self.checkpoints.start()
        else:
            self.task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        self.executor.shutdown(wait=True)
        if self.pending:
            self._flush()
        if self.checkpoints is not None:
            self.checkpoints.stop()
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    async def run(self, work: Callable[[Any], Any]) -> Any:
        """``work(connection)`` inside a committed transaction; its result."""
        return await self.submit(work)

    def submit(self, work: Callable[[Any], Any]) -> asyncio.Future[Any]:
        """Queue ``work(connection)`` for a committed transaction; the future of its
        result. The work is done whether or not anyone awaits the future."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if self.guard is not None and not self.guard():
            future.set_exception(stale())
            if self.on_stale is not None:
                self.on_stale()
            return future
        if not self.inline:
            self.queue.put_nowait((work, future))
        elif self.conn is None:   # not started, or stopped: on a connection of the pool
            self._settle([(work, future)], self._commit([(work, future)]))
        else:
            self.pending.append((work, future))
            if len(self.pending) == 1:
                # after the callbacks of this turn of the loop: the moves that came with
                # this one commit with it
                loop.call_soon(self._flush)
            elif len(self.pending) >= MAX_BATCH:
                self._flush()
        return future

    def _flush(self) -> None:
        batch, self.pending = self.pending, []
        if not batch:
            return
        self._settle(batch, self._commit(batch, self.conn))
        if self.checkpoints is not None and not self.checkpoints.dirty.is_set():
            self.checkpoints.dirty.set()    # (setting one that is set takes its lock)

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty() and len(batch) < MAX_BATCH:
                batch.append(self.queue.get_nowait())
            results = await loop.run_in_executor(self.executor, self._commit, batch)
            self._settle(batch, results)

    @staticmethod
    def _settle(batch: list[tuple[Callable[[Any], Any], asyncio.Future[Any]]],
                results: list[tuple[bool, Any]]) -> None:
        for (_, future), (ok, value) in zip(batch, results, strict=True):
            if future.done():
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(unavailable(value))

    def _commit(self, batch: list[tuple[Callable[[Any], Any], Any]], conn: Any = None
                ) -> list[tuple[bool, Any]]:
        # Each call checks before it writes, so one that raises has changed nothing and
        # the others still commit; a failing commit fails them all.
        out: list[tuple[bool, Any]] = []
        if self.guard is not None and not self.guard():
            return [(False, stale())] * len(batch)
        started = time.perf_counter()
        try:
            with (conn.begin() if conn is not None else self.store.engine.begin()) as tx:
                for work, _ in batch:
                    try:
                        out.append((True, work(conn if conn is not None else tx)))
                    except Exception as exc:  # handed to the caller
                        out.append((False, exc))
        except Exception as exc:
            return [(False, exc)] * len(batch)
        if self.observe_commit is not None:
            self.observe_commit(time.perf_counter() - started)
        return out
