"""kill -9 the server in the middle of several games, restart it: every move acknowledged
before the kill is there exactly once, and the games finish."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from cardtable import records
from tests.server.conftest import Client, Server, pick, play_seat

pytestmark = pytest.mark.slow

TABLES = [
    ("sequence", {}, [{"kind": "person"}, {"kind": "person"}]),
    ("sequence", {}, [{"kind": "person"}, {"kind": "bot", "bot": "random"}]),
    ("threethirteen", {}, [{"kind": "person"}, {"kind": "bot", "bot": "heuristic"}]),
    ("drawbridge", {"target": 1}, [{"kind": "person"}, {"kind": "person"}]),
]


def play_until_cut(server: Server, table_id: str, token: str, seed: int,
                   acked: list[tuple[int, str]]) -> None:
    """Play random moves, noting each acknowledged (version, move), until the line dies."""
    rng = random.Random(seed)
    try:
        client = Client(server, table_id, token)
        pending: tuple[int, str] | None = None
        while True:
            message = client.recv(60)
            if message["type"] == "over":
                return
            if (message["type"] == "event" and pending is not None
                    and message["version"] == pending[0]):
                assert message["move"] == pending[1]
                acked.append(pending)
                pending = None
            if message["type"] == "error":
                pending = None
            view = message.get("view")
            if (pending is None and view and view.get("legal")
                    and view["version"] == message.get("version", view["version"])):
                move = pick(view, rng)
                pending = (view["version"] + 1, move)
                client.send({"type": "move", "move": move, "version": view["version"]})
    except (ConnectionClosed, OSError, TimeoutError):
        return


def test_a_killed_server_loses_no_acknowledged_move(db_url: str, tmp_path: Path) -> None:
    server = Server(db_url, tmp_path, "--ws-rate", "500").start()
    try:
        tables: list[dict[str, Any]] = []
        acked: dict[tuple[str, int], list[tuple[int, str]]] = {}
        tokens: dict[tuple[str, int], str] = {}
        for game, options, seats in TABLES:
            table = server.create(game, seats, options)
            tables.append(table)
            for n, spec in enumerate(seats):
                if spec["kind"] == "person":
                    tokens[table["id"], n] = server.take(table["id"], n)
                    acked[table["id"], n] = []
        threads = [threading.Thread(target=play_until_cut,
                                    args=(server, tid, token, seat, acked[tid, seat]))
                   for (tid, seat), token in tokens.items()]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 60
        while sum(map(len, acked.values())) < 40 and time.monotonic() < deadline:
            time.sleep(0.05)
        server.kill()                                   # kill -9, mid-game
        for thread in threads:
            thread.join(60)
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.stop()         # only when the test failed before the kill
    assert sum(map(len, acked.values())) >= 40

    again = Server(db_url, tmp_path, "--ws-rate", "500").start()
    try:
        # every acknowledged move is in the log, at its version, exactly once
        for (tid, number), moves in acked.items():
            summary = again.get(f"/api/tables/{tid}").json()
            assert summary["version"] >= max((v for v, _ in moves), default=0)
            replay = Client(again, tid, tokens[tid, number], since=0)
            welcome = replay.recv()
            events = [replay.recv() for _ in range(welcome["version"])]
            assert [e["version"] for e in events] == list(range(1, welcome["version"] + 1))
            for version, move in moves:
                assert events[version - 1]["seat"] == number
                assert events[version - 1]["move"] == move
            replay.close()
        # and the games finish
        finishers = [threading.Thread(target=play_seat, args=(again, tid, token, 99))
                     for (tid, _), token in tokens.items()]
        for thread in finishers:
            thread.start()
        for thread in finishers:
            thread.join(300)
        for table in tables:
            record = records.from_json(again.get(f"/api/tables/{table['id']}/record").json())
            assert records.replay(record).is_terminal
    finally:
        again.stop()


def test_two_server_processes_share_one_database(db_url: str, tmp_path: Path) -> None:
    """Each process plays the tables it created; finished ones are served by both."""
    first = Server(db_url, tmp_path, "--owner", "a").start()
    second = Server(db_url, tmp_path, "--owner", "b").start()
    try:
        bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
        waiting = first.create("sequence", [{"kind": "person"}, {"kind": "person"}])
        refused = second.get(f"/api/tables/{waiting['id']}")
        assert refused.status_code == 421
        assert refused.json()["error"]["code"] == "table/elsewhere"
        games = [(server, server.create("sequence", bots)) for server in (first, second)
                 for _ in range(3)]
        for server, table in games:
            Client(server, table["id"]).until("over", timeout=120)
        for _, table in games:
            for server in (first, second):
                record = server.get(f"/api/tables/{table['id']}/record")
                assert records.replay(records.from_json(record.json())).is_terminal
        # a restarted process picks up its own unfinished tables, not the other's
        first.stop()
        again = Server(db_url, tmp_path, "--owner", "a").start()
        try:
            assert again.get(f"/api/tables/{waiting['id']}").json()["status"] == "waiting"
            assert second.get(f"/api/tables/{waiting['id']}").status_code == 421
        finally:
            again.stop()
    finally:
        first.stop()
        second.stop()
