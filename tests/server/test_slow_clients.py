"""Slow clients and many connections (docs/server.md: Limits; issue 35, finding 5): a
request head sent a line a second, a body sent a byte a second, more connections from one
address than it may hold; a normal client meanwhile is answered."""

from __future__ import annotations

import contextlib
import socket
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import Server


@pytest.fixture
def guarded(sqlite_url: str, tmp_path: Path) -> Iterator[Server]:
    running = Server(sqlite_url, tmp_path, "--header-timeout", "1", "--body-timeout", "1",
                     "--keep-alive-timeout", "1", "--connections-per-address", "8").start()
    try:
        yield running
    finally:
        running.stop()


def opened(server: Server) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    sock.settimeout(5)
    return sock


def closed_after(sock: socket.socket, send: list[bytes], pause: float) -> float | None:
    """Send the pieces ``pause`` apart until the server closes; the seconds it took (None
    if it never did)."""
    start = time.monotonic()
    for piece in send:
        try:
            sock.sendall(piece)
        except OSError:
            return time.monotonic() - start
        sock.settimeout(pause)
        try:
            if sock.recv(4096) == b"":
                return time.monotonic() - start
        except TimeoutError:
            continue
        except OSError:
            return time.monotonic() - start
        # an answer came: read until the close
        sock.settimeout(5)
        while sock.recv(4096):
            pass
        return time.monotonic() - start
    return None


def health_ms(server: Server, n: int) -> list[float]:
    times = []
    with httpx.Client(base_url=server.base, timeout=5) as client:
        for _ in range(n):
            start = time.perf_counter()
            assert client.get("/api/health").status_code == 200
            times.append((time.perf_counter() - start) * 1000)
    return times


def test_a_slow_head_is_closed(guarded: Server) -> None:
    sock = opened(guarded)
    lines = [b"GET /api/health HTTP/1.1\r\n"] + [b"X-Slow: %d\r\n" % n for n in range(8)]
    took = closed_after(sock, lines, 0.5)
    assert took is not None and took < 2.5


def test_a_silent_connection_is_closed(guarded: Server) -> None:
    sock = opened(guarded)
    start = time.monotonic()
    assert sock.recv(10) == b""
    assert time.monotonic() - start < 2.5


def test_a_slow_body_gets_408(guarded: Server) -> None:
    sock = opened(guarded)
    sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                 b"\r\nContent-Length: 1000\r\n\r\n{")
    answer = b""
    start = time.monotonic()
    while chunk := sock.recv(4096):
        answer += chunk
    assert time.monotonic() - start < 3
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert b"http/timeout" in answer


def test_an_idle_keep_alive_is_closed(guarded: Server) -> None:
    sock = opened(guarded)
    sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
    start = time.monotonic()
    answer = b""
    while chunk := sock.recv(4096):
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 200")
    assert time.monotonic() - start < 2.5


def test_connections_per_address(guarded: Server) -> None:
    held = [opened(guarded) for _ in range(8)]
    try:
        time.sleep(0.2)
        extra = opened(guarded)
        with contextlib.suppress(ConnectionResetError):
            assert extra.recv(10) == b""     # refused at once
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.2)
    assert health_ms(guarded, 1)


def test_a_normal_client_meanwhile(guarded: Server) -> None:
    """Slow heads and bodies come and go (each closed within a second); /api/health
    keeps answering quickly between them (the slow ones are limited to 7 at a time)."""
    before = health_ms(guarded, 50)
    slow = []
    for n in range(7):
        sock = opened(guarded)
        sock.sendall(b"GET / HTTP/1.1\r\n" if n % 2 else
                     b"POST /api/tables HTTP/1.1\r\nContent-Length: 9\r\n\r\n{")
        slow.append(sock)
    during = health_ms(guarded, 50)
    for sock in slow:
        sock.close()
    p50_before, p50_during = statistics.median(before), statistics.median(during)
    print(f"health p50 {p50_before:.1f} ms before, {p50_during:.1f} ms during")
    assert p50_during < max(20 * p50_before, 50)
