"""Routing in a cluster: a table's requests reach the process that plays it, whichever
process of the cluster they reach first (docs/server.md, "Routing").

Any process answers the lobby, table creation, players and finished tables' records. A
request about an unfinished table another live process owns (``/api/tables/{id}...``,
``/ws/tables/{id}``) is relayed to that process, at the address of its lease
(``--advertise``): an HTTP request is sent on with its body and its answer sent back; a
WebSocket is joined to one opened to the owner, message for message, until either side
closes (the owner's close code is passed on; an owner gone closes it with 1012, and the
client reconnects). A relayed request carries ``X-Cardtable-Relayed`` and is never relayed
again (a process that finds the table is not its own after all answers
``table/elsewhere``, 421), and ``X-Forwarded-For`` with the client's address (believed
by the owner when the cluster's processes are among its ``--trusted-proxy``).

A process's own answers about a table it plays (its creation, its requests, the opening
of its WebSocket) carry ``X-Cardtable-Table: ID`` (``OWNS``); a relayed answer never
does. A front proxy that remembers which process gave it (HAProxy's stick table,
``cardtable.server.haproxy``) sends the table's later requests straight there, so that
the relay is only the way round while the proxy has not learned a table's new process
(after a failover, a drain or the proxy's own restart).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import re
from typing import TYPE_CHECKING, Any

import httpx
from pydantic import ValidationError
from starlette.websockets import WebSocket
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from cardtable.server.bodies import Lobby, TableAnswer
from cardtable.server.headers import HEADERS
from cardtable.server.limits import client_address
from cardtable.server.messages import TableSummary
from cardtable.server.rooms import LOBBY_SIZE
from cardtable.store import leases

if TYPE_CHECKING:
    from cardtable.server.service import TableService

log = logging.getLogger("cardtable.server")

RELAYED = "x-cardtable-relayed"
#: the header of an answer from the process that plays the table it names
OWNS = "x-cardtable-table"
TABLE_PATH = re.compile(r"^/api/tables/([A-Za-z0-9_-]{1,32})(?:/|$)")
#: headers not passed on (hop by hop, or set again by this process)
DROPPED = {b"host", b"connection", b"keep-alive", b"transfer-encoding", b"upgrade",
           b"content-length", b"te", b"trailer", b"proxy-connection", OWNS.encode(),
           *(name for name, _ in HEADERS)}
#: close codes a server may not send (1005, 1006: none was received): the owner is gone
GONE = 1012
#: how long a process waits for another process of the cluster asked for its part (its
#: lobby, a table summary, a revoked key), in seconds
PEER_WAIT = 2.0


class Router:
    """Finds a table's process and relays to it."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.lookups = concurrent.futures.ThreadPoolExecutor(4, "cardtable-route")
        self.client: httpx.AsyncClient | None = None
        #: requests and connections relayed to another process (``metrics``)
        self.relayed = 0

    async def address_of(self, table_id: str) -> str | None:
        """The address of the live process that plays ``table_id`` when it is another's
        unfinished table; None otherwise (this process's, finished, unknown, or its
        owner's lease lapsed: then the request is answered here)."""
        cluster = self.service.cluster
        rooms = self.service.rooms
        if cluster is None or table_id in rooms.live or table_id in rooms.finished:
            return None
        me, engine = cluster.name, self.service.rooms.store.engine

        def look() -> str | None:
            with engine.connect() as conn:
                return leases.route(conn, table_id, me)

        return await asyncio.get_running_loop().run_in_executor(self.lookups, look)

    async def lobby(self, scope: Any, status: str | None,
                    mine: list[TableSummary]) -> list[TableSummary]:
        """The cluster's lobby: ``mine`` (this process's tables) and every other live
        process's, each asked at the address of its lease for its own (a relayed request,
        answered where it lands), newest first, ``LOBBY_SIZE`` at most. A process that
        does not answer within ``PEER_WAIT`` seconds is left out of this answer."""
        addresses = await self.others()
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in self.headers(scope)]

        async def ask(address: str) -> list[TableSummary]:
            try:
                answer = await self.http_client().get(
                    address + "/api/tables", params={"status": status} if status else None,
                    headers=headers, timeout=PEER_WAIT)
                answer.raise_for_status()
                return Lobby.model_validate_json(answer.content).tables
            except (httpx.HTTPError, ValidationError) as exc:
                log.warning("the lobby of the process at %s was not read (%s)", address,
                            type(exc).__name__)
                return []

        found = await asyncio.gather(*(ask(address) for address in addresses))
        tables = [*mine, *(table for theirs in found for table in theirs)]
        tables.sort(key=lambda table: table.created, reverse=True)
        return tables[:LOBBY_SIZE]

    async def tell_others(self, path: str, headers: dict[str, str]) -> None:
        """``POST path`` (relayed, with ``headers``) to every other live process, at once;
        one that does not answer within ``PEER_WAIT`` seconds is logged and left."""
        addresses = await self.others()

        async def tell(address: str) -> None:
            try:
                answer = await self.http_client().post(
                    address + path, headers={**headers, RELAYED: "1"}, timeout=PEER_WAIT)
                answer.raise_for_status()
            except httpx.HTTPError as exc:
                log.warning("the process at %s was not told %s (%s)", address, path,
                            type(exc).__name__)

        await asyncio.gather(*(tell(address) for address in addresses))

    async def others(self) -> list[str]:
        """The addresses of the cluster's other live processes (their leases')."""
        cluster = self.service.cluster
        assert cluster is not None
        me, engine = cluster.name, self.service.rooms.store.engine

        def look() -> list[str]:
            with engine.connect() as conn:
                return [m.address for m in leases.members(conn)
                        if m.owner != me and m.address]

        return await asyncio.get_running_loop().run_in_executor(self.lookups, look)

    async def summary(self, table_id: str) -> TableSummary | None:
        """The summary of another live process's unfinished table, asked of that process
        (None when there is none, or it did not answer)."""
        address = await self.address_of(table_id)
        if address is None:
            return None
        try:
            answer = await self.http_client().get(f"{address}/api/tables/{table_id}",
                                                  headers={RELAYED: "1"}, timeout=PEER_WAIT)
            answer.raise_for_status()
            found = TableAnswer.model_validate_json(answer.content)
        except (httpx.HTTPError, ValidationError) as exc:
            log.warning("table %s: its process at %s did not answer (%s)", table_id,
                        address, type(exc).__name__, extra={"table": table_id})
            return None
        return TableSummary(**{k: getattr(found, k) for k in found.model_fields_set
                               if k != "invites"})

    def http_client(self) -> httpx.AsyncClient:
        if self.client is None:
            self.client = httpx.AsyncClient(timeout=httpx.Timeout(30, connect=2))
        return self.client

    def owns(self, table_id: str) -> list[tuple[bytes, bytes]]:
        """``OWNS`` when this process plays ``table_id`` (none otherwise)."""
        if table_id in self.service.rooms.live:
            return [(OWNS.encode(), table_id.encode())]
        return []

    def headers(self, scope: Any) -> list[tuple[bytes, bytes]]:
        kept = [(k, v) for k, v in scope["headers"] if k.lower() not in DROPPED
                and k.lower() not in (b"x-forwarded-for", b"x-forwarded-proto",
                                      b"sec-websocket-key", b"sec-websocket-version",
                                      b"sec-websocket-extensions")]
        scheme = b"https" if scope.get("scheme") in ("https", "wss") else b"http"
        return [*kept, (RELAYED.encode(), b"1"),
                (b"x-forwarded-for", client_address(scope).encode()),
                (b"x-forwarded-proto", scheme)]

    async def close(self) -> None:
        if self.client is not None:
            await self.client.aclose()
        self.lookups.shutdown(wait=False)

    # -- HTTP

    async def http(self, scope: Any, body: bytes, send: Any, address: str) -> None:
        query = scope.get("query_string", b"").decode("latin-1")
        url = address + scope["path"] + ("?" + query if query else "")
        answer = await self.http_client().request(scope["method"], url, content=body,
                                           headers=self.headers(scope))
        self.relayed += 1
        content = answer.content
        headers = [(k, v) for k, v in answer.headers.raw if k.lower() not in DROPPED
                   and k.lower() != b"content-encoding"]
        await send({"type": "http.response.start", "status": answer.status_code,
                    "headers": [*headers, (b"content-length", str(len(content)).encode())]})
        await send({"type": "http.response.body", "body": content})

    # -- WebSocket

    async def websocket(self, websocket: WebSocket, table_id: str) -> bool:
        """Join an accepted WebSocket to one opened to the table's process; False when
        there is none to join (the caller answers ``table/elsewhere``)."""
        scope = websocket.scope
        if any(k.lower() == RELAYED.encode() for k, _ in scope["headers"]):
            return False
        address = await self.address_of(table_id)
        if address is None:
            return False
        query = scope.get("query_string", b"").decode("latin-1")
        url = re.sub(r"^http", "ws", address) + scope["path"] + ("?" + query if query
                                                                 else "")
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in self.headers(scope)
                   if k.lower() not in (b"origin", b"cookie", b"user-agent")]
        try:
            upstream = await connect(url, additional_headers=headers, max_size=2**22,
                                     open_timeout=5, ping_interval=None, compression=None)
        except (OSError, TimeoutError, WebSocketException) as exc:
            log.warning("table %s: its process at %s did not answer (%s)", table_id,
                        address, type(exc).__name__, extra={"table": table_id})
            return False
        self.relayed += 1

        async def down() -> None:
            with contextlib.suppress(ConnectionClosed):
                async for message in upstream:
                    if isinstance(message, str):
                        await websocket.send_text(message)
                    else:
                        await websocket.send_bytes(message)

        async def up() -> None:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                if message.get("text") is not None:
                    await upstream.send(message["text"])
                else:
                    await upstream.send(message.get("bytes") or b"")

        tasks = [asyncio.ensure_future(down()), asyncio.ensure_future(up())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            with contextlib.suppress(Exception):
                await asyncio.gather(*tasks, return_exceptions=True)
            await upstream.close()
            code = upstream.close_code
            if code is None or code in (1005, 1006, 1015):
                code = GONE
            with contextlib.suppress(Exception):
                await websocket.close(code)
        return True


class Relay:
    """ASGI middleware: an HTTP request about another live process's unfinished table is
    answered by that process (``Router.http``)."""

    def __init__(self, app: Any, router: Router) -> None:
        self.app = app
        self.router = router

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        found = (TABLE_PATH.match(scope["path"]) if scope["type"] == "http"
                 and self.router.service.cluster is not None else None)
        if found is None:
            await self.app(scope, receive, send)
            return
        table_id = found.group(1)
        if not any(k.lower() == RELAYED.encode() for k, _ in scope["headers"]):
            address = await self.router.address_of(table_id)
            if address is not None:
                body = b""
                while True:
                    message = await receive()
                    body += message.get("body", b"")
                    if not message.get("more_body"):
                        break
                try:
                    await self.router.http(scope, body, send, address)
                    return
                except httpx.HTTPError as exc:
                    log.warning("table %s: its process at %s did not answer (%s)",
                                table_id, address, type(exc).__name__)
                receive = replay(body)      # answered here: table/elsewhere
        await self.app(scope, receive, self.naming(table_id, send))

    def naming(self, table_id: str, send: Any) -> Any:
        """``send``, with ``OWNS`` added to the answer when this process plays the table
        (asked when the answer starts: a request may have loaded it meanwhile)."""
        async def named(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []),
                                                  *self.router.owns(table_id)]}
            await send(message)

        return named


def replay(body: bytes) -> Any:
    """An ASGI ``receive`` that gives ``body`` again (read once already)."""
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive
