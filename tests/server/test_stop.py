"""Stopping the server as a person does, Ctrl+C in its terminal (SIGINT to the whole
process group: the server, its bot workers and multiprocessing's resource tracker), or
SIGTERM: it says nothing but its log lines (issue 37, defect 18: "resource_tracker: There
appear to be 5 leaked semaphore objects", and a KeyboardInterrupt traceback per worker)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.http import http
from tests.server.conftest import ROOT
from tests.web.conftest import free_port

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_stopping_the_server_prints_no_leak_and_no_traceback(tmp_path: Path, how: str) -> None:
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"),
           "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardtable", "serve", "--port", str(port), "--db",
         f"sqlite:///{tmp_path / 'tables.db'}", "--bot-pace", "instant", "--bot-workers", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
        start_new_session=True)   # a group of its own, as a terminal gives it
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None and time.monotonic() < deadline, "no server"
            try:
                if http.get(base + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        # the workers have worked: two bots play a game
        made = http.post(base + "/api/tables", json={"game": "sequence", "seats": [
            {"kind": "bot", "name": "heuristic"}, {"kind": "bot", "name": "heuristic"}]})
        assert made.status_code in (200, 201), made.text
        time.sleep(1.5)
        if how == "ctrl-c":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    text = err.decode(errors="replace")
    # uvicorn ends by the signal it stopped on (SIGTERM), after its clean shutdown
    assert proc.returncode in (0, -signal.SIGTERM), text[-3000:]
    assert "leaked semaphore" not in text and "resource_tracker" not in text, text[-3000:]
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text[-3000:]
    assert "Finished server process" in text
