"""A table that feels alive, in a real browser (Debian's chromium) against a real
``cardtable serve``: the turn alert (sound, tab title and icon), the settings kept in the
browser, and a page that says plainly when the server cannot be reached.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardtable.web import STATIC_DIR
from cardtable.web.sound import turn_sound
from tests.web.test_browser import Player, sequence_move, wait_until

pytestmark = pytest.mark.slow

# every play() of an audio element counted (headless chromium has no speakers to listen to)
COUNT_PLAYS = """
window.__plays = [];
HTMLMediaElement.prototype.play = function () {
  window.__plays.push(this.src);
  return Promise.resolve();
};
"""


def plays(p: Player) -> list[str]:
    return list(p.page.evaluate("window.__plays"))


def two_players(browser: Any, server: str) -> tuple[Player, Player, str]:
    a = Player(browser, server)
    b = Player(browser, server)
    for p in (a, b):
        p.context.add_init_script(COUNT_PLAYS)
    table = a.create("sequence", ["person", "person"], name="Dara")
    b.page.goto(f"{server}/t/{table}?seat=1")
    b.page.fill("#join-name", "Sokha")
    b.page.click("#join-button")
    b.page.wait_for_selector("#hand button.card")
    wait_until(lambda: a.my_turn, what="the first player's turn")
    return a, b, table


def test_the_shipped_sound_is_the_generated_one() -> None:
    shipped = (STATIC_DIR / "sounds" / "turn.wav").read_bytes()
    assert shipped == turn_sound(), "run: python -m cardtable.web.sound"
    assert shipped[:4] == b"RIFF" and len(shipped) < 8000


def test_the_turn_alert_fires_when_the_other_browser_moves(browser: Any, server: str,
                                                            shots: Path) -> None:
    a, b, _table = two_players(browser, server)
    assert a.page.title().startswith("● ")
    assert a.page.get_attribute("#favicon", "data-turn") == "yes"
    assert not b.page.title().startswith("● ")
    assert b.page.get_attribute("#favicon", "data-turn") == "no"
    assert plays(b) == []
    sequence_move(a)
    wait_until(lambda: b.my_turn, what="the second player's turn")
    b.page.wait_for_function("window.__plays.length === 1")
    assert plays(b)[0].endswith("/static/sounds/turn.wav")
    assert b.page.title().startswith("● ")
    assert b.page.get_attribute("#favicon", "data-turn") == "yes"
    assert not a.page.title().startswith("● ")
    assert plays(a) == []   # the mover's own move is no alert
    # sound off in the settings: the next turn is still marked in the tab, but silent
    a.page.click("#settings summary")
    a.page.uncheck("#setting-sound")
    a.shot(shots, "settings")
    sequence_move(b)
    wait_until(lambda: a.my_turn, what="the first player's turn again")
    assert a.page.title().startswith("● ")
    assert plays(a) == []
    # the setting is kept in the browser: after a reload it is still off
    a.page.reload()
    a.wait_view()
    a.page.click("#settings summary")
    assert not a.page.is_checked("#setting-sound")
    assert a.page.is_checked("#setting-animation")
    assert not a.page.is_checked("#setting-notifications")
    a.close()
    b.close()


def test_a_page_without_the_server_says_so(browser: Any, server: str, shots: Path) -> None:
    a, b, _table = two_players(browser, server)
    assert a.page.locator(".seat .dot.on").count() == 2
    # the network goes: the socket closes and no reconnection gets through
    a.context.set_offline(True)
    a.page.evaluate("window.cardtable.table.socket.close()")
    a.page.wait_for_selector("#turn.offline")
    text = a.page.inner_text("#turn")
    assert "Your turn" not in text and "Not connected" in text
    assert a.page.locator(".seat .dot.on").count() == 0
    assert a.page.locator(".seat .dot.unknown").count() == 2
    assert not a.page.title().startswith("● ")
    a.shot(shots, "offline")
    # it comes back by itself, and the banner is the turn again
    a.context.set_offline(False)
    a.page.wait_for_selector("#turn.mine", timeout=30000)
    assert a.page.locator(".seat .dot.on").count() == 2
    a.close()
    b.close()
