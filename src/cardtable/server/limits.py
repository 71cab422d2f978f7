"""Rate limits: token buckets per connection and per client address, and the API's
ASGI middleware that answers ``limit/rate`` before a request reaches its route."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from fastapi.responses import JSONResponse

from cardtable.server.bodies import error_body
from cardtable.server.refusals import Refusal
from cardtable.server.settings import Settings


def client_address(scope: Mapping[str, Any]) -> str:
    """The client's address, as every per-address limit counts it: the ASGI scope's
    client host ("?" when the server was not told one)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


class Bucket:
    """A token bucket: ``rate`` messages a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Buckets:
    """One bucket per key (a client address), forgetting keys that stayed quiet."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.buckets: dict[str, Bucket] = {}

    def take(self, key: str) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) > 10_000:
                self.buckets.clear()
            bucket = self.buckets[key] = Bucket(self.rate, self.burst)
        return bucket.take()


class RateLimits:
    """ASGI middleware: requests to ``/api/`` per client address, writes (POST, PUT,
    DELETE) at ``http_rate`` a second, reads at five times that."""

    def __init__(self, app: Any, settings: Settings) -> None:
        self.app = app
        self.writes = Buckets(settings.http_rate, settings.http_burst)
        self.reads = Buckets(settings.http_rate * 5, settings.http_burst * 5)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            key = client_address(scope)
            bucket = self.writes if scope["method"] in ("POST", "DELETE", "PUT") else self.reads
            if not bucket.take(key):
                refusal = Refusal("limit/rate", "too many requests; slow down")
                response = JSONResponse(error_body(refusal), status_code=refusal.status,
                                        headers={"Retry-After": "1"})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
