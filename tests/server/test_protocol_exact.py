"""The protocol exactly as docs/server.md says (issue 27): every item the issue found open
or different, against a real server, SQLite and PostgreSQL; and the tidy lobby (closed
and adjourned tables, over a restart)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.http import http
from tests.server.conftest import SQLITE_ONLY, Client, Server
from tests.server.test_players import me, new_player, take

PERSON = {"kind": "person"}
RANDOM = {"kind": "bot", "bot": "random"}


def refusal(answer: httpx.Response, status: int) -> tuple[str, str]:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["message"]
    return error["code"], error["message"]


def raw_post(server: Server, path: str, content: bytes) -> httpx.Response:
    return http.post(server.base + path, content=content, timeout=30,
                      headers={"content-type": "application/json"})


def closed_with(client: Client, timeout: float = 10) -> int | None:
    """The close code the server closed ``client`` with (reading what is left)."""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            client.ws.recv(timeout=max(0.01, deadline - time.monotonic()))
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None
    raise AssertionError("the connection stayed open")


def eventually(check: Callable[[], bool], timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.1)


@SQLITE_ONLY
def test_table_requests_say_what_is_wrong(server: Server) -> None:
    # not JSON, no body, an empty object, a field missing or of the wrong type: message/bad
    code, message = refusal(raw_post(server, "/api/tables", b"{game"), 400)
    assert code == "message/bad" and "JSON" in message
    for body in (b"", b"{}", b'{"seats": [{"kind": "person"}]}'):
        code, message = refusal(raw_post(server, "/api/tables", body), 400)
        assert code == "message/bad" and "game" in message, (body, message)
    shapes: list[tuple[dict[str, Any], str]] = [
        ({"game": "sequence", "seats": "two"}, "seats"),
        ({"game": 7}, "game"),
        ({"game": "sequence", "options": [1]}, "options"),
        ({"game": "sequence", "takeover_after": "soon"}, "takeover_after")]
    for shape, field in shapes:
        code, message = refusal(server.post("/api/tables", shape), 400)
        assert code == "message/bad" and field in message, (shape, message)
    # NaN and Infinity are not JSON
    code, _ = refusal(raw_post(server, "/api/tables", b'{"game": "sequence", "seats": '
                               b'[{"kind": "bot", "bot": "ismcts", "settings": '
                               b'{"seconds": NaN}}]}'), 400)
    assert code == "message/bad"
    # what the games refuse: options/bad, an option of the wrong type included
    sequence_options: list[dict[str, Any]] = [
        {"teams": "two"}, {"teams": 4}, {"max_turns": 0}, {"max_turns": 1.5},
        {"max_turns": 10**100}, {"max_turns": 10_001}, {"colour": 1}]
    for options in sequence_options:
        code, message = refusal(server.post("/api/tables", {
            "game": "sequence", "options": options, "seats": [PERSON, PERSON]}), 422)
        assert code == "options/bad" and len(message) < 200, (options, message)
    for game, options in (("drawbridge", {"target": 10**100}),
                          ("drawbridge", {"target": 10_001}),
                          ("drawbridge", {"target": True}),
                          ("threethirteen", {"decks": 5}),
                          ("threethirteen", {"aces": "high"})):
        code, message = refusal(server.post("/api/tables", {"game": game,
                                                            "options": options}), 422)
        assert code == "options/bad", (game, options, message)
    assert "at most 10000" in refusal(server.post("/api/tables", {
        "game": "drawbridge", "options": {"target": 10**100}}), 422)[1]
    assert server.create("drawbridge", [PERSON, PERSON],
                         {"target": 10_000})["options"]["target"] == 10_000
    # GET /api/games gives the limits the server takes
    games = {g["name"]: {o["name"]: o for o in g["options"]}
             for g in server.get("/api/games").json()["games"]}
    assert (games["drawbridge"]["target"]["minimum"],
            games["drawbridge"]["target"]["maximum"]) == (1, 10_000)
    assert games["sequence"]["max_turns"]["maximum"] == 10_000
    assert games["sequence"]["teams"]["maximum"] == 3
    assert games["threethirteen"]["decks"]["maximum"] == 4


@SQLITE_ONLY
def test_names_are_refused_or_kept_as_documented(server: Server) -> None:
    table = server.create("sequence", [PERSON] * 4)
    tid = table["id"]
    for name in ("Dara\nSok", "Dara\tSok", "\r", "", "   ", "x" * 33, "a\u202eb", "\x00"):
        code, _ = refusal(server.post(f"/api/tables/{tid}/seats/0", {"name": name}), 400)
        assert code == "name/bad", repr(name)
    code, message = refusal(server.post(f"/api/tables/{tid}/seats/0", {"name": 5}), 400)
    assert code == "message/bad" and "name" in message
    assert not server.get(f"/api/tables/{tid}").json()["seats"][0]["taken"]
    # the ends trimmed, runs of spaces one; Khmer with its zero-width space kept
    taken = server.post(f"/api/tables/{tid}/seats/0", {"name": "  Dara \u00a0  Sok "})
    assert taken.json()["table"]["seats"][0]["name"] == "Dara Sok"
    khmer = "\u179f\u17bb\u1781\u17b6\u200b\u178a\u17b6\u179a\u17c9\u17b6"
    taken = server.post(f"/api/tables/{tid}/seats/1", {"name": khmer})
    assert taken.json()["table"]["seats"][1]["name"] == khmer
    # no name (no body, or null): the seat's number
    assert raw_post(server, f"/api/tables/{tid}/seats/2", b"").json()["table"][
        "seats"][2]["name"] == "seat 2"
    assert server.post(f"/api/tables/{tid}/seats/3", {"name": None}).json()["table"][
        "seats"][3]["name"] == "seat 3"


@SQLITE_ONLY
def test_websocket_answers_as_documented(server: Server) -> None:
    table = server.create("sequence", [PERSON, RANDOM])
    tid = table["id"]
    token = server.take(tid, 0, "Ann")
    # a version that never existed: one error, closed with 4400
    far = Client(server, tid, token, since=5)
    error = far.recv()
    assert error["type"] == "error" and error["code"] == "message/bad"
    assert "since" in error["message"]
    assert closed_with(far) == 4400
    # its own connection is connected in its welcome; since = the version is fine
    ann = Client(server, tid, token, since=0)
    welcome = ann.until("welcome")
    assert welcome["table"]["seats"][0]["connected"] is True
    spectator = Client(server, tid)
    assert spectator.until("welcome")["table"]["seats"][0]["connected"] is True
    # the connection stays open after message/bad and message/too-large
    for bad in ("not json", json.dumps({"type": "dance"}),
                json.dumps({"type": "ping", "pad": "x" * 5000})):
        ann.send(bad)
        assert ann.until("error")["code"] in ("message/bad", "message/too-large")
        ann.send({"type": "ping"})
        ann.until("pong")
    # garbage notation is move/bad, with the table's version
    now = server.get(f"/api/tables/{tid}").json()     # the bot may have opened
    assert now["to_act"] == 0
    for garbage in ("ZZ zz", "", "   ", "x" * 65):
        ann.send({"type": "move", "move": garbage, "version": now["version"]})
        error = ann.until("error")
        assert error["code"] == "move/bad" and error["version"] == now["version"], error
    # a rematch before the end; a spectator's rematch
    ann.send({"type": "rematch"})
    assert ann.until("error")["code"] == "table/not-over"
    spectator.send({"type": "rematch"})
    assert spectator.until("error")["code"] == "auth/bad-token"
    # every live event carries the view: the person's moves and the bot's
    seen = 0
    event: dict[str, Any] = {"seat": 0}
    while seen < 6 or event["seat"] != 1:      # until the bot has moved: Ann is to act
        view = ann.view
        if view.get("legal") and view["version"] == ann.version:
            ann.send({"type": "move", "move": view["legal"][0], "version": view["version"]})
        event = ann.until("event")
        assert "view" in event and event["view"]["version"] == event["version"], event
        seen += 1
    spectator.until("event", version=ann.version)
    live = [m for m in spectator.messages if m["type"] == "event"]
    assert live and all("view" in m for m in live)
    # a reconnect with since gets the missed run, the view on its last event only
    again = Client(server, tid, token, since=1)
    again.until("welcome")
    run = [again.recv() for _ in range(ann.version - 1)]
    assert [m["version"] for m in run] == list(range(2, ann.version + 1))
    assert ["view" in m for m in run] == [False] * (len(run) - 1) + [True]


@SQLITE_ONLY
def test_leaving_mid_game_frees_the_seat_for_someone_else(server: Server) -> None:
    table = server.create("sequence", [PERSON, PERSON])
    tid = table["id"]
    tokens = [server.take(tid, 0, "Ann"), server.take(tid, 1, "Ben")]
    clients = [Client(server, tid, t) for t in tokens]
    for c in clients:
        c.until("welcome")
    first = server.get(f"/api/tables/{tid}").json()["to_act"]
    leaver = 1 - first
    # leaving with the other seat's token, or none: auth/bad-token
    wrong = http.delete(f"{server.base}/api/tables/{tid}/seats/{leaver}",
                         headers={"Authorization": f"Bearer {tokens[first]}"})
    assert refusal(wrong, 401)[0] == "auth/bad-token"
    assert refusal(http.delete(f"{server.base}/api/tables/{tid}/seats/{leaver}"),
                   401)[0] == "auth/bad-token"
    left = http.delete(f"{server.base}/api/tables/{tid}/seats/{leaver}",
                        headers={"Authorization": f"Bearer {tokens[leaver]}"})
    assert left.status_code == 200 and left.json()["left"] == leaver
    gone = clients[leaver].until("error")
    assert gone["code"] == "auth/bad-token"
    assert closed_with(clients[leaver]) == 1000
    summary = server.get(f"/api/tables/{tid}").json()
    assert summary["status"] == "playing" and not summary["seats"][leaver]["taken"]
    # the game waits: the other seat plays its move, then nobody plays for the free seat
    actor = clients[first]
    actor.send({"type": "move", "move": actor.view["legal"][0], "version": 0})
    actor.until("event", version=1)
    # someone else takes the seat by its invite and plays on from where it was
    token = server.take(tid, leaver, "Chan")
    chan = Client(server, tid, token)
    welcome = chan.until("welcome")
    assert welcome["seat"] == leaver and welcome["version"] == 1
    assert welcome["table"]["seats"][leaver]["name"] == "Chan"
    assert welcome["view"]["legal"], welcome["view"]
    chan.send({"type": "move", "move": welcome["view"]["legal"][0], "version": 1})
    assert chan.until("event", version=2)["seat"] == leaver


@pytest.fixture
def strict(sqlite_url: str, tmp_path: Path) -> Iterator[Server]:
    """A server with low rates (the buckets are per connection and address, whatever the
    database)."""
    running = Server(sqlite_url, tmp_path, "--ws-rate", "1", "--http-rate", "0.1").start()
    try:
        yield running
    finally:
        running.stop()


def test_rate_limits_and_bursts(strict: Server) -> None:
    # HTTP: a burst of 3 x --http-rate writes, at least 20; reads 5 x that
    table = strict.create("sequence", [PERSON, PERSON])            # write 1
    answers = [strict.post(f"/api/tables/{table['id']}/seats/9", {"name": "A"})
               for _ in range(19)]
    assert {a.status_code for a in answers} == {404}
    over = strict.post(f"/api/tables/{table['id']}/seats/9", {"name": "A"})
    assert refusal(over, 429)[0] == "limit/rate" and over.headers["retry-after"] == "1"
    with httpx.Client(base_url=strict.base) as http:
        reads = [http.get("/api/health").status_code for _ in range(110)]
    assert 90 <= reads.count(200) <= 100 and set(reads[100:]) == {429}
    # WebSocket: a burst of 10 (2 x --ws-rate, at least 10); refused over it, still open
    client = Client(strict, table["id"])
    client.until("welcome")
    for _ in range(12):
        client.send({"type": "ping"})
    kinds = [client.recv()["type"] for _ in range(13)]      # presence, pongs, errors
    assert kinds.count("pong") == 10 and kinds.count("error") == 2
    time.sleep(1.2)
    client.send({"type": "ping"})
    client.until("pong")
    # 200 refused in a row: closed with 4429 (the server may close before the client has
    # sent all 400: a send then meets the closed connection, whose code is read below)
    try:
        for _ in range(400):
            client.send({"type": "ping"})
    except ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == 4429
        return
    assert closed_with(client) == 4429


@pytest.fixture
def tidy_args() -> tuple[str, ...]:
    return ("--close-waiting-after", "1", "--adjourn-after", "1")


@pytest.fixture
def tidy(db_url: str, tmp_path: Path, tidy_args: tuple[str, ...]) -> Iterator[Server]:
    running = Server(db_url, tmp_path, "--ws-rate", "200", *tidy_args).start()
    try:
        yield running
    finally:
        running.stop()


def lobby_ids(server: Server) -> set[str]:
    return {t["id"] for t in server.get("/api/tables").json()["tables"]}


def status_of(server: Server, table_id: str) -> Any:
    answer = server.get(f"/api/tables/{table_id}")
    return answer.json()["status"] if answer.status_code == 200 else \
        answer.json()["error"]["code"]


@pytest.mark.slow     # about 10 s of waiting for the tidy times, and a restart
def test_the_lobby_tidies_itself_and_it_survives_a_restart(tidy: Server) -> None:
    server = tidy
    # each table is visited as soon as it is made: on a loaded machine the next request
    # may come after the one second a waiting table is kept
    watched = server.create("sequence", [PERSON, PERSON])["id"]
    watcher = Client(server, watched)
    watcher.until("welcome")
    lonely = server.create("sequence", [PERSON, PERSON])["id"]
    # Ann takes her seat with a player key: the adjourned table stays in her list
    _ann_id, ann_key = new_player(server, "Ann")
    playing = server.create("sequence", [PERSON, PERSON])["id"]
    tokens = [take(server, playing, 0, ann_key, "Ann"), server.take(playing, 1, "Ben")]
    bots = server.create("sequence", [RANDOM, RANDOM])["id"]
    ann, ben = Client(server, playing, tokens[0]), Client(server, playing, tokens[1])
    ann.until("welcome")
    ben.until("welcome")
    # a waiting table nobody visits closes; its address says so (410)
    eventually(lambda: status_of(server, lonely) == "table/closed")
    assert refusal(server.get(f"/api/tables/{lonely}"), 410)[0] == "table/closed"
    assert refusal(server.post(f"/api/tables/{lonely}/seats/0", {"name": "A"}),
                   410)[0] == "table/closed"
    gone = Client(server, lonely)
    assert gone.recv()["code"] == "table/closed" and closed_with(gone) == 4410
    # one watched, and a game with its players there, stay
    assert status_of(server, watched) == "waiting" and watched in lobby_ids(server)
    assert status_of(server, playing) == "playing" and playing in lobby_ids(server)
    watcher.close()
    eventually(lambda: status_of(server, watched) == "table/closed")
    # everyone leaves the game: adjourned, out of the lobby, the seats still hold
    to_act = server.get(f"/api/tables/{playing}").json()["to_act"]
    mover = ann if to_act == 0 else ben
    mover.send({"type": "move", "move": mover.view["legal"][0], "version": 0})
    mover.until("event", version=1)
    ann.close()
    ben.close()
    eventually(lambda: status_of(server, playing) == "adjourned")
    assert playing not in lobby_ids(server)
    mine = me(server, ann_key).json()["unfinished"]
    assert [(g["table"], g["status"]) for g in mine] == [(playing, "adjourned")]
    # a spectator may look; it stays adjourned
    spectator = Client(server, playing)
    assert spectator.until("welcome")["table"]["status"] == "adjourned"
    spectator.close()
    assert status_of(server, playing) == "adjourned"
    # a table of bots alone plays to its end, never adjourned
    eventually(lambda: status_of(server, bots) == "over", timeout=60)
    # over a restart: closed stays closed, adjourned stays adjourned
    server.stop()
    server.start()
    assert status_of(server, lonely) == "table/closed"
    assert status_of(server, playing) == "adjourned"
    assert playing not in lobby_ids(server)
    # a player comes back: it plays on from where it was
    ann = Client(server, playing, tokens[0])
    welcome = ann.until("welcome")
    assert welcome["table"]["status"] == "playing" and welcome["version"] == 1
    assert playing in lobby_ids(server)
    ben = Client(server, playing, tokens[1])
    ben.until("welcome")
    mover = ann if welcome["table"]["to_act"] == 0 else ben
    mover.send({"type": "move", "move": mover.view["legal"][0], "version": 1})
    mover.until("event", version=2)
    assert status_of(server, playing) == "playing"


@pytest.mark.parametrize("tidy_args", [("--close-waiting-after", "0",
                                        "--adjourn-after", "0")])
@SQLITE_ONLY
def test_zero_turns_the_tidying_off(tidy: Server) -> None:
    waiting = tidy.create("sequence", [PERSON, PERSON])["id"]
    time.sleep(2)
    assert status_of(tidy, waiting) == "waiting"


def test_serve_states_the_tidy_times_in_its_help() -> None:
    from click.testing import CliRunner

    from cardtable.cli.serve import serve

    text = " ".join(CliRunner().invoke(serve, ["--help"]).output.split())
    assert "--close-waiting-after SECONDS" in text and "default: 3600.0" in text
    assert "--adjourn-after SECONDS" in text and "default: 900.0" in text
