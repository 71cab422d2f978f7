"""Opening a long table (issue 35): a connection that missed more moves than
``--catch-up-limit`` (default 1,000) gets a welcome whose view is a snapshot, marked
``skipped``, instead of the events, so a table of any length opens; a smaller gap gets
its events exactly as before. The tables are written straight into the store (random
Draw Bridge moves, 20,000 and more), then opened on a real ``cardtable serve``."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cardtable
from cardtable import records, store
from cardtable.cli import main
from cardtable.records import GameLog, Seat
from cardtable.server import Settings
from cardtable.store import SeatRow, Store, TableRow, ensure_schema, hash_token
from cardtable.table import Table
from tests.server.conftest import Client, Server

LONG = 20_000
SHORT = 1_200               # a table in play, long enough for a snapshot
LIMIT = 1000                # Settings.catch_up_limit's default
TOKENS = ("seat-zero-token", "seat-one-token")
# Draw Bridge to 300 points, random moves from seed 1: the match ends after 30,117 moves
OPTIONS = {"target": 300}
SEED = 1
SEATS = (0, 1, None)


@dataclass
class Match:
    """A random match played to its end at a two-person table: its moves, its result,
    and what each seat (None: a spectator) sees at SHORT, SHORT + 1, LONG and the end."""

    moves: list[tuple[int, str]]
    result: dict[str, Any]
    views: dict[int, dict[int | None, dict[str, Any]]]


def views(table: Table) -> dict[int | None, dict[str, Any]]:
    """Every seat's view now, as the client reads it."""
    return {seat: json.loads(json.dumps(table.view(seat))) for seat in SEATS}


def random_match() -> Match:
    table = Table.new(cardtable.new_game("drawbridge", **OPTIONS),
                      [Seat("person", "Ann"), Seat("person", "Ben")], seed=SEED)
    rng = random.Random(SEED)
    seen = {}
    while (seat := table.to_act) is not None:
        if table.version in (SHORT, SHORT + 1, LONG):
            seen[table.version] = views(table)
        table.play(seat, rng.choice(table.state.legal_actions()))
    seen[table.version] = views(table)
    result = records.result_of(table.state)
    assert result is not None and table.version > LONG
    return Match(list(table.moves), result, seen)


def store_table(url: str, table_id: str, moves: list[tuple[int, str]],
                result: dict[str, Any] | None = None) -> None:
    """A two-person table after ``moves`` (finished with ``result``), written straight
    into the store (one insert for every move: the server's one call a move would take
    seconds here)."""
    seats = [SeatRow("person", name, token_hash=hash_token(token))
             for name, token in zip(("Ann", "Ben"), TOKENS, strict=True)]
    game = cardtable.new_game("drawbridge", **OPTIONS)
    row = TableRow(id=table_id, log=GameLog("drawbridge", dict(game.options), SEED),
                   takeover_after=None, status="playing" if result is None else "over",
                   version=len(moves), seats=seats)
    db = Store(url)
    ensure_schema(db.engine, url)
    with db.engine.begin() as conn:
        db.create_table(conn, row)
        conn.execute(store.moves.insert(), [
            {"table_id": table_id, "version": version, "seat": seat, "notation": move}
            for version, (seat, move) in enumerate(moves, 1)])
        if result is not None:
            conn.execute(store.tables.update().where(store.tables.c.id == table_id)
                         .values(result=json.dumps(result)))
    db.close()


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Match]]:
    """A server (default settings) holding "long" and "play" (the match in play at
    versions 20,000 and 1,000) and "over" (the whole match, 30,117 versions); the
    match."""
    folder = tmp_path_factory.mktemp("catch-up")
    url = f"sqlite:///{folder / 'tables.db'}"
    match = random_match()
    store_table(url, "long", match.moves[:LONG])
    store_table(url, "play", match.moves[:SHORT])
    store_table(url, "over", match.moves, match.result)
    server = Server(url, folder, "--ws-rate", "200").start()
    try:
        yield server, match
    finally:
        server.stop()


def opened(server: Server, table_id: str, since: int | None, token: str | None = None,
           ) -> tuple[Client, list[dict[str, Any]]]:
    """A connection and every message it got before the answer to a ping (the pong not
    included)."""
    client = Client(server, table_id, token, since)
    client.send({"type": "ping"})
    got = []
    while (message := client.recv(30))["type"] != "pong":
        got.append(message)
    return client, got


def test_a_table_of_20000_versions_opens_from_the_start_the_middle_and_the_end(
        tables: tuple[Server, Match]) -> None:
    server, match = tables
    now = match.views[LONG]
    for since, token, seat in ((0, TOKENS[0], 0), (LONG // 2, TOKENS[1], 1),
                               (0, None, None), (LONG - LIMIT - 1, TOKENS[0], 0)):
        client, got = opened(server, "long", since, token)
        welcome = got[0]
        assert welcome["type"] == "welcome" and welcome["seat"] == seat
        assert welcome["version"] == LONG and welcome["skipped"] == LONG - since
        # the snapshot is the seat's own view now, nothing more
        assert welcome["view"] == now[seat]
        assert [m["type"] for m in got[1:]] == ["presence"]
        client.close()
    # from the last version, or without since: nothing missed, nothing skipped
    for last in (LONG, None):
        client, got = opened(server, "long", last, TOKENS[0])
        assert got[0]["type"] == "welcome" and "skipped" not in got[0]
        assert got[0]["view"] == now[0]
        assert [m["type"] for m in got[1:]] == ["presence"]
        client.close()


def test_a_gap_within_the_limit_gets_its_events_as_before(
        tables: tuple[Server, Match]) -> None:
    server, match = tables
    for gap in (1, 3, LIMIT):
        client, got = opened(server, "long", LONG - gap, TOKENS[0])
        welcome, events = got[0], got[1:-1]
        assert welcome["version"] == LONG and "skipped" not in welcome
        assert [e["version"] for e in events] == list(range(LONG - gap + 1, LONG + 1))
        assert [(e["seat"], e["move"]) for e in events] == match.moves[LONG - gap:LONG]
        assert ["view" in e for e in events] == [False] * (gap - 1) + [True]
        assert events[-1]["view"] == welcome["view"] == match.views[LONG][0]
        assert got[-1]["type"] == "presence"
        client.close()


def test_play_goes_on_after_a_snapshot(tables: tuple[Server, Match]) -> None:
    server, match = tables
    seat, move = match.moves[SHORT]
    mover, got = opened(server, "play", 0, TOKENS[seat])
    assert got[0]["skipped"] == SHORT and got[0]["view"] == match.views[SHORT][seat]
    other, _ = opened(server, "play", 0, TOKENS[1 - seat])
    mover.send({"type": "move", "move": move, "version": SHORT})
    for client, who in ((mover, seat), (other, 1 - seat)):
        event = client.until("event")
        assert event["version"] == SHORT + 1 and event["move"] == move
        assert event["view"] == match.views[SHORT + 1][who]
        client.close()


def test_a_long_finished_table_opens_with_its_result(tables: tuple[Server, Match]) -> None:
    server, match = tables
    end = len(match.moves)
    for since in (0, end // 2, end - LIMIT - 1, end - LIMIT, end - 1, end, None):
        client, got = opened(server, "over", since, TOKENS[1])
        welcome = got[0]
        assert welcome["version"] == end and welcome["view"] == match.views[end][1]
        assert welcome["view"]["is_terminal"]
        missed = 0 if since is None else end - since
        skipped = missed > LIMIT
        assert welcome.get("skipped") == (missed if skipped else None)
        kinds = [m["type"] for m in got[1:]]
        assert kinds == ["event"] * (0 if skipped else missed) + ["over", "presence"]
        assert got[-2] == {"type": "over", "version": end, "seed": SEED, **match.result}
        client.close()


def test_the_catch_up_limit_is_an_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    assert Settings(db_url="sqlite://").catch_up_limit == LIMIT
    with pytest.raises(ValueError, match="catch_up_limit is 0 to 1000"):
        Settings(db_url="sqlite://", catch_up_limit=1001)
    given: list[Settings] = []
    monkeypatch.setattr("cardtable.server.serve", lambda settings, **_: given.append(settings))
    url = f"sqlite:///{tmp_path / 'a.db'}"
    runner = CliRunner()
    assert runner.invoke(main, ["serve", "--db", url, "--catch-up-limit", "0"]).exit_code == 0
    assert given[0].catch_up_limit == 0
    answer = runner.invoke(main, ["serve", "--db", url, "--catch-up-limit", "1001"])
    assert answer.exit_code == 2 and "--catch-up-limit" in answer.output
