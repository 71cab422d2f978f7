"""The bot pool's fair share: the worker processes given to the tables in turn, so that
a table whose bots think long, or whose seat asks hint after hint, delays itself and no
other table (docs/server.md: Bots and hints).

A table has at most one job running; its others wait behind it. The tables that wait take
the free workers round-robin, in the order they started waiting. A job is a search (an
ISMCTS or perfect bot, a hint) or light (a bot that chooses in milliseconds): searches
run on at most ``searches`` workers, so that the others are always free for the light
bots, and at most ``per_address`` searches counted for one client address run at once.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class Stale(Exception):
    """A job that was no longer wanted when its turn came (its table moved on)."""


@dataclass(eq=False)
class Job:
    table: str
    #: the client address its search counts for (None: none)
    address: str | None
    light: bool
    call: Callable[[Any], Any]
    argument: Any
    #: asked when its turn comes; False: it is dropped with :class:`Stale`
    wanted: Callable[[], bool] | None
    future: asyncio.Future[Any]


class FairPool:
    """An executor's ``workers`` shared among tables: one running job per table, the
    waiting tables served round-robin, searches on ``searches`` workers at most and
    ``per_address`` of them per client address (None: no such limit)."""

    def __init__(self, executor: concurrent.futures.Executor, workers: int, searches: int,
                 per_address: int | None) -> None:
        assert 1 <= searches <= workers
        self.executor = executor
        self.workers = workers
        self.searches = searches
        self.per_address = per_address
        #: table -> its jobs not started yet, oldest first; the tables in turn order
        self.waiting: OrderedDict[str, deque[Job]] = OrderedDict()
        self.busy: set[str] = set()         # the tables with a job running
        self.running = 0
        self.searching = 0
        self.by_address: Counter[str] = Counter()

    def run(self, table: str, call: Callable[[Any], Any], argument: Any, *,
            address: str | None = None, light: bool = False,
            wanted: Callable[[], bool] | None = None) -> asyncio.Future[Any]:
        """``call(argument)`` in a worker when the table's turn comes: its result (or
        exception). Cancelled before its turn, it never runs; once running it runs on
        (a process cannot be interrupted) and its worker is busy until it ends."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(table, deque()).append(
            Job(table, address, light, call, argument, wanted, future))
        self._dispatch()
        return future

    def _may_start(self, job: Job) -> bool:
        if job.light:
            return True
        if self.searching >= self.searches:
            return False
        return (self.per_address is None or job.address is None
                or self.by_address[job.address] < self.per_address)

    def _dispatch(self) -> None:
        for table in list(self.waiting):
            if self.running >= self.workers:
                return
            if table in self.busy:
                continue
            jobs = self.waiting[table]
            while jobs and (jobs[0].future.done() or (jobs[0].wanted is not None
                                                      and not jobs[0].wanted())):
                dropped = jobs.popleft()
                if not dropped.future.done():
                    dropped.future.set_exception(Stale())
            if jobs and self._may_start(jobs[0]):
                self._start(jobs.popleft())
            if not jobs:
                del self.waiting[table]
            elif table in self.busy:        # served: its next job waits for the others
                self.waiting.move_to_end(table)

    def _start(self, job: Job) -> None:
        self.running += 1
        self.busy.add(job.table)
        if not job.light:
            self.searching += 1
            if job.address is not None:
                self.by_address[job.address] += 1
        done = asyncio.get_running_loop().run_in_executor(self.executor, job.call,
                                                          job.argument)
        done.add_done_callback(lambda ran: self._finished(job, ran))

    def _finished(self, job: Job, ran: asyncio.Future[Any]) -> None:
        self.running -= 1
        self.busy.discard(job.table)
        if not job.light:
            self.searching -= 1
            if job.address is not None:
                self.by_address[job.address] -= 1
                if not self.by_address[job.address]:
                    del self.by_address[job.address]
        error = None if ran.cancelled() else ran.exception()
        if not job.future.done():
            if ran.cancelled():
                job.future.cancel()
            elif error is not None:
                job.future.set_exception(error)
            else:
                job.future.set_result(ran.result())
        self._dispatch()
