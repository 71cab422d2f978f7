"""The database thread: every storage call runs on one thread, and whatever has queued up
meanwhile commits in one transaction (group commit): many tables' moves, one flush."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
from collections.abc import Callable
from typing import Any

from cardtable.store import Store


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
