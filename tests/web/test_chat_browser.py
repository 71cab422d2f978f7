"""The chat box in a real browser (Debian's chromium) against a real ``cardtable serve``:
two players (one on a desktop in English, one on a phone in Khmer) and a spectator; HTML
in a line shows as text, presets are translated, the spectators' chat can be hidden, a
muted player's lines do not show, and a spectator never sees the players' lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.test_browser import PHONE, Player, wait_until

pytestmark = pytest.mark.slow

HTML = '<img src=x onerror="window.__xss=1"><b>bold?</b>'


def lines(p: Player) -> list[str]:
    return list(p.page.eval_on_selector_all(
        "#chat-lines li.chat-line .chat-text", "els => els.map(e => e.textContent)"))


def wait_line(p: Player, text: str) -> None:
    wait_until(lambda: text in lines(p), seconds=20, what=f"the chat line {text!r}")


def say(p: Player, text: str) -> None:
    p.page.fill("#chat-input", text)
    p.page.click("#chat-send")


def test_the_chat_box_in_english_and_khmer_on_a_desktop_and_a_phone(
        browser: Any, server: str, shots: Path) -> None:
    a = Player(browser, server)
    table = a.create("sequence", ["person", "person"], name="Dara")
    b = Player(browser, server, viewport=PHONE, locale="km-KH")
    b.page.goto(f"{server}/t/{table}?seat=1")
    b.page.fill("#join-name", "Sokha")
    b.page.click("#join-button")
    b.page.wait_for_selector("#hand button.card")
    watcher = Player(browser, server, viewport=PHONE)
    watcher.page.goto(f"{server}/t/{table}")
    watcher.wait_view()

    # HTML is text: the line reads as typed, and no element of it is in the page
    say(a, HTML)
    wait_line(b, HTML)
    wait_line(a, HTML)
    for p in (a, b):
        assert p.page.locator("#chat-lines img, #chat-lines b").count() == 0
        assert p.page.evaluate("window.__xss") is None
    # presets and emotes: ids the server knows, words in each page's language
    b.page.select_option("#chat-preset", "good-game")
    wait_line(a, "Good game!")
    wait_line(b, "ល្បែងល្អណាស់!")
    b.page.click('button.emote[data-preset="thumbs-up"]')
    wait_line(a, "👍")
    say(b, "សូមសំណាងល្អ")
    wait_line(a, "សូមសំណាងល្អ")

    # the spectator: none of the players' lines, its own channel read by all
    assert lines(watcher) == []
    say(watcher, "from the rail")
    wait_line(watcher, "from the rail")
    wait_line(a, "from the rail")
    wait_line(b, "from the rail")
    assert lines(watcher) == ["from the rail"]
    b.page.check("#chat-hide-spectators")        # kept in the browser
    assert "from the rail" not in lines(b)
    b.page.reload()
    b.page.wait_for_selector("#hand button.card")
    wait_line(b, "សូមសំណាងល្អ")                   # the welcome's lines
    assert "from the rail" not in lines(b) and b.page.is_checked("#chat-hide-spectators")

    # Dara mutes Sokha: Sokha's next line does not show on Dara's page
    a.page.click('#chat-mutes button[data-mute="1"]')
    a.page.wait_for_selector('#chat-mutes button[data-mute="1"][aria-pressed="true"]')
    say(b, "muted line")
    wait_line(b, "muted line")
    say(watcher, "after the mute")
    wait_line(a, "after the mute")
    assert "muted line" not in lines(a)

    a.page.locator("#chat").scroll_into_view_if_needed()
    a.shot(shots, "chat-desktop")
    b.page.uncheck("#chat-hide-spectators")
    wait_line(b, "after the mute")
    b.page.locator("#chat").scroll_into_view_if_needed()
    b.shot(shots, "chat-khmer-phone")
    # the chat box fits the phone's width
    width = b.page.evaluate("document.querySelector('#chat').getBoundingClientRect().right")
    assert width <= PHONE["width"]
    for p in (a, b, watcher):
        p.close()
