"""What the HTTP side of a real ``cardtable serve`` does with hostile requests: record
files nested thousands deep are refused (record/bad), never a 500; X-Forwarded-For is
believed only from a ``--trusted-proxy``, so no one escapes the per-address limits."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from cardtable.cli import main
from tests.server.conftest import Server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("guard")
    server = Server(f"sqlite:///{folder / 'guard.db'}", folder, "--no-access-log").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.parametrize("route", ["/api/replay", "/api/review"])
@pytest.mark.parametrize("body", [b"[" * 100_000 + b"]" * 100_000, b'{"a":' * 50_000],
                         ids=["lists", "objects"])
def test_a_record_file_nested_deep_is_refused(guarded: Server, route: str, body: bytes) -> None:
    answer = httpx.post(guarded.base + route, content=body, timeout=30)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["code"] == "record/bad" and "nest" in error["message"]
    assert "RecursionError" not in guarded.log()


def refused_writes(server: Server, count: int) -> int:
    """How many of ``count`` writes sent at once from 127.0.0.1, each with another
    X-Forwarded-For, got limit/rate."""
    with httpx.Client(base_url=server.base, timeout=30) as client:
        codes = [client.post("/api/replay", content=b"x",
                             headers={"x-forwarded-for": f"203.0.113.{n}"}).status_code
                 for n in range(count)]
    return codes.count(429)


def invite_of(server: Server) -> str:
    """The invite link a new table gets when the request says it came over HTTPS."""
    answer = httpx.post(server.base + "/api/tables", json={"game": "sequence"},
                        headers={"x-forwarded-proto": "https",
                                 "x-forwarded-for": "198.51.100.7"}, timeout=30)
    assert answer.status_code == 201, answer.text
    invite: str = answer.json()["invites"][0]
    return invite


@pytest.mark.parametrize("trusted", [False, True], ids=["no-proxy", "trusted-proxy"])
def test_a_forwarded_address_is_believed_only_from_a_trusted_proxy(
        tmp_path: Path, trusted: bool) -> None:
    # --http-rate 1: bursts of 20 writes per address
    args = ["--http-rate", "1", "--no-access-log"] + (
        ["--trusted-proxy", "::1, 127.0.0.1"] if trusted else [])
    server = Server(f"sqlite:///{tmp_path / 'proxy.db'}", tmp_path, *args).start()
    try:
        assert invite_of(server).startswith("https://" if trusted else "http://")
        refused = refused_writes(server, 40)
    finally:
        server.stop()
    if trusted:   # each forwarded address has a bucket of its own
        assert refused == 0
    else:         # one bucket, 127.0.0.1's, whatever the header says
        assert refused >= 15


def test_a_trusted_proxy_is_an_address_or_a_network() -> None:
    answer = CliRunner().invoke(main, ["serve", "--trusted-proxy", "10.0.0.0/8,proxy.lan"])
    assert answer.exit_code == 2
    assert "'proxy.lan' is not an IP address or network" in answer.output
