"""What the HTTP side of a real ``cardtable serve`` does with hostile requests: record
files nested thousands deep are refused (record/bad), never a 500."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

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
