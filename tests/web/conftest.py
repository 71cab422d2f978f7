"""A real table server and Debian's chromium for the web page's browser tests.

The server is ``cardtable serve`` on a free port with a SQLite file in a temporary
folder; the browser is the system's ``chromium`` driven by Playwright (nothing is
downloaded). Without chromium the browser tests are skipped, except under ``.ci/run``,
where they fail (tests/needs.py). Screenshots go to
``test-output/screenshots/`` (git-ignored).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.needs import missing

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-output" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_up(url: str, proc: subprocess.Popen[bytes] | None, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"cardtable serve exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/api/games", timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"no server at {url} after {seconds} s")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running server (CARDTABLE_TEST_SERVER: use that one instead)."""
    given = os.environ.get("CARDTABLE_TEST_SERVER")
    if given:
        wait_up(given, None)
        yield given.rstrip("/")
        return
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    try:
        import cardtable.server  # noqa: F401
    except ImportError:
        pytest.skip("the table server (cardtable.server) is not installed")
    port = free_port()
    folder = tmp_path_factory.mktemp("server")
    db = folder / "tables.db"
    # the server's log goes to a file: a pipe nobody reads would stall it once full
    log = (folder / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardtable", "serve", "--port", str(port), "--db",
         f"sqlite:///{db}", "--bot-workers", "1", "--no-access-log",
         # bots at once (a human pace is the default): the tests play many moves
         "--bot-pace", "instant",
         # one server for a worker's whole session, every table from 127.0.0.1: the
         # per-address caps (docs/server.md: Limits) are a test of their own
         "--tables-per-address", "100000", "--bot-tables-per-address", "1000",
         "--sockets-per-address", "10000", "--connections-per-address", "10000"],
        stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_up(url, proc)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = shutil.which("chromium")
    if chromium is None:
        missing("chromium", "the web page's browser tests; Debian's package, on PATH")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
