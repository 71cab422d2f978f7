"""``http_routes.Kept``: a finished table's replay or review is worked out once, however many
ask at once, and kept within its byte budget; a failure is not kept."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable

import pytest

from cardtable.server.http_routes import Kept


def test_an_answer_is_worked_out_once_for_everyone_who_asks() -> None:
    calls: list[str] = []
    release = threading.Event()

    def work(key: str) -> bytes:
        calls.append(key)
        release.wait(10)
        return key.encode() * 10

    def working(key: str) -> Callable[[], Awaitable[bytes]]:
        return lambda: asyncio.to_thread(work, key)

    async def run() -> None:
        kept = Kept(budget=25)
        asking = [asyncio.ensure_future(kept.get("a", working("a"))) for _ in range(6)]
        await asyncio.sleep(0.05)
        asking[0].cancel()            # one client leaves: the others still get it
        release.set()
        got = await asyncio.gather(*asking[1:])
        assert got == [b"a" * 10] * 5 and calls == ["a"]
        assert await kept.get("a", working("a")) == b"a" * 10 and calls == ["a"]
        # within the budget (25 bytes) two answers are kept, the oldest goes first
        await kept.get("b", working("b"))
        await kept.get("a", working("a"))           # "a" is the newest again
        await kept.get("c", working("c"))           # 30 bytes: "b" goes
        assert list(kept.answers) == ["a", "c"] and kept.size == 20
        await kept.get("b", working("b"))
        assert calls == ["a", "b", "c", "b"]

    asyncio.run(run())


def test_a_failure_is_not_kept() -> None:
    tries: list[int] = []

    async def fail() -> bytes:
        tries.append(1)
        raise ValueError("too long")

    async def run() -> None:
        kept = Kept(budget=100)
        for _ in range(2):
            with pytest.raises(ValueError, match="too long"):
                await kept.get("x", fail)
        assert tries == [1, 1] and not kept.answers and kept.size == 0

    asyncio.run(run())
