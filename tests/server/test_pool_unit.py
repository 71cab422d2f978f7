"""The bot pool's fair share (cardtable.server.pool.FairPool) on threads: one job running
per table, the tables in turn, the light bots' reserved worker, the searches per address,
and jobs dropped before their turn."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.server.pool import FairPool, Stale


class Work:
    """Jobs that say when they start and end when let go (``free``)."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.gates: dict[str, threading.Event] = {}
        self.lock = threading.Lock()

    def __call__(self, name: str) -> str:
        with self.lock:
            self.started.append(name)
            gate = self.gates.setdefault(name, threading.Event())
        if not gate.wait(10):
            raise TimeoutError(name)
        if name.startswith("fail"):
            raise ValueError(name)
        return name

    def free(self, name: str) -> None:
        with self.lock:
            self.gates.setdefault(name, threading.Event()).set()

    async def until_started(self, count: int) -> list[str]:
        deadline = time.monotonic() + 5
        while len(self.started) < count:
            assert time.monotonic() < deadline, self.started
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.02)       # nothing more starts meanwhile
        return list(self.started)


@pytest.fixture
def threads() -> Iterator[concurrent.futures.ThreadPoolExecutor]:
    executor = concurrent.futures.ThreadPoolExecutor(8)
    yield executor
    executor.shutdown(wait=False, cancel_futures=True)


def pool(executor: concurrent.futures.Executor, workers: int, searches: int | None = None,
         per_address: int | None = None) -> FairPool:
    return FairPool(executor, workers, searches or workers, per_address)


def test_a_table_runs_one_job_at_a_time_and_the_tables_take_turns(
        threads: concurrent.futures.Executor) -> None:
    async def main() -> None:
        work, fair = Work(), pool(threads, 1)
        futures = [fair.run(table, work, name) for table, name in
                   [("A", "a1"), ("A", "a2"), ("A", "a3"), ("B", "b1"), ("C", "c1")]]
        for count, name in enumerate(["a1", "a2", "b1", "c1", "a3"], 1):
            assert (await work.until_started(count))[-1] == name
            work.free(name)
        assert await asyncio.gather(*futures) == ["a1", "a2", "a3", "b1", "c1"]
        # two workers: another table's job runs beside A's, never A's second
        fair = pool(threads, 2)
        work = Work()
        fair.run("A", work, "a1")
        fair.run("A", work, "a2")
        last = fair.run("B", work, "b1")
        assert sorted(await work.until_started(2)) == ["a1", "b1"]
        work.free("b1")
        await last
        assert await work.until_started(2) == ["a1", "b1"]      # a2 waits for a1
        work.free("a1")
        assert (await work.until_started(3))[-1] == "a2"
        work.free("a2")

    asyncio.run(main())


def test_the_light_bots_always_have_a_worker(threads: concurrent.futures.Executor) -> None:
    async def main() -> None:
        work, fair = Work(), pool(threads, 2, searches=1)
        fair.run("A", work, "search-a")
        fair.run("B", work, "search-b")
        light = fair.run("C", work, "light-c", light=True)
        assert sorted(await work.until_started(2)) == ["light-c", "search-a"]
        work.free("light-c")
        assert await light == "light-c"
        # a light job may take a worker no search uses
        fair.run("D", work, "light-d", light=True)
        assert (await work.until_started(3))[-1] == "light-d"
        for name in ("light-d", "search-a", "search-b"):
            work.free(name)

    asyncio.run(main())


def test_one_address_runs_so_many_searches_at_once(
        threads: concurrent.futures.Executor) -> None:
    async def main() -> None:
        work, fair = Work(), pool(threads, 3, per_address=1)
        fair.run("A", work, "x-a", address="10.0.0.1")
        fair.run("B", work, "x-b", address="10.0.0.1")
        fair.run("C", work, "y-c", address="10.0.0.2")
        fair.run("D", work, "light-x", address="10.0.0.1", light=True)
        assert sorted(await work.until_started(3)) == ["light-x", "x-a", "y-c"]
        work.free("x-a")
        assert (await work.until_started(4))[-1] == "x-b"
        for name in ("x-b", "y-c", "light-x"):
            work.free(name)

    asyncio.run(main())


def test_a_job_dropped_before_its_turn_never_runs(
        threads: concurrent.futures.Executor) -> None:
    async def main() -> None:
        work, fair = Work(), pool(threads, 1)
        fair.run("A", work, "a1")
        cancelled = fair.run("B", work, "b1")
        still: dict[str, Any] = {"wanted": True}
        stale = fair.run("C", work, "c1", wanted=lambda: still["wanted"])
        failing = fair.run("D", work, "fail-d")
        await work.until_started(1)
        cancelled.cancel()
        still["wanted"] = False
        work.free("a1")
        with pytest.raises(Stale):
            await stale
        assert (await work.until_started(2))[-1] == "fail-d"
        work.free("fail-d")
        with pytest.raises(ValueError, match="fail-d"):
            await failing
        assert work.started == ["a1", "fail-d"]
        assert not fair.waiting and not fair.busy and fair.running == 0

    asyncio.run(main())
