"""The finished tables' replays and reviews kept (``http_routes.Kept``): a request that
waits too long gives up, the work goes on, and the next request gets its answer."""

from __future__ import annotations

import asyncio

import pytest

from cardtable.server.http_routes import Kept


def test_an_answer_given_up_on_is_kept_for_the_next_request() -> None:
    async def scenario() -> None:
        kept = Kept(budget=1000)
        runs = []

        async def work() -> bytes:
            runs.append(1)
            await asyncio.sleep(0.2)
            return b"review"

        with pytest.raises(TimeoutError):
            await kept.get("t", work, 0.01)
        assert await kept.get("t", work, 5) == b"review"
        assert await kept.get("t", work, 0) == b"review"
        assert runs == [1]

    asyncio.run(scenario())


def test_a_failure_is_not_kept_and_the_oldest_answers_go_past_the_budget() -> None:
    async def scenario() -> None:
        kept = Kept(budget=10)

        async def fails() -> bytes:
            raise ValueError("no")

        with pytest.raises(ValueError):
            await kept.get("bad", fails)
        assert "bad" not in kept.answers

        async def six() -> bytes:
            return b"123456"

        await kept.get("a", six)
        await kept.get("b", six)
        assert list(kept.answers) == ["b"] and kept.size == 6

    asyncio.run(scenario())
