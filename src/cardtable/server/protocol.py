"""The wire protocol's refusals and the checks on what clients send (docs/server.md)."""

from __future__ import annotations

import json
import time
from typing import Any

# code -> HTTP status when the refusal answers an HTTP request
CODES: dict[str, int] = {
    "move/illegal": 422,
    "move/not-your-turn": 409,
    "move/stale": 409,
    "move/game-over": 409,
    "table/waiting": 409,
    "seat/taken": 409,
    "seat/not-found": 404,
    "auth/bad-token": 401,
    "table/not-found": 404,
    "table/not-over": 409,
    "table/elsewhere": 421,
    "options/bad": 422,
    "message/bad": 400,
    "message/too-large": 413,
    "limit/rate": 429,
    "limit/tables": 503,
    "record/no-pbn": 404,
    "http/not-found": 404,
    "http/method": 405,
    "server/error": 500,
}


class Refusal(Exception):
    """A documented refusal: ``code`` (namespaced) and a sentence for a person."""

    def __init__(self, code: str, message: str) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message

    @property
    def status(self) -> int:
        return CODES[self.code]

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}

    def message_json(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message}


def parse_json(raw: str | bytes, limit: int) -> Any:
    if len(raw) > limit:
        raise Refusal("message/too-large",
                      f"a message may hold at most {limit} bytes; this one has {len(raw)}")
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise Refusal("message/bad", "the message is not valid JSON") from None


def need_dict(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise Refusal("message/bad", f"{what} must be a JSON object")
    return data


def clean_name(value: Any) -> str:
    """A display name: 1 to 32 printable characters, spaces trimmed."""
    if not isinstance(value, str):
        raise Refusal("message/bad", "'name' must be a string, e.g. {\"name\": \"Dara\"}")
    name = " ".join(value.split())
    if not name or len(name) > 32 or not name.isprintable():
        raise Refusal("message/bad", "a name has 1 to 32 printable characters")
    return name


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
