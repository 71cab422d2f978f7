"""The table's clock in a real browser (Debian's chromium) against a real ``cardtable
serve``: the lobby's clock fields, a running clock per seat counted down on the page, the
clock's line naming the timeout bot, and the "timed out" mark; English on a desktop,
Khmer on a 375 px phone (screenshots in test-output/screenshots/)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.http import http
from tests.web.test_browser import KHMER, PHONE, Player, wait_until

pytestmark = pytest.mark.slow


def create_with_clock(p: Player, clock: dict[str, Any]) -> str:
    page = p.page
    page.goto(p.server + "/")
    page.fill("#player-name", "Dara")
    page.select_option("#game", "sequence")
    page.select_option("#players", "2")
    page.select_option("#seat-0", "person")
    page.select_option("#seat-1", "bot:random")
    page.click("#create details summary")
    page.select_option("#clock-kind", clock["kind"])
    for key in ("seconds", "minutes", "increment"):
        if key in clock:
            page.fill(f"#clock-{key}", str(clock[key]))
    page.click("#create-table")
    page.wait_for_url("**/t/**")
    p.wait_view()
    return page.url.rstrip("/").split("/t/")[1].split("?")[0]


def clock_text(p: Player, seat: int) -> str:
    return str(p.page.locator(f".seat-clock[data-seat='{seat}']").inner_text())


def seconds(text: str) -> int:
    parts = [int(x) for x in text.split(":")]
    return sum(v * 60 ** n for n, v in enumerate(reversed(parts)))


def test_the_clock_runs_on_the_page_in_english_on_a_desktop(browser: Any, server: str,
                                                           shots: Path) -> None:
    p = Player(browser, server)
    try:
        create_with_clock(p, {"kind": "player", "minutes": 5, "increment": 3})
        page = p.page
        page.wait_for_selector(".seat-clock.running[data-seat='0']")
        assert page.locator(".seat-clock[data-seat='1']").count() == 0   # a bot: no clock
        first = clock_text(p, 0)
        assert re.fullmatch(r"[45]:\d\d", first), first
        wait_until(lambda: seconds(clock_text(p, 0)) <= seconds(first) - 2, 10,
                   "the clock counting down")
        note = page.locator("#clock-note").inner_text()
        assert "5 min + 3 s a move" in note and "Bot: medium" in note, note
        p.shot(shots, "clock-desktop-en")
    finally:
        p.close()


def test_the_clock_runs_out_on_a_khmer_phone(browser: Any, server: str, shots: Path) -> None:
    p = Player(browser, server, viewport=PHONE, locale="km-KH")
    try:
        create_with_clock(p, {"kind": "move", "seconds": 2})
        page = p.page
        page.wait_for_selector(".seat-clock[data-seat='0']")
        note = page.locator("#clock-note").inner_text()
        assert re.search(f"[{KHMER}]", note) and "2" in note, note
        page.wait_for_selector(".timed-out", timeout=15000)     # the bot moved for us
        mark = page.locator(".timed-out").first.inner_text()
        assert re.search(f"[{KHMER}]", mark), mark
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width                   # nothing wider than the phone
        p.shot(shots, "clock-phone-km")
    finally:
        p.close()


def test_a_takeover_says_for_you_and_ends_with_the_game(browser: Any, server: str,
                                                        shots: Path) -> None:
    """Defect 1 of the newcomer's review, on the page: the seat's own words say "for you",
    and once the game is over neither the takeover's mark, the "timed out" mark nor the
    "I'm back" button stays (the server ends the takeover; the page hides them too)."""
    import json


    body = {"game": "sequence", "options": {"max_turns": 8}, "bot_pace": "normal",
            "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}],
            "clock": {"kind": "move", "seconds": 1, "timeouts": 1}}
    table = http.post(server + "/api/tables", json=body, timeout=30).json()
    seat = http.post(f"{server}/api/tables/{table['id']}/seats/0", json={"name": "Dara"},
                      timeout=30).json()
    p = Player(browser, server)
    try:
        held = json.dumps({"seat": 0, "token": seat["token"]})
        p.context.add_init_script(
            f"localStorage.setItem('cardtable:seat:{table['id']}', {json.dumps(held)})")
        page = p.page
        page.goto(f"{server}/t/{table['id']}")
        # the timeout, then the takeover at a human pace: the page says so, for us
        page.wait_for_selector(".seat.me .bot-plays", timeout=15000)
        assert page.locator(".seat.me .bot-plays").inner_text() == "(a bot plays for you)"
        assert page.locator("#clock-back").count() == 1
        p.shot(shots, "takeover-for-you-en")
        wait_until(lambda: http.get(f"{server}/api/tables/{table['id']}", timeout=30)
                   .json()["status"] == "over", 30, "the game's end")
        wait_until(lambda: page.locator(".bot-plays").count() == 0, 10, "no takeover mark")
        assert page.locator("#clock-back").count() == 0
        assert page.locator(".timed-out").count() == 0
    finally:
        p.close()
