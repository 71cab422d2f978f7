"""One address, many processes (docs/server.md, "Routing"): any process of a cluster
answers a table's requests, relaying them to the table's process; behind HAProxy
(Debian's, started by the test on loopback, in front of three processes, health checked
on ``/readyz``) a table's connections go straight to its process, as that process's
answers told HAProxy, and are relayed at most once after a failover; whole games are
played through the front address, and a process killed mid-game is replaced with nobody
touching anything; HAProxy itself killed mid-game and started again on the
same port, the clients come back (reconnecting with ``since=``, as the web page does)
and every game finishes with every acknowledged move in the log once."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from cardtable import store
from cardtable.server import haproxy
from tests.needs import missing
from tests.server.conftest import SQLITE_ONLY, Client, Server, start_all
from tests.server.test_cluster import Player, check_logs, member, metric

GAMES = [
    ("sequence", {}),
    ("threethirteen", {}),
    ("drawbridge", {"target": 1}),
]


class Front(Server):
    """HAProxy on 127.0.0.1 and a free port, round robin over ``servers``
    (cardtable.server.haproxy): the one address the clients know (a Server to the
    test's clients)."""

    def __init__(self, folder: Path, servers: list[Server]) -> None:  # noqa: PLW0231
        if haproxy.find_binary() is None:
            missing("HAProxy", "the cluster's front address")
        self.haproxy = haproxy.TempHAProxy([server.port for server in servers], folder)
        self.port = self.haproxy.port
        self.proc = None

    def start(self) -> Front:
        self.haproxy.start()
        self.proc = self.haproxy.proc
        return self

    def stop(self) -> None:
        self.haproxy.stop()

    def kill(self) -> None:
        self.haproxy.kill()


@SQLITE_ONLY
def test_any_process_answers_for_the_table_s_process(db_url: str, tmp_path: Path) -> None:
    """Without a proxy: a table created at one process is read, seated and played
    through the two others, each seat's connection at a different process."""
    servers = start_all([member(db_url, tmp_path, name) for name in "abc"])
    a, b, c = servers
    try:
        table = a.create("sequence", [{"kind": "person"}, {"kind": "person"}])
        tid = table["id"]
        for other in (b, c):        # the lobby is the cluster's, wherever it is asked
            assert tid in [t["id"] for t in other.get("/api/tables").json()["tables"]]
            assert tid in [t["id"] for t in
                           other.get("/api/tables?status=waiting").json()["tables"]]
        summary = b.get(f"/api/tables/{tid}")
        assert summary.status_code == 200 and summary.json()["id"] == tid
        tokens = {0: b.take(tid, 0), 1: c.take(tid, 1)}
        assert a.get(f"/api/tables/{tid}").json()["seats"][1]["taken"]
        players = {(tid, 0): Player([b], tid, tokens[0], 1).start(),
                   (tid, 1): Player([c], tid, tokens[1], 2).start()}
        for player in players.values():
            player.join(240)
        check_logs(a, players, [tid])
        assert metric(b, "cardtable_relayed_total") >= 2
        assert metric(c, "cardtable_relayed_total") >= 2
        # a relayed refusal is the owner's
        refused = b.post(f"/api/tables/{tid}/seats/0", {"name": "Ann"})
        assert refused.status_code == 409 and refused.json()["error"]["code"] in (
            "seat/taken", "move/game-over")
    finally:
        for server in servers:
            server.stop()


@SQLITE_ONLY
def test_the_front_sends_a_table_s_connections_to_its_process(db_url: str,
                                                              tmp_path: Path) -> None:
    """HAProxy learns each table's process from that process's answers (their
    ``X-Cardtable-Table``; a relayed answer has none): the tables' requests and WebSockets
    go straight there, nothing relayed; after the owner of some is killed and they are
    taken over, each is relayed at most once before HAProxy learns its new process."""
    servers = start_all([member(db_url, tmp_path, name) for name in "abc"])
    front = Front(tmp_path, servers).start()
    try:
        ids = [front.create("sequence", [{"kind": "person"}] * 2)["id"] for _ in range(6)]
        for tid in ids:
            assert front.get(f"/api/tables/{tid}").headers["x-cardtable-table"] == tid
            for seat in (0, 1):
                client = Client(front, tid, front.take(tid, seat))
                assert client.recv(5)["type"] == "welcome"
                client.close()
        assert [metric(s, "cardtable_relayed_total") for s in servers] == [0, 0, 0]
        owners = {tid: next(s for s in servers
                            if s.get(f"/api/tables/{tid}").headers.get("x-cardtable-table"))
                  for tid in ids}
        other = next(s for s in servers if s is not owners[ids[0]])
        relayed = other.get(f"/api/tables/{ids[0]}")    # through another process: no claim
        assert relayed.status_code == 200 and "x-cardtable-table" not in relayed.headers
        victim = owners[ids[0]]
        moved = sum(owner is victim for owner in owners.values())
        victim.kill()
        live = [s for s in servers if s is not victim]
        start = sum(metric(s, "cardtable_relayed_total") for s in live)
        deadline = time.monotonic() + 30
        while front.get(f"/api/tables/{ids[0]}").status_code != 200:   # taken over
            assert time.monotonic() < deadline, "nobody took the dead process's tables"
            time.sleep(0.2)
        for _ in range(3):
            for tid in ids:
                assert front.get(f"/api/tables/{tid}").status_code == 200
        assert sum(metric(s, "cardtable_relayed_total") for s in live) - start <= moved
    finally:
        front.stop()
        for server in servers:
            server.stop()


@pytest.mark.slow
def test_whole_games_through_haproxy_and_a_process_killed(pg_url: str,
                                                          tmp_path: Path) -> None:
    servers = start_all([member(pg_url, tmp_path, name) for name in "abc"])
    front = Front(tmp_path, servers).start()
    try:
        ids, tokens = [], {}
        for game, options in GAMES:
            answer = front.post("/api/tables", {"game": game, "options": options,
                                                "seats": [{"kind": "person"}] * 2})
            assert answer.status_code == 201, answer.text
            tid = answer.json()["id"]
            ids.append(tid)
            for seat in (0, 1):
                taken = front.post(f"/api/tables/{tid}/seats/{seat}", {"name": "Dara"})
                assert taken.status_code == 200, taken.text
                tokens[tid, seat] = taken.json()["token"]
        players = {key: Player([front], key[0], token, n).start()
                   for n, (key, token) in enumerate(tokens.items())}
        time.sleep(3)
        engine = sa.create_engine(pg_url)
        with engine.connect() as conn:
            name = conn.execute(sa.select(store.tables.c.owner)
                                .where(store.tables.c.id == ids[0])).scalar_one()
        engine.dispose()
        owner = servers["abc".index(name)]
        owner.kill()                                        # kill -9, mid-game
        for player in players.values():
            player.join(300)
        live = [s for s in servers if s is not owner]
        for tid in ids:
            record = front.get(f"/api/tables/{tid}/record")
            assert record.status_code == 200
        check_logs(live[0], players, ids)
    finally:
        front.stop()
        for server in servers:
            server.stop()


@pytest.mark.slow
def test_haproxy_restarted_under_load_and_the_clients_come_back(sqlite_url: str,
                                                                tmp_path: Path) -> None:
    servers = start_all([member(sqlite_url, tmp_path, name) for name in "ab"])
    front = Front(tmp_path, servers).start()
    try:
        ids, tokens = [], {}
        for game, options in GAMES:
            table = front.create(game, [{"kind": "person"}] * 2, options)
            ids.append(table["id"])
            for seat in (0, 1):
                tokens[table["id"], seat] = front.take(table["id"], seat)
        players = {key: Player([front], key[0], token, n).start()
                   for n, (key, token) in enumerate(tokens.items())}
        deadline = time.monotonic() + 30
        while (sum(len(p.acked) for p in players.values()) < 20
               and time.monotonic() < deadline):
            time.sleep(0.05)
        before = sum(len(p.acked) for p in players.values())
        assert before >= 20
        front.kill()                                        # kill -9, mid-game
        time.sleep(0.5)
        front.start()                                       # the same port, config
        for player in players.values():
            player.join(120)
        assert all(p.reconnects >= 1 for p in players.values())
        assert sum(len(p.acked) for p in players.values()) > before
        check_logs(servers[0], players, ids)
    finally:
        front.stop()
        for server in servers:
            server.stop()
