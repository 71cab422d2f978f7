"""Fuzzing every input the server takes from a client (JSON messages, move notation,
table options, seat requests): a clear refusal, never a 500, and never a dropped
connection for anyone else."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.server.reading import CHAT_PRESETS
from cardtable.server.refusals import CODES
from tests.http import http
from tests.server.conftest import Client, Server, ws_connect

pytestmark = pytest.mark.slow

#: the request bodies' type (any other is refused with http/content-type before reading)
JSON = {"content-type": "application/json"}
FUZZ = settings(max_examples=100, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

scalars = (st.none() | st.booleans() | st.integers(-2**70, 2**70)
           | st.floats(allow_nan=False) | st.text(max_size=40))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=12)
moves = (st.text(max_size=80)
         | st.sampled_from(["7H c4", "JH a1", "draw", "take", "pass", "1NT", "AS", "XX zz",
                            "discard 3D", "", " ", "\x00", "7h C4", "10H c4"]))
chat_texts = (st.text(max_size=260)
              | st.sampled_from(["<script>alert(1)</script>", "\u202eevil", "a\nb", "\x00",
                                 "សួស្តី\u200bបង", "x" * 200, "x" * 201, " ", ""]))
chat_lines = (
    st.fixed_dictionaries({"type": st.just("chat")},
                          optional={"text": chat_texts | values,
                                    "preset": st.sampled_from([*CHAT_PRESETS, "x", ""])
                                    | values})
    | st.fixed_dictionaries({"type": st.just("mute")},
                            optional={"seat": st.integers(-2, 5) | values,
                                      "muted": st.booleans() | values}))
messages = (
    chat_lines
    | st.fixed_dictionaries({"type": st.just("move"), "move": moves},
                          optional={"version": values | st.integers(-3, 400)})
    | st.fixed_dictionaries({"type": st.sampled_from(["move", "hint", "ping", "back", "MOVE",
                                                      ""])},
                            optional={"move": values, "version": values})
    | values)
option_values = {"target": st.integers(-5, 1000) | values,
                 "teams": st.integers(-1, 6) | st.none() | values,
                 "max_turns": st.integers(-1, 500) | st.none() | values,
                 "aces": st.sampled_from(["low", "high", "x"]) | values}
seat_specs = st.lists(st.fixed_dictionaries({"kind": st.sampled_from(["person", "bot", "x"])},
                                            optional={"bot": st.sampled_from(
                                                ["random", "heuristic", "ismcts", "x"]) | values,
                                                "settings": values}), max_size=5)
clocks = (st.fixed_dictionaries({"kind": st.sampled_from(["move", "player", "x"]) | values},
                                optional={"seconds": st.floats(-10, 5000) | values,
                                          "minutes": st.floats(-1, 700) | values,
                                          "increment": st.floats(-5, 700) | values,
                                          "timeouts": st.integers(-2, 200) | values})
          | values)
table_bodies = (
    st.fixed_dictionaries({"game": st.sampled_from(["sequence", "drawbridge",
                                                    "threethirteen", "x"]) | values},
                          optional={"options": st.fixed_dictionaries({}, optional=option_values)
                                    | values, "seats": seat_specs | values,
                                    "takeover_after": values | st.floats(-10, 1e6),
                                    "clock": clocks})
    | values)


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("fuzz")
    server = Server(f"sqlite:///{folder / 'fuzz.db'}", folder, "--ws-rate", "10000",
                    "--http-rate", "10000", "--chat-rate", "10000", "--no-access-log").start()
    try:
        yield server
    finally:
        server.stop()


def refusal_or_ok(answer: httpx.Response) -> dict[str, Any]:
    assert answer.status_code < 500, answer.text
    body: dict[str, Any] = answer.json()
    if answer.status_code >= 400:
        assert body["error"]["code"] in CODES and body["error"]["message"]
    return body


@pytest.fixture(scope="module")
def tables(fuzz_server: Server) -> dict[str, Any]:
    """A game in play with a seated player to act, and a bystander on another table."""
    table = fuzz_server.create("sequence", [{"kind": "person"}, {"kind": "person"}])
    tokens = [fuzz_server.take(table["id"], n) for n in (0, 1)]
    first = fuzz_server.get(f"/api/tables/{table['id']}").json()["to_act"]
    other = fuzz_server.create("threethirteen", [{"kind": "person"},
                                                 {"kind": "bot", "bot": "random"}])
    bystander = Client(fuzz_server, other["id"], fuzz_server.take(other["id"], 0))
    bystander.until("welcome")
    actor = Client(fuzz_server, table["id"], tokens[first])
    actor.until("welcome")
    spectator = Client(fuzz_server, table["id"])
    spectator.until("welcome")
    watcher = Client(fuzz_server, table["id"])
    watcher.until("welcome")
    return {"table": table, "tokens": tokens, "actor": actor, "bystander": bystander,
            "spectator": spectator, "watcher": watcher}


def answers(client: Client) -> list[dict[str, Any]]:
    """What ``client`` received up to the pong of a ping sent now."""
    client.send({"type": "ping"})
    got = [client.recv(10)]
    while got[-1]["type"] != "pong":
        got.append(client.recv(10))
    return got


def still_served(tables: dict[str, Any]) -> None:
    bystander: Client = tables["bystander"]
    bystander.send({"type": "ping"})
    bystander.until("pong", timeout=10)


@FUZZ
@given(body=table_bodies)
def test_table_options(fuzz_server: Server, body: Any) -> None:
    answer = http.post(fuzz_server.base + "/api/tables", content=json.dumps(body),
                        headers=JSON, timeout=30)
    created = refusal_or_ok(answer)
    if answer.status_code == 201:
        assert created["status"] in ("waiting", "playing")


@FUZZ
@given(table=st.text(max_size=40) | st.sampled_from(["..", "%00", "a/b"]),
       seat=st.text(max_size=6) | st.integers(-3, 20).map(str), body=values)
def test_seat_requests(fuzz_server: Server, table: str, seat: str, body: Any) -> None:
    path = f"/api/tables/{quote(table, safe='') or 'x'}/seats/{quote(seat, safe='') or '0'}"
    answer = http.post(fuzz_server.base + path, content=json.dumps(body), headers=JSON,
                        timeout=30)
    refusal_or_ok(answer)
    header = ascii(body)[:200].strip()      # a header cannot end in a space
    delete = http.delete(fuzz_server.base + path, headers={"Authorization": header},
                          timeout=30)
    refusal_or_ok(delete)


@FUZZ
@given(message=messages)
def test_websocket_messages(fuzz_server: Server, tables: dict[str, Any], message: Any) -> None:
    actor: Client = tables["actor"]
    actor.send(json.dumps(message))
    actor.send({"type": "ping"})
    got = [actor.recv(10)]
    while got[-1]["type"] != "pong":
        got.append(actor.recv(10))
    for answer in got:
        if answer["type"] == "error":
            assert answer["code"] in CODES and answer["code"] != "server/error", answer
            assert answer["message"]
    still_served(tables)


@FUZZ
@given(raw=st.binary(max_size=300) | st.text(max_size=300))
def test_websocket_raw_frames(fuzz_server: Server, tables: dict[str, Any],
                              raw: bytes | str) -> None:
    actor: Client = tables["actor"]
    actor.ws.send(raw)
    actor.send({"type": "ping"})
    while (answer := actor.recv(10))["type"] != "pong":
        if answer["type"] == "error":
            assert answer["code"] in CODES and answer["code"] != "server/error", answer
    still_served(tables)


@FUZZ
@given(body=values | st.fixed_dictionaries({}, optional={"name": values, "code": values}),
       key=st.text(max_size=60), player=st.text(max_size=40))
def test_player_routes(fuzz_server: Server, tables: dict[str, Any], body: Any, key: str,
                       player: str) -> None:
    """The players' routes (docs/server.md: Players) with any body, key and id; and the
    WebSocket with any player key: a refusal, never a crash."""
    header = {"X-Player-Key": ascii(key)[1:-1].strip() or "x"}
    for path in ("/api/players", "/api/players/claim", "/api/players/me/transfer",
                 "/api/players/me/revoke"):
        refusal_or_ok(http.post(fuzz_server.base + path, content=json.dumps(body),
                                 headers={**header, **JSON}, timeout=30))
    refusal_or_ok(http.get(fuzz_server.base + "/api/players/me", headers=header,
                            timeout=30))
    refusal_or_ok(http.get(f"{fuzz_server.base}/api/players/{quote(player, safe='') or 'x'}",
                            timeout=30))
    table = tables["table"]["id"]
    client = Client.__new__(Client)
    client.ws = ws_connect(f"ws://127.0.0.1:{fuzz_server.port}/ws/tables/{table}"
                        f"?player={quote(key, safe='')}", open_timeout=30)
    client.messages, client.view, client.version = [], {}, -1
    first = client.recv(10)
    assert first["type"] == "welcome" or first["code"] in ("player/bad-key",
                                                           "auth/bad-token"), first
    client.close()


@given(line=chat_lines, by_spectator=st.booleans())
def test_chat_messages(fuzz_server: Server, tables: dict[str, Any], line: Any,
                       by_spectator: bool) -> None:
    """Any chat or mute message, from a seat or a spectator: a documented refusal or a
    line; and a spectator never receives a seat's line."""
    sender: Client = tables["spectator" if by_spectator else "actor"]
    sender.send(json.dumps(line))
    for answer in answers(sender):
        if answer["type"] == "error":
            assert answer["code"] in CODES and answer["code"] != "server/error", answer
        if answer["type"] == "chat":
            # a spectator's line is the spectators', a seat's the seats' (and never to
            # a spectator); the actor also reads the spectators' lines of earlier examples
            assert (answer["seat"] is None) == (answer["channel"] == "spectators"), answer
            assert not (by_spectator and answer["channel"] == "seats"), answer
            text = answer["text"]
            assert text is None or (0 < len(text) <= 200 and text == text.strip()
                                    and "\n" not in text and "\u202e" not in text)
    for seen in answers(tables["watcher"]):
        assert seen["type"] != "chat" or seen["channel"] == "spectators", seen
    still_served(tables)


pairing_bodies = values | st.fixed_dictionaries({}, optional={
    "game": st.sampled_from(["sequence", "drawbridge", "threethirteen", "chess", ""]) | values,
    "options": values, "players": values, "bot_after": values, "bot": values,
    "settings": values, "name": values})


@FUZZ
@given(body=pairing_bodies, ticket=st.text(max_size=80), wait=st.text(max_size=12))
def test_pairing_routes(fuzz_server: Server, body: Any, ticket: str, wait: str) -> None:
    """Quick pairing (docs/server.md: Quick pairing) with any body, ticket and wait: a
    refusal or a ticket, never a crash; the ticket asked for is followed and cancelled."""
    key = http.post(fuzz_server.base + "/api/players", json={}, timeout=30).json()["key"]
    header = {"X-Player-Key": key}
    got = refusal_or_ok(http.post(fuzz_server.base + "/api/pairing",
                                   content=json.dumps(body), headers={**header, **JSON},
                                   timeout=30))
    mine = got.get("ticket")
    for name in (mine, quote(ticket, safe="") or "x"):
        if name is None:
            continue
        refusal_or_ok(http.get(f"{fuzz_server.base}/api/pairing/{name}",
                                params={"wait": wait[:12] or "0"} if name != mine else {},
                                headers=header, timeout=40))
        refusal_or_ok(http.delete(f"{fuzz_server.base}/api/pairing/{name}",
                                   headers=header, timeout=30))
