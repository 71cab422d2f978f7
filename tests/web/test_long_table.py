"""A table past the server's catch-up limit opens in the page (issue 35): two random
bots play Three Thirteen to its end (some 2,600 moves, the case that used to leave the
page "reconnecting…"), then the page opens it from a snapshot on one connection, shows
the board and "Game over", and says the earlier moves are not listed."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import Player, wait_until

pytestmark = pytest.mark.slow

LIMIT = 500     # the server's default --catch-up-limit


def api(server: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server + path, data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def test_a_long_finished_table_opens_with_its_board(browser: Any, server: str,
                                                     shots: Path) -> None:
    bot = {"kind": "bot", "bot": "random"}
    table = api(server, "/api/tables", {"game": "threethirteen", "seats": [bot, bot]})["id"]
    wait_until(lambda: api(server, f"/api/tables/{table}")["status"] == "over", 120,
               "the bots' game to end")
    version = api(server, f"/api/tables/{table}")["version"]
    assert version > LIMIT
    p = Player(browser, server)
    sockets: list[Any] = []
    p.page.on("websocket", lambda socket: sockets.append(socket))
    p.page.goto(f"{server}/t/{table}")
    p.page.wait_for_selector("#over .over-panel")
    assert p.page.inner_text("#turn") == "Game over"
    assert p.page.locator("#score-sheet").count() == 1        # the board is drawn
    unlisted = f"Moves #1 to #{version} are not listed here."
    assert p.page.inner_text("#last-move") == unlisted
    assert p.page.text_content("#log-unlisted") == unlisted     # in the closed move log
    assert p.page.evaluate("window.cardtable.table.version") == version
    # one connection, still open (the page used to reconnect again and again)
    p.page.wait_for_selector(".conn.open")
    assert len(sockets) == 1 and not sockets[0].is_closed()
    p.shot(shots, "threethirteen-long-over")
    p.close()
