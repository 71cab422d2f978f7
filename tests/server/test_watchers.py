"""Who is watching (docs/server.md: Who is watching), against a real server: a spectator
connected with ``?player=KEY&watch=1`` is named in every presence by its player's name,
once however many tabs it has; the others (no key, a key of no player, a player without
a name) are guests; the names and counts follow them as they go, within the presence's
coalescing; no key reaches a message."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardtable.server.room import WATCHER_NAMES
from tests.http import http
from tests.server.conftest import Client, Server, ws_connect


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("watchers")
    running = Server(f"sqlite:///{folder / 'tables.db'}", folder, "--ws-rate", "200").start()
    try:
        yield running
    finally:
        running.stop()


def player(server: Server, name: str | None) -> str:
    answer = http.post(server.base + "/api/players", json={"name": name} if name else {},
                        timeout=30)
    assert answer.status_code == 201, answer.text
    key: str = answer.json()["key"]
    return key


def watch(server: Server, table_id: str, query: str) -> Client:
    """A spectator's connection with ``query`` (a Client, its messages checked)."""
    client = Client.__new__(Client)
    client.ws = ws_connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}?{query}",
                        open_timeout=30, max_size=2**22)
    client.messages, client.view, client.version = [], {}, -1
    return client


def settled(client: Client, **match: Any) -> dict[str, Any]:
    """The first presence that says ``match`` (they come coalesced, 0.25 s apart)."""
    return client.until("presence", timeout=10, **match)


def test_spectators_are_named_by_their_player_and_the_others_are_guests(
        server: Server) -> None:
    table = server.create("sequence", [{"kind": "person"}, {"kind": "person"}])
    token = server.take(table["id"], 0, "Ana")
    seat = Client(server, table["id"], token)
    assert seat.recv()["type"] == "welcome"
    first = seat.until("presence")
    assert first["spectators"] == 0 and first["watchers"] == [] and first["guests"] == 0

    sokha = player(server, "Sokha")
    nameless = player(server, None)
    named = watch(server, table["id"], f"player={sokha}&watch=1")
    welcome = named.recv()
    assert welcome["type"] == "welcome" and welcome["seat"] is None
    mine = named.until("presence")                  # the newcomer's own, at once
    assert mine["watchers"] == ["Sokha"] and mine["guests"] == 0
    second_tab = watch(server, table["id"], f"player={sokha}&watch=1")
    guests = [watch(server, table["id"], q) for q in (
        "", f"player={nameless}&watch=1", "player=no-such-key&watch=1", "watch=1")]
    presence = settled(seat, spectators=6)
    assert presence["watchers"] == ["Sokha"]        # once, though in two tabs
    assert presence["guests"] == 4
    # a spectator's key is never in a message; the seat's view of the watchers is names
    for client in (seat, named):
        assert all(sokha not in str(m) for m in client.messages)

    named.close()
    second_tab.close()
    presence = settled(seat, spectators=4)
    assert presence["watchers"] == [] and presence["guests"] == 4
    for client in guests:
        client.close()
    assert settled(seat, spectators=0)["guests"] == 0
    seat.close()


def test_a_player_key_without_watch_still_needs_a_seat(server: Server) -> None:
    table = server.create("sequence", [{"kind": "person"}, {"kind": "person"}])
    key = player(server, "Bo")
    client = watch(server, table["id"], f"player={key}")
    refused = client.recv()
    assert refused["type"] == "error" and refused["code"] == "auth/bad-token"
    client.close()


def test_names_are_capped_and_a_presence_stays_small(server: Server) -> None:
    table = server.create("sequence", [{"kind": "person"}, {"kind": "person"}])
    token = server.take(table["id"], 0, "Ana")
    seat = Client(server, table["id"], token)
    crowd = [watch(server, table["id"], f"player={player(server, f'W{n}')}&watch=1")
             for n in range(WATCHER_NAMES + 3)]
    started = time.monotonic()
    presence = settled(seat, spectators=WATCHER_NAMES + 3)
    assert time.monotonic() - started < 10
    assert presence["watchers"] == [f"W{n}" for n in range(WATCHER_NAMES)]
    assert presence["guests"] == 0
    for client in crowd:
        client.close()
    seat.close()
