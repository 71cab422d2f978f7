"""``cardtable serve``: host tables over the network (docs/server.md)."""

from __future__ import annotations

import threading
import time
import urllib.request
import webbrowser

import click

DB_HELP = ("database URL: sqlite:///FILE or postgresql+psycopg://USER:PASSWORD@HOST/NAME "
           "(default: a SQLite file in $XDG_DATA_HOME/cardtable/)")


def database_url(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """``--db``: a SQLite or PostgreSQL URL, or a clear refusal (never a traceback)."""
    if value is None:
        return None
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        url = make_url(value)
        backend = url.get_backend_name()
        url.port   # noqa: B018  (read to parse it: a port that is no number is a ValueError)
    except (ArgumentError, ValueError):
        # the value is not echoed where it may hold a password
        shown = "" if "@" in value else f": {value!r}"
        hint = ("" if "://" in value or not value
                else f"; for the SQLite file {value}: --db sqlite:///{value}")
        raise click.BadParameter(f"not a database URL{shown} (sqlite:///FILE or "
                                 f"postgresql+psycopg://USER:PASSWORD@HOST/NAME){hint}") \
            from None
    if backend not in ("sqlite", "postgresql"):
        raise click.BadParameter(f"cardtable keeps its tables in SQLite or PostgreSQL, not "
                                 f"{backend} (sqlite:///FILE or "
                                 "postgresql+psycopg://USER:PASSWORD@HOST/NAME)")
    return value


@click.command()
@click.option("--db", "db_url", metavar="URL", help=DB_HELP, callback=database_url)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="address to listen on (0.0.0.0: every interface)")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--bot-workers", default=2, show_default=True, type=click.IntRange(1, 64),
              help="processes that compute searching bots' moves and hints (one more "
              "is kept for the quick bots)")
@click.option("--max-bot-seconds", default=2.0, show_default=True, metavar="SECONDS",
              type=click.FloatRange(0.01, 3600), help="the longest a table's bot may think "
              "a move")
@click.option("--max-bot-iterations", default=5_000, show_default=True,
              type=click.IntRange(1, 10_000_000),
              help="the most iterations a table's searching bot may take a move")
@click.option("--bot-jobs-per-address", default=1, show_default=True,
              type=click.IntRange(1, 64), help="bot searches and hints running at once for "
              "one client address (keep it under --bot-workers)")
@click.option("--bot-tables-per-address", default=4, show_default=True,
              type=click.IntRange(0, 10_000), help="tables of bots alone playing at once "
              "for one client address")
@click.option("--tables-per-address", default=100, show_default=True,
              type=click.IntRange(1, 100_000), help="tables waiting or playing at once for "
              "one client address (its tables of bots alone included)")
@click.option("--rematch-hold", default=60.0, show_default=True, metavar="SECONDS",
              type=click.FloatRange(0, 3600), help="hold a rematch table's seats this long "
              "for the players of the finished table")
@click.option("--ws-rate", default=20.0, show_default=True, type=click.FloatRange(0.1),
              help="WebSocket messages a second per connection")
@click.option("--http-rate", default=20.0, show_default=True, type=click.FloatRange(0.1),
              help="HTTP writes a second per client address")
@click.option("--chat-rate", default=0.5, show_default=True, type=click.FloatRange(0.001),
              help="chat lines a second per seat (bursts of 5)")
@click.option("--clock-timeouts", default=3, show_default=True, type=click.IntRange(1, 100),
              help="timeouts in a row after which a bot plays a seat with a clock until "
              "its person is back (a table's clock may say otherwise)")
@click.option("--bot-pace", default="normal", show_default=True, metavar="PACE",
              callback=lambda _ctx, _param, value: bot_pace_seconds(value),
              help="how fast bots move at a table where a person sits that asks for no "
              "pace, and the fastest a bot playing for a person moves: instant, normal "
              "(0.8 s a move), slow (2 s) or seconds (0 to 10)")
@click.option("--catch-up-limit", default=1000, show_default=True, type=click.IntRange(0, 1000),
              help="missed moves a connection is sent as events; past this it gets the "
              "table as it is now instead (0: always)")
@click.option("--header-timeout", default=10.0, show_default=True, metavar="SECONDS",
              type=click.FloatRange(0.1, 3600), help="close a connection whose request "
              "head (line and headers) is not in within this long")
@click.option("--body-timeout", default=10.0, show_default=True, metavar="SECONDS",
              type=click.FloatRange(0.1, 3600), help="answer 408 to a request body whose "
              "next piece takes longer than this")
@click.option("--keep-alive-timeout", default=5, show_default=True, metavar="SECONDS",
              type=click.IntRange(1, 3600), help="close an idle keep-alive connection "
              "after this long")
@click.option("--connections-per-address", default=128, show_default=True,
              type=click.IntRange(1, 100_000), help="HTTP connections one client address "
              "may hold at once (WebSockets have their own limits)")
@click.option("--spectators-per-table", default=200, show_default=True,
              type=click.IntRange(0, 100_000), help="spectators' WebSocket connections "
              "one table takes")
@click.option("--sockets-per-address", default=64, show_default=True,
              type=click.IntRange(1, 100_000), help="WebSocket connections one client "
              "address may hold at once, over every table")
@click.option("--no-access-log", is_flag=True, help="do not log every request")
@click.option("--owner", metavar="NAME", help="this process's name when several server "
              "processes share one database: it plays only the tables it created")
@click.option("--cluster", is_flag=True, help="one of several processes on one database "
              "(PostgreSQL): hold a lease on --owner's name (a name made up when none is "
              "given) and take the tables of a process whose lease lapses")
@click.option("--lease", default=5.0, show_default=True, metavar="SECONDS",
              type=click.FloatRange(1, 600), help="with --cluster: a process that has not "
              "renewed its lease for this long loses its tables to another")
@click.option("--advertise", metavar="URL", help="with --cluster: where the other "
              "processes reach this one (default: http://HOST:PORT)")
@click.option("--log-format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json: one JSON object a line, with the table's id "
              "in its own field")
@click.option("--close-waiting-after", default=3600.0, show_default=True, metavar="SECONDS",
              type=click.FloatRange(0), help="close a table waiting for players that "
              "nobody has visited for this long (0: never)")
@click.option("--adjourn-after", default=900.0, show_default=True, metavar="SECONDS",
              type=click.FloatRange(0), help="adjourn a game in play when nobody has been "
              "at its table for this long; it plays on when a player comes back (0: never)")
@click.option("--trusted-proxy", "trusted_proxies", metavar="ADDR", multiple=True,
              callback=lambda _ctx, _param, values: proxy_addresses(values),
              help="a reverse proxy's address or network (repeat it, or a comma list) "
              "whose X-Forwarded-For and X-Forwarded-Proto are believed (default: none)")
@click.option("--open", "open_browser", is_flag=True,
              help="open the lobby in your web browser once the server is up")
def serve(db_url: str | None, host: str, port: int, bot_workers: int,
          max_bot_seconds: float, max_bot_iterations: int, bot_jobs_per_address: int,
          bot_tables_per_address: int, tables_per_address: int, rematch_hold: float,
          ws_rate: float, http_rate: float, chat_rate: float,
          clock_timeouts: int, bot_pace: float, catch_up_limit: int, header_timeout: float,
          body_timeout: float, keep_alive_timeout: int, connections_per_address: int,
          spectators_per_table: int, sockets_per_address: int,
          no_access_log: bool, owner: str | None, cluster: bool, lease: float,
          advertise: str | None, log_format: str, close_waiting_after: float, adjourn_after: float,
          trusted_proxies: tuple[str, ...], open_browser: bool) -> None:
    """Host tables for the three games: a web page, an HTTP API and WebSockets.

    \b
    Open http://127.0.0.1:8000/ to create a table and share its invite links
    (--open opens it in your browser).
    The database schema is created on first start; after an upgrade of cardtable,
    run `cardtable db upgrade` when the server asks for it.
    """
    from cardtable.server import Settings
    from cardtable.server import serve as run
    from cardtable.store import SchemaError, default_url, safe_url

    url = db_url or default_url()
    if cluster and owner is None:
        import secrets
        import socket

        owner = f"{socket.gethostname()[:40]}-{secrets.token_hex(3)}"
    if cluster and advertise is None:
        local = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        advertise = f"http://{'[' + local + ']' if ':' in local else local}:{port}"
    settings = Settings(db_url=url, bot_workers=bot_workers, max_bot_seconds=max_bot_seconds,
                        max_bot_iterations=max_bot_iterations,
                        bot_jobs_per_address=bot_jobs_per_address,
                        bot_tables_per_address=bot_tables_per_address,
                        tables_per_address=tables_per_address,
                        rematch_hold=rematch_hold, ws_rate=ws_rate,
                        ws_burst=max(ws_rate * 2, 10.0), http_rate=http_rate,
                        http_burst=max(http_rate * 3, 20.0), owner=owner,
                        cluster=cluster, lease=lease, advertise=advertise,
                        chat_rate=chat_rate, clock_timeouts=clock_timeouts,
                        bot_pace=bot_pace,
                        catch_up_limit=catch_up_limit,
                        close_waiting_after=close_waiting_after or None,
                        adjourn_after=adjourn_after or None,
                        trusted_proxies=trusted_proxies, header_timeout=header_timeout,
                        body_timeout=body_timeout, keep_alive_timeout=keep_alive_timeout,
                        connections_per_address=connections_per_address,
                        spectators_per_table=spectators_per_table,
                        sockets_per_address=sockets_per_address)
    click.echo(f"cardtable server on http://{host}:{port}/ with {safe_url(url)}", err=True)
    if open_browser:
        if port == 0:
            raise click.UsageError("--open needs a port to open (not --port 0)")
        # a server on every interface is opened on this machine's loopback address
        local = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        open_when_up(f"http://{'[' + local + ']' if ':' in local else local}:{port}/")
    try:
        run(settings, host=host, port=port, access_log=not no_access_log,
            log_format=log_format)
    except SchemaError as exc:
        raise click.ClickException(str(exc)) from None


def bot_pace_seconds(value: str) -> float:
    """``--bot-pace``: a named pace or seconds, in seconds."""
    from cardtable.server.pace import pace_seconds
    from cardtable.server.refusals import Refusal

    try:
        number: str | float = float(value)
    except ValueError:
        number = value
    try:
        return pace_seconds(number, "--bot-pace")
    except Refusal as refusal:
        raise click.BadParameter(refusal.message) from None


def proxy_addresses(values: tuple[str, ...]) -> tuple[str, ...]:
    """The ``--trusted-proxy`` values, each an IP address or network (``10.0.0.0/8``),
    commas splitting one into several; BadParameter for anything else (uvicorn would
    take a misspelt address as a name that never matches)."""
    import ipaddress

    found = []
    for value in values:
        for item in filter(None, (part.strip() for part in value.split(","))):
            try:
                found.append(str(ipaddress.ip_network(item, strict=False)
                                 if "/" in item else ipaddress.ip_address(item)))
            except ValueError:
                raise click.BadParameter(f"{item!r} is not an IP address or network "
                                         "(such as 127.0.0.1, ::1 or 10.0.0.0/8)",
                                         param_hint="--trusted-proxy") from None
    return tuple(found)


def open_when_up(url: str, wait: float = 30.0) -> threading.Thread:
    """Open ``url`` in the user's browser (Python's webbrowser: $BROWSER, else the
    desktop's) as soon as the server answers there, from a background thread; after
    ``wait`` seconds without an answer it gives up and says so."""
    def run() -> None:
        end = time.monotonic() + wait
        while time.monotonic() < end:
            try:
                with urllib.request.urlopen(url + "api/games", timeout=2):
                    break
            except OSError:
                time.sleep(0.2)
        else:
            click.echo(f"the server did not answer at {url}; open it yourself", err=True)
            return
        if not webbrowser.open(url):
            click.echo(f"no web browser found: open {url}", err=True)

    thread = threading.Thread(target=run, name="open-browser", daemon=True)
    thread.start()
    return thread
