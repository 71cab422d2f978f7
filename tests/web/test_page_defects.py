"""Defects of the web page a new user met, each checked in a real browser (Debian's chromium)
against a real ``cardtable serve``: the name box's limit, cut-off placeholders, an address
with nothing at it, and invites that cannot seat their reader.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import DESKTOP, PHONE, Player, wait_until

pytestmark = pytest.mark.slow

SYLLABLE = "ស្រី"   # four code points: ស, the coeng (subscript sign), រ, the vowel ី


def test_the_name_box_counts_what_the_server_counts(browser: Any, server: str) -> None:
    p = Player(browser, server, locale="km-KH")
    p.page.goto(server + "/")
    p.page.wait_for_selector("#player-name")
    fit = p.page.evaluate("""async () => {
      const { fitName } = await import('/static/js/dom.js');
      return [fitName('a'.repeat(40)), fitName('  a   b  '), fitName('a'.repeat(30) + '👨‍👩‍👧'),
              fitName('ក' + 'ស្រី'.repeat(10))];
    }""")
    assert fit == ["a" * 32, "  a   b  ", "a" * 30, "ក" + SYLLABLE * 7]
    # 41 code points typed: cut at 29, before a whole syllable, not inside one (ស្ | រី)
    p.page.fill("#player-name", "ក" + SYLLABLE * 10)
    assert p.page.input_value("#player-name") == "ក" + SYLLABLE * 7
    # 32 code points (a maxlength of 24 UTF-16 units cut this): the server takes them all
    name = SYLLABLE * 8
    p.page.fill("#player-name", name)
    assert p.page.input_value("#player-name") == name
    table = p.create("sequence", ["person", "bot:random"], name=name)
    seats = p.page.request.get(f"{server}/api/tables/{table}").json()["seats"]
    assert seats[0]["name"] == name
    p.close()
    # the box of an invite's "take this seat" form counts the same way
    host = Player(browser, server)
    table = host.create("sequence", ["person", "person"])
    guest = Player(browser, server)
    guest.page.goto(f"{server}/t/{table}?seat=1")
    guest.page.fill("#join-name", "ក" + SYLLABLE * 10)
    assert guest.page.input_value("#join-name") == "ក" + SYLLABLE * 7
    host.close()
    guest.close()


# for each box with a placeholder: [placeholder, its width, the room inside the box]
PLACEHOLDERS = """() => [...document.querySelectorAll('input[placeholder]')]
  .filter((el) => el.getClientRects().length).map((el) => {
    const style = getComputedStyle(el);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = style.font;
    const spin = el.type === 'number' ? 16 : 0;   // the number box's arrows
    return [el.placeholder, ctx.measureText(el.placeholder).width,
            el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - spin];
  })"""


def cut_placeholders(p: Player) -> list[tuple[str, float, float]]:
    p.page.evaluate("document.fonts.ready.then(() => true)")
    return [(text, round(width), round(room)) for text, width, room
            in p.page.evaluate(PLACEHOLDERS) if width > room + 1]   # 1 px: rounding


@pytest.mark.parametrize("locale", ["en-US", "km-KH"])
def test_placeholders_are_not_cut_off(browser: Any, server: str, shots: Path,
                                      locale: str) -> None:
    for viewport in (DESKTOP, PHONE):
        p = Player(browser, server, viewport=viewport, locale=locale)
        p.page.goto(server + "/")
        p.page.wait_for_selector("#create-table")
        p.page.click("#create details summary")
        seen = [text for text, _w, _r in p.page.evaluate(PLACEHOLDERS)]
        assert len(seen) >= 3   # the name, the turn limit ("automatic"), the takeover delay
        assert cut_placeholders(p) == []
        p.create("sequence", ["person", "bot:random"])
        p.page.wait_for_selector("#move-input")
        assert p.page.get_attribute("#move-input", "placeholder")
        assert cut_placeholders(p) == []
        width = p.page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"]
        p.shot(shots, f"placeholders-{locale}-{viewport['width']}")
        p.close()


@pytest.mark.parametrize("address", ["/nosuchpage", "/t/a/b", "/rules/x/y"])
def test_an_address_with_nothing_at_it_shows_a_page(browser: Any, server: str,
                                                    address: str) -> None:
    p = Player(browser, server)
    response = p.page.goto(server + address)
    assert response is not None and response.status == 404
    assert "text/html" in response.headers["content-type"]
    p.page.wait_for_selector("#not-found h1")
    assert p.page.inner_text("#not-found h1") == "No such page"
    assert address in p.page.inner_text("#not-found")
    p.page.click("#not-found a")
    p.page.wait_for_selector("#create-table")
    # the API keeps its JSON errors
    api = p.page.request.get(server + "/api/nosuch", headers={"Accept": "text/html"})
    assert api.status == 404 and api.json()["error"]["code"] == "http/not-found"
    p.close()


def test_the_khmer_page_says_there_is_no_such_page(browser: Any, server: str,
                                                   shots: Path) -> None:
    p = Player(browser, server, locale="km-KH")
    p.page.goto(server + "/nosuchpage")
    p.page.wait_for_selector("#not-found h1")
    catalog = json.loads(p.page.request.get(server + "/static/i18n/km.json").text())
    assert p.page.inner_text("#not-found h1") == catalog["No such page"]
    p.shot(shots, "not-found-khmer")
    p.close()


def finished_table(server: str, p: Player) -> str:
    """A Sequence table of two bots that ends (a draw) after one turn."""
    made = p.page.request.post(server + "/api/tables", data={
        "game": "sequence", "options": {"max_turns": 1},
        "seats": [{"kind": "bot", "bot": "random", "settings": {}}] * 2})
    assert made.ok, made.text()
    table = str(made.json()["id"])
    wait_until(lambda: p.page.request.get(f"{server}/api/tables/{table}").json()["status"]
               == "over", seconds=30, what="the bots' game to end")
    return table


def test_an_invite_that_cannot_seat_says_why(browser: Any, server: str, shots: Path) -> None:
    host = Player(browser, server)
    table = host.create("sequence", ["person", "bot:random"])
    guest = Player(browser, server)
    for seat, says in [("99", "names no seat of this table (seat=99)"),
                       ("abc", "names no seat of this table (seat=abc)"),
                       ("1", "Seat 2 is played by a bot"),
                       ("0", "Seat 1 is already taken")]:
        guest.page.goto(f"{server}/t/{table}?seat={seat}")
        guest.wait_view()
        notice = guest.page.inner_text("#invite-notice")
        assert says in notice and "you are watching" in notice, (seat, notice)
        assert guest.page.locator("#join").count() == 0
        assert guest.page.locator(".seat.me").count() == 0
    guest.shot(shots, "invite-bad-seat")
    over = finished_table(server, guest)
    guest.page.goto(f"{server}/t/{over}?seat=0")
    guest.wait_view()
    assert "This game is over" in guest.page.inner_text("#invite-notice")
    time.sleep(0.2)   # the view has arrived: the notice stays
    assert guest.page.locator("#invite-notice").count() == 1
    guest.shot(shots, "invite-finished-table")
    host.close()
    guest.close()
