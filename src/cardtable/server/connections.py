"""One WebSocket connection: its seat, the last version it was sent, and a send queue
that a slow reader cannot let grow without bound."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from cardtable.server.limits import Bucket
from cardtable.server.messages import Out
from cardtable.server.settings import Settings


class Connection:
    """One WebSocket: its seat (None for a spectator), its client's address and the last
    version it was sent."""

    def __init__(self, send: Callable[[str], Any], close: Callable[[int], Any],
                 seat: int | None, settings: Settings, address: str = "?") -> None:
        self._send = send
        self._close = close
        self.seat = seat
        #: the client's address (``limits.client_address``)
        self.address = address
        self.version = 0
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.bucket = Bucket(settings.ws_rate, settings.ws_burst)
        self.max_queue = settings.max_queue
        self.closed = False
        self.close_code = 1000
        #: counted in its address's connections (``Rooms.admit``)
        self.counted = False
        #: a spectator who watches under a player's name: (player id, name); None: a guest
        self.watcher: tuple[str, str] | None = None
        self.task = asyncio.get_running_loop().create_task(self._sender())

    def push(self, message: Out | str) -> None:
        """Queue a message (or its text, when several connections share it)."""
        if self.closed:
            return
        if self.queue.qsize() >= self.max_queue:
            # a client that does not read must not hold the others up: it reconnects
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(message if isinstance(message, str) else message.text())

    def end(self, code: int = 1000) -> None:
        """Close once what is queued is sent, with WebSocket close ``code``."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.queue.put_nowait(None)

    async def _sender(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self._send(text)
        except Exception:  # the socket went away; the receiver notices too
            self.closed = True
        self.closed = True
        with contextlib.suppress(Exception):
            await self._close(self.close_code)
