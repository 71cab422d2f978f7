"""Processes of a cluster on one database (docs/server.md, "Scaling past one machine"):
real ``cardtable serve --cluster`` processes, on SQLite and PostgreSQL.

- kill -9 of the process that owns busy tables: another takes them within a few seconds
  of its lease lapsing and they play on to the end, with every acknowledged move in the
  log at its version, once, and nothing in the log the clients were not told;
- SIGSTOP past the lease, then SIGCONT: the stale process writes nothing more to the
  tables taken from it (a move sent to it is refused, and its connections are closed),
  stands down and goes on as a new member;
- a process stopped cleanly lets its lease go: its tables go on elsewhere at once;
- ``/healthz``, ``/readyz``, ``/metrics`` and the JSON log lines.
"""

from __future__ import annotations

import json
import random
import re
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from cardtable import records, store
from cardtable.records import GameLog
from cardtable.store import ConflictError, SeatRow, Store, TableRow, leases
from tests.http import http
from tests.server.conftest import Client, Server, pick

#: the lease of the test processes (the default is 5 s)
LEASE = 3.0

TABLES = [
    ("sequence", {}, [{"kind": "person"}, {"kind": "person"}]),
    ("sequence", {}, [{"kind": "person"}, {"kind": "bot", "bot": "random"}]),
    ("threethirteen", {}, [{"kind": "person"}, {"kind": "bot", "bot": "heuristic"}]),
    ("drawbridge", {"target": 1}, [{"kind": "person"}, {"kind": "person"}]),
]


def member(db_url: str, tmp_path: Path, name: str, *args: str) -> Server:
    return Server(db_url, tmp_path, "--cluster", "--owner", name, "--lease", str(LEASE),
                  "--ws-rate", "500", "--bot-workers", "1", *args)


def connect_any(servers: list[Server], table_id: str, token: str, since: int | None,
                deadline: float) -> tuple[Client, dict[str, Any]]:
    """A connection to the table's process, whichever it is: each server is tried in
    turn (a client behind one front address does the same, blind) until one welcomes."""
    while True:
        for server in servers:
            if server.proc is None or server.proc.poll() is not None:
                continue
            try:
                client = Client(server, table_id, token, since=since, open_timeout=2)
                first = client.recv(5)
            except (ConnectionClosed, OSError, TimeoutError, InvalidHandshake):
                continue
            if first["type"] == "welcome":
                return client, first
            client.close()
        if time.monotonic() > deadline:
            raise TimeoutError(f"no process welcomed table {table_id}")
        time.sleep(0.2)


class Player:
    """A person's seat played by a thread, reconnecting to whichever process plays the
    table whenever its connection is cut, until the game is over. ``acked``: (version,
    move) of each own move whose event came back."""

    def __init__(self, servers: list[Server], table_id: str, token: str, seed: int,
                 recv_timeout: float = 4.0) -> None:
        self.servers = servers
        self.table_id = table_id
        self.token = token
        self.rng = random.Random(seed)
        self.recv_timeout = recv_timeout
        self.acked: list[tuple[int, str]] = []
        self.reconnects = 0
        self.over = False
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> Player:
        self.thread.start()
        return self

    def _run(self) -> None:
        try:
            self._play(time.monotonic() + 240)
        except BaseException as exc:
            self.error = exc

    def _play(self, deadline: float) -> None:
        seen = 0
        seat = None
        while not self.over:
            client, welcome = connect_any(self.servers, self.table_id, self.token, seen,
                                          deadline)
            seat = welcome["seat"]
            pending: tuple[int, str] | None = None
            message = welcome
            try:
                while True:
                    kind = message["type"]
                    if kind == "over":
                        self.over = True
                        break
                    if kind in ("welcome", "event"):
                        seen = max(seen, message["version"])
                    if (kind == "event" and pending is not None
                            and message["version"] == pending[0]):
                        assert message["seat"] == seat and message["move"] == pending[1]
                        self.acked.append(pending)
                        pending = None
                    if kind == "error":
                        pending = None
                    view = message.get("view")
                    if (pending is None and view and view.get("legal")
                            and view["version"] == seen):
                        move = pick(view, self.rng)
                        pending = (view["version"] + 1, move)
                        client.send({"type": "move", "move": move, "version": view["version"]})
                    message = client.recv(self.recv_timeout)
            except (ConnectionClosed, OSError, TimeoutError):
                self.reconnects += 1
            finally:
                client.close()

    def join(self, timeout: float) -> None:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), f"table {self.table_id} did not finish"
        if self.error is not None:
            raise self.error


def seat_tables(server: Server) -> tuple[list[str], dict[tuple[str, int], str]]:
    ids, tokens = [], {}
    for game, options, seats in TABLES:
        table = server.create(game, seats, options)
        ids.append(table["id"])
        for n, spec in enumerate(seats):
            if spec["kind"] == "person":
                tokens[table["id"], n] = server.take(table["id"], n)
    return ids, tokens


def check_logs(server: Server, players: dict[tuple[str, int], Player],
               ids: list[str]) -> None:
    """Every acknowledged move is in the stored log at its version, and each version
    once (the record replays to the end)."""
    for table_id in ids:
        answer = server.get(f"/api/tables/{table_id}/record")
        assert answer.status_code == 200, answer.text
        record = records.from_json(answer.json())
        assert records.replay(record).is_terminal
        moves = record.log.moves
        for (tid, seat), player in players.items():
            if tid != table_id:
                continue
            versions = [v for v, _ in player.acked]
            assert len(versions) == len(set(versions)), "a move acknowledged twice"
            for version, move in player.acked:
                assert moves[version - 1] == (seat, move), (table_id, version)


def direct(server: Server, path: str) -> httpx.Response:
    """A GET answered by ``server`` itself, never relayed to the table's process (as a
    request another process relayed already: docs/server.md, Routing)."""
    return http.get(server.base + path, headers={"X-Cardtable-Relayed": "1"}, timeout=30)


def owner_serves(server: Server, table_id: str) -> bool:
    """``server`` plays the table now."""
    try:
        return direct(server, f"/api/tables/{table_id}").status_code == 200
    except httpx.HTTPError:
        return False


def metric(server: Server, name: str) -> float:
    text = server.get("/metrics").text
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert found is not None, name
    return float(found.group(1))


@pytest.mark.slow
def test_a_killed_process_s_busy_tables_play_on_elsewhere(db_url: str,
                                                          tmp_path: Path) -> None:
    first = member(db_url, tmp_path, "a").start()
    second = member(db_url, tmp_path, "b").start()
    servers = [first, second]
    try:
        ids, tokens = seat_tables(first)
        assert all(direct(second, f"/api/tables/{t}").status_code == 421 for t in ids)
        players = {key: Player(servers, key[0], token, seed=n).start()
                   for n, (key, token) in enumerate(tokens.items())}
        deadline = time.monotonic() + 60
        while (sum(len(p.acked) for p in players.values()) < 30
               and time.monotonic() < deadline):
            time.sleep(0.05)
        assert sum(len(p.acked) for p in players.values()) >= 30
        first.kill()                                        # kill -9, mid-game
        killed = time.monotonic()
        while not all(owner_serves(second, t) for t in ids):
            assert time.monotonic() - killed < LEASE + 20, "the tables were not taken"
            time.sleep(0.1)
        took = time.monotonic() - killed
        for player in players.values():
            player.join(240)
        check_logs(second, players, ids)
        assert sum(p.reconnects for p in players.values()) >= len(players)
        assert metric(second, 'cardtable_lease_changes_total{change="took"}') == 1
        assert metric(second, "cardtable_tables_taken_over_total") >= 1
        assert took < LEASE + 20
        assert re.search(r"process b took over \d tables of a", second.log())
    finally:
        for server in servers:
            server.stop()


@pytest.mark.slow
def test_a_paused_process_stands_down_and_writes_nothing(pg_url: str,
                                                         tmp_path: Path) -> None:
    first = member(pg_url, tmp_path, "a").start()
    second = member(pg_url, tmp_path, "b").start()
    servers = [first, second]
    try:
        ids, tokens = seat_tables(first)
        # a table waiting for the move of a client that stays on the first process while
        # it is paused (its bot has moved, if it was first)
        quiet = first.create("sequence", [{"kind": "person"}, {"kind": "bot",
                                                                "bot": "random"}])
        stale_tid, stale_seat = quiet["id"], 0
        tokens[stale_tid, stale_seat] = first.take(stale_tid, stale_seat)
        ids.append(stale_tid)
        stale = Client(first, stale_tid, tokens[stale_tid, stale_seat])
        while not stale.recv().get("view", {}).get("legal"):
            pass
        version = stale.view["version"]
        players = {key: Player(servers, key[0], token, seed=n).start()
                   for n, (key, token) in enumerate(tokens.items())
                   if key != (stale_tid, stale_seat)}
        time.sleep(2)
        assert first.proc is not None
        first.proc.send_signal(signal.SIGSTOP)              # paused past its lease
        stopped = time.monotonic()
        try:
            while not all(owner_serves(second, t) for t in ids):
                assert time.monotonic() - stopped < LEASE + 20, "the tables were not taken"
                time.sleep(0.1)
            time.sleep(1)          # the tables play on at the second process
        finally:
            first.proc.send_signal(signal.SIGCONT)
        # at once: the move the table waits for, at its version, to the stale process
        stale.send({"type": "move", "move": stale.view["legal"][0], "version": version})
        answers = []
        closed = False
        try:
            while True:
                answers.append(stale.recv(10))
        except ConnectionClosed:
            closed = True
        except TimeoutError:
            pass
        # refused or cut, never played: nothing written, and the connection is closed
        assert not any(a["type"] == "event" for a in answers), answers
        assert closed, answers
        assert second.get(f"/api/tables/{stale_tid}").json()["version"] == version
        deadline = time.monotonic() + 20
        while "lost its lease" not in first.log():
            assert time.monotonic() < deadline, first.log()[-2000:]
            time.sleep(0.1)
        # it stood down and is a member again (ready), and the tables are the second's
        deadline = time.monotonic() + 20
        while first.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        for table_id in ids:
            answer = direct(first, f"/api/tables/{table_id}")  # finished ones: anyone's
            assert answer.status_code == 421 or answer.json()["status"] == "over"
        assert metric(first, 'cardtable_lease_changes_total{change="lost"}') == 1
        # the stale seat comes back through the second process; every game finishes
        players[stale_tid, stale_seat] = Player(servers, stale_tid,
                                                tokens[stale_tid, stale_seat], 9).start()
        for player in players.values():
            player.join(240)
        check_logs(second, players, ids)
    finally:
        for server in servers:
            if server.proc is not None and server.proc.poll() is None:
                server.proc.send_signal(signal.SIGCONT)
            server.stop()


@pytest.mark.slow
def test_a_stopped_process_hands_its_tables_over_at_once(pg_url: str,
                                                         tmp_path: Path) -> None:
    first = member(pg_url, tmp_path, "a").start()
    second = member(pg_url, tmp_path, "b").start()
    try:
        table = first.create("sequence", [{"kind": "person"}, {"kind": "bot",
                                                                "bot": "random"}])
        token = first.take(table["id"], 0)
        player = Player([first, second], table["id"], token, 1).start()
        time.sleep(1)
        first.stop()                                        # SIGINT: a clean stop
        stopped = time.monotonic()
        while not owner_serves(second, table["id"]):
            assert time.monotonic() - stopped < LEASE + 10
            time.sleep(0.1)
        # its lease was let go: taken at the next renewal, not after the lease time
        assert time.monotonic() - stopped < LEASE
        player.join(120)
        check_logs(second, {(table["id"], 0): player}, [table["id"]])
    finally:
        first.stop()
        second.stop()


def test_a_lease_lapses_and_its_tables_change_owner(db_url: str) -> None:
    """The lease rows on their own: claimed, renewed, refused to another run while
    current, taken over once lapsed; and a move appended by the process the table was
    taken from is refused even at the right version (the append's guard)."""
    db = Store(db_url, owner="a")
    store.ensure_schema(db.engine, db_url)
    row = TableRow(id="t1", log=GameLog("sequence", {"players": 2}, 5), owner="a",
                   takeover_after=None, status="playing", version=0,
                   seats=[SeatRow("bot", "random", "random")] * 2)
    with db.engine.begin() as conn:
        db.create_table(conn, row)
        assert leases.claim(conn, "a", "run1", 0.5)
        assert not leases.claim(conn, "a", "run2", 0.5)     # current: another run waits
        assert leases.renew(conn, "a", "run1", 0.5)
        assert not leases.renew(conn, "a", "run2", 0.5)
        assert leases.claim(conn, "b", "run3", 30)
        assert {m.owner for m in leases.members(conn)} == {"a", "b"}
        assert leases.lapsed(conn, "b") == []
        db.append_move(conn, "t1", 1, 0, "7H c4", None)
    time.sleep(0.8)
    with db.engine.begin() as conn:
        assert leases.lapsed(conn, "b") == ["a"]
        assert leases.take_over(conn, "a", "b") == ["t1"]
        assert leases.take_over(conn, "a", "b") is None     # once
        assert not leases.renew(conn, "a", "run1", 0.5)     # a has lost it
        assert leases.owner_of(conn, "t1") == ("b", "playing")
    with db.engine.begin() as conn, pytest.raises(ConflictError):
        db.append_move(conn, "t1", 2, 1, "8H c5", None)     # a's move, at the version
    db.owner = "b"
    with db.engine.begin() as conn:
        db.append_move(conn, "t1", 2, 1, "8H c5", None)
        assert leases.claim(conn, "a", "run4", 5)            # a fresh run of a
    db.close()


def test_health_readiness_metrics_and_json_logs(sqlite_url: str, tmp_path: Path) -> None:
    server = member(sqlite_url, tmp_path, "solo", "--log-format", "json").start()
    try:
        assert server.get("/healthz").json() == {"ok": True}
        ready = server.get("/readyz")
        assert ready.status_code == 200
        assert ready.json() == {"ready": True, "process": "solo", "tables": 0}
        table = server.create("sequence", [{"kind": "bot", "bot": "random"}] * 2)
        Client(server, table["id"]).until("over", timeout=60)
        metrics = server.get("/metrics")
        assert metrics.headers["content-type"].startswith("text/plain; version=0.0.4")
        moves = metric(server, "cardtable_moves_total")
        assert moves > 10
        assert metric(server, "cardtable_move_seconds_count") == moves
        assert metric(server, 'cardtable_move_seconds_bucket{le="+Inf"}') == moves
        assert metric(server, "cardtable_commit_seconds_count") >= 1
        assert metric(server, 'cardtable_lease_changes_total{change="claimed"}') == 1
        assert metric(server, "cardtable_lease_held") == 1
        assert metric(server, "cardtable_ready") == 1
        assert 'cardtable_tables{status="playing"}' in metrics.text
        assert metric(server, "cardtable_connections") >= 0
    finally:
        server.stop()
    lines = [json.loads(line) for line in server.log().splitlines()
             if line.startswith("{")]
    created = [line for line in lines if line["message"].startswith(f"table {table['id']}")]
    assert created and all(line["table"] == table["id"] for line in created)
    assert all(line["process"] == "solo" for line in lines)
    assert not any("token=" in line["message"] and "token=***" not in line["message"]
                   for line in lines)


def test_a_process_alone_is_ready_without_a_cluster(sqlite_url: str, tmp_path: Path) -> None:
    server = Server(sqlite_url, tmp_path).start()
    try:
        assert server.get("/readyz").json() == {"ready": True, "process": None, "tables": 0}
        assert "cardtable_lease_held" not in server.get("/metrics").text
    finally:
        server.stop()
