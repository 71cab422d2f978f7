"""The store and its migrations, the server's refusal of an outdated schema, and a smoke
test of a real server (fast: not marked slow)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

from cardtable import records, store
from cardtable.cli import main
from cardtable.records import GameLog
from cardtable.store import ConflictError, SeatRow, Store, TableRow
from tests.server.conftest import Client, Server


@pytest.mark.parametrize("command", [["serve"], ["db", "status"], ["db", "upgrade"]])
def test_a_db_that_is_no_database_url_is_refused_in_words(command: list[str],
                                                          tmp_path: Path) -> None:
    """A file's path, an empty value, a database cardtable does not keep its tables in, a
    port that is no number: a usage error saying what --db takes, never a traceback, and
    never the password of a URL."""
    for value, said in ((str(tmp_path / "t.db"), f"--db sqlite:///{tmp_path / 't.db'}"),
                        ("", "not a database URL"),
                        ("mysql://u@h/d", "SQLite or PostgreSQL, not mysql"),
                        ("postgresql://u:s3cret@h:x/n", "not a database URL")):
        result = CliRunner().invoke(main, [*command, "--db", value])
        assert result.exit_code == 2 and said in result.output, result.output
        assert "Traceback" not in result.output and "s3cret" not in result.output


def test_db_upgrade_creates_the_schema_and_serve_refuses_an_outdated_one(tmp_path: Path
                                                                          ) -> None:
    url = f"sqlite:///{tmp_path / 'a.db'}"
    runner = CliRunner()
    result = runner.invoke(main, ["db", "status", "--db", url])
    assert result.exit_code == 0 and "empty" in result.output
    result = runner.invoke(main, ["db", "upgrade", "--db", url])
    assert result.exit_code == 0 and store.head_revision() in result.output
    assert "current" in runner.invoke(main, ["db", "status", "--db", url]).output
    engine = store.make_engine(url)
    from alembic import command
    with engine.begin() as conn:             # a database of an older cardtable...
        command.downgrade(store._alembic_config(conn), "0001")
    assert store.schema_status(engine) == "outdated"
    engine.dispose()
    result = runner.invoke(main, ["serve", "--db", url, "--port", "1"])
    assert result.exit_code != 0                # ...is refused, naming the fix
    assert f"cardtable db upgrade --db {url}" in result.output
    result = runner.invoke(main, ["db", "upgrade", "--db", url])
    assert f"from 0001 to revision {store.head_revision()}" in result.output
    engine = store.make_engine(url)
    assert store.schema_status(engine) == "current"
    assert {"owner", "rematch", "chat", "clock", "bot_pace"} <= {
        c["name"] for c in sa.inspect(engine).get_columns("tables")}
    assert {"chat", "chat_mutes"} <= set(sa.inspect(engine).get_table_names())
    engine.dispose()


def test_migration_0007_keeps_the_tables_stored_before_it(tmp_path: Path) -> None:
    """A table stored at 0006 (bots at once, no bot moves counted) upgrades to the bot
    pace and takeover counts of issue 37: a null pace (at once, as it was made) and 0
    bot moves per seat; a bot's move for a person is counted from then on."""
    url = f"sqlite:///{tmp_path / 'm.db'}"
    engine = store.make_engine(url)
    store.upgrade(engine, "0006")
    with engine.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO tables (id, game, options, seed, status, version, created, "
            "updated, chat) VALUES ('old', 'sequence', '{\"players\": 2}', 5, 'playing', "
            "0, 'then', 'then', 1)"))
        conn.execute(sa.text(
            "INSERT INTO seats (table_id, seat, kind, name, settings) VALUES "
            "('old', 0, 'person', 'Ann', '{}'), ('old', 1, 'bot', 'random', '{}')"))
    store.upgrade(engine)
    assert store.schema_status(engine) == "current"
    engine.dispose()
    db = Store(url)
    with db.engine.begin() as conn:
        db.count_bot_move(conn, "old", 0)
    with db.engine.connect() as conn:
        loaded = db.load(conn, "old")
    assert loaded is not None and loaded.bot_pace is None
    assert [s.bot_moves for s in loaded.seats] == [1, 0]
    db.close()


def test_a_database_cardtable_did_not_make_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'b.db'}"
    engine = store.make_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE accounts (id INTEGER)"))
    with pytest.raises(store.SchemaError, match="empty database"):
        store.ensure_schema(engine, url)
    engine.dispose()


def test_the_move_log_appends_in_order_and_refuses_a_gap(db_url: str) -> None:
    url = db_url
    db = Store(url)
    store.ensure_schema(db.engine, url)
    if url.startswith("sqlite"):
        with db.engine.connect() as conn:
            assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
    row = TableRow(id="t1", log=GameLog("sequence", {"players": 2}, 5),
                   takeover_after=None, status="waiting", version=0,
                   seats=[SeatRow("person", ""), SeatRow("bot", "random", "random")])
    with db.engine.begin() as conn:
        db.create_table(conn, row)
        assert db.take_seat(conn, "t1", 0, "Ann", store.hash_token("secret"), "playing")
        assert not db.take_seat(conn, "t1", 0, "Ben", store.hash_token("other"), None)
        db.append_move(conn, "t1", 1, 0, "7H c4", None)
        with pytest.raises(ConflictError):
            db.append_move(conn, "t1", 3, 1, "8H c5", None)
        db.append_move(conn, "t1", 2, 1, "8H c5", {"winners": [1], "scores": [0, 1]})
    with db.engine.connect() as conn:
        loaded = db.load(conn, "t1")
        assert db.load_unfinished(conn) == []
    assert loaded is not None and loaded.status == "over" and loaded.version == 2
    assert loaded.log.moves == ((0, "7H c4"), (1, "8H c5"))
    assert loaded.seats[0].name == "Ann"
    assert loaded.seats[0].token_hash == store.hash_token("secret") != "secret"
    db.close()


def test_the_engine_imports_no_server_library() -> None:
    code = ("import sys, cardtable, cardtable.table, cardtable.records, cardtable.bots; "
            "print(sorted({'fastapi', 'uvicorn', 'sqlalchemy', 'alembic', 'starlette'} "
            "& set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_smoke_a_bot_game_on_a_real_server(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'd.db'}", tmp_path).start()
    try:
        table = server.create("sequence", [{"kind": "bot", "bot": "random"},
                                           {"kind": "bot", "bot": "random"}])
        assert table["status"] == "playing"
        spectator = Client(server, table["id"], since=0)
        over = spectator.until("over", timeout=60)
        assert over["winners"]
        record = records.from_json(server.get(f"/api/tables/{table['id']}/record").json())
        assert records.replay(record).is_terminal and record.seed == over["seed"]
        assert server.get("/").status_code == 200
        assert server.get(f"/t/{table['id']}").status_code == 200
        assert "<html" in server.get("/").text.lower()
        assert server.get("/static/app.css").status_code == 200
        assert server.get("/api/rules/sequence").json()["markdown"]
        games = server.get("/api/games").json()
        assert {g["name"] for g in games["games"]} == {"drawbridge", "sequence",
                                                       "threethirteen"}
        assert "heuristic" in games["bots"]
    finally:
        server.stop()
