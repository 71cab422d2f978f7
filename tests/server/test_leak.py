"""Nothing leaks: over whole games of each game, every view a seat receives is exactly the
engine's own view for that seat at that version, spectators get the public view, events
carry drawn cards only to the seat that drew them, no chat line of the seats reaches a
spectator (live or in a welcome), and no message, HTTP answer or log line holds the seed
(before the end), a token or another seat's hand."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest

from cardtable import records
from tests.server.conftest import Client, Server, play_all
from tests.server.test_protocol import GAMES

pytestmark = pytest.mark.slow

VOLATILE = ("history", "version", "legal")
CHAT_KEYS = {"type", "n", "channel", "seat", "name", "text", "preset", "at"}
SEATS_LINE = "for the seats only"
RAIL_LINE = "from the rail"


def check_chat(line: dict[str, Any], seat: int | None) -> None:
    """A chat line has only its keys (a spectator's line also its sender's opaque id, what
    a seat mutes: a short token that names no address), and a spectator reads only the
    spectators'."""
    if line["channel"] == "spectators":
        assert re.fullmatch(r"[A-Za-z0-9_-]{11}", line["spectator"]), line
        assert set(line) == CHAT_KEYS | {"spectator"}, line
    else:
        assert set(line) == CHAT_KEYS, line
    assert line["channel"] in ("seats", "spectators")
    assert (line["seat"] is None) == (line["channel"] == "spectators"), line
    if seat is None:
        assert line["channel"] == "spectators" and SEATS_LINE not in json.dumps(line), line


CLOCK_KEYS = {"kind", "seconds", "minutes", "increment", "takeover_timeouts", "bot",
              "left", "running", "server_time", "timeouts"}


def engine_view(state: Any, seat: int | None) -> dict[str, Any]:
    view = dict(state.view(seat))
    for key in VOLATILE:
        view.pop(key, None)
    return json.loads(json.dumps(view))


def check_messages(messages: list[dict[str, Any]], seat: int | None, states: list[Any],
                   seed: int) -> int:
    """Every view against the engine's; returns how many were checked."""
    checked = 0
    over = False
    for message in messages:
        text = json.dumps(message)
        if message["type"] == "over":
            over = True
            assert message["seed"] == seed
        elif not over:
            assert str(seed) not in text, message["type"]
            assert "seed" not in message.get("table", {})
        if message["type"] == "chat":
            check_chat(message, seat)
        for line in message.get("chat", []) if message["type"] == "welcome" else []:
            check_chat(line, seat)
        if message["type"] == "clock" or "clock" in message.get("table", {}):
            # the clock: numbers per seat and the clock's settings, nothing of the game
            clock = message["clock"] if message["type"] == "clock" else message["table"][
                "clock"]
            assert set(message) <= {"type", "clock", "timed_out"} | (
                {"seat", "version", "view", "table", "chat", "muted", "muted_spectators"}
                if message["type"] == "welcome" else set())
            assert set(clock) == CLOCK_KEYS, clock
            assert all(v is None or isinstance(v, float | int) for v in clock["left"])
            assert all(isinstance(v, int) for v in clock["timeouts"])
        if message["type"] == "event":
            assert set(message) <= {"type", "version", "seat", "move", "drawn", "dealt",
                                     "phase", "public", "view"}
            state = states[message["version"]]
            for key in ("drawn", "dealt"):
                if key in message:
                    # cards that came into this seat's own hand, and no spectator's
                    assert seat is not None, message
                    hand = engine_view(state, seat).get("hand", [])
                    assert set(message[key]) <= set(hand), message
        if "view" in message:
            version = message["view"]["version"]
            state = states[version]
            got = {k: v for k, v in message["view"].items() if k not in VOLATILE}
            assert got == engine_view(state, seat), (seat, version)
            legal = [a.notation for a in state.legal_actions()] if (
                seat is not None and state.current_player == seat) else []
            assert message["view"].get("legal") == legal
            checked += 1
    return checked


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_message_holds_what_its_seat_may_not_know(sqlite_url: str, tmp_path: Path,
                                                    game: str) -> None:
    server = Server(sqlite_url, tmp_path, "--ws-rate", "500").start()
    try:
        options, seats = GAMES[game]
        # a clock per player that runs but never runs out: its messages are checked too
        table = server.create(game, seats, options,
                              clock={"kind": "player", "minutes": 60, "increment": 1})
        assert "seed" not in table and table["clock"]["kind"] == "player"
        spectator = Client(server, table["id"])
        watching = threading.Thread(target=lambda: spectator.until("over", timeout=300))
        watching.start()
        persons = [n for n, s in enumerate(seats) if s["kind"] == "person"]
        tokens = {n: server.take(table["id"], n, f"P{n}") for n in persons}
        # a seat and a spectator chat before the game: the seats then read both lines in
        # their welcome, the spectator watching only the spectators' one
        talker = Client(server, table["id"], tokens[persons[0]])
        talker.send({"type": "chat", "text": SEATS_LINE})
        assert talker.until("chat")["channel"] == "seats"
        rail = Client(server, table["id"])
        rail.send({"type": "chat", "text": RAIL_LINE})
        assert rail.until("chat")["text"] == RAIL_LINE
        talker.close()
        rail.close()
        summary = server.get(f"/api/tables/{table['id']}").json()
        assert "seed" not in summary and "seed" not in json.dumps(server.get(
            "/api/tables").json()["tables"][0])
        played = play_all(server, table, tokens, seed=11)
        watching.join()
        record = records.from_json(server.get(f"/api/tables/{table['id']}/record").json())
        assert record.seed is not None
        states = list(records.positions(record))
        for seat, (client, _) in played.items():
            assert check_messages(client.messages, seat, states, record.seed) > 0
            said = [line["text"] for line in client.messages[0]["chat"]]
            assert said == [SEATS_LINE, RAIL_LINE]
            # the seat's own new cards came with the events
            assert any("drawn" in m or "dealt" in m for m in client.messages)
            client.close()
        assert check_messages(spectator.messages, None, states, record.seed) == len(states)
        assert [m["text"] for m in spectator.messages if m["type"] == "chat"] == [RAIL_LINE]
        assert any(m["type"] == "clock" for m in spectator.messages)
        spectator.close()
    finally:
        server.stop()
    log = server.log()
    for token in tokens.values():
        assert token not in log
    assert str(record.seed) not in log
    assert SEATS_LINE not in log and RAIL_LINE not in log
    assert "token=***" in log        # the WebSocket lines are there, their tokens hidden
