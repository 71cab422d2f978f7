"""The typed messages (cardtable.server.messages): what a client sends is read or refused
with a documented code, never a crash; what the server sends fits the WebSocket schema;
the schema's copy in docs is current; the OpenAPI document and the schema are served.
(Fast: not marked slow; every message the slow tests receive is checked against the
schema by their Client.)"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardtable
from cardtable.server import bodies, messages, reading
from cardtable.server.refusals import CODES, Refusal
from cardtable.table import Seat, Table
from tests.server.conftest import SERVER_MESSAGES, Client, Server

ROOT = Path(__file__).resolve().parents[2]
CLIENT_MESSAGES = jsonschema.Draft202012Validator(
    {"$defs": messages.ws_schema()["$defs"], "$ref": "#/$defs/ClientMessage"})

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                               max_size=4), max_leaves=10)
message_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["move", "hint", "rematch", "ping", "MOVE", ""])},
    optional={"move": json_values | st.text(max_size=80), "version": json_values})


@given(data=json_values | message_like)
def test_any_client_message_is_read_or_refused_as_message_bad(data: Any) -> None:
    try:
        message = messages.read_message(data)
    except Refusal as refusal:
        # a move's text of the right type that names no move (blank, too long): move/bad
        moving = (isinstance(data, dict) and data.get("type") == "move"
                  and isinstance(data.get("move"), str))
        assert refusal.code in (("message/bad", "move/bad") if moving else ("message/bad",))
        assert refusal.message
        return
    assert CLIENT_MESSAGES.is_valid(data)       # what is read fits the published schema
    assert message.type == data["type"]


@given(data=json_values | st.fixed_dictionaries(
    {"game": json_values}, optional={"options": json_values, "seats": json_values,
                                     "takeover_after": json_values}))
def test_any_table_request_is_read_or_refused_as_options_bad(data: Any) -> None:
    try:
        request = reading.read(bodies.CreateTable, data, "options/bad", "a table")
    except Refusal as refusal:
        # the request's shape (no object, a field missing or of the wrong type) is
        # message/bad; a value of the right type refused is options/bad
        assert refusal.code in (("options/bad", "message/bad") if isinstance(data, dict)
                                else ("message/bad",))
        assert refusal.message.startswith("a table")
        return
    assert request.game == data["game"]


@pytest.mark.parametrize(("data", "why"), [
    ({"type": "move", "move": 7, "version": 0}, "a move message: move: "),
    ({"type": "move", "move": "7H c4"}, "a move message: version: Field required"),
    ({"type": "move", "move": "7H c4", "version": True}, "version: "),
    ({"type": "dance"}, "'type' is one of move, hint, rematch, ping"),
    ([1, 2], "must be a JSON object"),
])
def test_refusals_say_what_is_wrong(data: Any, why: str) -> None:
    with pytest.raises(Refusal, match=re.escape(why)) as caught:
        messages.read_message(data)
    assert caught.value.code == "message/bad"


def test_a_blank_move_is_move_bad() -> None:
    for move in (" ", "x" * 65):
        with pytest.raises(Refusal, match="a move message: move") as caught:
            messages.read_message({"type": "move", "move": move, "version": 1})
        assert caught.value.code == "move/bad"


def test_names_are_trimmed_and_checked() -> None:
    assert reading.read(bodies.TakeSeat, {"name": "  Dara   Sok "}, "name/bad",
                         "a seat").name == "Dara Sok"
    for bad in ("", "x" * 33, "a\x00b", "a\nb", "a\u202eb"):
        with pytest.raises(Refusal, match="a seat: name") as caught:
            reading.read(bodies.TakeSeat, {"name": bad}, "name/bad", "a seat")
        assert caught.value.code == "name/bad"
    with pytest.raises(Refusal, match="a seat: name") as caught:
        reading.read(bodies.TakeSeat, {"name": 7}, "name/bad", "a seat")
    assert caught.value.code == "message/bad"


SUMMARY = messages.TableSummary(
    id="AbC", game="sequence", title="Sequence", options={"players": 2}, game_info={}, seats=[
        messages.SeatSummary(seat=0, kind="person", name="Dara", bot=None, settings={},
                             taken=True, connected=True, bot_playing=False)],
    status="waiting", version=0, to_act=0, takeover_after=None, created="2026-12-01T00:00:00Z")


@pytest.mark.parametrize("message", [
    messages.Welcome(seat=None, version=0, view={"hand": []}, table=SUMMARY),
    messages.Event(version=3, seat=1, move="7H c4", drawn=["KD"], view={"version": 3}),
    messages.Event.model_validate({"version": 3, "seat": 1, "move": "7H c4", "phase": "play",
                                   "public": {"card": "7H", "cell": "c4"}, "extra": [1]}),
    messages.Presence(connected=[True, False], bot_playing=[False, False]),
    messages.HintFound(move="pass", win_probability=0.5, estimate_of="match", version=2),
    messages.HintFound(move="2D", win_probability=0.0, estimate_of="match", version=30,
                       outcome=messages.HintOutcome(contract="2DX", declarer=0, tricks=6,
                                                    points=[0, 200], win_probability=0.0),
                       calls=[messages.HintOutcome(call="pass", contract=None, declarer=None,
                                                   tricks=None, points=[0, 0],
                                                   win_probability=0.5)]),
    messages.Over(winners=[0], scores=[100, 20], seed=7, version=80),
    messages.error_message(Refusal("move/bad", "no such move"), 3),
    messages.RematchTable(table="new"),
    messages.RematchTable(table="new", seat=1, token="t"),
    messages.Pong(),
    messages.ClockMessage(clock=messages.ClockState(
        kind="player", seconds=None, minutes=5, increment=3, takeover_timeouts=3,
        bot="heuristic", left=[287.5, None], running=0, server_time=1.5e9,
        timeouts=[1, 0]), timed_out=0),
], ids=lambda m: type(m).__name__)
def test_every_server_message_fits_the_schema(message: messages.Out) -> None:
    data = json.loads(message.text())
    SERVER_MESSAGES.validate(data)
    assert data["type"] and data == message.data()


def test_keys_not_given_are_not_written() -> None:
    assert messages.RematchTable(table="new").data() == {"type": "rematch", "table": "new"}
    assert messages.error_message(Refusal("seat/taken", "taken")).data() == {
        "type": "error", "code": "seat/taken", "message": "taken"}
    event = messages.Event(version=1, seat=0, move="pass").data()
    assert event == {"type": "event", "version": 1, "seat": 0, "move": "pass"}
    assert SUMMARY.data()["to_act"] == 0 and "seed" not in SUMMARY.data()


def test_the_schema_refuses_what_the_server_must_not_send() -> None:
    assert not SERVER_MESSAGES.is_valid({"type": "pong", "extra": 1})
    assert not SERVER_MESSAGES.is_valid({"version": 1})
    assert not SERVER_MESSAGES.is_valid({"type": "event", "version": 1, "seat": 0})


def test_every_incoming_example_is_read() -> None:
    for kind, model in messages.INCOMING.items():
        data = json.loads(model.example)
        assert messages.read_message(data).type == kind
        CLIENT_MESSAGES.validate(data)


def test_the_docs_copy_of_the_schema_is_current() -> None:
    path = ROOT / "docs" / "ws-schema.json"
    assert path.read_text() == messages.ws_schema_text(), (
        "run: python -m cardtable.server.messages docs/ws-schema.json")


def test_every_code_is_in_the_docs_table() -> None:
    text = (ROOT / "docs" / "server.md").read_text()
    table = text.split("### Codes", 1)[1].split("\n\n", 2)[1]
    documented = set(re.findall(r"`([a-z]+/[a-z-]+)`", table))
    assert documented == set(CODES)


def test_the_api_and_the_schema_are_served(sqlite_url: str, tmp_path: Path) -> None:
    server = Server(sqlite_url, tmp_path).start()
    try:
        api = server.get("/api/openapi.json").json()
        paths = set(api["paths"])
        assert {"/api/games", "/api/tables", "/api/tables/{table_id}",
                "/api/tables/{table_id}/seats/{seat}", "/api/tables/{table_id}/record.{fmt}",
                "/api/health", "/api/ws-schema.json"} <= paths
        assert all(p.startswith("/api/") for p in paths)
        body = api["paths"]["/api/tables"]["post"]["requestBody"]
        assert body["content"]["application/json"]["schema"]["$ref"].endswith("/CreateTable")
        assert {"CreateTable", "SeatRequest", "TakeSeat", "TableAnswer", "ErrorBody"} <= set(
            api["components"]["schemas"])
        assert server.get("/api/ws-schema.json").json() == messages.ws_schema()
        # an answer fits its documented model; a refusal the error body
        table = server.create("sequence", [{"kind": "person"}, {"kind": "bot", "bot": "random"}])
        bodies.TableAnswer.model_validate(table)
        refused = server.post("/api/tables", {"game": "sequence", "seats": [{"kind": "x"}]})
        assert refused.status_code == 422
        assert bodies.ErrorBody.model_validate(refused.json()).error.code == "options/bad"
        not_an_object = server.post("/api/tables", [1, 2])      # as before the typed messages
        assert (not_an_object.status_code, not_an_object.json()["error"]["code"]) == (
            400, "message/bad")
        client = Client(server, table["id"])         # a spectator: its messages are checked
        assert client.recv()["type"] == "welcome"
        client.close()
    finally:
        server.stop()


@pytest.mark.parametrize("game", ["sequence", "drawbridge", "threethirteen"])
def test_an_event_written_straight_is_the_event_model(game: str) -> None:
    """messages.event_text (the server's hot path) writes what messages.Event would, for
    every seat and a spectator after every move of a random game."""
    rng = random.Random(5)
    table = Table.new(cardtable.new_game(game), [Seat("person", "A"), Seat("person", "B")],
                      seed=11)
    for _ in range(120):
        if table.state.is_terminal:
            break
        seat = table.state.current_player
        assert seat is not None
        table.play(seat, rng.choice(table.view(seat)["legal"]))
        for who in (0, 1, None):
            for event in table.events_since(max(0, table.version - 2), who):
                view = table.view(who)
                text = messages.event_text(event, view)
                model = messages.Event(**event, view=view)
                assert json.loads(text) == model.data()
                assert messages.Event.model_validate_json(text) == model
                SERVER_MESSAGES.validate(json.loads(messages.event_text(event)))
