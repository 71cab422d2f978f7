"""Quick pairing in real browsers (docs/web.md: Find me an opponent): two browsers that
ask for the same game are seated together (English on a desktop, Khmer on a phone), one
that cancels leaves the queue, and one nobody comes to plays a bot after the wait it
chose."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.http import http
from tests.web.test_browser import DESKTOP, PHONE, Player, english_left

pytestmark = pytest.mark.slow


def table_of(p: Player) -> str:
    p.page.wait_for_url("**/t/**", timeout=30000)
    p.wait_view()
    return p.page.url.rstrip("/").split("/t/")[1].split("?")[0]


def lobby(p: Player, server: str, name: str, wait: str) -> None:
    p.page.goto(server + "/")
    p.page.wait_for_function("() => localStorage.getItem('cardtable:player')")
    p.page.fill("#player-name", name)
    p.page.select_option("#pairing-bot-after", wait)


def key_of(p: Player) -> str:
    saved: dict[str, str] = json.loads(p.page.evaluate(
        "() => localStorage.getItem('cardtable:player')"))
    return saved["key"]


def test_two_browsers_are_paired(browser: Any, server: str, shots: Path) -> None:
    ana = Player(browser, server, viewport=DESKTOP)
    bo = Player(browser, server, viewport=PHONE, locale="km-KH")
    lobby(ana, server, "Ana", "never")
    lobby(bo, server, "Bo", "never")
    ana.page.click("#find-drawbridge")
    ana.page.wait_for_selector("#pairing-wait")
    text = ana.page.inner_text("#pairing-wait")
    assert "Looking for an opponent for Draw Bridge" in text
    assert "No bot: you wait for a person." in text
    ana.page.wait_for_function("() => /[1-9] s/.test("
                               "document.querySelector('.pairing-waited').textContent)")
    ana.shot_of("#games", shots / "pairing-wait-desktop-en.png")
    # the choice is kept for the next visit
    assert ana.page.evaluate("localStorage.getItem('cardtable:pairing:bot-after')") == "never"

    bo.page.click("#find-drawbridge")
    first, second = table_of(ana), table_of(bo)
    assert first == second
    table = http.get(f"{server}/api/tables/{first}", timeout=30).json()
    assert table["status"] == "playing"
    assert sorted(s["name"] for s in table["seats"]) == ["Ana", "Bo"]
    assert all(s["kind"] == "person" for s in table["seats"])
    # each page holds its own seat (its token kept as a seat taken from the lobby)
    seats = {p.page.evaluate(f"JSON.parse(localStorage.getItem('cardtable:seat:{first}')).seat")
             for p in (ana, bo)}
    assert seats == {0, 1}
    ana.shot(shots, "pairing-table-desktop-en")
    bo.shot(shots, "pairing-table-phone-km")
    for p in (ana, bo):
        p.close()


def test_cancel_leaves_the_queue_and_the_khmer_wait(browser: Any, server: str,
                                                   shots: Path) -> None:
    ana = Player(browser, server, viewport=PHONE, locale="km-KH")
    lobby(ana, server, "Ana", "60")
    ana.page.click("#find-threethirteen")
    ana.page.wait_for_selector("#pairing-wait")
    ana.page.locator("#pairing-wait").scroll_into_view_if_needed()
    ana.page.screenshot(path=str(shots / "pairing-wait-phone-km.png"))
    assert not english_left(ana.page.inner_text("#pairing-wait"))
    ana.page.click("#pairing-cancel")
    ana.page.wait_for_selector("#find-threethirteen")
    assert ana.page.locator("#pairing-wait").count() == 0
    # the cancelled ticket is out of the queue: the next one waits alone
    other = http.post(f"{server}/api/players", json={"name": "Cy"}, timeout=30).json()["key"]
    ticket = http.post(f"{server}/api/pairing", json={"game": "threethirteen",
                                                      "bot_after": None},
                        headers={"X-Player-Key": other}, timeout=30).json()
    assert ticket["status"] == "waiting" and ticket["waiting"] == 1
    http.delete(f"{server}/api/pairing/{ticket['ticket']}", headers={"X-Player-Key": other},
                 timeout=30)
    assert key_of(ana)
    ana.close()


def test_a_bot_takes_the_seat_after_the_chosen_wait(browser: Any, server: str,
                                                    shots: Path) -> None:
    ana = Player(browser, server, viewport=DESKTOP)
    lobby(ana, server, "Ana", "10")
    started = time.monotonic()
    ana.page.click("#find-sequence")
    ana.page.wait_for_selector("#pairing-wait")
    assert "a bot takes the seat after 10 seconds" in ana.page.inner_text("#pairing-wait")
    table_id = table_of(ana)
    assert time.monotonic() - started >= 9.5
    table = http.get(f"{server}/api/tables/{table_id}", timeout=30).json()
    assert sorted(s["kind"] for s in table["seats"]) == ["bot", "person"]
    assert any(s["name"] == "Ana" for s in table["seats"] if s["kind"] == "person")
    ana.shot(shots, "pairing-bot-desktop-en")
    ana.close()
