"""Players without accounts (docs/server.md: Players), against a real server on both
databases: a key across two tables, the player page, ratings after whole games between
two scripted players (and after a restart), moving and revoking the key, privacy."""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce
from websockets.exceptions import ConnectionClosed

from cardtable import store
from cardtable.server.players import code_hash, shown
from cardtable.store import Store
from cardtable.store import players as stored
from tests.http import http
from tests.server.conftest import SQLITE_ONLY, Client, Server, play_all, ws_connect

KEY = "X-Player-Key"

#: these tests at one process and through the front address of three
#: (conftest.FrontServer): a player's page, ratings and revoked keys are the cluster's,
#: whichever process answers
FRONT_TOO = {"test_a_player_key_holds_seats_at_two_tables_and_only_its_holder_sees_them",
             "test_ratings_after_whole_games_between_two_scripted_players_and_a_restart",
             "test_revoking_the_key_closes_its_connections_and_voids_its_seat_tokens"}


def new_player(server: Server, name: str | None = None) -> tuple[str, str]:
    answer = http.post(server.base + "/api/players", json={} if name is None
                        else {"name": name}, timeout=30)
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert set(body) == {"player", "key"} and body["player"]["name"] == (name or "")
    return body["player"]["id"], body["key"]


def take(server: Server, table_id: str, seat: int, key: str | None, name: str) -> str:
    headers = {KEY: key} if key else {}
    answer = http.post(f"{server.base}/api/tables/{table_id}/seats/{seat}",
                        json={"name": name}, headers=headers, timeout=30)
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def me(server: Server, key: str | None) -> httpx.Response:
    return http.get(server.base + "/api/players/me", headers={KEY: key} if key else {},
                     timeout=30)


def secrets_absent(text: str, *keys: str) -> None:
    for key in keys:
        assert key not in text
        assert hashlib.sha256(key.encode()).hexdigest() not in text


@SQLITE_ONLY
def test_a_player_key_holds_seats_at_two_tables_and_only_its_holder_sees_them(
        server: Server) -> None:
    ana, ana_key = new_player(server, "Ana")
    bo, bo_key = new_player(server)
    duel = server.create("drawbridge", [{"kind": "person"}, {"kind": "person"}],
                         {"target": 1})
    solo = server.create("sequence", [{"kind": "person"}, {"kind": "bot", "bot": "random"}],
                         {"max_turns": 40})
    take(server, duel["id"], 0, ana_key, "Ana")
    take(server, duel["id"], 1, bo_key, "Bo")
    take(server, solo["id"], 0, ana_key, "Ana")
    # a client without a key is seated as before, and the seat is nobody's
    third = server.create("sequence", [{"kind": "person"}, {"kind": "person"}])
    take(server, third["id"], 0, None, "Kim")

    mine = me(server, ana_key)
    assert mine.status_code == 200 and mine.headers["cache-control"] == "no-store"
    page = mine.json()
    assert page["player"] == {"id": ana, "name": "Ana"}
    held = {g["table"]: g for g in page["unfinished"]}
    assert set(held) == {duel["id"], solo["id"]}
    assert held[duel["id"]]["seat"] == 0 and held[solo["id"]]["seat"] == 0
    assert held[duel["id"]]["summary"]["status"] == "playing"
    assert page["games"] == [] and page["ratings"] == []
    assert {g["table"] for g in me(server, bo_key).json()["unfinished"]} == {duel["id"]}
    # Bo named himself when he took his seat
    assert me(server, bo_key).json()["player"]["name"] == "Bo"

    # the public page: no unfinished game, no key
    public = server.get(f"/api/players/{ana}")
    assert public.status_code == 200
    assert "unfinished" not in public.json() and public.json()["games"] == []
    secrets_absent(public.text, ana_key, bo_key)
    assert server.get("/api/players/nobody").json()["error"]["code"] == "player/not-found"
    for bad in (None, "not-a-key", bo_key + "x"):
        answer = me(server, bad)
        assert answer.status_code == 401
        assert answer.json()["error"]["code"] == "player/bad-key"
    # a bad key taking a seat is refused, not ignored
    answer = http.post(f"{server.base}/api/tables/{third['id']}/seats/1",
                        json={"name": "Eve"}, headers={KEY: "forged"}, timeout=30)
    assert answer.json()["error"]["code"] == "player/bad-key"

    # unfinished tables do not say whose seats they are
    for text in (server.get("/api/tables").text, server.get(f"/api/tables/{duel['id']}").text):
        assert ana not in text and bo not in text
        secrets_absent(text, ana_key, bo_key)

    # the key opens the player's seat on the WebSocket, without the seat token
    ws = connect_with_key(server, solo["id"], ana_key)
    welcome = ws.until("welcome")
    assert welcome["seat"] == 0
    secrets_absent(json.dumps(ws.messages), ana_key, bo_key)
    ws.close()
    refused = connect_with_key(server, solo["id"], bo_key)
    assert refused.recv()["code"] == "auth/bad-token"
    refused.close()
    forged = connect_with_key(server, solo["id"], "forged")
    assert forged.recv()["code"] == "player/bad-key"
    forged.close()


def connect_with_key(server: Server, table_id: str, key: str) -> Client:
    client = Client.__new__(Client)
    client.ws = ws_connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}?player={key}",
                        open_timeout=30)
    client.messages, client.view, client.version = [], {}, -1
    return client


def play_duel(server: Server, keys: dict[int, str], names: dict[int, str], seed: int
              ) -> dict[str, Any]:
    table = server.create("drawbridge", [{"kind": "person"}, {"kind": "person"}],
                          {"target": 1})
    tokens = {seat: take(server, table["id"], seat, keys[seat], names[seat])
              for seat in (0, 1)}
    play_all(server, table, tokens, seed)
    done: dict[str, Any] = server.get(f"/api/tables/{table['id']}").json()
    assert done["status"] == "over"
    return done


def test_ratings_after_whole_games_between_two_scripted_players_and_a_restart(
        server: Server) -> None:
    ana, ana_key = new_player(server, "Ana")
    bo, bo_key = new_player(server, "Bo")
    games = [play_duel(server, {0: ana_key, 1: bo_key}, {0: "Ana", 1: "Bo"}, 0),
             play_duel(server, {0: bo_key, 1: ana_key}, {0: "Bo", 1: "Ana"}, 5),
             play_duel(server, {0: ana_key, 1: bo_key}, {0: "Ana", 1: "Bo"}, 9)]
    # a game against a bot is listed, but not rated
    solo = server.create("sequence", [{"kind": "person"}, {"kind": "bot", "bot": "random"}],
                         {"max_turns": 2})
    play_all(server, solo, {0: take(server, solo["id"], 0, ana_key, "Ana")})

    # the ratings the page must show: OpenSkill over the three games, in order
    model = PlackettLuce()
    rating = {ana: model.rating(), bo: model.rating()}
    won = {ana: 0, bo: 0}
    for game in games:
        ids = [ana if s["name"] == "Ana" else bo for s in game["seats"]]
        winners = game["result"]["winners"]
        assert len(winners) == 1
        won[ids[winners[0]]] += 1
        ranks: list[float] = [1 if n in winners else 2 for n in range(2)]
        [[first], [second]] = model.rate([[rating[ids[0]]], [rating[ids[1]]]], ranks=ranks)
        rating[ids[0]], rating[ids[1]] = first, second

    def check() -> dict[str, Any]:
        page: dict[str, Any] = server.get(f"/api/players/{ana}").json()
        [rated] = page["ratings"]
        assert rated["game"] == "drawbridge" and rated["games"] == 3
        assert rated["rating"] == shown(rating[ana])
        assert abs(rated["mu"] - rating[ana].mu) < 1e-3
        stats = {s["game"]: s for s in page["stats"]}
        assert stats["drawbridge"] == {"game": "drawbridge", "played": 3, "won": won[ana],
                                       "lost": 3 - won[ana], "drawn": 0, "rated": 3}
        assert stats["sequence"]["played"] == 1 and stats["sequence"]["rated"] == 0
        assert len(page["games"]) == 4
        by_table = {g["table"]: g for g in page["games"]}
        assert by_table[solo["id"]]["rated"] is False
        for game in games:
            entry = by_table[game["id"]]
            mine = entry["seat"]
            assert entry["rated"] and entry["replay"] == f"/t/{game['id']}/replay"
            assert entry["outcome"] == ("won" if mine in game["result"]["winners"]
                                        else "lost")
            assert {s["player"] for s in entry["seats"]} == {ana, bo}
        bo_page = server.get(f"/api/players/{bo}").json()
        assert bo_page["ratings"][0]["rating"] == shown(rating[bo])
        return page

    before = check()
    assert server.get(f"/api/tables/{games[0]['id']}/replay").status_code == 200
    # a finished table shows its players and their ratings next to their names
    seats = server.get(f"/api/tables/{games[2]['id']}").json()["seats"]
    assert [s["player"] for s in seats] == [ana, bo]
    assert [s["rating"] for s in seats] == [shown(rating[ana]), shown(rating[bo])]
    # a new table: the lobby does not tell where a rated player sits (no name, no
    # rating, no id), a seat taken without a key shows its name; the table's own page
    # shows the rating next to the name
    waiting = server.create("drawbridge", [{"kind": "person"}, {"kind": "person"}])
    take(server, waiting["id"], 0, ana_key, "Ana")
    take(server, waiting["id"], 1, None, "Cy")
    for query in ("", "?status=playing"):
        [listed] = [t for t in server.get("/api/tables" + query).json()["tables"]
                    if t["id"] == waiting["id"]]
        assert listed["seats"][0]["name"] == "a player"
        assert not {"player", "rating"} & set(listed["seats"][0])
        assert listed["seats"][1]["name"] == "Cy" and "rating" not in listed["seats"][1]
        assert "Ana" not in json.dumps(listed)
    own = server.get(f"/api/tables/{waiting['id']}").json()["seats"][0]
    assert own["name"] == "Ana" and own["rating"] == shown(rating[ana])
    assert "player" not in own

    server.stop()       # derived again from the stored tables
    server.start()
    assert check() == before
    # the unfinished table is still the player's, and only the player sees it
    assert [g["table"] for g in me(server, ana_key).json()["unfinished"]] == [waiting["id"]]


@SQLITE_ONLY
def test_moving_and_revoking_the_key(server: Server) -> None:
    ana, ana_key = new_player(server, "Ana")
    table = server.create("sequence", [{"kind": "person"}, {"kind": "person"}])
    take(server, table["id"], 0, ana_key, "Ana")
    given = http.post(server.base + "/api/players/me/transfer", headers={KEY: ana_key},
                       timeout=30)
    assert given.status_code == 200
    code = given.json()["code"]
    assert given.json()["expires_in"] == 600
    assert given.json()["link"] == f"{server.base}/claim#{code}"
    secrets_absent(given.text, ana_key)
    # typed in by hand in the other browser: case and spaces do not matter
    claimed = http.post(server.base + "/api/players/claim",
                         json={"code": f"  {code.lower().replace('-', ' ')} "}, timeout=30)
    assert claimed.status_code == 200, claimed.text
    moved_key = claimed.json()["key"]
    assert claimed.json()["player"]["id"] == ana and moved_key != ana_key
    again = http.post(server.base + "/api/players/claim", json={"code": code}, timeout=30)
    assert again.status_code == 404 and again.json()["error"]["code"] == "player/bad-code"
    for body, code in (({}, "message/bad"), ({"code": 5}, "message/bad"),
                       ({"code": ""}, "player/bad-code"), ({"code": "x" * 40}, "player/bad-code")):
        answer = http.post(server.base + "/api/players/claim", json=body, timeout=30)
        assert answer.json()["error"]["code"] == code, body
    # both browsers are the player now, and the moved key opens the seat
    for key in (ana_key, moved_key):
        assert [g["table"] for g in me(server, key).json()["unfinished"]] == [table["id"]]
    ws = connect_with_key(server, table["id"], moved_key)
    assert ws.until("welcome")["seat"] == 0
    ws.close()

    # a code given before the revocation dies with it
    stale = http.post(server.base + "/api/players/me/transfer", headers={KEY: ana_key},
                       timeout=30).json()["code"]
    revoked = http.post(server.base + "/api/players/me/revoke", headers={KEY: moved_key},
                         timeout=30)
    assert revoked.status_code == 200
    new_key = revoked.json()["key"]
    assert revoked.json()["player"]["id"] == ana
    for old in (ana_key, moved_key):
        assert me(server, old).json()["error"]["code"] == "player/bad-key"
        ws = connect_with_key(server, table["id"], old)
        assert ws.recv()["code"] == "player/bad-key"
        ws.close()
    assert http.post(server.base + "/api/players/claim", json={"code": stale},
                      timeout=30).json()["error"]["code"] == "player/bad-code"
    assert [g["table"] for g in me(server, new_key).json()["unfinished"]] == [table["id"]]
    ws = connect_with_key(server, table["id"], new_key)
    assert ws.until("welcome")["seat"] == 0
    ws.close()
    assert ana_key not in server.log() and moved_key not in server.log()
    assert new_key not in server.log() and code not in server.log()


@SQLITE_ONLY
def test_revoking_the_key_closes_its_connections_and_voids_its_seat_tokens(
        server: Server) -> None:
    ana, ana_key = new_player(server, "Ana")
    table = server.create("sequence", [{"kind": "person"}, {"kind": "person"}])
    token = take(server, table["id"], 0, ana_key, "Ana")
    other = take(server, table["id"], 1, None, "Bo")
    by_key = connect_with_key(server, table["id"], ana_key)
    assert by_key.until("welcome")["seat"] == 0
    by_token = Client(server, table["id"], token)
    assert by_token.until("welcome")["seat"] == 0
    bo = Client(server, table["id"], other)
    bo.until("welcome")
    revoked = http.post(server.base + "/api/players/me/revoke", headers={KEY: ana_key},
                         timeout=30)
    assert revoked.status_code == 200
    new_key = revoked.json()["key"]
    for ws in (by_key, by_token):
        gone = ws.until("error")
        assert gone["code"] == "player/bad-key"
        with pytest.raises(ConnectionClosed):
            ws.send({"type": "chat", "text": "still here?"})
            ws.recv(timeout=5)
        assert ws.ws.close_code == 4401
    # the token taken with the key opens nothing now; the other seat plays on
    stale = Client(server, table["id"], token)
    assert stale.recv()["code"] == "auth/bad-token"
    stale.close()
    bo.send({"type": "chat", "text": "hello"})
    assert bo.until("chat")["text"] == "hello"
    bo.close()
    left = http.delete(f"{server.base}/api/tables/{table['id']}/seats/0",
                        headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert left.status_code == 401
    # the seat stays the player's: its new key opens it
    ws = connect_with_key(server, table["id"], new_key)
    assert ws.until("welcome")["seat"] == 0
    ws.close()
    assert token not in server.log() and ana_key not in server.log()


def test_a_transfer_code_expires(db_url: str) -> None:
    db = Store(db_url)
    store.ensure_schema(db.engine, db_url)
    try:
        with db.engine.begin() as conn:
            stored.create_player(conn, "p1", "Ana", "k" * 64)
            stored.set_transfer(conn, "p1", code_hash("ABCDE-FGHJK"), time.time() + 600)
        with db.engine.begin() as conn:   # ten minutes and a second later: refused...
            assert stored.claim_transfer(conn, code_hash("ABCDE-FGHJK"), time.time() + 601,
                                         "n" * 64) is None
        with db.engine.begin() as conn:   # ...and used up by the try
            assert stored.claim_transfer(conn, code_hash("ABCDE-FGHJK"), time.time(),
                                         "n" * 64) is None
            assert stored.player_of_key(conn, "n" * 64) is None
            assert stored.player_of_key(conn, "k" * 64) is not None
    finally:
        db.close()


@SQLITE_ONLY
def test_a_game_decided_by_takeover_bots_is_not_rated(server: Server) -> None:
    """Defect 2 of the newcomer's review: both people walked away, the bots that played
    for them after their timeouts finished the game, and it counted for their ratings."""
    ana, ana_key = new_player(server, "Ana")
    bo, bo_key = new_player(server, "Bo")
    table = server.create("sequence", [{"kind": "person"}, {"kind": "person"}],
                          {"max_turns": 12},
                          clock={"kind": "move", "seconds": 1, "timeouts": 1})
    for seat, key, name in ((0, ana_key, "Ana"), (1, bo_key, "Bo")):
        take(server, table["id"], seat, key, name)
    deadline = time.monotonic() + 20          # nobody moves: two timeouts, then bots
    while server.get(f"/api/tables/{table['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.2)

    def check() -> None:
        for player in (ana, bo):
            page = server.get(f"/api/players/{player}").json()
            assert page["ratings"] == []
            [entry] = page["games"]
            assert entry["rated"] is False and entry["unrated"] == "takeover"
            assert page["stats"][0]["played"] == 1 and page["stats"][0]["rated"] == 0

    check()
    server.stop()       # the bots' moves are stored: a restart derives the same
    server.start()
    check()


def test_what_decided_by_bots_means() -> None:
    from cardtable.server.players import decided_by_bots, unrated
    from cardtable.store.players import GameRow

    def row(bot_moves: list[int], moves: list[int]) -> GameRow:
        seats: list[tuple[str, str, str | None]] = [("person", "A", "a"), ("person", "B", "b")]
        return GameRow("t", "sequence", "over", -1, "", "", {"winners": [0], "scores": [1, 0]},
                       seats, {}, bot_moves, moves)

    assert not decided_by_bots(row([3, 0], [4, 4]))      # 3 moves: not more than 3
    assert not decided_by_bots(row([4, 0], [16, 16]))    # 4 of 16: not over a quarter
    assert decided_by_bots(row([0, 5], [17, 17]))        # 5 of 17: both
    assert unrated(row([0, 5], [17, 17])) == "takeover"
    assert unrated(row([1, 0], [17, 17])) is None
    assert unrated(row([], [])) is None                  # stored before: none counted
