"""What one client may hold of the server's tables (docs/server.md: Limits), against a
real server: the tables waiting or playing for one address are capped, and a rematch's
seats are held a while for the players of the finished table."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.http import http
from tests.server.conftest import Client, Server, play_all
from tests.server.test_botpool import post_from, refused

PERSONS = {"game": "threethirteen", "seats": [{"kind": "person"}] * 12}
BOTS = {"game": "sequence", "options": {"max_turns": 4},
        "seats": [{"kind": "bot", "bot": "random"}] * 2}


@pytest.fixture
def capped(sqlite_url: str, tmp_path: Path) -> Iterator[Server]:
    running = Server(sqlite_url, tmp_path, "--tables-per-address", "3",
                     "--rematch-hold", "3", "--http-rate", "200", "--ws-rate", "200").start()
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


def test_a_rematch_s_seats_are_held_for_the_last_game_s_players(capped: Server) -> None:
    server = capped
    table = server.create("drawbridge", [{"kind": "person"}] * 2, {"target": 1})
    tokens = {n: server.take(table["id"], n, f"P{n}") for n in (0, 1)}
    played = play_all(server, table, tokens, seed=3)
    player = played[0][0]
    player.send({"type": "rematch"})
    mine = player.until("rematch")
    new_id = mine["table"]
    assert mine["seat"] == 0 and mine["token"]
    # anyone who reads the rematch's id (a spectator, the summary) finds seat 1 held...
    for body, key in (({"name": "P1"}, None), ({}, "not a key of P1's")):
        headers = {} if key is None else {"X-Player-Key": key}
        sniped = http.post(f"{server.base}/api/tables/{new_id}/seats/1", json=body,
                            headers=headers, timeout=30)
        if key is not None:
            assert sniped.json()["error"]["code"] == "player/bad-key"
            continue
        assert sniped.status_code == 409, sniped.text
        assert sniped.json()["error"]["code"] == "seat/held"
        assert "held for its player" in sniped.json()["error"]["message"]
    assert server.get(f"/api/tables/{new_id}").json()["seats"][1]["taken"] is False
    # ...until the hold runs out: then it is anyone's, and P1 asks too late
    time.sleep(3.2)
    taken = server.post(f"/api/tables/{new_id}/seats/1", {"name": "Eve"})
    assert taken.status_code == 200, taken.text
    late = played[1][0]
    assert late.until("rematch") == {"type": "rematch", "table": new_id}  # the news
    late.send({"type": "rematch"})
    assert late.until("rematch") == {"type": "rematch", "table": new_id}
    for client in (player, late):
        client.close()


def test_the_held_seat_goes_to_its_player(capped: Server) -> None:
    server = capped
    table = server.create("drawbridge", [{"kind": "person"}] * 2, {"target": 1})
    tokens = {n: server.take(table["id"], n, f"P{n}") for n in (0, 1)}
    played = play_all(server, table, tokens, seed=4)
    played[0][0].send({"type": "rematch"})
    new_id = played[0][0].until("rematch")["table"]
    sniped = server.post(f"/api/tables/{new_id}/seats/1", {"name": "Eve"})
    assert sniped.json()["error"]["code"] == "seat/held"
    played[1][0].send({"type": "rematch"})
    theirs = played[1][0].until("rematch", seat=1)
    assert theirs["seat"] == 1 and theirs["token"]
    fresh = Client(server, new_id, theirs["token"])
    assert fresh.until("welcome")["table"]["seats"][1]["name"] == "P1"
    for client in (played[0][0], played[1][0], fresh):
        client.close()
