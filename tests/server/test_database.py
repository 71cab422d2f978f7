"""The server's database calls (cardtable.server.database): what queues up meanwhile
commits in one transaction, a call that fails fails alone, and SQLite commits on the event
loop while its checkpoints run on a thread of their own."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import sqlalchemy as sa

from cardtable.server.database import Database
from cardtable.store import Store


def scratch(url: str) -> tuple[Store, list[int]]:
    """A store with a table of numbers, and a list that counts its commits."""
    db = Store(url)
    with db.engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE scratch (x INTEGER)"))
    commits: list[int] = []
    sa.event.listen(db.engine, "commit", lambda _conn: commits.append(1))
    return db, commits


def insert(x: int) -> Any:
    def work(conn: Any) -> int:
        conn.execute(sa.text("INSERT INTO scratch (x) VALUES (:x)"), {"x": x})
        return x
    return work


def numbers(db: Store) -> list[int]:
    with db.engine.connect() as conn:
        return sorted(conn.execute(sa.text("SELECT x FROM scratch")).scalars())


def test_calls_queued_together_commit_together_and_one_that_fails_fails_alone(
        db_url: str) -> None:
    db, commits = scratch(db_url)

    def refused(_conn: Any) -> None:
        raise ValueError("refused before it wrote")

    async def main() -> list[Any]:
        database = Database(db)
        database.start()
        try:
            commits.clear()
            calls = [database.run(insert(x)) for x in range(20)]
            calls.insert(7, database.run(refused))
            return await asyncio.gather(*calls, return_exceptions=True)
        finally:
            await database.stop()

    out = asyncio.run(main())
    assert isinstance(out[7], ValueError) and "refused" in str(out[7])
    assert out[:7] + out[8:] == list(range(20))
    assert numbers(db) == list(range(20))
    # SQLite: one commit for the turn of the loop; the thread: the first call, then the
    # rest that queued while it ran (or all at once)
    assert len(commits) == 1 if db_url.startswith("sqlite") else 1 <= len(commits) <= 2
    db.close()


def test_sqlite_commits_on_the_loop_and_copies_its_log_on_a_thread(sqlite_url: str) -> None:
    db, _ = scratch(sqlite_url)
    threads: set[int] = set()

    def where(conn: Any) -> None:
        threads.add(threading.get_ident())

    async def main() -> tuple[int, int]:
        database = Database(db)
        assert database.inline
        database.start()
        assert database.checkpoints is not None
        database.checkpoints.every = 0.05
        try:
            loop_thread = threading.get_ident()
            # a commit on the loop never copies the log into the file itself
            autocheckpoint = database.conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
            database.conn.rollback()
            for x in range(5):
                await database.run(insert(x))
                await database.run(where)
            deadline = time.monotonic() + 10
            while database.checkpoints.done == 0 and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert threads == {loop_thread}
            return autocheckpoint, database.checkpoints.done
        finally:
            await database.stop()

    autocheckpoint, done = asyncio.run(main())
    assert autocheckpoint == 0
    assert done >= 1
    assert numbers(db) == list(range(5))
    # after the checkpoint the log is in the file: a reader that ignores the log sees it
    path = sqlite_url.removeprefix("sqlite:///")
    with sa.create_engine(f"sqlite:///file:{path}?immutable=1&uri=true").connect() as conn:
        assert sorted(conn.execute(sa.text("SELECT x FROM scratch")).scalars()) == [0, 1, 2, 3, 4]
    db.close()


def test_a_call_after_stop_still_commits(sqlite_url: str) -> None:
    db, _ = scratch(sqlite_url)

    async def main() -> int:
        database = Database(db)
        database.start()
        await database.stop()
        return int(await database.run(insert(3)))

    assert asyncio.run(main()) == 3
    assert numbers(db) == [3]
    db.close()
