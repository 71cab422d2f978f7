"""Quick pairing (docs/server.md: Quick pairing) against a real server: two players
seated together, the same queue whatever way the options are written, cancelling, the
fallback to a bot, a player's second ticket, the refusals; and the queue's choices
(closest rating first, the range widening, tickets nobody follows) on the queue alone."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardtable.server import pairing
from cardtable.server.pairing import Queue, Ticket
from tests.http import http
from tests.server.conftest import Client, Server

KEY = "X-Player-Key"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("pairing")
    running = Server(f"sqlite:///{folder / 'tables.db'}", folder).start()
    try:
        yield running
    finally:
        running.stop()


def player(server: Server, name: str) -> str:
    answer = http.post(server.base + "/api/players", json={"name": name}, timeout=30)
    assert answer.status_code == 201, answer.text
    key: str = answer.json()["key"]
    return key


def ask(server: Server, key: str | None, body: Any, status: int = 201) -> dict[str, Any]:
    answer = http.post(server.base + "/api/pairing", json=body,
                        headers={KEY: key} if key else {}, timeout=30)
    assert answer.status_code == status, answer.text
    data: dict[str, Any] = answer.json()
    return data


def follow(server: Server, key: str, ticket: str, wait: float = 0,
           status: int = 200) -> dict[str, Any]:
    answer = http.get(f"{server.base}/api/pairing/{ticket}?wait={wait}",
                       headers={KEY: key}, timeout=40)
    assert answer.status_code == status, answer.text
    data: dict[str, Any] = answer.json()
    return data


def cancel(server: Server, key: str, ticket: str) -> dict[str, Any]:
    answer = http.delete(f"{server.base}/api/pairing/{ticket}", headers={KEY: key},
                          timeout=30)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_two_players_are_seated_together_and_play(server: Server) -> None:
    ana, bo = player(server, "Ana"), player(server, "Bo")
    first = ask(server, ana, {"game": "drawbridge", "options": {"target": 7},
                              "bot_after": None})
    assert first["status"] == "waiting" and first["waiting"] == 1
    assert first["game"] == "drawbridge" and first["players"] == 2
    assert first["bot_after"] is None and "token" not in first
    # the defaults written out are the same queue as the game's defaults left out
    second = ask(server, bo, {"game": "drawbridge", "players": 2, "bot_after": None,
                              "options": {"target": 7, "undertricks": False}})
    assert second["status"] == "seated" and second["opponents"] == "people"
    started = time.monotonic()
    got = follow(server, ana, first["ticket"], wait=10)
    assert time.monotonic() - started < 5        # answered when seated, not at the wait
    assert got["status"] == "seated" and got["table"] == second["table"]
    assert {got["seat"], second["seat"]} == {0, 1}
    table = server.get(f"/api/tables/{got['table']}").json()
    assert table["status"] == "playing" and table["takeover_after"] == pairing.TAKEOVER_AFTER
    assert table["options"]["target"] == 7
    names = {s["seat"]: s["name"] for s in table["seats"]}
    assert names[got["seat"]] == "Ana" and names[second["seat"]] == "Bo"
    assert all(s["kind"] == "person" for s in table["seats"])
    for answer in (got, second):
        client = Client(server, answer["table"], answer["token"])
        welcome = client.recv()
        assert welcome["type"] == "welcome" and welcome["seat"] == answer["seat"]
        client.close()
    # each sees only its own token; the ticket is another player's to anyone else
    follow(server, bo, first["ticket"], status=404)


def test_a_cancelled_ticket_is_never_seated(server: Server) -> None:
    ana, bo = player(server, "Ana"), player(server, "Bo")
    body = {"game": "drawbridge", "options": {"target": 11}, "bot_after": None}
    first = ask(server, ana, body)
    assert cancel(server, ana, first["ticket"])["status"] == "cancelled"
    second = ask(server, bo, body)
    assert second["status"] == "waiting" and second["waiting"] == 1
    assert follow(server, ana, first["ticket"])["status"] == "cancelled"
    assert follow(server, bo, second["ticket"], wait=1)["status"] == "waiting"
    assert cancel(server, bo, second["ticket"])["status"] == "cancelled"


def test_a_bot_takes_the_other_seat_after_the_chosen_wait(server: Server) -> None:
    ana = player(server, "Ana")
    first = ask(server, ana, {"game": "sequence", "options": {"max_turns": 77},
                              "bot_after": 1, "name": "Ana K"})
    assert first["status"] == "waiting" and first["bot_after"] == 1
    got = follow(server, ana, first["ticket"], wait=10)
    assert got["status"] == "seated" and got["opponents"] == "bots"
    assert got["waited"] >= 1
    table = server.get(f"/api/tables/{got['table']}").json()
    kinds = [s["kind"] for s in table["seats"]]
    assert sorted(kinds) == ["bot", "person"] and table["status"] == "playing"
    assert table["seats"][got["seat"]]["name"] == "Ana K"
    assert table["seats"][1 - got["seat"]]["bot"] == "heuristic"


def test_a_second_ticket_of_a_player_replaces_the_first(server: Server) -> None:
    ana = player(server, "Ana")
    body = {"game": "drawbridge", "options": {"target": 13}, "bot_after": None}
    first = ask(server, ana, body)
    second = ask(server, ana, body)     # never paired with itself
    assert second["status"] == "waiting" and second["waiting"] == 1
    assert follow(server, ana, first["ticket"])["status"] == "cancelled"
    cancel(server, ana, second["ticket"])


def test_refusals(server: Server) -> None:
    ana = player(server, "Ana")
    refused = ask(server, None, {"game": "sequence"}, 401)
    assert refused["error"]["code"] == "player/bad-key"
    assert ask(server, "nope", {"game": "sequence"}, 401)["error"]["code"] == "player/bad-key"
    for body, code, status in [
            ({"game": "chess"}, "options/bad", 422),
            ({"game": "drawbridge", "players": 4}, "options/bad", 422),
            ({"game": "sequence", "players": 1}, "options/bad", 422),
            ({"game": "sequence", "options": {"players": 2}}, "options/bad", 422),
            ({"game": "sequence", "options": {"teams": "two"}}, "options/bad", 422),
            ({"game": "drawbridge", "options": {"target": 10**9}}, "options/bad", 422),
            ({"game": "sequence", "bot_after": 0}, "options/bad", 422),
            ({"game": "sequence", "bot_after": 601}, "options/bad", 422),
            ({"game": "sequence", "bot": "wizard"}, "options/bad", 422),
            ({"game": "sequence", "bot_after": "soon"}, "message/bad", 400),
            ({"game": "sequence", "name": ""}, "name/bad", 400),
            ({"game": "sequence", "name": "x" * 33}, "name/bad", 400),
            ({"options": {}}, "message/bad", 400),
            ([1, 2], "message/bad", 400)]:
        got = ask(server, ana, body, status)
        assert got["error"]["code"] == code, (body, got)
        assert "Traceback" not in got["error"]["message"]
    assert follow(server, ana, "no-such-ticket", status=404)["error"]["code"] == \
        "pairing/not-found"
    answer = http.get(f"{server.base}/api/pairing/x?wait=100", headers={KEY: ana},
                       timeout=30)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "message/bad"
    # at most PER_ADDRESS tickets wait for one address (each player one; other queues)
    tickets = []
    for n in range(pairing.PER_ADDRESS):
        key = player(server, f"P{n}")
        tickets.append((key, ask(server, key, {"game": "drawbridge", "bot_after": None,
                                               "options": {"target": 100 + n}})["ticket"]))
    late = ask(server, ana, {"game": "drawbridge", "options": {"target": 200}}, 429)
    assert late["error"]["code"] == "limit/pairing"
    for key, ticket in tickets:
        cancel(server, key, ticket)
    assert ask(server, ana, {"game": "drawbridge", "options": {"target": 200},
                             "bot_after": None})["status"] == "waiting"


# ------------------------------------------------------------------ the queue alone


def ticket(queue: Queue, name: str, rating: int, since: float, bot_after: float | None = None,
           seats: int = 2) -> Ticket:
    made = Ticket(id=name, player=name, name=name, address="a", queue=("sequence", seats, "{}"),
                  options={}, rating=rating, bot_after=bot_after, bot="heuristic",
                  settings={}, since=since, seen=since)
    queue.tickets[name] = made
    return made


def test_the_queue_pairs_the_closest_rating_first_and_widens_with_the_wait() -> None:
    async def run() -> None:
        queue = Queue()
        ticket(queue, "old", 1500, since=0.0)
        ticket(queue, "far", 1900, since=1.0)
        ticket(queue, "near", 1560, since=2.0)
        ticket(queue, "nearer", 1480, since=3.0)
        groups = queue.groups(now=3.0)
        # the longest-waiting with the closest rating; "far" and "near" are 340 apart,
        # more than the range at their waits
        assert [[t.id for t in g] for g, _ in groups] == [["old", "nearer"]]
        assert not groups[0][1]
        for t in groups[0][0]:
            t.status = "seated"
        assert queue.groups(now=3.0) == []
        # the range widens as "far" waits: 150 + 50 a second reaches 340 after 3.8 s
        far = queue.groups(now=5.0)
        assert [[t.id for t in g] for g, _ in far] == [["far", "near"]]

    asyncio.run(run())


def test_the_queue_falls_back_to_bots_and_drops_tickets_nobody_follows() -> None:
    async def run() -> None:
        queue = Queue()
        ticket(queue, "patient", 1500, since=0.0, bot_after=None)
        ticket(queue, "quick", 2500, since=0.0, bot_after=10, seats=3)
        assert queue.groups(now=5.0) == []
        groups = queue.groups(now=10.0)
        assert [([t.id for t in g], bots) for g, bots in groups] == [(["quick"], True)]
        queue.tickets["quick"].status = "seated"
        queue.tickets["quick"].ended = 10.0
        queue.tidy(now=10.0 + pairing.GONE_AFTER + 1)
        assert queue.tickets["patient"].status == "gone"     # nobody asked after it
        queue.tidy(now=10.0 + pairing.KEEP_AFTER + 1)
        assert "quick" not in queue.tickets

    asyncio.run(run())
