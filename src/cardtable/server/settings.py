"""The settings of one server process (``cardtable serve``'s options)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardtable import bots


@dataclass
class Settings:
    db_url: str
    bot_workers: int = 2             # processes for bot searches and hints, and this
    light_workers: int = 1           # many more kept for the light bots (heuristic...)
    max_message: int = 4096          # bytes of one WebSocket message
    max_body: int = 16_384           # bytes of one HTTP request body
    ws_rate: float = 20.0            # messages a second per connection...
    ws_burst: float = 40.0           # ...with bursts of this many
    http_rate: float = 20.0          # requests a second per client address (writes)
    http_burst: float = 60.0
    max_tables: int = 5_000          # unfinished tables held at once
    max_queue: int = 2_000           # unsent messages before a connection is dropped
    # missed moves a new connection is sent as events; past this its welcome is a
    # snapshot instead (Welcome.skipped), so that opening a long table never fills the
    # queue: at most half of max_queue, leaving room for what follows
    catch_up_limit: int = 1000
    hint_budget: dict[str, Any] = field(default_factory=lambda: {"iterations": 300})
    takeover_tick: float = 0.25      # seconds between checks for away players and clocks
    # timeouts in a row after which a seat with a clock is taken over (a table's clock
    # may say otherwise)
    clock_timeouts: int = 3
    # seconds a bot waits after the move before its own at a table where a person sits
    # and that asks for no pace, and the least a bot playing for a person waits (docs/
    # server.md: Bot pace; a table of bots alone asking for none plays at once)
    bot_pace: float = 0.8
    # seconds between the heartbeats that let a restarted server give back its downtime
    clock_heartbeat: float = 1.0
    # bots that choose in microseconds play in the server process; the others (and
    # every hint) go to the process pool
    inline_bots: tuple[str, ...] = ("random",)
    # seconds a replay or a review of a record (a file sent, a finished table) may take
    # in the pool before its request is refused (record/too-long)
    work_seconds: float = 20.0
    # bots that choose in milliseconds (every kind that does not search, the frozen
    # yardsticks included): light jobs, which never wait for a search
    light_bots: tuple[str, ...] = tuple(
        kind for kind in (*bots.KINDS, *bots.YARDSTICKS)
        if not bots.bot_kind(kind).searches and kind not in ("random",))
    # caps on a table's bots (docs/server.md: Limits): seconds and iterations a move...
    max_bot_seconds: float = 2.0
    max_bot_iterations: int = 5_000
    # ...searches (bot moves, hints) running at once for one client address...
    bot_jobs_per_address: int = 1
    # ...and tables of bots alone playing at once for one client address
    bot_tables_per_address: int = 4
    # unfinished tables (waiting or playing) at once for one client address
    tables_per_address: int = 100
    # seconds a rematch table's seats are held for the finished table's players
    rematch_hold: float = 60.0
    # this process's name when several share one database: it creates, reloads and plays
    # only its own tables (None: the one default process)
    owner: str | None = None
    # a process of a cluster (docs/server.md: Scaling past one machine): it holds a lease
    # on its name in the database, renewed every third of ``lease`` seconds, and takes
    # the tables of a process whose lease lapsed
    cluster: bool = False
    lease: float = 5.0
    # the address (http://HOST:PORT) where the cluster's other processes reach this one
    advertise: str | None = None
    chat_rate: float = 0.5           # chat lines a second per seat (a spectator: per connection)...
    chat_burst: float = 5.0          # ...with bursts of this many
    chat_history: int = 50           # lines a new connection is sent (per channel kept)
    # the tidy lobby (None: never): a waiting table that nobody has visited for this many
    # seconds closes; a playing one with nobody connected for this long is adjourned
    close_waiting_after: float | None = 3600.0
    adjourn_after: float | None = 900.0
    # the reverse proxies (addresses or networks) whose X-Forwarded-For and -Proto are
    # believed; a request from anywhere else is its own address (none: every request's)
    trusted_proxies: tuple[str, ...] = ()
    # slow clients (docs/server.md: Limits): seconds for a request's head to arrive, for
    # each piece of its body, and an idle keep-alive connection is kept...
    header_timeout: float = 10.0
    body_timeout: float = 10.0
    keep_alive_timeout: int = 5
    # ...and the HTTP connections one client address holds at once (WebSockets not counted)
    connections_per_address: int = 128
    # WebSocket connections (docs/server.md: Limits): spectators at one table, and every
    # connection (seats' too) of one client address over all tables
    spectators_per_table: int = 200
    sockets_per_address: int = 64

    def __post_init__(self) -> None:
        if not 0 <= self.catch_up_limit <= self.max_queue // 2:
            raise ValueError(f"catch_up_limit is 0 to {self.max_queue // 2} (half of "
                             f"max_queue), not {self.catch_up_limit}")
