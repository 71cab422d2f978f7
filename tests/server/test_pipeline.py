"""The move pipeline (cardtable.server.pipeline) when the mover goes away mid-move: a
cancellation while the move's commit is on its way leaves nothing half done. The commit
lands, everyone is told (or, if it failed, the table is the stored one again), and the
table's lock is held until then."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from cardtable.server.bodies import CreateTable
from cardtable.server.connections import Connection
from cardtable.server.database import Database
from cardtable.server.pipeline import Pipeline
from cardtable.server.refusals import Refusal
from cardtable.server.room import Room
from cardtable.server.rooms import Rooms
from cardtable.server.settings import Settings
from cardtable.store import Store, ensure_schema

Scene = Callable[[Pipeline, Room, list[str]], Awaitable[None]]


def play_out(db_url: str, scene: Scene) -> None:
    """``scene(pipeline, room, told)`` at a two-person Sequence table with both seats
    taken; ``told``: what a connection of seat 1 is sent."""
    store = Store(db_url)
    ensure_schema(store.engine, db_url)

    async def main() -> None:
        settings = Settings(db_url=db_url)
        database = Database(store)
        database.start()
        rooms = Rooms(settings, store, database)
        try:
            room = await rooms.create(CreateTable(game="sequence"))
            for seat in (0, 1):
                await rooms.take_seat(room, seat, f"P{seat}")
            told: list[str] = []

            async def send(text: str) -> None:
                told.append(text)

            async def close(_code: int) -> None:
                pass

            conn = Connection(send, close, 1, settings)
            room.conns.append(conn)
            await scene(Pipeline(store, database, rooms), room, told)
            conn.end()
        finally:
            await database.stop()

    asyncio.run(main())
    store.close()


async def cancelled_mid_commit(pipeline: Pipeline, room: Room) -> asyncio.Task[None]:
    """The first move's task, cancelled once the move is played and its commit queued
    (before the loop's turn that commits it)."""
    seat = room.table.to_act
    assert seat is not None
    move = room.table.view(seat)["legal"][0]
    task = asyncio.get_running_loop().create_task(pipeline.play(room, seat, move, 0))
    await asyncio.sleep(0)          # the task runs up to its commit
    assert room.table.version == 1 and room.lock.locked()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    return task


def broken_append(conn: Any, table_id: str, version: int, seat: int, notation: str,
                  result: dict[str, Any] | None) -> None:
    """Store.append_move on a full disk."""
    raise RuntimeError("the disk is full")


async def settle(room: Room) -> None:
    for _ in range(50):
        if not room.lock.locked():
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)       # the connection's sender


def test_a_move_cancelled_mid_commit_is_stored_and_told(db_url: str) -> None:
    async def scene(pipeline: Pipeline, room: Room, told: list[str]) -> None:
        await cancelled_mid_commit(pipeline, room)
        await settle(room)
        assert not room.lock.locked()
        assert pipeline.moves_accepted == 1
        row: Any = await pipeline.db.run(lambda c: pipeline.store.load(c, room.id))
        assert row.version == 1 and len(row.log.moves) == 1
        assert any('"type":"event"' in text and '"version":1' in text for text in told)
        # the table plays on
        seat = room.table.to_act
        assert seat is not None
        await pipeline.play(room, seat, room.table.view(seat)["legal"][0], 1)
        assert room.table.version == 2 and pipeline.moves_accepted == 2

    play_out(db_url, scene)


def test_a_move_cancelled_whose_commit_fails_leaves_the_stored_table(db_url: str) -> None:
    async def scene(pipeline: Pipeline, room: Room, told: list[str]) -> None:
        real = pipeline.store.append_move
        pipeline.store.append_move = broken_append  # type: ignore[method-assign]
        await cancelled_mid_commit(pipeline, room)
        await settle(room)
        pipeline.store.append_move = real  # type: ignore[method-assign]
        assert not room.lock.locked() and not pipeline.later
        assert pipeline.moves_accepted == 0
        assert room.table.version == 0 and not room.broken     # reloaded as stored
        assert not any('"type":"event"' in text for text in told)

    play_out(db_url, scene)


def test_a_move_cancelled_before_it_has_the_lock_is_not_played(db_url: str) -> None:
    async def scene(pipeline: Pipeline, room: Room, told: list[str]) -> None:
        seat = room.table.to_act
        assert seat is not None
        await room.lock.acquire()          # someone else's business at the table
        task = asyncio.get_running_loop().create_task(
            pipeline.play(room, seat, room.table.view(seat)["legal"][0], 0))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        room.lock.release()
        assert room.table.version == 0 and pipeline.moves_accepted == 0
        assert not room.lock.locked()

    play_out(db_url, scene)


def test_a_move_whose_commit_fails_is_refused_and_the_table_plays_on(db_url: str) -> None:
    async def scene(pipeline: Pipeline, room: Room, told: list[str]) -> None:
        seat = room.table.to_act
        assert seat is not None
        move = room.table.view(seat)["legal"][0]
        real = pipeline.store.append_move
        pipeline.store.append_move = broken_append  # type: ignore[method-assign]
        with pytest.raises(Refusal) as refused:
            await pipeline.play(room, seat, move, 0)
        pipeline.store.append_move = real  # type: ignore[method-assign]
        assert refused.value.code == "server/error"
        assert room.table.version == 0 and not room.broken and not room.lock.locked()
        await pipeline.play(room, seat, move, 0)
        assert room.table.version == 1 and pipeline.moves_accepted == 1

    play_out(db_url, scene)
