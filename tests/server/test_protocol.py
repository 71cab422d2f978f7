"""The protocol end to end: a real server process, real HTTP and WebSocket clients,
SQLite and PostgreSQL (docs/server.md)."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
import pytest

import cardtable
from cardtable import records
from tests.http import http
from tests.server.conftest import SQLITE_ONLY, Client, Server, play_all

# the protocol is the store's business nowhere here: SQLite (conftest.SQLITE_ONLY)
pytestmark = [pytest.mark.slow, SQLITE_ONLY]
#: each test of the ``server`` fixture twice: at one process, and through the front
#: address of three behind HAProxy (conftest.FrontServer; docs/server.md "Routing")
FRONT_TOO = True

GAMES = {
    # game: (options, seats)
    "sequence": ({}, [{"kind": "person"}, {"kind": "person"},
                      {"kind": "bot", "bot": "heuristic"}]),
    "drawbridge": ({"target": 1}, [{"kind": "person"}, {"kind": "person"}]),
    "threethirteen": ({}, [{"kind": "person"}, {"kind": "bot", "bot": "random"},
                           {"kind": "person"}]),
}


def watch(server: Server, table_id: str) -> tuple[Client, threading.Thread]:
    """A spectator reading every message until the game is over."""
    spectator = Client(server, table_id)

    def run() -> None:
        spectator.until("over", timeout=300)

    thread = threading.Thread(target=run)
    thread.start()
    return spectator, thread


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_between_scripted_clients_and_bots(server: Server, game: str) -> None:
    options, seats = GAMES[game]
    table = server.create(game, seats, options)
    persons = [n for n, s in enumerate(seats) if s["kind"] == "person"]
    assert table["status"] == "waiting"
    assert [i is not None for i in table["invites"]] == [s["kind"] == "person" for s in seats]
    assert table["invites"][persons[0]].endswith(f"/t/{table['id']}?seat={persons[0]}")
    lobby = server.get("/api/tables").json()["tables"]
    assert table["id"] in [t["id"] for t in lobby]
    spectator, watching = watch(server, table["id"])
    tokens = {n: server.take(table["id"], n, f"P{n}") for n in persons}
    assert server.get(f"/api/tables/{table['id']}").json()["status"] == "playing"
    played = play_all(server, table, tokens, seed=7)
    watching.join()

    summary = server.get(f"/api/tables/{table['id']}").json()
    assert summary["status"] == "over" and isinstance(summary["seed"], int)
    record = records.from_json(server.get(f"/api/tables/{table['id']}/record").json())
    final = records.replay(record)          # the record replays to its result
    assert record.seed == summary["seed"] and final.is_terminal
    assert len(record.actions) == summary["version"]
    # the spectator saw every move once, in order, and the result
    events = [m for m in spectator.messages if m["type"] == "event"]
    assert [e["version"] for e in events] == list(range(1, summary["version"] + 1))
    assert [(e["seat"], e["move"]) for e in events] == list(record.actions)
    over = spectator.messages[-1]
    assert over["type"] == "over" and over["seed"] == record.seed
    assert over["winners"] == list(final.winners)
    # each player's moves were acknowledged exactly once, at their version
    for seat, (client, acked) in played.items():
        assert acked == sorted(set(acked))
        assert all(record.actions[v - 1][0] == seat for v in acked)
        assert {v for v, (s, _) in enumerate(record.actions, 1) if s == seat} == set(acked)
        client.send({"type": "move", "move": "x", "version": summary["version"]})
        assert client.until("error")["code"] == "move/game-over"
        client.close()
    spectator.close()
    # the game's export formats, at record.{format} and the older record?format=
    # (each answer says when it was written: "saved" may differ by a second)
    served = server.get(f"/api/tables/{table['id']}/record.json").json()
    assert {**served, "saved": None} == {**record.to_json(), "saved": None}
    exports = {g["name"]: g["exports"] for g in server.get("/api/games").json()["games"]}
    assert exports[game] == (["pbn"] if game == "drawbridge" else [])
    for address in ("record.pbn", "record?format=pbn"):
        pbn = server.get(f"/api/tables/{table['id']}/{address}")
        if game == "drawbridge":
            assert pbn.status_code == 200 and '[Contract "' in pbn.text
            assert pbn.text == records.export(record, "pbn")
        else:
            assert pbn.status_code == 404
            assert pbn.json()["error"]["code"] == "record/no-format"


def move_once(client: Client) -> int:
    """Wait for this seat's turn, play its first legal move; the acknowledged version."""
    while True:
        view = client.view
        if view.get("legal") and view["version"] == client.version:
            client.send({"type": "move", "move": view["legal"][0], "version": view["version"]})
            return int(client.until("event", version=view["version"] + 1)["version"])
        client.recv()


def test_a_reconnect_mid_game_gets_the_missed_events_and_plays_on(server: Server) -> None:
    table = server.create("sequence", [{"kind": "person"}, {"kind": "person"},
                                       {"kind": "bot", "bot": "random"}])
    tokens = {n: server.take(table["id"], n) for n in (0, 1)}
    ann = Client(server, table["id"], tokens[0])
    ben = Client(server, table["id"], tokens[1])

    def to_act() -> tuple[int, int]:
        summary = server.get(f"/api/tables/{table['id']}").json()
        return summary["to_act"], summary["version"]

    while True:                     # until seat 0 has moved
        seat, version = to_act()
        if seat == 0:
            mine = move_once(ann)
            break
        if seat == 1:
            move_once(ben)
    ann.close()
    assert ben.until("presence", connected=[False, True, True])
    while True:                     # the others play on until it is seat 0's turn again
        seat, version = to_act()
        if seat == 0 and version > mine:
            break
        if seat == 1:
            move_once(ben)
    back = Client(server, table["id"], tokens[0], since=mine)
    welcome = back.recv()
    assert welcome["type"] == "welcome" and welcome["version"] == version
    assert welcome["seat"] == 0 and welcome["view"]["legal"]
    missed = [back.recv() for _ in range(version - mine)]
    assert [(m["type"], m["version"]) for m in missed] == [
        ("event", v) for v in range(mine + 1, version + 1)]
    assert all("view" not in m for m in missed[:-1]) and missed[-1]["view"] == welcome["view"]
    assert ben.until("presence", connected=[True, True, True])
    # a move resent after the reconnect with its old version is refused, never applied twice
    back.send({"type": "move", "move": welcome["view"]["legal"][0], "version": mine - 1})
    assert back.until("error")["code"] == "move/stale"
    back.close()
    ben.close()
    play_all(server, table, tokens, seed=3)


def test_hints_and_pings(server: Server) -> None:
    table = server.create("sequence", [{"kind": "person"}, {"kind": "bot", "bot": "random"}])
    token = server.take(table["id"], 0)
    client = Client(server, table["id"], token)
    welcome = client.until("welcome")
    client.send({"type": "ping"})
    assert client.until("pong")
    client.send({"type": "hint"})
    hint = client.until("hint", timeout=120)
    assert hint["move"] in welcome["view"]["legal"] and 0 <= hint["win_probability"] <= 1
    assert hint["estimate_of"] == "game"
    spectator = Client(server, table["id"])
    spectator.send({"type": "hint"})
    assert spectator.until("error")["code"] == "auth/bad-token"


def test_a_draw_bridge_call_hint_says_what_each_call_leads_to(server: Server) -> None:
    """Issue 37: not "about 50% chance to win the match" for every call, but the contract
    the hinted call and every other call lead to (par), with the deal's points."""
    from tests.server.test_messages import SERVER_MESSAGES

    table = server.create("drawbridge", [{"kind": "person"}, {"kind": "bot", "bot": "heuristic"}],
                          {"undertricks": True})
    client = Client(server, table["id"], server.take(table["id"], 0))
    view = client.until("welcome")["view"]
    end = time.monotonic() + 60
    while not (view.get("legal") and view["phase"] == "auction"):
        assert time.monotonic() < end, "no call to make in a minute"
        if view.get("legal") and view["version"] == view.get("version"):
            client.send({"type": "move", "move": view["legal"][0], "version": view["version"]})
        while True:
            message = client.recv(30)
            if message.get("view") and message["view"]["version"] >= view["version"]:
                view = message["view"]
                if view.get("legal") or view["phase"] != "draw":
                    break
    client.send({"type": "hint"})
    hint = client.until("hint", timeout=60)
    SERVER_MESSAGES.validate(hint)
    assert hint["estimate_of"] == "match" and hint["move"] in view["legal"]
    assert sorted(c["call"] for c in hint["calls"]) == sorted(view["legal"])
    mine = next(c for c in hint["calls"] if c["call"] == hint["move"])
    assert {k: v for k, v in mine.items() if k != "call"} == hint["outcome"]
    assert hint["outcome"]["win_probability"] == hint["win_probability"]
    for call in hint["calls"]:
        assert len(call["points"]) == 2 and min(call["points"]) >= 0
        if call["contract"] is not None:
            assert call["declarer"] in (0, 1) and 0 <= call["tricks"] <= 13
    # what is at stake differs from call to call (the points, not only a chance)
    assert len({(c["contract"], tuple(c["points"])) for c in hint["calls"]}) > 1
    client.close()


def test_a_bot_takes_over_an_away_seat_and_hands_it_back(server: Server) -> None:
    table = server.create("sequence", [{"kind": "person"}, {"kind": "person"}],
                          takeover_after=1)
    tokens = {n: server.take(table["id"], n) for n in (0, 1)}
    spectator = Client(server, table["id"])
    # nobody connects: after a second, bots play both seats
    spectator.until("event", timeout=30, version=4)
    person = Client(server, table["id"], tokens[0])
    person.until("welcome")
    # seat 0 is back: a bot no longer moves for it; seat 1 is still away
    first = move_once(person)
    assert move_once(person) == first + 2    # seat 1's bot moved in between, not seat 0's
    summary = server.get(f"/api/tables/{table['id']}").json()
    assert [s["bot_playing"] for s in summary["seats"]] == [False, True]


def ws_error(server: Server, table_id: str, token: str | None = None) -> dict[str, Any]:
    client = Client(server, table_id, token)
    message = client.recv()
    client.close()
    return message


def test_every_refusal_has_its_code(server: Server) -> None:
    def code(answer: httpx.Response, status: int) -> str:
        assert answer.status_code == status, answer.text
        error = answer.json()["error"]
        assert error["message"]
        return str(error["code"])

    person = {"kind": "person"}
    bot = {"kind": "bot", "bot": "random"}
    # options/bad
    for body in ({"game": "chess", "seats": [person, person]},
                 {"game": "sequence", "seats": [person] * 5},
                 {"game": "sequence", "options": {"teams": 9}, "seats": [person, person]},
                 {"game": "sequence", "options": {"colour": 1}, "seats": [person, person]},
                 {"game": "sequence", "seats": [person, {"kind": "bot", "bot": "oracle"}]},
                 {"game": "sequence", "seats": [person, {**bot, "settings": {"x": 1}}]},
                 {"game": "sequence", "seats": [person, person], "takeover_after": -1}):
        assert code(server.post("/api/tables", body), 422) == "options/bad", body
    # a field of the wrong type, or none at all: message/bad (test_protocol_exact.py)
    assert code(server.post("/api/tables", {"game": "sequence", "seats": "two"}), 400) == \
        "message/bad"
    bots = server.create("sequence", [person, bot])
    assert code(server.post(f"/api/tables/{bots['id']}/seats/1", {"name": "A"}), 404) == \
        "seat/not-found"
    table = server.create("sequence", [person, person])
    tid = table["id"]
    # table/not-found, seat/not-found, seat/taken
    assert code(server.get("/api/tables/nope"), 404) == "table/not-found"
    assert ws_error(server, "nope")["code"] == "table/not-found"
    assert code(server.post(f"/api/tables/{tid}/seats/7", {"name": "A"}), 404) == \
        "seat/not-found"
    tokens = [server.take(tid, 0, "Ann")]
    assert code(server.post(f"/api/tables/{tid}/seats/0", {"name": "B"}), 409) == "seat/taken"
    # table/not-over
    assert code(server.get(f"/api/tables/{tid}/record"), 409) == "table/not-over"
    # auth/bad-token: WebSocket, leaving, spectators moving
    assert ws_error(server, tid, "forged")["code"] == "auth/bad-token"
    leave = http.delete(f"{server.base}/api/tables/{tid}/seats/0",
                         headers={"Authorization": "Bearer forged"})
    assert code(leave, 401) == "auth/bad-token"
    spectator = Client(server, tid)
    spectator.until("welcome")
    spectator.send({"type": "move", "move": "7H c4", "version": 0})
    assert spectator.until("error")["code"] == "auth/bad-token"
    # table/waiting: seat 1 is free
    ann = Client(server, tid, tokens[0])
    ann.until("welcome")
    ann.send({"type": "move", "move": "7H c4", "version": 0})
    assert ann.until("error")["code"] == "table/waiting"
    tokens.append(server.take(tid, 1, "Ben"))
    ben = Client(server, tid, tokens[1])
    ben.until("welcome")
    ann.until("presence", connected=[True, True])
    first = server.get(f"/api/tables/{tid}").json()["to_act"]
    actor, idle = (ann, ben) if first == 0 else (ben, ann)
    legal = actor.view["legal"]
    assert not idle.view["legal"]  # every view has the key; only the actor has moves
    # move/not-your-turn, move/stale, move/bad, move/illegal, message/bad, message/too-large
    idle.send({"type": "move", "move": legal[0], "version": 0})
    assert idle.until("error")["code"] == "move/not-your-turn"
    # move/stale, a version from the future (the table is at version 0)
    actor.send({"type": "move", "move": legal[0], "version": 3})
    error = actor.until("error")
    assert error["code"] == "move/stale" and "at version 0, not 3" in error["message"]
    actor.send({"type": "move", "move": "ZZ zz", "version": 0})
    error = actor.until("error")
    assert error["code"] == "move/bad" and "ZZ" in error["message"]
    assert error["version"] == 0
    # a move of the game (it parses), not legal now
    not_now = next(a.notation for a in cardtable.new_game("sequence", players=2).actions
                   if a.notation not in legal)
    actor.send({"type": "move", "move": not_now, "version": 0})
    error = actor.until("error")
    assert error["code"] == "move/illegal" and error["message"], error
    for bad in ("not json", "[1, 2]", json.dumps({"type": "dance"}),
                json.dumps({"type": "move", "move": 7, "version": 0}),
                json.dumps({"type": "move", "move": "7H c4"})):
        actor.send(bad)
        assert actor.until("error")["code"] == "message/bad", bad
    actor.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
    assert actor.until("error")["code"] == "message/too-large"
    big = http.post(f"{server.base}/api/tables", content=b"{" + b" " * 20000 + b"}",
                     headers={"content-type": "application/json"})
    assert code(big, 413) == "message/too-large"
    assert code(server.post("/api/tables", None), 400) == "message/bad"
    # the table goes on: a legal move is accepted after all that
    actor.send({"type": "move", "move": legal[0], "version": 0})
    assert actor.until("event", version=1)["seat"] == first
    # move/stale, a version from the past, sent by the seat to act: refused as stale before
    # its move is even read (a server that took it would answer move/illegal at once)
    idle.until("event", version=1)
    idle.send({"type": "move", "move": "ZZ zz", "version": 0})
    error = idle.until("error")
    assert error["code"] == "move/stale" and "at version 1, not 0" in error["message"]
    ann, ben_token = actor, tokens[1]
    # limit/rate: a burst of pings over the limit
    for _ in range(600):
        ann.send({"type": "ping"})
    assert ann.until("error", code="limit/rate")
    # leaving frees the seat; the old token is refused from then on
    left = http.delete(f"{server.base}/api/tables/{tid}/seats/1",
                        headers={"Authorization": f"Bearer {ben_token}"})
    assert left.status_code == 200, left.text
    assert ws_error(server, tid, ben_token)["code"] == "auth/bad-token"
    # HTTP oddities answer in the same format
    assert code(server.get("/api/nothing"), 404) == "http/not-found"
    for extra_slash in ("/api/tables/", "/api/players/%2F"):  # not found: no bare 307
        assert code(server.get(extra_slash), 404) == "http/not-found"
    assert code(http.put(f"{server.base}/api/tables"), 405) == "http/method"
    codes = set()
    with httpx.Client(base_url=server.base) as client:
        for _ in range(300):
            codes.add(client.post("/api/tables", json={"game": "nope"}).json()["error"]["code"])
    assert "limit/rate" in codes


def test_a_slow_bot_at_one_table_does_not_delay_another(server: Server) -> None:
    slow = {"kind": "bot", "bot": "ismcts", "settings": {"seconds": 2.0}}
    thinking = server.create("sequence", [slow, slow])        # keeps a pool worker busy
    watcher = Client(server, thinking["id"])
    table = server.create("sequence", [{"kind": "person"},
                                       {"kind": "bot", "bot": "heuristic"}])
    client = Client(server, table["id"], server.take(table["id"], 0))
    client.until("welcome")
    waits = []
    for _ in range(4):
        start = time.monotonic()
        move_once(client)                   # our move acknowledged...
        while not client.view.get("legal"):  # ...and the heuristic bot's answer back
            client.recv()
        waits.append(time.monotonic() - start)
    # the other table's bot thinks 2 s a move meanwhile; ours never waits for it
    assert max(waits) < 1.5, waits
    assert watcher.until("event", timeout=30)["seat"] in (0, 1)


def test_a_rematch_is_announced_to_the_whole_table(server: Server) -> None:
    seats: list[dict[str, Any]] = [{"kind": "person"},
                                   {"kind": "bot", "bot": "random", "settings": {}}]
    table = server.create("drawbridge", seats, {"target": 1}, takeover_after=600)
    token = server.take(table["id"], 0, "Dara")
    player = Client(server, table["id"], token)
    player.send({"type": "rematch"})
    assert player.until("error")["code"] == "table/not-over"
    player, _acked = play_all(server, table, {0: token}, seed=3)[0]
    other_tab = Client(server, table["id"], token)       # the same player's second tab
    spectator = Client(server, table["id"])
    spectator.until("over")
    spectator.send({"type": "rematch"})
    assert spectator.until("error")["code"] == "auth/bad-token"

    player.send({"type": "rematch"})
    mine = player.until("rematch")
    new_id = mine["table"]
    assert new_id != table["id"] and mine["seat"] == 0 and mine["token"]
    for client in (other_tab, spectator):
        assert client.until("rematch") == {"type": "rematch", "table": new_id}
    # a late reconnect learns it from the old table's summary
    assert server.get(f"/api/tables/{table['id']}").json()["rematch"] == new_id
    late = Client(server, table["id"])
    assert late.until("welcome")["table"]["rematch"] == new_id
    # the same game, options, seat kinds and takeover; the asker seated, the game on
    new = server.get(f"/api/tables/{new_id}").json()
    old = server.get(f"/api/tables/{table['id']}").json()
    assert new["game"] == "drawbridge" and new["options"] == old["options"]
    assert new["takeover_after"] == 600
    assert [(s["kind"], s["bot"], s["settings"]) for s in new["seats"]] == [
        (s["kind"], s["bot"], s["settings"]) for s in old["seats"]]
    assert new["seats"][0]["name"] == "Dara" and new["status"] == "playing"
    fresh = Client(server, new_id, mine["token"])
    assert fresh.until("welcome")["seat"] == 0
    # asking again gives the same table; the seat is taken by now
    other_tab.send({"type": "rematch"})
    assert other_tab.until("rematch") == {"type": "rematch", "table": new_id}
    for client in (player, other_tab, spectator, late, fresh):
        client.close()
    # the link is stored with the old table: a restarted server still gives it
    server.stop()
    server.start()
    assert server.get(f"/api/tables/{table['id']}").json()["rematch"] == new_id
    player = Client(server, table["id"], token)
    assert player.until("welcome")["table"]["rematch"] == new_id
    player.send({"type": "rematch"})
    assert player.until("rematch") == {"type": "rematch", "table": new_id}
    player.close()
