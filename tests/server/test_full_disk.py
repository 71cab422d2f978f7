"""A database that cannot store anything (docs/server.md: Codes, server/unavailable),
against a real server whose SQLite file lies on a 2 MiB tmpfs filled up by the test:
503 with Retry-After over HTTP, an error on the WebSocket that stays open, nothing
acknowledged lost once there is room again. Skipped where no tmpfs can be mounted
(not root)."""

from __future__ import annotations

import contextlib
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import Client, Server

PERSONS = {"game": "sequence", "seats": [{"kind": "person"}] * 2}


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("no tmpfs can be mounted here")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def fill(disk: Path) -> Path:
    """Every free byte of ``disk`` taken by one file."""
    filler = disk / "filler"
    with contextlib.suppress(OSError), open(filler, "wb", buffering=0) as out:
        while True:
            out.write(b"\0" * 4096)
    return filler


def test_a_full_disk_refuses_with_server_unavailable_and_keeps_connections(
        small_disk: Path, tmp_path: Path) -> None:
    server = Server(f"sqlite:///{small_disk / 'tables.db'}", tmp_path, "--http-rate", "500",
                    "--ws-rate", "200", "--tables-per-address", "5000").start()
    try:
        table = server.create("sequence", [{"kind": "person"}] * 2)
        tokens = [server.take(table["id"], n, f"P{n}") for n in (0, 1)]
        players = [Client(server, table["id"], t) for t in tokens]
        for client in players:
            client.until("welcome")
        filler = fill(small_disk)
        # writes go on until the database's log needs a byte more than it had
        for _ in range(400):
            answer = server.post("/api/tables", PERSONS)
            if answer.status_code != 201:
                break
        assert answer.status_code == 503, answer.text
        assert answer.json()["error"]["code"] == "server/unavailable"
        assert answer.headers["retry-after"] == "5"
        # a chat line: an error, and the connection stays open
        players[0].send({"type": "chat", "text": "hello"})
        assert players[0].until("error")["code"] == "server/unavailable"
        # a move: refused, the connections stay, nobody is told of it
        mover = next(c for c in players if c.view.get("legal"))
        version = mover.view["version"]
        mover.send({"type": "move", "move": mover.view["legal"][0], "version": version})
        refused = mover.until("error")
        assert refused["code"] == "server/unavailable"
        for client in players:
            client.send({"type": "ping"})
            assert client.until("pong")
        assert not any(m["type"] == "event" and m["version"] > version
                       for c in players for m in c.messages)
        # room again: the move is taken, and stays
        filler.unlink()
        time.sleep(0.5)
        mover.send({"type": "move", "move": mover.view["legal"][0], "version": version})
        assert mover.until("event", version=version + 1)
        for client in players:
            client.close()
        server.stop()
        server.start()
        assert server.get(f"/api/tables/{table['id']}").json()["version"] == version + 1
        assert "Traceback" not in server.log()
    finally:
        server.stop()
