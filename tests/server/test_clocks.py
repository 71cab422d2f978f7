"""Clocks at the table (docs/server.md, "Clocks"), against the real server on both
databases: the option and its refusals, a time per move running out and the bot's move,
the takeover after timeouts in a row and the person taking the seat back, a clock per
player with its increment, and a kill -9 with a clock running: the time is given back."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from tests.server.conftest import SQLITE_ONLY, Client, Server

PERSON_AND_BOT = [{"kind": "person"}, {"kind": "bot", "bot": "random"}]
CLOCK_KEYS = {"kind", "seconds", "minutes", "increment", "takeover_timeouts", "bot",
              "left", "running", "server_time", "timeouts"}


def refused(server: Server, body: dict[str, Any]) -> str:
    """A clock refused: message/bad (400) for a value of the wrong JSON type (a text for a
    number, a number for the object), options/bad (422) for one out of its range or kind
    (docs/server.md: Clocks)."""
    answer = server.post("/api/tables", body)
    error = answer.json()["error"]
    clock = body["clock"]
    wrong_type = not isinstance(clock, dict) or any(
        isinstance(v, str | bool) or (k == "timeouts" and isinstance(v, float))
        for k, v in clock.items() if k != "kind")
    assert (answer.status_code, error["code"]) == (
        (400, "message/bad") if wrong_type else (422, "options/bad")), (body, answer.text)
    message: str = error["message"]
    assert message.startswith("a table request: clock")
    return message


@SQLITE_ONLY
def test_the_clock_option_and_its_refusals(server: Server) -> None:
    persons = [{"kind": "person"}, {"kind": "person"}]
    bad: list[Any] = [
        {"kind": "move"},                                   # no seconds
        {"kind": "move", "seconds": 0.5},                   # under 1 s
        {"kind": "move", "seconds": 3601},
        {"kind": "move", "seconds": "15"},                  # a string
        {"kind": "move", "seconds": True},
        {"kind": "move", "seconds": 15, "minutes": 5},
        {"kind": "move", "seconds": 15, "increment": 2},
        {"kind": "player"},                                 # no minutes
        {"kind": "player", "minutes": 0.01},
        {"kind": "player", "minutes": 601},
        {"kind": "player", "minutes": 5, "increment": -1},
        {"kind": "player", "minutes": 5, "increment": 601},
        {"kind": "player", "minutes": 5, "seconds": 10},
        {"kind": "player", "minutes": 5, "timeouts": 0},
        {"kind": "player", "minutes": 5, "timeouts": 1.5},
        {"kind": "blitz", "minutes": 5},
        "5+3", 15, [],
    ]
    for clock in bad:
        refused(server, {"game": "sequence", "seats": persons, "clock": clock})
    assert "'seconds' (1 to 3600)" in refused(
        server, {"game": "sequence", "seats": persons, "clock": {"kind": "move"}})

    plain = server.create("sequence", persons)
    assert "clock" not in plain                              # no clock: no key at all
    table = server.create("sequence", PERSON_AND_BOT,
                          clock={"kind": "player", "minutes": 5, "increment": 3})
    clock = table["clock"]
    assert set(clock) == CLOCK_KEYS
    assert clock["kind"] == "player" and clock["minutes"] == 5 and clock["increment"] == 3
    assert clock["left"] == [300, None]                      # a bot's seat has no clock
    assert clock["running"] is None                          # waiting: nothing runs
    assert clock["bot"] == "heuristic" and clock["takeover_timeouts"] == 3
    lobby = server.get("/api/tables").json()["tables"]
    assert any(t["id"] == table["id"] and t["clock"]["kind"] == "player" for t in lobby)


def slow_player(server: Server, table_id: str, token: str, stop: threading.Event) -> None:
    """A person who thinks 0.3 s a move, until the game is over or ``stop``."""
    client = Client(server, table_id, token)
    try:
        while not stop.is_set():
            try:
                message = client.recv(0.5)
            except TimeoutError:
                continue
            if message["type"] == "over":
                return
            view = client.view
            if (message.get("view") and view.get("legal")
                    and view["version"] == client.version):
                time.sleep(0.3)
                client.send({"type": "move", "move": view["legal"][0],
                             "version": view["version"]})
    finally:
        client.close()


@SQLITE_ONLY
def test_a_time_per_move_runs_out_the_bot_moves_and_the_person_takes_the_seat_back(
        server: Server) -> None:
    # Sequence: the seats move in turn, one move each
    table = server.create("sequence", [{"kind": "person"}, {"kind": "person"}],
                          clock={"kind": "move", "seconds": 1, "timeouts": 2})
    spectator = Client(server, table["id"])
    assert spectator.recv()["table"]["clock"]["running"] is None
    tokens = [server.take(table["id"], n, f"P{n}") for n in (0, 1)]
    to_act = server.get(f"/api/tables/{table['id']}").json()["to_act"]
    other = 1 - to_act
    idle = Client(server, table["id"], tokens[to_act])
    welcome = idle.until("welcome")
    assert welcome["table"]["clock"]["running"] == to_act
    assert 0 < welcome["table"]["clock"]["left"][to_act] <= 1
    # the seat to act does not move: its second runs out, the bot moves for it
    out = idle.until("clock", timed_out=to_act, timeout=10)
    # by the server's clock: what was left at the welcome, not sooner (a busy machine
    # may deliver the welcome late, so the client's own clock would not do)
    left = welcome["table"]["clock"]["left"][to_act]
    waited = out["clock"]["server_time"] - welcome["table"]["clock"]["server_time"]
    assert left - 0.05 <= waited < left + 2, (left, waited)
    assert out["clock"]["running"] is None and out["clock"]["left"][to_act] == 0
    # a move of the timed-out seat now is refused: it is the bot's
    idle.send({"type": "move", "move": welcome["view"]["legal"][0],
               "version": welcome["version"]})
    seen = []
    while True:
        message = idle.recv(10)
        seen.append(message)
        if message["type"] == "event":
            break
    errors = [m for m in seen if m["type"] == "error"]
    assert all(e["code"] in ("move/timed-out", "move/stale") for e in errors), errors
    assert message["seat"] == to_act and message["version"] == welcome["version"] + 1
    after = idle.until("clock")
    assert after["clock"]["timeouts"][to_act] == 1
    assert after["clock"]["running"] == other
    # the other person plays; the idle seat times out again: two in a row, taken over
    stop = threading.Event()
    playing = threading.Thread(target=slow_player,
                               args=(server, table["id"], tokens[other], stop))
    playing.start()
    try:
        presence = idle.until("presence", timeout=15)
        while not presence["bot_playing"][to_act]:
            presence = idle.until("presence", timeout=15)
        summary = server.get(f"/api/tables/{table['id']}").json()
        assert summary["seats"][to_act]["bot_playing"]
        assert summary["clock"]["timeouts"][to_act] >= 2
        assert summary["clock"]["running"] != to_act        # no clock for the bot
        # the person is back: the seat is its own again, its clock runs on its turn
        idle.send({"type": "back"})
        clock = idle.until("clock", timeout=10)["clock"]
        while clock["timeouts"][to_act] != 0:       # (the clocks of moves on the way)
            clock = idle.until("clock", timeout=10)["clock"]
        presence = idle.until("presence", timeout=10)
        assert not presence["bot_playing"][to_act]
        while clock["running"] != to_act:
            clock = idle.until("clock", timeout=10)["clock"]
        # and it plays its own move in time
        while idle.view["version"] < idle.version or not idle.view.get("legal"):
            idle.recv(10)
        view = idle.view
        idle.send({"type": "move", "move": view["legal"][0], "version": view["version"]})
        event = idle.until("event", seat=to_act, timeout=10)
        assert event["version"] == view["version"] + 1
    finally:
        stop.set()
        playing.join(30)
    # the spectator saw the clocks too, and nothing else in them
    spectator.send({"type": "back"})
    assert spectator.until("error")["code"] == "auth/bad-token"
    clocks = [m for m in spectator.messages if m["type"] == "clock"]
    assert any(m.get("timed_out") == to_act for m in clocks)
    for message in clocks:
        assert set(message) <= {"type", "clock", "timed_out"}
        assert set(message["clock"]) == CLOCK_KEYS
    idle.close()
    spectator.close()


@SQLITE_ONLY
def test_a_clock_per_player_with_increment(server: Server) -> None:
    table = server.create("sequence", PERSON_AND_BOT,
                          clock={"kind": "player", "minutes": 0.05, "increment": 1})
    token = server.take(table["id"], 0)
    player = Client(server, table["id"], token)
    welcome = player.until("welcome")
    view = welcome["view"]
    if not view["legal"]:            # the bot leads: wait for our turn
        while not player.view.get("legal"):
            player.recv(10)
        view = player.view
    player.send({"type": "move", "move": view["legal"][0], "version": view["version"]})
    player.until("event", seat=0)
    clock = player.until("clock")["clock"]
    # 3 s, less the moment the move took, plus 1 s; the bot's seat has no clock
    assert 3.3 < clock["left"][0] <= 4.0, clock
    assert clock["left"][1] is None and clock["running"] != 1
    # now idle: the clock runs out after what is left
    while player.view["version"] < player.version or not player.view.get("legal"):
        player.recv(10)
    running = player.until("clock", timeout=5)["clock"] if player.messages[-1][
        "type"] != "clock" else player.messages[-1]["clock"]
    assert running["running"] == 0
    out = player.until("clock", timed_out=0, timeout=10)
    waited = out["clock"]["server_time"] - running["server_time"]    # the server's clock
    assert running["left"][0] - 0.05 <= waited < running["left"][0] + 1.5
    player.until("event", seat=0, timeout=10)       # the bot's move for the seat
    clock = player.until("clock")["clock"]
    assert clock["timeouts"][0] == 1
    assert clock["left"][0] >= 5 - 0.5              # a seat out of time gets 5 s a move
    player.close()
    assert out["clock"]["left"][0] == 0


def test_a_killed_server_gives_back_the_time_it_was_down(db_url: str,
                                                         tmp_path: Path) -> None:
    server = Server(db_url, tmp_path).start()
    try:
        table = server.create("threethirteen", [{"kind": "person"}, {"kind": "person"}],
                              clock={"kind": "player", "minutes": 1, "increment": 0})
        for n in (0, 1):
            server.take(table["id"], n)
        time.sleep(2.5)                                     # the clock runs
        before = server.get(f"/api/tables/{table['id']}").json()["clock"]
        seat = before["running"]
        assert seat is not None and before["left"][seat] < 58.5
        server.kill()                                       # kill -9
        killed_at = time.time()
        at_kill = before["left"][seat] - (killed_at - before["server_time"])
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.stop()
    time.sleep(4)                                           # down for 4 s and more
    again = Server(db_url, tmp_path).start()
    try:
        clock = again.get(f"/api/tables/{table['id']}").json()["clock"]
        assert clock["running"] == seat
        # what it was at the kill, less what passed since the restart; not the downtime
        assert abs(clock["left"][seat] - at_kill) < 1.6, (clock, at_kill)
        assert time.time() - killed_at > 4
        # and it runs on
        time.sleep(1)
        later = again.get(f"/api/tables/{table['id']}").json()["clock"]
        assert 0.5 < clock["left"][seat] - later["left"][seat] < 2
    finally:
        again.stop()
