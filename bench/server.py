"""Load on the table server: N WebSocket clients on loopback playing whole games.

    python bench/server.py                            # 200 clients, SQLite, 30 s
    python bench/server.py --db postgresql            # a throwaway PostgreSQL cluster
    python bench/server.py --clients 4 --seconds 5 --json
    python bench/server.py --think 0.3                # clients pause like people
    python bench/server.py --db postgresql --servers 2   # two processes, one database
    python bench/server.py --pvp --db postgresql --servers 2 --cluster --cross   # relayed
    python bench/server.py --think 0.3 --chat 5       # and a chat line every 5 moves
    python bench/server.py --clock 5+3                # every table with a clock per player
    python bench/server.py --pvp --clients 200 --db sqlite-tmpfs   # two clients a table
    python bench/server.py --pvp --db postgresql --servers 3 --cluster --front  # HAProxy

Starts ``cardtable serve`` in a subprocess on a free port (SQLite file in a temp folder,
or PostgreSQL: ``--db postgresql`` starts a throwaway cluster with initdb, ``--db URL``
uses yours). Each client sits at its own table against a bot (``--bot``, random by
default), plays a random legal move whenever its seat is to act and starts a new table
when a game ends, for ``--warmup`` then ``--seconds`` seconds (or ``--games`` games
each). Over the ``--seconds`` after the warm-up (every client seated and playing) it
reports accepted moves a second (every move the server stored: the clients' and the
bots'), the clients' moves a second, the latency from sending a move to its
acknowledgement (the event of that move coming back: stored, then told), and, checked
against the stored log of every table afterwards, lost moves (acknowledged but not in
the log) and duplicated ones (in the log more often than sent). The p99 latency with the
warm-up is reported beside it: 200 clients creating tables at once queue up. With
``--chat N`` each client also sends a chat line after every N-th move of its own (free
text and presets in turn; the server's chat rate limit lifted), and the report adds the
lines sent, those that came back (stored, then told) and their latency.

With ``--pvp`` two clients share each table (person against person, both seats played by
load clients, as boardgame.io's own benchmark plays): ``--clients`` N makes N/2 tables at a
time, each played to the end (create, take both seats, both connect, play, next table),
so every accepted move is a client's. ``--db sqlite-tmpfs`` puts the SQLite file in
``/dev/shm`` (memory: the server has no store without a database, so this is its nearest
to boardgame.io's in-memory storage; every move is still stored). bench/server_vs_bgio.py
runs this mode interleaved with boardgame.io's benchmark.

With ``--front`` (and ``--cluster``) every client goes through one address: HAProxy
(Debian's) on loopback in front of the processes, configured as docs/server.md shows
(``cardtable.server.haproxy``): new tables round robin, each table's requests and
WebSockets to its process, as that process's answers told HAProxy. HAProxy's own CPU
time is reported apart (``front_cpu_ms_per_move``), and with ``--cluster`` the requests
and connections the processes relayed (``relayed``: none, through HAProxy, unless a
table's process changed).

The baseline, timed in this process before the server starts: what a move costs the
engine alone (random moves of whole games, each applied, then viewed by every seat, the
least a server does per move). The server's CPU time per accepted move is reported in
those units too (``server_cpu_over_engine``), a figure that compares across machines.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

import cardtable
from cardtable.server import haproxy, steady_gc
from cardtable.store import pgtemp

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Seat:
    """One client's table: its id and token, and what it sent and saw acknowledged."""

    table: str
    seat: int
    token: str
    port: int = 0
    sent: list[tuple[int, str]] = field(default_factory=list)
    acked: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class Tally:
    #: (when sent, seconds to the acknowledgement), perf_counter clock
    latencies: list[tuple[float, float]] = field(default_factory=list)
    seats: list[Seat] = field(default_factory=list)
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    #: (when sent, seconds to the line coming back) of the chat lines (--chat)
    chat_latencies: list[tuple[float, float]] = field(default_factory=list)
    chat_sent: int = 0


async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST, retried when a kept-alive connection was closed under it."""
    for attempt in range(5):
        try:
            answer = await http.post(path, json=body)
            answer.raise_for_status()
            out: dict[str, Any] = answer.json()
            return out
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.1)
    raise AssertionError("unreachable")


def clock_request(spec: str | None) -> dict[str, Any] | None:
    """``--clock``: "SECONDS" (a time per move) or "MINUTES+INCREMENT" (a clock per
    player), as the table's clock option; None: no clock."""
    if spec is None:
        return None
    if "+" in spec:
        minutes, increment = spec.split("+", 1)
        return {"kind": "player", "minutes": float(minutes), "increment": float(increment)}
    return {"kind": "move", "seconds": float(spec)}


async def new_seat(http: httpx.AsyncClient, game: str, bot: str,
                   clock: dict[str, Any] | None = None) -> Seat:
    seats: list[dict[str, Any]] = [{"kind": "person"}, {"kind": "bot", "bot": bot}]
    # the bot answers at once: the bench measures the server, not a human pace
    body: dict[str, Any] = {"game": game, "seats": seats, "bot_pace": "instant"}
    if clock is not None:
        body["clock"] = clock
    table = (await post(http, "/api/tables", body))["id"]
    taken = await post(http, f"/api/tables/{table}/seats/0", {"name": "bench"})
    return Seat(table, 0, taken["token"], int(http.base_url.port or 0))


#: a move sent and not yet told back: (the version it makes, its notation, when it was sent)
Pending = tuple[int, str, float]


def answered(message: dict[str, Any], pending: Pending | None, seat: Seat,
             tally: Tally) -> Pending | None:
    """The move still waiting after ``message``: None once its event came (its latency
    kept) or it was refused (the code counted)."""
    if message["type"] == "error":
        tally.errors[message["code"]] = tally.errors.get(message["code"], 0) + 1
        return None
    if message["type"] == "event" and pending is not None and message["version"] == pending[0]:
        tally.latencies.append((pending[2], time.perf_counter() - pending[2]))
        seat.acked.append((pending[0], pending[1]))
        return None
    return pending


def to_move(message: dict[str, Any], pending: Pending | None,
            rng: random.Random) -> tuple[int, str] | None:
    """(the view's version, a random legal move) when ``message`` puts this seat to act
    and no move of its own is waiting."""
    view = message.get("view")
    if (pending is None and view and view.get("legal")
            and view["version"] == message.get("version", view["version"])):
        return view["version"], rng.choice(view["legal"])
    return None


async def send_move(ws: Any, seat: Seat, version: int, move: str) -> Pending:
    seat.sent.append((version + 1, move))
    sent = (version + 1, move, time.perf_counter())
    await ws.send(json.dumps({"type": "move", "move": move, "version": version}))
    return sent


async def client(number: int, args: argparse.Namespace, tally: Tally, deadline: float,
                 http: httpx.AsyncClient) -> None:
    port = int(http.base_url.port or 0)
    rng = random.Random(number)
    for _ in range(args.games):
        if time.monotonic() > deadline:
            return
        seat = await new_seat(http, args.game, args.bot, clock_request(args.clock))
        tally.seats.append(seat)
        url = f"ws://127.0.0.1:{port}/ws/tables/{seat.table}?token={seat.token}"
        async with connect(url, max_size=2**22) as ws:
            pending: Pending | None = None
            said: list[float] = []      # when each chat line not yet back was sent
            backlog: list[dict[str, Any]] = []  # what came during a pause (--chat)
            mine = 0

            def heard(message: dict[str, Any], said: list[float] = said) -> bool:
                """A chat line of this client's come back: its latency kept."""
                if message["type"] != "chat" or not said:
                    return False
                sent = said.pop(0)
                tally.chat_latencies.append((sent, time.perf_counter() - sent))
                return True

            async def pause(seconds: float, backlog: list[dict[str, Any]] = backlog) -> None:
                """A person's pause; with --chat, reading meanwhile (the chat lines'
                latency is not to include it)."""
                if not args.chat:
                    await asyncio.sleep(seconds)
                    return
                end = time.monotonic() + seconds
                while (left := end - time.monotonic()) > 0:
                    try:
                        message = json.loads(await asyncio.wait_for(ws.recv(), left))
                    except TimeoutError:
                        return
                    if not heard(message):
                        backlog.append(message)

            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                if backlog:
                    message = backlog.pop(0)
                else:
                    try:
                        message = json.loads(await asyncio.wait_for(ws.recv(), remaining))
                    except TimeoutError:
                        return
                kind = message["type"]
                if kind == "over":
                    tally.games += 1
                    break
                if heard(message):
                    continue
                pending = answered(message, pending, seat, tally)
                chosen = to_move(message, pending, rng)
                if chosen is not None:
                    version, move = chosen
                    if args.think > 0:
                        # a person's pause before the move (exponential, --think on average)
                        await pause(rng.expovariate(1 / args.think))
                    pending = await send_move(ws, seat, version, move)
                    mine += 1
                    if args.chat and mine % args.chat == 0:
                        line = ({"type": "chat", "text": f"move {mine}, <b>{move}</b>"}
                                if mine % (2 * args.chat) else
                                {"type": "chat", "preset": "good-luck"})
                        said.append(time.perf_counter())
                        tally.chat_sent += 1
                        await ws.send(json.dumps(line))


async def new_pair(http: httpx.AsyncClient, game: str,
                   clock: dict[str, Any] | None = None) -> list[Seat]:
    """A table of two person seats, both taken: a --pvp slot's next game."""
    seats: list[dict[str, Any]] = [{"kind": "person"}, {"kind": "person"}]
    body: dict[str, Any] = {"game": game, "seats": seats}
    if clock is not None:
        body["clock"] = clock
    table = (await post(http, "/api/tables", body))["id"]
    pair = []
    for number in (0, 1):
        taken = await post(http, f"/api/tables/{table}/seats/{number}",
                           {"name": f"bench {number}"})
        pair.append(Seat(table, number, taken["token"], int(http.base_url.port or 0)))
    return pair


async def play_seat(seat: Seat, rng: random.Random, args: argparse.Namespace, tally: Tally,
                    deadline: float) -> bool:
    """Play one seat of a --pvp table until its game is over (True) or the deadline; with
    --chat, a chat line after every N-th move (sent and counted, its latency not timed:
    the other client reads it among the moves)."""
    url = f"ws://127.0.0.1:{seat.port}/ws/tables/{seat.table}?token={seat.token}"
    try:
        # one timer for the whole game, not one a message (the load generator shares
        # the machine with the server: its own work is kept small)
        async with asyncio.timeout(deadline - time.monotonic()):
            async with connect(url, max_size=2**22) as ws:
                return await play_game(ws, seat, rng, args, tally)
    except TimeoutError:
        return False


async def play_game(ws: Any, seat: Seat, rng: random.Random, args: argparse.Namespace,
                    tally: Tally) -> bool:
    """play_seat's game on its open connection: True when it is over."""
    pending: Pending | None = None
    mine = 0
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "over":
            return True
        pending = answered(message, pending, seat, tally)
        chosen = to_move(message, pending, rng)
        if chosen is not None:
            version, move = chosen
            if args.think > 0:
                await asyncio.sleep(rng.expovariate(1 / args.think))
            pending = await send_move(ws, seat, version, move)
            mine += 1
            if args.chat and mine % args.chat == 0:
                tally.chat_sent += 1
                await ws.send(json.dumps({"type": "chat", "text": f"move {mine}"}))


async def pvp_slot(number: int, args: argparse.Namespace, tally: Tally, deadline: float,
                   http: httpx.AsyncClient) -> None:
    """Two clients at one table, games back to back (boardgame.io's load.js slot)."""
    rng = random.Random(number)
    for _ in range(args.games):
        if time.monotonic() > deadline:
            return
        pair = await new_pair(http, args.game, clock_request(args.clock))
        if args.cross:
            # each seat's connection at another process than the table's: relayed
            ports = args.ports
            for seat in pair:
                seat.port = ports[(ports.index(seat.port) + 1 + seat.seat)
                                  % len(ports)]
        tally.seats.extend(pair)
        over = await asyncio.gather(*(play_seat(seat, rng, args, tally, deadline)
                                      for seat in pair))
        if not all(over):
            return
        tally.games += 1


async def read_log(seat: Seat, tries: int = 3) -> list[dict[str, Any]] | None:
    """Every event of a seat's table, read back from the server (a connection lost on the
    way is tried again, ``tries`` times in all); None for a log past the server's catch-up
    limit, which the server answers with a snapshot (``skipped``) instead of its events."""
    url = f"ws://127.0.0.1:{seat.port}/ws/tables/{seat.table}?since=0"
    for attempt in range(tries):
        try:
            async with connect(url, max_size=2**24) as ws:
                welcome = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if welcome.get("skipped"):
                    return None
                events: list[dict[str, Any]] = []
                while len(events) < welcome["version"]:   # a presence may come between
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if message["type"] == "event":
                        events.append(message)
                return events
        except (ConnectionClosed, TimeoutError) as exc:
            if attempt == tries - 1:
                sys.exit(f"table {seat.table}'s log could not be read back ({tries} tries): "
                         f"{exc}")
            print(f"warning: reading table {seat.table}'s log back: {exc}; trying again",
                  file=sys.stderr)
            await asyncio.sleep(0.5)
    raise AssertionError("unreachable")


async def check_log(seats: list[Seat]) -> tuple[int, int, int]:
    """(lost, duplicated) moves against each table's stored log, read back in full, and
    the tables left unchecked (their logs past the server's catch-up limit: a long random
    game)."""
    lost = duplicated = 0
    logs: dict[tuple[int, str], list[dict[str, Any]] | None] = {}
    for seat in seats:
        if (seat.port, seat.table) not in logs:
            logs[seat.port, seat.table] = await read_log(seat)
        log = logs[seat.port, seat.table]
        if log is None:
            continue
        stored = {(e["version"], e["move"]) for e in log if e["seat"] == seat.seat}
        lost += sum(1 for move in seat.acked if move not in stored)
        mine = [e for e in log if e["seat"] == seat.seat]
        duplicated += max(0, len(mine) - len(seat.sent))
        duplicated += len(mine) - len({e["version"] for e in mine})
    return lost, duplicated, sum(1 for log in logs.values() if log is None)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = sum(int(x) for x in fields[11:15])     # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its live descendants (the bot pool's workers)."""
    total = cpu_seconds(pid)
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return total + sum(tree_cpu(int(child)) for child in children)


async def moves_stored(ports: list[int]) -> int:
    total = 0
    for port in ports:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            total += (await http.get("/api/health")).json()["moves"]
    return total


async def relayed_total(ports: list[int]) -> int:
    """The requests and connections the processes relayed to another (their metrics)."""
    total = 0
    for port in ports:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            found = re.search(r"^cardtable_relayed_total (\S+)$",
                              (await http.get("/metrics")).text, re.MULTILINE)
        total += int(float(found.group(1))) if found else 0
    return total


async def run(ports: list[int], args: argparse.Namespace) -> dict[str, Any]:
    """The clients, spread over ``ports`` (the processes', or the front's)."""
    tally = Tally()
    start = time.monotonic()
    deadline = start + args.warmup + args.seconds
    share = args.clients // len(ports) + 1
    limits = httpx.Limits(max_connections=share, max_keepalive_connections=share)
    https = [httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60,
                               limits=limits) for port in ports]
    window: dict[str, Any] = {}

    async def measure() -> None:
        """The counters at the end of the warm-up (every client seated and playing)."""
        await asyncio.sleep(args.warmup)
        window["moves"] = await moves_stored(args.ports)
        window["cpu"] = sum(map(tree_cpu, args.server_pids)), time.process_time()
        window["front"] = tree_cpu(args.front_pid) if args.front_pid else 0.0
        window["clock"] = time.perf_counter()
        window["start"] = time.monotonic()

    lags: list[float] = []

    async def watch_loop() -> None:
        """How late this process's event loop wakes: the clients' own share of latency."""
        while time.monotonic() < deadline:
            clock = time.perf_counter()
            await asyncio.sleep(0.005)
            if window:
                lags.append(time.perf_counter() - clock - 0.005)

    try:
        players = ([pvp_slot(n, args, tally, deadline, https[n % len(ports)])
                    for n in range(args.clients // 2)] if args.pvp else
                   [client(n, args, tally, deadline, https[n % len(ports)])
                    for n in range(args.clients)])
        await asyncio.gather(measure(), watch_loop(), *players)
    finally:
        for http in https:
            await http.aclose()
    elapsed = time.monotonic() - window["start"]
    server_cpu = sum(map(tree_cpu, args.server_pids)) - window["cpu"][0]
    client_cpu = time.process_time() - window["cpu"][1]
    moves = await moves_stored(args.ports) - window["moves"]
    front_cpu = (tree_cpu(args.front_pid) - window["front"]) if args.front_pid else 0.0
    lost, duplicated, unchecked = await check_log(tally.seats)
    measured = sorted(lat for sent, lat in tally.latencies if sent >= window["clock"])
    everything = sorted(lat for _, lat in tally.latencies)
    chat = sorted(lat for sent, lat in tally.chat_latencies if sent >= window["clock"])

    def quantile(lat: list[float], q: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(len(lat) * q))], 2) if lat else 0.0

    return {
        "clients": args.clients, "servers": len(args.ports), "front": args.front,
        "game": args.game,
        "bot": None if args.pvp else args.bot, "pvp": args.pvp, "db": args.db,
        "think_s": args.think,
        "warmup_s": args.warmup, "seconds": round(elapsed, 2),
        "games_finished": tally.games,
        "tables": len({(seat.port, seat.table) for seat in tally.seats}),
        "accepted_moves": moves,
        "accepted_moves_per_s": round(moves / elapsed, 1),
        "client_moves_per_s": round(len(measured) / elapsed, 1),
        "latency_ms_p50": quantile(measured, 0.5),
        "latency_ms_p99": quantile(measured, 0.99),
        "latency_ms_max": quantile(measured, 1.0),
        # the warm-up too: 200 clients creating tables and connecting at once
        "latency_ms_p99_with_warmup": quantile(everything, 0.99),
        # how late the clients' event loop ran: part of every latency above
        "client_loop_lag_ms_p99": quantile(sorted(lags), 0.99),
        "lost": lost, "duplicated": duplicated, "errors": tally.errors,
        # tables whose logs were past the catch-up limit (over 1,000 moves): not checked
        "unchecked_tables": unchecked,
        # CPU time per accepted move: what the figures would be on an idle machine
        "server_cpu_ms_per_move": round(1000 * server_cpu / max(1, moves), 3),
        "server_cpu_share": round(server_cpu / elapsed, 2),  # all server processes
        **({"front_cpu_ms_per_move": round(1000 * front_cpu / max(1, moves), 3),
            "front_cpu_share": round(front_cpu / elapsed, 2)} if args.front else {}),
        "client_cpu_share": round(client_cpu / elapsed, 2),
        # with --cluster: relayed to the table's process, over the whole run
        **({"relayed": await relayed_total(args.ports)} if args.cluster else {}),
        "load_before": round(args.load, 2), "cores": os.cpu_count(),
        **({"chat_every": args.chat, "chat_lines_sent": tally.chat_sent,
            "chat_lines_back": len(tally.chat_latencies),
            "chat_lines_per_s": round(len(chat) / elapsed, 1),
            "chat_latency_ms_p50": quantile(chat, 0.5),
            "chat_latency_ms_p99": quantile(chat, 0.99)} if args.chat else {}),
    }


def engine_ms_per_move(game: str, seconds: float = 1.0) -> float:
    """Milliseconds of one random move of ``game`` applied and viewed by every seat."""
    rng = random.Random(0)
    moves = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = cardtable.new_game(game).deal(seed=games)
        seats = range(state.game.num_players)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            for seat in seats:
                state.view(seat, history=False)
            moves += 1
        games += 1
    return 1000 * (time.process_time() - start) / moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="measure for this long after the warm-up (default 30)")
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="seconds of play before the measurement starts, while the "
                             "clients create their tables and connect (default 10)")
    parser.add_argument("--games", type=int, default=1000,
                        help="at most this many games per client")
    parser.add_argument("--game", default="sequence",
                        choices=["sequence", "drawbridge", "threethirteen"])
    parser.add_argument("--bot", default="random", choices=["random", "heuristic"])
    parser.add_argument("--db", default="sqlite",
                        help="sqlite (a file in a temp folder), sqlite-tmpfs (that file in "
                             "/dev/shm, in memory), postgresql (a throwaway cluster) or a "
                             "database URL")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds each client pauses before a move, on average, like a "
                             "person (default 0: as fast as the server answers)")
    parser.add_argument("--bot-workers", type=int, default=2)
    parser.add_argument("--servers", type=int, default=1,
                        help="server processes sharing the database (--owner s0, s1, ...), "
                        "the clients spread over them")
    parser.add_argument("--cluster", action="store_true",
                        help="the server processes run with --cluster (leases, relays)")
    parser.add_argument("--cross", action="store_true",
                        help="with --pvp --cluster: each seat connects to another process "
                             "than its table's, which relays it (the cost of crossing)")
    parser.add_argument("--front", action="store_true",
                        help="with --cluster: the clients go through HAProxy in front of "
                             "the processes, one address (new tables round robin, a "
                             "table's connections to its process)")
    parser.add_argument("--chat", type=int, default=0, metavar="N",
                        help="each client sends a chat line after every N-th move of its "
                             "own (default 0: no chat)")
    parser.add_argument("--clock", metavar="SPEC", default=None,
                        help="every table with a clock: SECONDS a move, or MINUTES+INCREMENT "
                             "(a clock per player), e.g. 60 or 5+3 (default: no clock)")
    parser.add_argument("--pvp", action="store_true",
                        help="two clients share each table (person against person), "
                             "--clients/2 tables at a time, as boardgame.io's benchmark plays")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        clock_request(args.clock)
    except ValueError:
        parser.error("--clock is SECONDS or MINUTES+INCREMENT, e.g. 60 or 5+3")
    if (not 1 <= args.clients <= 2000 or not 0 < args.seconds <= 600
            or not 0 <= args.warmup <= 120):
        parser.error("--clients is 1 to 2000, --seconds at most 600, --warmup at most 120")
    if args.chat < 0:
        parser.error("--chat is a number of moves (0: no chat)")
    if not 1 <= args.servers <= 8 or (args.servers > 1
                                      and args.db in ("sqlite", "sqlite-tmpfs")):
        parser.error("--servers is 1 to 8, and more than 1 needs --db postgresql or a URL")
    if args.cross and not (args.pvp and args.cluster and args.servers > 1):
        parser.error("--cross needs --pvp, --cluster and --servers 2 or more")
    if args.front and (args.cross or not args.cluster):
        parser.error("--front needs --cluster, and does not go with --cross")
    if args.pvp and args.clients % 2:
        parser.error("--pvp needs an even number of --clients (two a table)")
    args.load = os.getloadavg()[0]
    engine_ms = engine_ms_per_move(args.game)
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="ct-bench-")))
        if args.db == "sqlite":
            url = f"sqlite:///{folder / 'bench.db'}"
        elif args.db == "sqlite-tmpfs":
            # the SQLite file in memory (tmpfs): no disk under the store, every move stored
            shm = Path(stack.enter_context(tempfile.TemporaryDirectory(
                prefix="ct-bench-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None)))
            url = f"sqlite:///{shm / 'bench.db'}"
        elif args.db == "postgresql":
            cluster = pgtemp.TempPostgres(fsync=True).start()
            stack.callback(cluster.stop)
            url = cluster.new_database("bench")
        else:
            url = args.db
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep
               + os.environ.get("PYTHONPATH", "")}
        ports = [pgtemp.free_port() for _ in range(args.servers)]
        servers: list[subprocess.Popen[bytes]] = []
        try:
            for number, port in enumerate(ports):
                owner = ["--owner", f"s{number}"] if args.servers > 1 or args.cluster else []
                if args.cluster:
                    owner.append("--cluster")
                log = stack.enter_context(open(folder / f"server{number}.log", "wb"))
                server = subprocess.Popen(
                    [sys.executable, "-m", "cardtable", "serve", "--db", url, "--port",
                     str(port), "--no-access-log", "--ws-rate", "10000", "--http-rate",
                     "10000", "--chat-rate", "10000", "--sockets-per-address", "100000",
                     "--connections-per-address", "100000", "--bot-workers",
                     str(args.bot_workers), *owner],
                    stdout=subprocess.DEVNULL, stderr=log, env=env)
                servers.append(server)
                deadline = time.monotonic() + 60
                while True:
                    try:
                        httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
                        break
                    except httpx.HTTPError:
                        if server.poll() is not None or time.monotonic() > deadline:
                            sys.exit("the server did not start: " + (
                                folder / f"server{number}.log").read_text()[-2000:])
                        time.sleep(0.1)
            args.server_pids = [server.pid for server in servers]
            args.ports = ports
            entry, args.front_pid = ports, None
            if args.front:
                front = haproxy.TempHAProxy(ports, folder).start()
                stack.callback(front.stop)
                entry, args.front_pid = [front.port], front.proc.pid if front.proc else None
            # the clients' own collector pauses would count as server latency
            steady_gc()
            report = asyncio.run(run(entry, args))
        finally:
            for server in servers:
                server.send_signal(signal.SIGINT)
            for server in servers:
                try:
                    server.wait(20)
                except subprocess.TimeoutExpired:
                    server.kill()
    if args.clock is not None:
        report["clock"] = args.clock
    report["engine_ms_per_move"] = round(engine_ms, 4)
    report["server_cpu_over_engine"] = round(report["server_cpu_ms_per_move"] / engine_ms, 1)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:22} {value}")


if __name__ == "__main__":
    main()
