"""Chat at the table (docs/server.md: Chat): a real server, real WebSocket clients, both
databases. Who reads what (the seats' channel only the seats, the spectators' everyone),
over a reconnect and a restart, muted, with the chat off, rate-limited, too long, with
HTML and Khmer."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from cardtable.server.reading import CHAT_MAX
from tests.http import http
from tests.server.conftest import SQLITE_ONLY, Client, Server

HTML = '<img src=x onerror="alert(1)"><b>hi</b> & </div>'
KHMER = "សូមសំណាងល្អ\u200bមិត្តភក្តិ 🙂"


def table_of_two(server: Server, **extra: Any) -> tuple[str, list[str]]:
    table = server.create("sequence", [{"kind": "person"}, {"kind": "person"}], **extra)
    return table["id"], [server.take(table["id"], 0, "Dara"), server.take(table["id"], 1,
                                                                          "Sokha")]


def chats(client: Client, until_n: int, timeout: float = 15) -> list[dict[str, Any]]:
    """The chat lines ``client`` receives up to and including line ``until_n``."""
    got = []
    while True:
        message = client.until("chat", timeout=timeout)
        got.append(message)
        if message["n"] == until_n:
            return got
        assert message["n"] < until_n, (message, until_n)


def welcome(client: Client) -> dict[str, Any]:
    return client.until("welcome")


def refused(client: Client, message: dict[str, Any]) -> str:
    client.send(message)
    answer = client.until("error", timeout=15)
    code: str = answer["code"]
    return code


def test_who_reads_what_over_a_reconnect_and_a_restart(server: Server) -> None:
    table_id, (a_token, b_token) = table_of_two(server)
    a, b = Client(server, table_id, a_token), Client(server, table_id, b_token)
    s, s2 = Client(server, table_id), Client(server, table_id)
    for client in (a, b, s, s2):
        assert welcome(client)["chat"] == []

    a.send({"type": "chat", "text": HTML})                      # 1, seats
    one = chats(b, 1)[0]
    b.send({"type": "chat", "text": KHMER})                     # 2, seats
    assert one == {"type": "chat", "n": 1, "channel": "seats", "seat": 0, "name": "Dara",
                   "text": HTML, "preset": None, "at": one["at"]}
    two = chats(a, 2)[-1]
    assert (two["seat"], two["text"], two["name"]) == (1, KHMER, "Sokha")
    a.send({"type": "chat", "preset": "good-game"})             # 3, seats
    assert chats(b, 3)[-1]["preset"] == "good-game"
    s.send({"type": "chat", "text": "from the rail"})           # 4, spectators
    for client in (a, b, s, s2):
        got = chats(client, 4)
        # a spectator never receives a seat's line: its first chat line is number 4
        if client in (s, s2):
            assert [m["n"] for m in got] == [4]
        assert got[-1] == {"type": "chat", "n": 4, "channel": "spectators", "seat": None,
                           "name": "", "text": "from the rail", "preset": None,
                           "at": got[-1]["at"], "spectator": got[-1]["spectator"]}

    # Sokha mutes Dara: Dara's lines no longer reach any of Sokha's connections
    b.send({"type": "mute", "seat": 0})
    assert b.until("muted")["seats"] == [0]
    a.send({"type": "chat", "text": "can you hear me?"})        # 5, seats: not to b
    assert chats(a, 5)[-1]["text"] == "can you hear me?"
    s2.send({"type": "chat", "preset": "wow"})                  # 6, spectators
    assert [m["n"] for m in chats(b, 6)] == [6]
    assert [m["n"] for m in chats(s, 6)] == [6]

    # a reconnect: the last lines its connection may read
    b.close()
    b = Client(server, table_id, b_token)
    hello = welcome(b)
    assert [m["n"] for m in hello["chat"]] == [2, 4, 6] and hello["muted"] == [0]
    s.close()
    s = Client(server, table_id)
    hello = welcome(s)
    assert [m["n"] for m in hello["chat"]] == [4, 6] and "muted" not in hello
    a.close()
    a = Client(server, table_id, a_token)
    assert [m["n"] for m in welcome(a)["chat"]] == [1, 2, 3, 4, 5, 6]
    assert welcome_text(welcome_of(server, table_id, a_token), 1) == HTML
    for client in (a, b, s, s2):
        client.close()

    # a restart: the lines and the mute were stored with the table
    server.stop()
    server.start()
    a, b = Client(server, table_id, a_token), Client(server, table_id, b_token)
    assert [m["n"] for m in welcome(a)["chat"]] == [1, 2, 3, 4, 5, 6]
    hello = welcome(b)
    assert [m["n"] for m in hello["chat"]] == [2, 4, 6] and hello["muted"] == [0]
    assert [m["text"] for m in hello["chat"]][0] == KHMER
    a.send({"type": "chat", "text": "still muted?"})            # 7: not to b
    chats(a, 7)
    b.send({"type": "mute", "seat": 0, "muted": False})
    assert b.until("muted")["seats"] == []
    a.send({"type": "chat", "text": "and now?"})                # 8: to b again
    assert [m["n"] for m in chats(b, 8)] == [8]
    a.close()
    b.close()
    log = server.log()
    for said in (HTML, KHMER, "from the rail", "can you hear me?"):
        assert said not in log


def welcome_of(server: Server, table_id: str, token: str) -> dict[str, Any]:
    client = Client(server, table_id, token)
    try:
        return welcome(client)
    finally:
        client.close()


def welcome_text(hello: dict[str, Any], n: int) -> str:
    text: str = next(m["text"] for m in hello["chat"] if m["n"] == n)
    return text


def test_limits_and_refusals(sqlite_url: str, tmp_path: Path) -> None:
    server = Server(sqlite_url, tmp_path, "--ws-rate", "200", "--chat-rate", "0.01").start()
    try:
        table_id, (a_token, b_token) = table_of_two(server)
        a, s = Client(server, table_id, a_token), Client(server, table_id)
        welcome(a)
        welcome(s)
        assert refused(a, {"type": "chat", "text": "x" * (CHAT_MAX + 1)}) == "chat/too-long"
        assert refused(a, {"type": "chat", "text": " \n\t\x00 "}) == "chat/bad"
        assert refused(a, {"type": "chat"}) == "chat/bad"
        assert refused(a, {"type": "chat", "text": "a", "preset": "wow"}) == "chat/bad"
        assert refused(a, {"type": "chat", "preset": "<b>"}) == "chat/bad"
        assert refused(a, {"type": "chat", "text": 5}) == "message/bad"
        assert refused(a, {"type": "mute", "seat": 0}) == "chat/bad"        # itself
        assert refused(a, {"type": "mute", "seat": 7}) == "chat/bad"
        assert refused(s, {"type": "mute", "seat": 0}) == "auth/bad-token"
        # cleaned as names are: runs of white space one space, control characters gone
        a.send({"type": "chat", "text": "  two\n\nlines\x07 and\u202e a  tab\t "})
        first = a.until("chat")
        assert first["text"] == "two lines and a tab"
        a.send({"type": "chat", "text": "y" * CHAT_MAX})
        assert len(a.until("chat")["text"]) == CHAT_MAX
        # five lines in a burst (two said above), then chat/rate, over a reconnect too
        for _ in range(3):
            a.send({"type": "chat", "preset": "hello"})
            a.until("chat")
        assert refused(a, {"type": "chat", "preset": "hello"}) == "chat/rate"
        a.close()
        a = Client(server, table_id, a_token)
        welcome(a)
        assert refused(a, {"type": "chat", "preset": "hello"}) == "chat/rate"
        # a spectator has its own bucket; a finished refusal left the connection open
        s.send({"type": "chat", "preset": "hello"})
        assert s.until("chat")["channel"] == "spectators"
        a.send({"type": "ping"})
        a.until("pong")

        # a seat left: its person's mutes go with it (a new person sits there)
        b = Client(server, table_id, b_token)
        welcome(b)
        b.send({"type": "mute", "seat": 0})
        assert b.until("muted")["seats"] == [0]
        b.close()
        left = http.delete(f"{server.base}/api/tables/{table_id}/seats/1",
                            headers={"Authorization": f"Bearer {b_token}"}, timeout=30)
        assert left.status_code == 200, left.text
        b = Client(server, table_id, server.take(table_id, 1, "Vanna"))
        assert welcome(b)["muted"] == []
        b.close()

        # a table with the chat off
        off_id, (c_token, _) = table_of_two(server, chat=False)
        assert server.get(f"/api/tables/{off_id}").json()["chat"] is False
        c, t = Client(server, off_id, c_token), Client(server, off_id)
        assert welcome(c)["table"]["chat"] is False
        welcome(t)
        assert refused(c, {"type": "chat", "text": "hello?"}) == "chat/off"
        assert refused(t, {"type": "chat", "preset": "hello"}) == "chat/off"
        bad = server.post("/api/tables", {"game": "sequence", "chat": "no"})
        assert (bad.status_code, bad.json()["error"]["code"]) == (400, "message/bad")
        for client in (a, s, c, t):
            client.close()
    finally:
        server.stop()


@SQLITE_ONLY
def test_spectators_of_one_address_share_a_rate(server: Server) -> None:
    """20 spectator sockets of one address, 6 lines each at once: the address's burst (5)
    reaches the players, not 20 x 5 (issue 35, finding 7)."""
    table_id, (a_token, _) = table_of_two(server)
    a = Client(server, table_id, a_token)
    welcome(a)
    crowd = [Client(server, table_id) for _ in range(16)]
    for client in crowd:
        welcome(client)
    for client in crowd:
        for k in range(6):
            client.send({"type": "chat", "text": f"line {k}"})
    time.sleep(2)
    a.send({"type": "ping"})
    a.until("pong")
    got = [m for m in a.messages if m["type"] == "chat"]
    # the burst of 5, and what one line each 2 s gave back meanwhile
    assert 5 <= len(got) <= 7, len(got)
    for client in crowd:
        client.close()


@SQLITE_ONLY
def test_a_player_mutes_a_spectator(server: Server) -> None:
    table_id, (a_token, b_token) = table_of_two(server)
    a, b = Client(server, table_id, a_token), Client(server, table_id, b_token)
    loud, quiet = Client(server, table_id), Client(server, table_id)
    for client in (a, b, loud, quiet):
        welcome(client)
    loud.send({"type": "chat", "text": "boo"})                          # 1
    line = chats(a, 1)[-1]
    spectator = line["spectator"]
    assert isinstance(spectator, str) and spectator
    a.send({"type": "mute", "spectator": spectator})
    assert a.until("muted")["spectators"] == [spectator]
    loud.send({"type": "chat", "text": "boo again"})                    # 2: not to a
    assert chats(b, 2)[-1]["text"] == "boo again"
    # the same address is the same spectator (a reconnect does not escape the mute)
    assert chats(quiet, 2)[-1]["spectator"] == spectator
    b.send({"type": "chat", "text": "seats"})                           # 3
    assert [m["n"] for m in chats(a, 3)] == [3]
    hello = welcome(Client(server, table_id, a_token))
    assert [m["n"] for m in hello["chat"]] == [3]
    assert hello["muted_spectators"] == [spectator]
    assert refused(loud, {"type": "mute", "spectator": spectator}) == "auth/bad-token"
    assert refused(a, {"type": "mute"}) == "chat/bad"
    assert refused(a, {"type": "mute", "seat": 1, "spectator": spectator}) == "chat/bad"
    a.send({"type": "mute", "spectator": spectator, "muted": False})
    assert a.until("muted")["spectators"] == []
    loud.send({"type": "chat", "text": "hello"})                        # 4: to a again
    assert [m["n"] for m in chats(a, 4)] == [4]
