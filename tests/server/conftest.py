"""A real server process on 127.0.0.1 and real clients (httpx, websockets).

The PostgreSQL runs use ``CARDTABLE_TEST_PG`` (an admin URL) when set, else a throwaway
cluster (``cardtable.store.pgtemp``) when PostgreSQL is installed; without either they are
skipped, except under ``.ci/run``, where they fail (tests/needs.py).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
import websockets
from websockets.sync.client import ClientConnection, connect

from cardtable.cards import RANKS, card_name, parse_card, parse_cards
from cardtable.server.messages import ws_schema
from cardtable.store import pgtemp
from cardtable.threethirteen.melds import MeldSolver, pack_hand
from tests.http import http
from tests.needs import missing

ROOT = Path(__file__).resolve().parents[2]


class Server:
    """``cardtable serve`` in a subprocess; its log goes to ``log_path``."""

    def __init__(self, db_url: str, folder: Path, *args: str) -> None:
        self.db_url = db_url
        self.folder = folder
        self.args = args
        self.port = pgtemp.free_port()
        self.log_path = folder / f"server-{self.port}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, table_id: str, token: str | None = None, since: int | None = None) -> str:
        query = [f"token={token}"] if token else []
        if since is not None:
            query.append(f"since={since}")
        return f"ws://127.0.0.1:{self.port}/ws/tables/{table_id}" + (
            "?" + "&".join(query) if query else "")

    def start(self) -> Server:
        self.launch()
        try:
            self.wait_up()
        except BaseException:
            self.stop()                 # not left running by a start that failed
            raise
        return self

    def launch(self) -> None:
        """The process started (``wait_up`` waits until it answers)."""
        env = {**os.environ, "XDG_DATA_HOME": str(self.folder / "data")}
        src = str(ROOT / "src")
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
        log = open(self.log_path, "ab")  # noqa: SIM115 (the process keeps it)
        # bots at once unless a test asks for a pace (docs/server.md: Bot pace): a human
        # pace would make every table with a bot and a person last minutes
        pace = [] if "--bot-pace" in self.args else ["--bot-pace", "instant"]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardtable", "serve", "--db", self.db_url,
             "--port", str(self.port), *pace, *self.args],
            stdout=log, stderr=subprocess.STDOUT, env=env)

    def wait_up(self) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log()[-2000:]}")
            try:
                if http.get(self.base + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not start in 60 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    # -- HTTP helpers

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return http.post(self.base + path, json=body, timeout=30)

    def get(self, path: str) -> httpx.Response:
        return http.get(self.base + path, timeout=30)

    def create(self, game: str, seats: list[dict[str, Any]], options: dict[str, Any] | None
               = None, **extra: Any) -> dict[str, Any]:
        answer = self.post("/api/tables", {"game": game, "options": options or {},
                                           "seats": seats, **extra})
        assert answer.status_code == 201, answer.text
        table: dict[str, Any] = answer.json()
        return table

    def take(self, table_id: str, seat: int, name: str = "Dara") -> str:
        answer = self.post(f"/api/tables/{table_id}/seats/{seat}", {"name": name})
        assert answer.status_code == 200, answer.text
        token: str = answer.json()["token"]
        return token


#: what the server may send on the WebSocket: every message a Client receives is checked
SERVER_MESSAGES = jsonschema.Draft202012Validator(
    {"$defs": ws_schema()["$defs"], "$ref": "#/$defs/ServerMessage"})


def ws_connect(url: str, **options: Any) -> ClientConnection:
    """websockets' threading ``connect`` called directly (the caller closes what it
    opens): with ``legacy=True`` from websockets 17 on, where a direct call without it
    is deprecated and will one day return a reconnecting iterator instead."""
    if int(websockets.__version__.split(".")[0]) >= 17:
        options["legacy"] = True
    return connect(url, **options)


class Client:
    """One WebSocket connection, every message it received kept in ``messages`` (each
    checked against the WebSocket schema's ServerMessage)."""

    def __init__(self, server: Server, table_id: str, token: str | None = None,
                 since: int | None = None, open_timeout: float = 30, **options: Any) -> None:
        """``options`` go to websockets' ``connect`` (``max_queue=None`` for a client that
        reads nothing: its connection then reads on and closes at once)."""
        self.ws: ClientConnection = ws_connect(server.ws_url(table_id, token, since),
                                               open_timeout=open_timeout, max_size=2**22,
                                               **options)
        self.messages: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}      # the latest view received
        self.version = -1                   # the latest version received

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        SERVER_MESSAGES.validate(message)
        self.messages.append(message)
        if "version" in message and message["type"] in ("welcome", "event"):
            self.version = max(self.version, message["version"])
        if "view" in message:
            self.view = message["view"]
        return message

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def until(self, kind: str, timeout: float = 30, **match: Any) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                return message

    def close(self) -> None:
        self.ws.close()


def pick(view: dict[str, Any], rng: random.Random) -> str:
    """A scripted person's move: mostly the first legal one; in a Draw Bridge auction
    a pass once someone has bid (so contracts stay low and games short); in Three
    Thirteen mostly the discard that leaves the least penalty (so that rounds end by
    going out, as people's do, rather than after two stocks: some 700 moves a match,
    not 2,500)."""
    legal: list[str] = view["legal"]
    if "pass" in legal and view.get("auction"):
        return "pass"
    if view.get("game") == "threethirteen" and rng.random() < 0.9:
        return _meld_minded(view, legal)
    return legal[0] if rng.random() < 0.7 else rng.choice(legal)


_MELDS = MeldSolver("low", "ten")


def _penalty(cards: list[int], wild: int) -> int:
    packed, wilds = pack_hand(cards, wild)
    return _MELDS.penalty(packed, len(wilds), _MELDS.values[wild], False)


def _after_discard(cards: list[int], wild: int, choose: Any = min) -> tuple[int, int]:
    """The discard (penalty left, card) that ``choose`` picks among every discard."""
    return choose((_penalty(cards[:i] + cards[i + 1:], wild), c) for i, c in enumerate(cards))


def _meld_minded(view: dict[str, Any], legal: list[str]) -> str:
    """Three Thirteen: take the top discard when it lowers the penalty, else draw;
    discard what leaves the least penalty. In the second round the opposite (draw, and
    discard what leaves the most), so that its stock runs out and is remade (3.4)."""
    hand = parse_cards(view["hand"])
    wild = RANKS.index(view["wild_rank"])
    second = view["round"] == 2
    if "take" in legal and "draw" in legal and not second:
        top = parse_card(view["top_discard"])
        better = _after_discard(hand + [top], wild)[0] < _penalty(hand, wild)
        return "take" if better else "draw"
    if not legal[0].startswith("discard"):
        return legal[0]
    return f"discard {card_name(_after_discard(hand, wild, max if second else min)[1])}"


def play_seat(server: Server, table_id: str, token: str, seed: int,
              stop_after: int | None = None, client: Client | None = None
              ) -> tuple[Client, list[int]]:
    """A scripted person: a random legal move whenever its seat is to act, until the game
    is over (or after ``stop_after`` own moves). Returns the client and acked versions."""
    rng = random.Random(seed)
    client = client or Client(server, table_id, token)
    acked: list[int] = []
    seat: int | None = None
    mine = 0
    pending: int | None = None
    while True:
        message = client.recv(60)
        kind = message["type"]
        if kind == "welcome":
            seat = message["seat"]
        if kind == "over":
            return client, acked
        if kind == "event" and message["seat"] == seat and message["version"] == pending:
            acked.append(message["version"])
            pending = None
        if kind == "error":
            assert message["code"] in ("move/stale",), message
            pending = None
        view = message.get("view")
        if view is None or pending is not None:
            continue
        if view.get("legal") and view["version"] == message.get("version", view["version"]):
            if stop_after is not None and mine >= stop_after:
                return client, acked
            pending = view["version"] + 1
            client.send({"type": "move", "move": pick(view, rng), "version": view["version"]})
            mine += 1


def play_all(server: Server, table: dict[str, Any], tokens: dict[int, str], seed: int = 0
             ) -> dict[int, tuple[Client, list[int]]]:
    """Every person seat played by its own thread until the game is over."""
    out: dict[int, tuple[Client, list[int]]] = {}
    errors: list[BaseException] = []

    def run(seat: int) -> None:
        try:
            out[seat] = play_seat(server, table["id"], tokens[seat], seed + seat)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(s,)) for s in tokens]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return out


# -- the fast loop

#: the modules of tests/server that start no ``cardtable serve`` (the server's parts alone):
#: the fast loop (``-m "not slow"``) keeps them; every other test here starts a real server
#: process and is marked slow, as the README says of the server tests
UNITS = {"test_clock_unit", "test_database", "test_deploy", "test_kept", "test_pipeline",
         "test_pool_unit", "test_store"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if item.path.parent == here and item.path.stem not in UNITS:
            item.add_marker(pytest.mark.slow)
    # through the front address on SQLite only: what the store changes is the business of
    # the one-process runs and of test_front's PostgreSQL runs
    dropped = [item for item in items if isinstance(item, pytest.Function)
               and hasattr(item, "callspec")
               and item.callspec.params.get("server") == "front"
               and item.callspec.params.get("db_url") == "postgresql"]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in dropped]


# -- databases

_names = itertools.count()


@pytest.fixture(scope="session")
def postgres() -> Iterator[str | None]:
    """An admin URL of a PostgreSQL server, or None when there is none (outside CI)."""
    given = os.environ.get("CARDTABLE_TEST_PG")
    if given:
        yield given
        return
    if pgtemp.find_bin() is None:
        yield None
        return
    cluster = pgtemp.TempPostgres(fsync=False).start()
    try:
        yield cluster.url
    finally:
        cluster.stop()


#: on a test that takes ``db_url`` (or ``server``): SQLite only. For what the store does
#: not change (the protocol's answers, refusals, chat, hints, clocks' rules): the tests of
#: what PostgreSQL does differently (restarts, processes sharing a database, a killed
#: server, the lobby kept across a restart, ratings, the store itself) run on both
SQLITE_ONLY = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.db'}"
    return _new_database(request)


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> str:
    """A new PostgreSQL database alone: for the long tests of what a store shared by
    processes does (a cluster's failover), which the quick ones check on SQLite too."""
    return _new_database(request)


def _new_database(request: pytest.FixtureRequest) -> str:
    admin = request.getfixturevalue("postgres")
    if admin is None:
        missing("PostgreSQL", "the store's tests on PostgreSQL")
    return pgtemp.create_database(admin, f"cardtable_test_{os.getpid()}_{next(_names)}")


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


def start_all(servers: list[Server]) -> list[Server]:
    """``servers`` on one database: the first started alone (it makes the database's
    tables: two processes migrating at once would both try), then the others side by
    side (each takes seconds to start)."""
    try:
        servers[0].start()
        for server in servers[1:]:
            server.launch()
        for server in servers[1:]:
            server.wait_up()
    except BaseException:
        for server in servers:          # none left running by a failed start
            server.stop()
        raise
    return servers


class FrontServer(Server):
    """One address, many processes (docs/server.md, "Routing: one address"): three
    ``serve --cluster`` processes on one database behind HAProxy (Debian's, on loopback,
    ``cardtable.server.haproxy``); the clients know only HAProxy's port. Stopped or
    killed, every process is."""

    def __init__(self, db_url: str, folder: Path, *args: str) -> None:
        super().__init__(db_url, folder, *args)
        from cardtable.server import haproxy
        if haproxy.find_binary() is None:
            missing("HAProxy", "the cluster's front address")
        self.members = [Server(db_url, folder, "--cluster", "--owner", name, "--lease", "3",
                               *args) for name in "abc"]
        self.front = haproxy.TempHAProxy([member.port for member in self.members], folder)
        self.port = self.front.port

    def start(self) -> FrontServer:
        start_all(self.members)
        try:
            self.front.start()
        except BaseException:
            for member in self.members:
                member.stop()
            raise
        self.proc = self.front.proc
        return self

    def stop(self) -> None:
        self.front.stop()
        for member in self.members:
            member.stop()

    def kill(self) -> None:
        for member in self.members:
            member.kill()
        self.front.kill()

    def log(self) -> str:
        return "".join(member.log() for member in self.members)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A module with ``FRONT_TOO = True`` runs each test of the ``server`` fixture twice:
    at one process, and through the front address of three (``FrontServer``); with
    ``FRONT_TOO`` a set of test names, only those tests run twice. With
    ``CARDTABLE_TEST_FRONT=1`` in the environment every test of the ``server`` fixture
    runs through the front address only."""
    if "server" not in metafunc.fixturenames:
        return
    if os.environ.get("CARDTABLE_TEST_FRONT"):
        metafunc.parametrize("server", ["front"], indirect=True)
    else:
        front_too = getattr(metafunc.module, "FRONT_TOO", False)
        if front_too is True or metafunc.function.__name__ in (front_too or ()):
            metafunc.parametrize("server", ["one", "front"], indirect=True)


@pytest.fixture
def server(request: pytest.FixtureRequest, db_url: str, tmp_path: Path) -> Iterator[Server]:
    kind = FrontServer if getattr(request, "param", "one") == "front" else Server
    running = kind(db_url, tmp_path, "--ws-rate", "200").start()
    try:
        yield running
    finally:
        running.stop()
