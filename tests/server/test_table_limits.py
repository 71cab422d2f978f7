"""What one client address may hold of the server's tables (docs/server.md: Limits),
against a real server: the tables waiting or playing for one address are capped."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import Server
from tests.server.test_botpool import post_from, refused

PERSONS = {"game": "threethirteen", "seats": [{"kind": "person"}] * 12}
BOTS = {"game": "sequence", "options": {"max_turns": 4},
        "seats": [{"kind": "bot", "bot": "random"}] * 2}


@pytest.fixture
def capped(sqlite_url: str, tmp_path: Path) -> Iterator[Server]:
    running = Server(sqlite_url, tmp_path, "--tables-per-address", "3",
                     "--http-rate", "200").start()
    try:
        yield running
    finally:
        running.stop()


def test_one_address_holds_at_most_its_share_of_the_tables(capped: Server) -> None:
    server, here, there = capped, "127.0.0.2", "127.0.0.3"
    # a finished table does not count
    bots = post_from(server, here, "/api/tables", BOTS).json()["id"]
    deadline = time.monotonic() + 30
    while server.get(f"/api/tables/{bots}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the table of bots does not end"
        time.sleep(0.1)
    waiting = [post_from(server, here, "/api/tables", PERSONS).json()["id"] for _ in range(3)]
    code, message = refused(post_from(server, here, "/api/tables", PERSONS), 429)
    assert code == "limit/tables-per-address" and message.startswith("3 tables")
    assert refused(post_from(server, here, "/api/tables", BOTS), 429)[0] == code
    # a seat taken does not free the table's place; another address has its own
    server.post(f"/api/tables/{waiting[0]}/seats/0", {"name": "Dara"})
    assert refused(post_from(server, here, "/api/tables", PERSONS), 429)[0] == code
    assert post_from(server, there, "/api/tables", PERSONS).status_code == 201
    assert {t["id"] for t in server.get("/api/tables").json()["tables"]} >= set(waiting)
