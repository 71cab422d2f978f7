"""Slow clients (docs/server.md: Limits): a request's head must arrive within
``header_timeout`` seconds, each piece of its body within ``body_timeout``, and one client
address holds at most ``connections_per_address`` HTTP connections at once. uvicorn has a
keep-alive timeout of its own but none for a request's head: :func:`guarded_protocol` is
its HTTP protocol with that timer and the count per address; :class:`BodyTimeout` is the
ASGI middleware that answers 408 to a body that stops coming.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from cardtable.server.bodies import error_body
from cardtable.server.refusals import Refusal


def guarded_protocol(header_timeout: float, connections_per_address: int
                     ) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol, closing a connection whose request head is not
    complete ``header_timeout`` seconds after it opened or the request began, and
    refusing (closing at once) a connection from an address that holds
    ``connections_per_address`` already. A connection upgraded to a WebSocket leaves the
    count: the WebSocket limits count it (``service.TableService.join``)."""
    held: Counter[str] = Counter()

    class Guarded(HttpToolsProtocol):
        address: str = "?"
        head_timer: asyncio.TimerHandle | None = None
        counted = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.address = self.client[0] if self.client else "?"
            if held[self.address] >= connections_per_address:
                transport.abort()
                return
            held[self.address] += 1
            self.counted = True
            self.start_head_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            self.leave_count()
            super().connection_lost(exc)

        def leave_count(self) -> None:
            self.stop_head_timer()
            if self.counted:
                self.counted = False
                held[self.address] -= 1
                if held[self.address] <= 0:
                    del held[self.address]

        def start_head_timer(self) -> None:
            self.stop_head_timer()
            self.head_timer = self.loop.call_later(header_timeout, self.head_too_slow)

        def stop_head_timer(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def head_too_slow(self) -> None:
            self.head_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self.head_timer is None:      # a keep-alive connection's next request
                self.start_head_timer()

        def on_headers_complete(self) -> None:
            self.stop_head_timer()
            super().on_headers_complete()

        def handle_websocket_upgrade(self) -> None:
            self.leave_count()
            super().handle_websocket_upgrade()

    return Guarded


class BodyTimeout:
    """ASGI middleware: a request body whose next piece takes over ``timeout`` seconds is
    answered ``408 http/timeout`` (and the connection closed); the route sees the client
    gone."""

    def __init__(self, app: Any, timeout: float) -> None:
        self.app = app
        self.timeout = timeout

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = timed_out = False

        async def timed_receive() -> Any:
            nonlocal started, timed_out
            if timed_out:
                return {"type": "http.disconnect"}
            try:
                return await asyncio.wait_for(receive(), self.timeout)
            except TimeoutError:
                timed_out = True
                if not started:
                    started = True
                    await answer_timeout(send)
                return {"type": "http.disconnect"}

        async def watched_send(message: Any) -> None:
            nonlocal started
            if timed_out:
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, timed_receive, watched_send)
        except Exception:
            if not timed_out:
                raise


async def answer_timeout(send: Any) -> None:
    import json

    body = json.dumps(error_body(Refusal(
        "http/timeout", "the request's body came too slowly"))).encode()
    await send({"type": "http.response.start", "status": 408,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
