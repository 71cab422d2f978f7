"""Resign, abort, a draw offer and takebacks against a real server (docs/server.md:
Resign, abort and takebacks): the log, the record, the ratings, a kill -9 restart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

import cardtable
from cardtable import records
from cardtable.store import Store, moves
from tests.server.conftest import Client, Server, ws_connect
from tests.server.test_players import new_player, take

GAMES = {"drawbridge": {"target": 1}, "sequence": {}, "threethirteen": {}}
PEOPLE = [{"kind": "person"}, {"kind": "person"}]
BOT = [{"kind": "person"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture
def quick(db_url: str, tmp_path: Path) -> Iterator[Server]:
    """A server on SQLite, and on PostgreSQL (the table's rows of the log on both: the
    tests that restart it and read the stored log)."""
    yield from started(db_url, tmp_path)


@pytest.fixture
def lite(sqlite_url: str, tmp_path: Path) -> Iterator[Server]:
    """A server on SQLite alone (what the stores do alike is checked on both above)."""
    yield from started(sqlite_url, tmp_path)


def started(url: str, tmp_path: Path) -> Iterator[Server]:
    running = Server(url, tmp_path, "--ws-rate", "200").start()
    try:
        yield running
    finally:
        running.stop()


def welcome(client: Client) -> dict[str, Any]:
    return client.until("welcome")


def move(clients: dict[int, Client]) -> int:
    """The seat to act plays its first legal move; every client sees its event. The seat."""
    any_client = next(iter(clients.values()))
    seat = any_client.view["current_player"]
    mover = clients[seat]
    version = mover.view["version"]
    mover.send({"type": "move", "move": mover.view["legal"][0], "version": version})
    for client in clients.values():
        client.until("event", version=version + 1)
    return int(seat)


def duel(server: Server, game: str, keys: bool) -> tuple[dict[str, Any], dict[int, Client],
                                                          list[str]]:
    """A two-person table of ``game`` (with player keys: rated), both connected."""
    table = server.create(game, PEOPLE, GAMES[game])
    players = [new_player(server, name) for name in ("Ana", "Bo")] if keys else []
    tokens = [take(server, table["id"], n, players[n][1] if keys else None, name)
              for n, name in enumerate(("Ana", "Bo"))]
    clients = {n: Client(server, table["id"], tokens[n]) for n in (0, 1)}
    for client in clients.values():
        welcome(client)
    return table, clients, [p[0] for p in players]


def record_of(server: Server, table_id: str) -> dict[str, Any]:
    answer = server.get(f"/api/tables/{table_id}/record.json")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    records.replay(records.from_json(data))       # it loads and replays as it says
    return data


@pytest.mark.slow
def test_a_resignation_in_each_game_is_stored_rated_and_over_after_a_restart(
        quick: Server) -> None:
    ended: dict[str, tuple[dict[str, Any], list[str]]] = {}
    for game in GAMES:
        table, clients, ids = duel(quick, game, keys=True)
        for _ in range(3):
            move(clients)
        clients[1].send({"type": "resign"})
        for client in clients.values():
            over = client.until("over")
            assert (over["ended"], over["by"], over["winners"]) == ("resign", 1, [0])
        clients[0].send({"type": "move", "move": "x", "version": clients[0].view["version"]})
        assert clients[0].until("error")["code"] == "move/game-over"
        clients[1].send({"type": "resign"})
        assert clients[1].until("error")["code"] == "move/game-over"
        summary = quick.get(f"/api/tables/{table['id']}").json()
        assert summary["status"] == "over"
        assert summary["result"]["ended"] == "resign" and summary["result"]["by"] == 1
        record = record_of(quick, table["id"])
        assert record["ending"] == {"kind": "resign", "seat": 1}
        assert record["result"]["winners"] == [0] and len(record["actions"]) == 3
        replay = quick.get(f"/api/tables/{table['id']}/replay").json()
        assert replay["result"]["ended"] == "resign"
        for client in clients.values():
            client.close()
        ended[game] = (record, ids)
    for game, (_, (ana, _bo)) in ended.items():
        page = quick.get(f"/api/players/{ana}").json()
        [rating] = [r for r in page["ratings"] if r["game"] == game]
        assert rating["games"] == 1 and rating["rating"] > 1400
        [entry] = [g for g in page["games"] if g["game"] == game]
        assert entry["outcome"] == "won" and entry["rated"] is True

    quick.kill()            # kill -9: the log holds the resignation
    quick.start()
    for game, (record, (ana, _)) in ended.items():
        table_id = [g for g in quick.get(f"/api/players/{ana}").json()["games"]
                    if g["game"] == game][0]["table"]
        summary = quick.get(f"/api/tables/{table_id}").json()
        assert summary["status"] == "over" and summary["result"]["ended"] == "resign"
        # the stored log: the moves, then the table's own row
        store = Store(quick.db_url)
        try:
            with store.engine.connect() as conn:
                row = store.load(conn, table_id)
                rows = conn.execute(sa.select(moves.c.seat, moves.c.notation).where(
                    moves.c.table_id == table_id).order_by(moves.c.version)).all()
        finally:
            store.close()
        assert row is not None and row.status == "over"
        assert row.log.ending == {"kind": "resign", "seat": 1} and row.version == 4
        assert [tuple(r) for r in rows][-1] == (1, "!resign")
        again = record_of(quick, table_id)
        assert {k: again[k] for k in ("actions", "ending", "result")} == {
            k: record[k] for k in ("actions", "ending", "result")}


@pytest.mark.slow
def test_an_abort_in_each_game_ends_it_unrated_and_only_early(lite: Server) -> None:
    for game in GAMES:
        table, clients, (ana, _) = duel(lite, game, keys=True)
        first = move(clients)               # one person moved, the other not yet
        clients[first].send({"type": "abort"})
        for client in clients.values():
            over = client.until("over")
            assert (over["ended"], over["by"], over["winners"]) == ("abort", first, [])
        record = record_of(lite, table["id"])
        assert record["ending"] == {"kind": "abort", "seat": first}
        assert record["result"]["winners"] == []
        page = lite.get(f"/api/players/{ana}").json()
        assert not [r for r in page["ratings"] if r["game"] == game]
        [entry] = [g for g in page["games"] if g["table"] == table["id"]]
        assert (entry["outcome"], entry["rated"], entry["unrated"]) == (
            "aborted", False, "aborted")
        assert all(s["played"] == 0 for s in page["stats"] if s["game"] == game)
        for client in clients.values():
            client.close()

    # once both people moved, it is too late: resign instead
    table, clients, _ = duel(lite, "sequence", keys=False)
    while len({move(clients) for _ in range(2)}) < 2:
        pass
    clients[0].send({"type": "abort"})
    assert clients[0].until("error")["code"] == "end/too-late"
    # no game has a draw by agreement
    clients[0].send({"type": "draw"})
    error = clients[0].until("error")
    assert error["code"] == "draw/none" and "Sequence" in error["message"]
    spectator = Client(lite, table["id"])
    welcome(spectator)
    spectator.send({"type": "resign"})
    assert spectator.until("error")["code"] == "auth/bad-token"


@pytest.mark.slow
def test_undo_against_a_bot_in_each_game_and_after_a_restart(quick: Server) -> None:
    for game in GAMES:
        table = quick.create(game, BOT, GAMES[game])
        ana, key = new_player(quick, "Ana")
        client = Client(quick, table["id"], take(quick, table["id"], 0, key, "Ana"))
        welcome(client)
        client.send({"type": "undo"})
        assert client.until("error")["code"] == "undo/nothing"
        while client.view.get("current_player") != 0 or not client.view.get("legal"):
            client.recv()
        before = client.view
        # the person moves until the bot has answered (at once: the test server's pace)
        bot_moved = False
        while not bot_moved or client.view.get("current_player") != 0:
            if client.view.get("current_player") == 0 and client.view.get("legal"):
                client.send({"type": "move", "move": client.view["legal"][0],
                             "version": client.view["version"]})
            while True:
                message = client.recv()
                if message["type"] == "event" and "view" in message:
                    bot_moved = bot_moved or any(
                        m.get("seat") == 1 for m in client.messages if m["type"] == "event"
                        and m["version"] > before["version"])
                    break
        client.send({"type": "undo"})
        mine = {m["version"]: m["move"] for m in client.messages
                if m["type"] == "event" and m["seat"] == 0}
        last = max(mine)
        # its last whole turn (Three Thirteen: the draw with the discard) and the bot's
        # moves after it
        keeps_turn = cardtable.new_game(game, **GAMES[game]).keeps_turn
        while last - 1 in mine and keeps_turn(mine[last - 1]):
            last -= 1
        undone = client.view["version"] - last + 1
        done = client.until("undo", status="done")
        assert (done["seat"], done["version"], done["undone"]) == (0, last - 1, undone)
        assert undone >= 2
        after = done["view"]
        assert after["current_player"] == 0 and after["legal"]
        assert after["version"] == last - 1
        client.close()

        quick.kill()        # the takeback is in the log
        quick.start()
        summary = quick.get(f"/api/tables/{table['id']}").json()
        assert summary["version"] == after["version"] and summary["to_act"] == 0
        # the person plays on after the restart (with its key) and then resigns
        seat = Client.__new__(Client)
        seat.ws = ws_connect(quick.ws_url(table["id"]) + f"?player={key}", open_timeout=30)
        seat.messages, seat.view, seat.version = [], {}, -1
        assert welcome(seat)["version"] == after["version"]
        assert seat.view["legal"] == after["legal"] and seat.view["hand"] == after["hand"]
        seat.send({"type": "move", "move": after["legal"][0], "version": after["version"]})
        seat.until("event", version=after["version"] + 1)
        seat.send({"type": "resign"})
        assert seat.until("over")["ended"] == "resign"
        seat.close()
        record = record_of(quick, table["id"])
        assert record["undos"] == [{"seat": 0, "at": after["version"], "undone": undone}]
        assert record["result"]["undos"] == 1
        [entry] = [g for g in quick.get(f"/api/players/{ana}").json()["games"]
                   if g["table"] == table["id"]]
        assert entry["rated"] is False and entry["unrated"] == "undo"


@pytest.mark.slow
def test_undo_with_another_person_is_asked_and_never_in_a_rated_game(lite: Server) -> None:
    table, clients, _ = duel(lite, "threethirteen", keys=False)
    first = move(clients)
    other = 1 - first
    clients[first].send({"type": "undo"})
    for client in clients.values():
        assert client.until("undo", status="asked")["seat"] == first
    clients[first].send({"type": "undo_answer", "accept": True})
    assert clients[first].until("error")["code"] == "undo/not-asked"
    clients[first].send({"type": "undo"})
    assert clients[first].until("error")["code"] == "undo/pending"
    clients[other].send({"type": "undo_answer", "accept": False})
    declined = clients[first].until("undo", status="declined")
    assert (declined["seat"], declined["by"]) == (first, other)
    assert clients[first].view["version"] == 1
    clients[first].send({"type": "undo"})
    clients[other].until("undo", status="asked")
    clients[other].send({"type": "undo_answer", "accept": True})
    for client in clients.values():
        done = client.until("undo", status="done")
        assert done["version"] == 0 and done["undone"] == 1
        client.view = done["view"]
    assert clients[first].view["legal"]
    # a client back with the version it saw before the takeback is not refused
    late = Client(lite, table["id"], since=1)
    assert late.until("welcome")["version"] == 0
    late.close()
    # a move lapses a request
    clients[first].send({"type": "move", "move": clients[first].view["legal"][0],
                         "version": 0})
    for client in clients.values():
        client.until("event", version=1)
    clients[first].send({"type": "undo"})
    clients[other].until("undo", status="asked")
    move(clients)               # told before the move's event
    for client in clients.values():
        assert [m["seat"] for m in client.messages
                if m["type"] == "undo" and m["status"] == "lapsed"] == [first]
    for client in clients.values():
        client.close()

    rated, people, _ = duel(lite, "sequence", keys=True)
    mover = move(people)
    people[mover].send({"type": "undo"})
    error = people[mover].until("error")
    assert error["code"] == "undo/rated"
    for client in people.values():
        client.close()
