"""Players without accounts in a real browser (Debian's chromium) against a real
``cardtable serve`` of its own (it is restarted): the key a first visit gets, the lobby's
"Your tables" from the key alone (after a reload and a server restart), the player page
with its rating (English on a desktop, Khmer on a phone), moving the key to another
browser and revoking it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.http import http
from tests.server.conftest import Server, play_all
from tests.web.test_browser import DESKTOP, PHONE, Player, english_left, wait_until

pytestmark = pytest.mark.slow


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    running = Server(f"sqlite:///{tmp_path / 'tables.db'}", tmp_path, "--no-access-log",
                     "--ws-rate", "200", "--bot-workers", "1").start()
    try:
        yield running
    finally:
        running.stop()


def player_of(p: Player) -> dict[str, str]:
    # one read that waits: the page may drop a revoked key and save the new one in between
    saved: dict[str, str] = json.loads(p.page.wait_for_function(
        "() => localStorage.getItem('cardtable:player')").json_value())
    return saved


def take(server: Server, table: str, seat: int, key: str, name: str) -> str:
    answer = http.post(f"{server.base}/api/tables/{table}/seats/{seat}", json={"name": name},
                        headers={"X-Player-Key": key}, timeout=30)
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def my_rows(p: Player) -> list[str]:
    p.page.wait_for_selector("#my-tables:not([hidden]) .mine-row")
    return list(p.page.eval_on_selector_all("#my-tables .mine-row",
                                            "els => els.map(e => e.dataset.table)"))


def test_the_player_page_and_my_tables_from_the_key(browser: Any, own_server: Server,
                                                    shots: Path) -> None:
    server = own_server
    ana = Player(browser, server.base, viewport=DESKTOP)
    bo = Player(browser, server.base, viewport=PHONE, locale="km-KH")
    for p in (ana, bo):
        p.page.goto(server.base + "/")
    ana_key, bo_key = player_of(ana), player_of(bo)
    assert ana_key["id"] != bo_key["id"]

    # two whole games between them (scripted over the API with the browsers' keys)
    finished = []
    for seed in (1, 2):
        table = server.create("drawbridge", [{"kind": "person"}, {"kind": "person"}],
                              {"target": 1})
        tokens = {0: take(server, table["id"], 0, ana_key["key"], "Ana"),
                  1: take(server, table["id"], 1, bo_key["key"], "Bo")}
        play_all(server, table, tokens, seed)
        finished.append(table["id"])
    # a table in play, Ana's by her key only: this browser holds no seat token for it
    waiting = server.create("drawbridge", [{"kind": "person"}, {"kind": "person"}])
    take(server, waiting["id"], 0, ana_key["key"], "Ana")
    assert ana.page.evaluate("Object.keys(localStorage).filter(k => "
                             "k.startsWith('cardtable:seat:')).length") == 0

    page = server.get(f"/api/players/{ana_key['id']}").json()
    [rating] = page["ratings"]

    # the lobby lists the key's tables; its list of tables does not tell where a player
    # sits (docs/server.md, Privacy): her waiting seat is "a player", with no rating
    ana.page.goto(server.base + "/")
    for _ in range(2):
        rows = my_rows(ana)
        assert rows[0] == waiting["id"] and set(rows[1:]) == set(finished)
        listed = ana.page.inner_text("#table-list")
        assert "a player" in listed and "Ana" not in listed
        assert str(rating["rating"]) not in listed
        ana.page.reload()
    ana.shot(shots, "players-lobby")
    server.stop()
    server.start()          # the same port and database: the page reconnects
    ana.page.reload()
    assert my_rows(ana)[0] == waiting["id"]
    ana.page.click(f"#my-tables [data-table='{waiting['id']}'] button")
    ana.page.wait_for_url(f"**/t/{waiting['id']}")
    ana.wait_view()
    # the player key opened the seat: the page is Ana's seat, not a spectator's
    ana.page.wait_for_selector(".seat.me")
    assert f"{rating['rating']}" in ana.page.inner_text(".seat.me")

    # her player page, in English on a desktop
    ana.page.click("#my-page")
    ana.page.wait_for_selector("#ratings")
    assert ana.page.inner_text("#player-name-title") == "Ana"
    assert str(rating["rating"]) in ana.page.inner_text("#ratings")
    stats = ana.page.inner_text("#stats")
    assert "Draw Bridge" in stats and "\t2\t" in stats
    assert ana.page.locator("#finished .table-row").count() == 2
    assert ana.page.locator("#unfinished .table-row").count() == 1
    ana.shot(shots, "players-page")
    ana.page.locator("#finished .table-row a.button").first.click()
    ana.page.wait_for_url("**/replay")

    # Bo's page seen by Bo, in Khmer on a phone; and Ana's as others see it
    bo.page.goto(f"{server.base}/p/{bo_key['id']}")
    bo.page.wait_for_selector("#ratings")
    assert english_left(bo.page.inner_text("main")) == []
    bo.shot(shots, "players-page-khmer-phone")
    bo.page.goto(f"{server.base}/p/{ana_key['id']}")
    bo.page.wait_for_selector("#ratings")
    assert bo.page.locator("#unfinished, #key-panel").count() == 0
    assert english_left(bo.page.inner_text("main")) == []
    assert ana_key["key"] not in bo.page.content()

    # the key moves to a third browser with the code shown once
    ana.page.goto(f"{server.base}/p/{ana_key['id']}")
    ana.page.click("#move-key")
    code = ana.page.inner_text("#transfer-code")
    link = ana.page.input_value("#transfer-link")
    assert link.endswith(f"/claim#{code}")
    ana.shot(shots, "players-move-key")
    other = Player(browser, server.base, viewport=PHONE)
    other.page.goto(link)
    other.page.click("#claim-button")
    other.page.wait_for_url(f"**/p/{ana_key['id']}")
    other.page.wait_for_selector("#key-panel")
    assert player_of(other)["id"] == ana_key["id"]
    other.shot(shots, "players-claimed-phone")
    other.page.goto(server.base + "/")
    assert my_rows(other)[0] == waiting["id"]
    other.shot(shots, "players-lobby-phone")

    # revoked there: the first browser's key stops working, it becomes a new player
    other.page.goto(f"{server.base}/p/{ana_key['id']}")
    other.page.once("dialog", lambda dialog: dialog.accept())
    other.page.click("#revoke-key")
    wait_until(lambda: player_of(other)["key"] != ana_key["key"], what="a new key")
    ana.page.goto(server.base + "/")
    wait_until(lambda: player_of(ana)["id"] != ana_key["id"], what="a new player")
    assert ana.page.locator("#my-tables .mine-row").count() == 0
    for p in (ana, bo, other):
        p.close()
