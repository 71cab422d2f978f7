"""``cardtable serve --open``: the server starts, then the lobby opens in the user's browser
(here a fake one: $BROWSER names a script that writes down the address it was given)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.web.conftest import free_port

pytestmark = pytest.mark.slow


def test_serve_open_opens_the_lobby_once_the_server_is_up(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser"
    # the fake browser also checks that the server answers when it is called
    browser.write_text(f"""#!{sys.executable}
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1] + "api/games", timeout=5) as answer:
    status = answer.status
open({str(opened)!r}, "w").write(sys.argv[1] + " " + str(status))
""")
    browser.chmod(0o755)
    port = free_port()
    env = {**os.environ, "BROWSER": str(browser)}
    log = (tmp_path / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardtable", "serve", "--open", "--port", str(port),
         "--db", f"sqlite:///{tmp_path / 'tables.db'}", "--bot-workers", "1",
         "--no-access-log"], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        end = time.monotonic() + 60
        while not (opened.exists() and opened.read_text()):
            assert proc.poll() is None, (tmp_path / "server.log").read_text()
            assert time.monotonic() < end, "no browser was opened in 60 s"
            time.sleep(0.2)
        assert opened.read_text() == f"http://127.0.0.1:{port}/ 200"
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def test_serve_open_refuses_port_zero() -> None:
    from click.testing import CliRunner

    from cardtable.cli.serve import serve

    got = CliRunner().invoke(serve, ["--open", "--port", "0"])
    assert got.exit_code == 2 and "--open needs a port" in got.output
