"""Bot and hint jobs: a bot's move (or a takeover's) and a hint, computed in a process
pool and shared fairly among the tables (``cardtable.server.pool``): a table's jobs wait
behind each other, not in front of other tables', so a bot thinking two seconds at one
table delays only that table. Of the pool's ``--bot-workers`` + 1 processes, at most
``--bot-workers`` search (ISMCTS and perfect bots, hints): one at least is always free for
the bots that choose in milliseconds (heuristic, learned, the takeover bot). A bot's move
comes back through the move pipeline, like a person's, and is dropped if the table moved
on meanwhile. The random bot, which chooses in microseconds, plays in the server process.

The workers die with the server, however it ends (a ``kill -9`` included): they are
started with ``spawn``, so they are the server's own children (no forkserver between),
and each asks the kernel to kill it when its parent dies (``PR_SET_PDEATHSIG`` on Linux)
or, elsewhere, watches its parent from a thread. multiprocessing's resource tracker, the
one helper left, exits once the server and the workers are gone (docs/server.md).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from cardtable.server.clocks import TIMEOUT_BOT
from cardtable.server.connections import Connection
from cardtable.server.messages import HintFound, HintOutcome
from cardtable.server.pace import bot_wait
from cardtable.server.pipeline import Pipeline
from cardtable.server.pool import FairPool, Stale
from cardtable.server.refusals import Refusal
from cardtable.server.room import Room
from cardtable.server.rooms import capped_budget
from cardtable.server.settings import Settings
from cardtable.server.worker import die_with_parent, hint_in_worker, warm
from cardtable.table import BotJob, HintJob, run_bot_job

log = logging.getLogger("cardtable.server")

# the bot that plays for a person who has been away longer than the table allows (and
# for a seat whose clock ran out)
TAKEOVER_BOT = TIMEOUT_BOT


#: the variables that size the BLAS libraries' thread pools (OpenBLAS, MKL, OpenMP)
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS")


class Jobs:
    """The process pool, shared fairly (:class:`FairPool`), and the bot task of each
    room."""

    def __init__(self, settings: Settings, pipeline: Pipeline) -> None:
        self.settings = settings
        self.pipeline = pipeline
        self.executor: concurrent.futures.Executor | None = None
        self.pool: FairPool | None = None

    @property
    def workers(self) -> int:
        """The pool's processes: ``--bot-workers`` for searches, and the light bots' own."""
        return self.settings.bot_workers + self.settings.light_workers

    async def start(self) -> None:
        # spawn, not forkserver: a forkserver would be the workers' parent, and it lives
        # as long as they do (they hold its pipe), so nothing would notice the server's
        # death. The pool starts workers from this thread (the event loop's, which lives
        # as long as the server): PR_SET_PDEATHSIG fires when the starting thread ends.
        # one BLAS thread a worker (the networks' matrix products): the pool is the
        # parallelism, and a BLAS pool a worker on top of it made a move 5 times slower
        # under load; a variable set already (by whoever runs the server) is kept
        for variable in BLAS_THREADS:
            os.environ.setdefault(variable, "1")
        context = multiprocessing.get_context("spawn")
        self.executor = concurrent.futures.ProcessPoolExecutor(
            self.workers, mp_context=context, initializer=die_with_parent)
        self.pool = FairPool(self.executor, self.workers, self.settings.bot_workers,
                             self.settings.bot_jobs_per_address)
        # every worker started now (one job each, all at once): no bot move or hint
        # waits for a process to start
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self.executor, warm)
                               for _ in range(self.workers)))

    def submit(self, key: str, call: Callable[[Any], Any], argument: Any,
               address: str | None) -> asyncio.Future[Any]:
        """``call(argument)``, a replay or a review, as a search in the pool's fair share
        (queued behind ``key``'s other work and counted for ``address``), out of the
        server's process: the future of its result. Cancelled before its turn (its client
        went away), it never runs."""
        assert self.pool is not None
        return self.pool.run(key, call, argument, address=address)

    def unavailable(self) -> Refusal:
        """What a client waiting longer than ``Settings.work_seconds`` is told."""
        return Refusal("server/unavailable", "the server could not work this out within "
                       f"{self.settings.work_seconds:g} s (it is busy with others from "
                       "your address, or with long games): try again later")

    async def offload(self, key: str, call: Callable[[Any], Any], argument: Any,
                      address: str | None) -> Any:
        """:meth:`submit`'s result, or server/unavailable when it is not done within
        ``Settings.work_seconds`` (waiting for its turn included: the pool is busy)."""
        try:
            return await asyncio.wait_for(self.submit(key, call, argument, address),
                                          self.settings.work_seconds)
        except TimeoutError:
            raise self.unavailable() from None

    def stop(self) -> None:
        """End the pool now: queued jobs are cancelled, running searches killed, and the
        pool's manager thread joined before the server returns. Left running, that thread
        closes its wake-up pipe while the interpreter's exit hook writes to it, a race in
        ``concurrent.futures`` that prints ``OSError: [Errno 9]`` at exit."""
        executor = self.executor
        if executor is None:
            return
        manager = getattr(executor, "_executor_manager_thread", None)
        processes = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        if manager is not None:
            manager.join(timeout=10)

    def kick(self, room: Room) -> None:
        """Start the bot for the seat to act when a bot (or a takeover) plays it."""
        if room.bot_task is not None or room.status != "playing" or room.broken:
            return
        seat = room.table.to_act
        if seat is None:
            return
        who = room.table.seats[seat]
        job: BotJob | None
        if who.kind == "bot" and who.name in self.settings.inline_bots:
            job = None
        elif who.kind == "bot":
            job = room.table.bot_job()
            job = replace(job, settings=capped_budget(job.kind, job.settings, self.settings))
        elif room.timed_out == seat:
            job = self._takeover_job(room, seat)
        elif room.taken_over(seat):
            job = self._takeover_job(room, seat)
            room.presence()
        else:
            return
        room.bot_task = asyncio.get_running_loop().create_task(
            self._bot(room, job, seat, room.table.version))

    def _takeover_job(self, room: Room, seat: int) -> BotJob:
        """The job of the bot that plays ``seat`` (to act) for its away person."""
        return BotJob(room.table.log(), seat, TAKEOVER_BOT, {}, secrets.randbits(63))

    async def _bot(self, room: Room, job: BotJob | None, seat: int, version: int) -> None:
        delay = 0.0
        try:
            if job is None:
                move = str(room.table.bot_move())
            else:
                assert self.pool is not None
                move = await self.pool.run(room.id, run_bot_job, job, address=room.address,
                                           light=job.kind in self.settings.light_bots)
            # the table's pace, counted from the move before (the thinking included):
            # this task waits, neither the event loop nor a worker
            wait = bot_wait(room.bot_pace, room.moved_at, time.monotonic(),
                            room.table.seats[seat].kind == "person", self.settings.bot_pace)
            if wait > 0:
                await asyncio.sleep(wait)
            await self.pipeline.play(room, seat, move, version, by_bot=True)
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

    async def hint(self, room: Room, conn: Connection) -> HintFound:
        """The hint for the connection's seat, which is to act. One is computed at a time
        per seat: asked again meanwhile (from any of the seat's connections), the answer
        is that same hint."""
        seat = conn.seat
        if seat is None:
            raise Refusal("auth/bad-token", "spectators get no hints; take a seat")
        if room.status != "playing" or room.table.to_act != seat:
            raise Refusal("move/not-your-turn", "hints are for the seat to act")
        version = room.table.version
        asked = room.hints.get(seat)
        if asked is None or asked[0] != version:
            job = room.table.hint_job(seat, dict(self.settings.hint_budget))
            job = HintJob(job.log, seat, job.budget, secrets.randbits(32))
            assert self.pool is not None
            future = self.pool.run(room.id, hint_in_worker, job, address=conn.address,
                                   wanted=lambda: room.table.version == version)
            asked = room.hints[seat] = (version, future)
            future.add_done_callback(lambda done: room.forget_hint(seat, done))
        try:
            # shielded: one asker going away does not cancel the others' answer
            move, chance, of, outcome, calls = await asyncio.shield(asked[1])
        except Stale:
            raise Refusal("move/stale", "the table moved on before the hint's turn came; "
                                        "ask again") from None
        exact: dict[str, Any] = {}  # what decides the move (Draw Bridge, exact hints)
        if outcome is not None:
            exact["outcome"] = HintOutcome(**outcome)
        if calls is not None:
            exact["calls"] = [HintOutcome(**call) for call in calls]
        return HintFound(move=move, win_probability=round(chance, 3), estimate_of=of,
                         version=version, **exact)
